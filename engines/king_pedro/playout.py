"""Fast random King Pedro games, for ``engines.simulate`` and the playout benchmark.

A random game through the contract (``RandomBot`` in every seat) almost
always runs to the round limit, because uniformly random bidders bid high and
are set: about 100 rounds and 5,800 moves. Through ``apply`` every move pays
for a copy of the state, a legality check and its event texts; a playout
needs none of them.

``random_playout`` plays the same game in plain lists, move for move: it
shuffles with the same generator as ``new_game`` and ``round._deal``, takes
its choices from the same rule helpers
(``legal_discards``, ``legal_plays``, ``trick_winner``, ``score_round``) in
the same order as ``legal_actions`` lists them, and draws from its generator
exactly as ``RandomBot.choose`` does (``bots.bot_draws``), with the
bot moving the first seat of ``to_act`` each time, as ``engines.simulate``
and ``bench.playouts`` drive it. ``tests/engines/test_king_pedro_playout.py``
checks over many seeds that both paths make identical moves and end with
identical scores. Any change to the round's flow in ``round`` must be made
here too; that test is what catches a miss.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.editions import king_pedro as edition
from engines.bots import bot_draws
from engines.contract import Options, check_options
from engines.king_pedro.rules import (
    _BIDS,
    _POINTS,
    _TRUMPS,
    DEFAULT_OPTIONS,
    HAND,
    MIN_BID,
    SUITS,
    TITLE,
    TRICKS,
    N,
    _sorted,
    legal_discards,
    legal_plays,
    places,
    score_round,
    trick_winner,
)
from engines.rng import Rng, seed_state

Move = tuple[int, str]
_PACKETS = edition.FIRST_DEAL // edition.DEAL_PACKET
DECK = edition.DECK


@dataclass(frozen=True)
class _OptionTable:
    """What ``check_options`` reads of an engine: the playout checks options without importing the engine."""

    title: str
    default_options: Options


_TABLE = _OptionTable(TITLE, DEFAULT_OPTIONS)


@dataclass(frozen=True)
class PlayoutResult:
    scores: tuple[int, int]
    #: 0 or 1 for a partnership (seats 0 & 2, seats 1 & 3), 2 for a shared win at the round limit.
    winner: int
    rounds: int
    moves: int
    #: The game ended at ``max_rounds`` (more points wins) rather than on a made bid at the target.
    at_round_limit: bool

    @property
    def places(self) -> list[int]:
        """Placings by seat, as ``KingPedroEngine.outcome`` gives them."""
        return places(self.winner)


def random_playout(seed: int, options: Options | None = None, bot_seed: int | None = None,
                   moves: list[Move] | None = None) -> PlayoutResult:
    """Play ``new_game(4, seed, options)`` to the end with ``RandomBot(bot_seed)`` in every seat.

    ``bot_seed`` defaults to ``seed``. When ``moves`` is a list, every move is
    appended to it as ``(seat, action)``, exactly as the contract path would
    have applied it.
    """
    opts = check_options(_TABLE, options)  # type: ignore[arg-type]
    target, max_rounds = opts["target"], opts["max_rounds"]
    # The same draws as new_game and round._deal: the first dealer, then one shuffle per deal.
    deal_rng = Rng(seed_state(seed))
    dealer = deal_rng.below(N)
    below = bot_draws(seed if bot_seed is None else bot_seed)  # RandomBot's own draws
    record = moves.append if moves is not None else None
    scores = [0, 0]
    round_no, made_moves = 1, 0
    while True:
        deck = list(DECK)
        deal_rng.shuffle(deck)

        # -- the auction from the dealer's left; four passes mean the same dealer deals again.
        # Random bidders never look at their cards, so the hands are only laid out once trump is named.
        turn = (dealer + 1) % N
        bid, bidder, out, passed = 0, -1, [False] * N, 0
        while True:
            first = max(0, bid + 1 - MIN_BID)  # legal_actions: the higher bids, then "pass"
            pick = first + below(len(_BIDS) - first + 1)
            made_moves += 1
            if pick < len(_BIDS):
                bid, bidder = MIN_BID + pick, turn
                if record:
                    record((turn, _BIDS[pick]))
            else:
                out[turn] = True
                passed += 1
                if record:
                    record((turn, "pass"))
            if passed == N or (passed == N - 1 and bid):
                break
            turn = (turn + 1) % N
            while out[turn]:
                turn = (turn + 1) % N
        if passed == N:
            continue

        # -- trump; 9 each in threes, then 4 each, both from the dealer's left
        trump = SUITS[below(len(SUITS))]
        made_moves += 1
        if record:
            record((bidder, "trump:" + trump))
        hands: list[list[str]] = [[] for _ in range(N)]
        for packet in range(_PACKETS):
            for k in range(N):
                at = (packet * N + k) * edition.DEAL_PACKET
                hands[(dealer + 1 + k) % N] += deck[at:at + edition.DEAL_PACKET]
        for k in range(N):
            at = N * edition.FIRST_DEAL + k * edition.SECOND_DEAL
            hands[(dealer + 1 + k) % N] += deck[at:at + edition.SECOND_DEAL]
        hands = [list(_sorted(h, trump)) for h in hands]
        trumps = _TRUMPS[trump]

        # -- passing trumps to a partner, in turn order from the bidder; then folding
        received, folded = [False] * N, [False] * N
        for k in range(N):
            p = (bidder + k) % N
            if received[p] or folded[p] or not 1 <= sum(c in trumps for c in hands[p]) <= 2:
                continue
            give = below(2) == 0  # legal_actions: ["pass_trumps", "keep"]
            made_moves += 1
            if record:
                record((p, "pass_trumps" if give else "keep"))
            if give:
                partner = (p + 2) % N
                hands[partner] = list(_sorted(hands[partner] + [c for c in hands[p] if c in trumps], trump))
                hands[p] = []
                received[partner] = folded[p] = True
        for p in range(N):
            if not folded[p] and not any(c in trumps for c in hands[p]):
                folded[p] = True
                hands[p] = []

        # -- reducing to 6: RandomBot moves the lowest seat still reducing, so seats go in order
        for p in range(N):
            if folded[p]:
                continue
            hand = hands[p]
            while len(hand) > HAND:
                pool = legal_discards(hand, trump)
                if not any(c in trumps for c in pool):
                    # Only non-trumps may go, and what is left of them stays the whole choice down to 6
                    # cards, in hand order: draw every discard from the pool without asking again.
                    surplus = len(hand) - HAND
                    for _ in range(surplus):
                        card = pool.pop(below(len(pool)))
                        hand.remove(card)
                        if record:
                            record((p, "discard:" + card))
                    made_moves += surplus
                    break
                card = pool[below(len(pool))]
                hand.remove(card)
                made_moves += 1
                if record:
                    record((p, "discard:" + card))
            below(1)  # RandomBot draws even when "done" is its only choice
            made_moves += 1
            if record:
                record((p, "done"))

        # -- six tricks; the bidder (or the next player still in) leads a trump first
        active = [p for p in range(N) if not folded[p]]
        leader = bidder if not folded[bidder] else next(p for p in
                                                        ((bidder + k) % N for k in range(1, N)) if not folded[p])
        points, two = _POINTS[trump], "2" + trump
        team_points = [0, 0]
        for trick_no in range(TRICKS):
            start = active.index(leader)
            trick: list[str] = []
            order = active[start:] + active[:start]
            for p in order:
                cards = legal_plays(hands[p], trick[0] if trick else None, trump, trick_no == 0)
                card = cards[below(len(cards))]
                hands[p].remove(card)
                trick.append(card)
                made_moves += 1
                if record:
                    record((p, "play:" + card))
            winner_seat = order[trick_winner(trick, trump)]
            for p, card in zip(order, trick, strict=True):
                # The 2 of trump scores for whoever played it; every other point goes to the trick's winner.
                team_points[(p if card == two else winner_seat) % 2] += points.get(card, 0)
            leader = winner_seat

        # -- the score, and the end of the game
        bidding_team = bidder % 2
        deltas = score_round(bid, bidding_team, team_points)
        scores[0] += deltas[0]
        scores[1] += deltas[1]
        if team_points[bidding_team] >= bid and scores[bidding_team] >= target:
            return PlayoutResult((scores[0], scores[1]), bidding_team, round_no, made_moves, False)
        if round_no >= max_rounds:
            winner = 2 if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
            return PlayoutResult((scores[0], scores[1]), winner, round_no, made_moves, True)
        round_no += 1
        dealer = (dealer + 1) % N
