"""King Pedro game state and the steps of a round: deal, passing and folding, tricks, scoring."""

from __future__ import annotations

from typing import Any

from data.editions import king_pedro as edition
from engines.king_pedro.rules import (
    _POINTS,
    _TRUMPS,
    SYM,
    TRICKS,
    N,
    _sorted,
    _team_label,
    pretty,
    score_round,
    trick_winner,
)
from engines.rng import Rng
from i18n import msg, said, said_n

DECK = edition.DECK
DUMP_VERSION = 1


class State:
    """Game state; all containers are tuples (or dicts never mutated after creation)."""

    def clone(self) -> State:
        new = object.__new__(State)
        new.__dict__.update(self.__dict__)
        return new


def _set(tup: tuple, i: int, value: Any) -> tuple:
    return (*tup[:i], value, *tup[i + 1:])


def _deal(s: State, events: list[str]) -> None:
    """Shuffle and deal 9 each in threes from the dealer's left; reset the round."""
    rng = Rng(s.rng)
    deck = list(DECK)
    rng.shuffle(deck)
    s.rng = rng.state
    hands: list[list[str]] = [[], [], [], []]
    i = 0
    for _ in range(edition.FIRST_DEAL // edition.DEAL_PACKET):
        for k in range(1, N + 1):
            hands[(s.dealer + k) % N].extend(deck[i:i + edition.DEAL_PACKET])
            i += edition.DEAL_PACKET
    s.hands = tuple(_sorted(h, "") for h in hands)
    s.stock = tuple(deck[i:])
    s.phase = "bidding"
    s.bid, s.bidder = 0, -1
    s.auction = ()
    s.out = (False,) * N
    s.turn = (s.dealer + 1) % N
    s.trump = ""
    s.pass_idx = 0
    s.received = (False,) * N
    s.folded = (False,) * N
    s.passes = ()
    s.folded_cards = ((),) * N
    s.faceup = ()
    s.facedown = ((),) * N
    s.done = (False,) * N
    s.trick = ()
    s.trick_no = 0
    s.won = ((), ())
    s.team_pts = (0, 0)
    s.tricks_won = (0, 0)
    s.last_trick = ()
    s.last_winner = -1
    s.no_trump = (False,) * N
    s.only_trump = (False,) * N
    events.append(said("Round {round}: {dealer} deals 9 cards each; {player} opens the bidding.", round=s.round,
                       dealer=f"{{p{s.dealer}}}", player=f"{{p{s.turn}}}"))


# ---------------------------------------------------------------- the moves, applied in place
# Each takes an already-legal move and changes ``s`` in place: ``KingPedroEngine.apply`` checks the move
# against ``legal_actions`` and hands these functions a copy, so the state it was given never changes.

def bid(s: State, seat: int, amount: int, events: list[str]) -> None:
    """``seat`` bids ``amount``, or passes for good when ``amount`` is 0."""
    if amount:
        s.bid, s.bidder = amount, seat
    else:
        s.out = _set(s.out, seat, True)
    s.auction = (*s.auction, (seat, amount))
    passed = sum(s.out)
    if passed == N:
        events.append(said("All four players passed: {dealer} collects, shuffles and deals again.",
                           dealer=f"{{p{s.dealer}}}"))
        _deal(s, events)
    elif passed == N - 1 and s.bid:
        s.phase = "trump"
        s.turn = s.bidder
        events.append(said("{player} wins the auction with {bid} and names trump.", player=f"{{p{s.bidder}}}",
                           bid=s.bid))
    else:
        p = seat
        for _ in range(N):
            p = (p + 1) % N
            if not s.out[p]:
                break
        s.turn = p


def name_trump(s: State, suit: str, events: list[str]) -> None:
    """The bidder names trump; the second deal of 4 each follows, then passing trumps."""
    s.trump = suit
    hands = [list(h) for h in s.hands]
    i = 0
    for k in range(1, N + 1):
        hands[(s.dealer + k) % N].extend(s.stock[i:i + edition.SECOND_DEAL])
        i += edition.SECOND_DEAL
    s.stock = ()
    s.hands = tuple(_sorted(h, suit) for h in hands)
    s.phase = "passing"
    s.pass_idx = 0
    other = edition.SAME_COLOUR[suit]
    events.append(said("Trump is {suit} {sign}, with the five of {other} as the other five. {dealer} deals 4 more "
                       "cards each.", suit=msg(edition.SUIT_NAMES[suit]), sign=SYM[suit],
                       other=msg(edition.SUIT_NAMES[other]), dealer=f"{{p{s.dealer}}}"))
    _advance_passing(s, events)


def decide_trumps(s: State, seat: int, give: bool, events: list[str]) -> None:
    """A player with one or two trumps gives them all to their partner and folds, or keeps them."""
    if give:
        partner = (seat + 2) % N
        trumps = _TRUMPS[s.trump]
        hand = s.hands[seat]
        given = tuple(c for c in hand if c in trumps)
        s.hands = _set(s.hands, partner, _sorted(s.hands[partner] + given, s.trump))
        s.hands = _set(s.hands, seat, ())
        s.received = _set(s.received, partner, True)
        s.folded = _set(s.folded, seat, True)
        s.folded_cards = _set(s.folded_cards, seat, tuple(c for c in hand if c not in trumps))
        s.passes = (*s.passes, (seat, partner, len(given)))
        events.append(said_n("{player} passes {n} trump to {partner} and folds.",
                             "{player} passes {n} trumps to {partner} and folds.", len(given),
                             player=f"{{p{seat}}}", partner=f"{{p{partner}}}"))
    s.pass_idx += 1
    _advance_passing(s, events)


def discard(s: State, seat: int, card: str) -> None:
    """One card out while reducing to 6: a trump face up, anything else face down."""
    hand = s.hands[seat]
    i = hand.index(card)
    s.hands = _set(s.hands, seat, hand[:i] + hand[i + 1:])
    if card in _TRUMPS[s.trump]:
        s.faceup = (*s.faceup, (seat, card))
    else:
        s.facedown = _set(s.facedown, seat, s.facedown[seat] + (card,))


def finish_discarding(s: State, seat: int, events: list[str]) -> None:
    """``seat`` keeps its 6; when every player still in is done, play begins."""
    s.done = _set(s.done, seat, True)
    if all(s.done[p] or s.folded[p] for p in range(N)):
        _start_play(s, events)


def play(s: State, seat: int, card: str, events: list[str]) -> None:
    """``seat`` plays ``card`` to the trick; the last card of a trick settles it."""
    hand = s.hands[seat]
    i = hand.index(card)
    s.hands = _set(s.hands, seat, hand[:i] + hand[i + 1:])
    if s.trick:
        # What everyone learns (hands only shrink while tricks are played, so it holds all round):
        # not following a trump lead shows no trump left; trumping a plain lead shows only trumps.
        trumps = _TRUMPS[s.trump]
        led_trump = s.trick[0][1] in trumps
        if led_trump and card not in trumps:
            s.no_trump = _set(s.no_trump, seat, True)
        elif not led_trump and card in trumps:
            s.only_trump = _set(s.only_trump, seat, True)
    s.trick = (*s.trick, (seat, card))
    if len(s.trick) == N - sum(s.folded):
        _finish_trick(s, events)
    else:
        s.turn = _next_active(s, seat)


def _next_active(s: State, seat: int) -> int:
    for k in range(1, N + 1):
        p = (seat + k) % N
        if not s.folded[p]:
            return p
    raise AssertionError("no active player")  # pragma: no cover - every round keeps a trump holder


def _ntrumps(hand: tuple[str, ...], trump: str) -> int:
    trumps = _TRUMPS[trump]
    return sum(1 for c in hand if c in trumps)


def _advance_passing(s: State, events: list[str]) -> None:
    """Find the next player (in turn order from the bidder) who may pass trumps; else fold and start discarding."""
    while s.pass_idx < N:
        p = (s.bidder + s.pass_idx) % N
        if not s.received[p] and not s.folded[p] and 1 <= _ntrumps(s.hands[p], s.trump) <= 2:
            s.turn = p
            return
        s.pass_idx += 1
    for p in range(N):
        if not s.folded[p] and _ntrumps(s.hands[p], s.trump) == 0:
            s.folded = _set(s.folded, p, True)
            s.folded_cards = _set(s.folded_cards, p, s.hands[p])
            s.hands = _set(s.hands, p, ())
            events.append(said("{player} has no trumps and folds.", player=f"{{p{p}}}"))
    s.phase = "discarding"
    s.turn = -1
    s.done = (False,) * N


def _start_play(s: State, events: list[str]) -> None:
    s.phase = "playing"
    s.turn = s.bidder if not s.folded[s.bidder] else _next_active(s, s.bidder)
    s.trick = ()
    events.append(said("Everyone holds 6 cards. {player} leads the first trick, which must be a trump.",
                       player=f"{{p{s.turn}}}"))


def _finish_trick(s: State, events: list[str]) -> None:
    cards = [c for _, c in s.trick]
    w = trick_winner(cards, s.trump)
    wseat = s.trick[w][0]
    wteam = wseat % 2
    pts = _POINTS[s.trump]
    two = "2" + s.trump
    gained = [0, 0]
    for seat, c in s.trick:
        if c == two:
            gained[seat % 2] += pts[c]
        else:
            gained[wteam] += pts.get(c, 0)
    s.team_pts = (s.team_pts[0] + gained[0], s.team_pts[1] + gained[1])
    won = list(s.won)
    won[wteam] = won[wteam] + tuple(cards)
    s.won = tuple(won)
    s.tricks_won = _set(s.tricks_won, wteam, s.tricks_won[wteam] + 1)
    s.trick_no += 1
    s.last_trick, s.last_winner = s.trick, wseat
    s.trick = ()
    s.turn = wseat
    events.append(said_n("{player} wins trick {trick} with {card} ({n} point for {team}).",
                         "{player} wins trick {trick} with {card} ({n} points for {team}).", gained[wteam],
                         player=f"{{p{wseat}}}", trick=s.trick_no, card=pretty(cards[w]), team=_team_label(wteam)))
    for seat, c in s.last_trick:
        if c == two and seat % 2 != wteam:
            events.append(said("{player} played the {card}: 1 point for {team}.", player=f"{{p{seat}}}",
                               card=pretty(c), team=_team_label(seat % 2)))
    if s.trick_no == TRICKS:
        _finish_round(s, events)


def _finish_round(s: State, events: list[str]) -> None:
    bt = s.bidder % 2
    deltas = score_round(s.bid, bt, s.team_pts)
    made = s.team_pts[bt] >= s.bid
    faceup_pts = sum(_POINTS[s.trump].get(c, 0) for _, c in s.faceup)
    s.scores = (s.scores[0] + deltas[0], s.scores[1] + deltas[1])
    s.last_round = {
        "round": s.round, "bidder": s.bidder, "bid": s.bid, "trump": s.trump, "bidding_team": bt,
        "points": list(s.team_pts), "faceup_points": faceup_pts, "made": made, "deltas": list(deltas),
        "totals": list(s.scores),
    }
    d = msg("{team} took {points}", team=_team_label(1 - bt), points=s.team_pts[1 - bt])
    if made:
        events.append(said_n("Round {round} over: {team} made their bid of {bid} with {n} point; {others}.",
                             "Round {round} over: {team} made their bid of {bid} with {n} points; {others}.",
                             s.team_pts[bt], round=s.round, team=_team_label(bt), bid=s.bid, others=d))
    else:
        events.append(said_n("Round {round} over: {team} were set: {n} point against a bid of {bid}, so they lose "
                             "{bid}; {others}.",
                             "Round {round} over: {team} were set: {n} points against a bid of {bid}, so they lose "
                             "{bid}; {others}.", s.team_pts[bt], round=s.round, team=_team_label(bt), bid=s.bid,
                             others=d))
    if faceup_pts:
        events.append(said_n("{n} point went to nobody in face-up discards.",
                             "{n} points went to nobody in face-up discards.", faceup_pts))
    events.append(said("Totals: {team} {points}, {other_team} {other_points} (target {target}).",
                       team=_team_label(0), points=s.scores[0], other_team=_team_label(1),
                       other_points=s.scores[1], target=s.target))
    if made and s.scores[bt] >= s.target:
        s.winner = bt
    elif s.round >= s.max_rounds:
        s.winner = 2 if s.scores[0] == s.scores[1] else (0 if s.scores[0] > s.scores[1] else 1)
        events.append(said("The round limit of {rounds} is reached.", rounds=s.max_rounds))
    if s.winner >= 0:
        s.phase = "over"
        s.turn = -1
        if s.winner == 2:
            events.append(said("Game over: a tie at {points} points each; both partnerships share the win.",
                               points=s.scores[0]))
        else:
            events.append(said("Game over: {team} win the game with {points} points!", team=_team_label(s.winner),
                               points=s.scores[s.winner]))
        return
    s.round += 1
    s.dealer = (s.dealer + 1) % N
    _deal(s, events)


_SCALARS = (str, int, bool, float, type(None))


def _plain(v: Any) -> Any:
    cls = v.__class__
    if cls is tuple or cls is list:
        if all(x.__class__ in _SCALARS for x in v):
            return list(v)
        return [_plain(x) for x in v]
    if cls is dict:
        return {k: _plain(x) for k, x in v.items()}
    return v


def _frozen(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return tuple(_frozen(x) for x in v)
    if isinstance(v, dict):
        return {k: _frozen(x) for k, x in v.items()}
    return v
