"""A King Pedro bot player that bids on its cards and plays its trumps with some sense.

Uniformly random bidders bid high on any hand and are set nearly every round,
so a table with random bots almost never reaches the target: games ran to the
100-round limit. Two friends partnered against bots need opponents, and a
partner, who only bid what their hand can carry. This bot stays simple on
purpose: one rule of thumb per decision, always one of ``legal_actions``.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.king_pedro.round import State
from engines.king_pedro.rules import _POINTS, _TRANK, _TRUMPS, MAX_BID, MIN_BID, SUITS, N, legal_plays

Draw = Callable[[int], int]

# The two allowances were tuned by playing bots against each other: with these, four bots make about 40% of
# their bids and finish a default game in about 14 rounds; larger ones made them bid more and be set more.
#: An allowance for what a partner and the second deal add to a bidder's own trump points.
PARTNER_SHARE = 4
#: Each trump held besides its points: more trumps win more tricks and keep the hand in play.
PER_TRUMP = 2


def hand_strength(hand: tuple[str, ...] | list[str], suit: str) -> int:
    """A rough count of the points a partnership might take with ``suit`` as trump, from this hand."""
    trumps = _TRUMPS[suit]
    held = [c for c in hand if c in trumps]
    points = _POINTS[suit]
    rank = _TRANK[suit]
    # The highest trump held is likely to win its trick, and small points are cheap to bring home; a big
    # card under a higher trump in someone else's hand (the K under the A, the 10 under the K) may be
    # captured, so it counts half.
    top = max((rank[c] for c in held), default=0)
    count = 0
    for card in held:
        value = points.get(card, 0)
        count += value if rank[card] == top or value <= 5 else value // 2
    return count + PER_TRUMP * len(held) + PARTNER_SHARE


def best_suit(hand: tuple[str, ...] | list[str]) -> tuple[str, int]:
    strength, suit = max((hand_strength(hand, s), s) for s in SUITS)
    return suit, strength


def choose(state: State, seat: int, actions: list[str], draw: Draw) -> str:
    """One of ``actions`` (the seat's legal actions, never empty) for ``seat``."""
    phase = state.phase
    if phase == "bidding":
        return _bid(state, seat, actions)
    if phase == "trump":
        return "trump:" + best_suit(state.hands[seat])[0]
    if phase == "passing":
        # Give one or two trumps to the partner who won the auction; otherwise keep playing.
        return "pass_trumps" if state.bidder == (seat + 2) % N else "keep"
    if phase == "discarding":
        # Non-trumps never win a trick, so any of them goes as well as another; when trumps must go face
        # up, the legal list already holds only the lowest class of them.
        return actions[draw(len(actions))]
    return "play:" + _card_to_play(state, seat)  # the only phase left with moves


def _bid(state: State, seat: int, actions: list[str]) -> str:
    strength = best_suit(state.hands[seat])[1]
    cap = min(MAX_BID, strength)
    want = max(MIN_BID, state.bid + 1)
    # Outbidding a partner only costs the partnership: let them have it.
    partner_leads = state.bidder == (seat + 2) % N
    if want <= cap and not partner_leads and f"bid:{want}" in actions:
        return f"bid:{want}"
    return "pass"


def _card_to_play(state: State, seat: int) -> str:
    trump = state.trump
    rank, points, trumps = _TRANK[trump], _POINTS[trump], _TRUMPS[trump]
    hand = state.hands[seat]
    led = state.trick[0][1] if state.trick else None
    legal = legal_plays(hand, led, trump, state.trick_no == 0)

    def cheapest(cards: list[str]) -> str:
        # The 2 scores for whoever plays it, so it is never wasted; otherwise give away as few points as possible.
        return min(cards, key=lambda c: (points.get(c, 0) if c != "2" + trump else -1, rank.get(c, 0)))

    if not state.trick:
        # Lead the highest trump to pull the others' trumps; without trumps, lead any non-trump.
        held = [c for c in legal if c in trumps]
        return max(held, key=rank.__getitem__) if held else cheapest(legal)
    best_seat, best_rank = state.trick[0][0], rank.get(state.trick[0][1], 0)
    for p, c in state.trick[1:]:
        if rank.get(c, 0) > best_rank:
            best_seat, best_rank = p, rank[c]
    if best_seat % 2 == seat % 2:
        # The partner holds the trick: add the richest card that cannot be lost, else the cheapest.
        if _plays_last(state):
            return max(legal, key=lambda c: (points.get(c, 0), -rank.get(c, 0)))
        return cheapest(legal)
    winners = [c for c in legal if rank.get(c, 0) > best_rank]
    if winners and _plays_last(state):
        return max(winners, key=lambda c: (points.get(c, 0), -rank[c]))  # nobody can take it back
    if winners:
        # Someone may still overtake: win with the card that risks the fewest points, the lowest of those.
        return min(winners, key=lambda c: (points.get(c, 0), rank[c]))
    return cheapest(legal)


def _plays_last(state: State) -> bool:
    """The seat to play now completes the trick (folded players do not play)."""
    return len(state.trick) + 1 == N - sum(state.folded)
