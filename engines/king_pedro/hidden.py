"""What a seat cannot see in King Pedro, and a state redealt over it (the ``determinize`` hook).

Hidden from a seat: the other hands, the others' face-down discards and folded cards, and the stock.
What the public play reveals, and is honoured here:

- face-down discards and folded cards are never trumps (trumps are discarded face up; a player
  folds by passing their trumps on, or for holding none);
- a player who discarded a trump face up held more than 6 trumps: their hand is all trumps;
- in any trick of the round, a player who did not follow a trump lead holds no trump, and one who
  played a trump on a non-trump lead holds only trumps (the state records both as they happen,
  ``no_trump`` and ``only_trump``: hands only shrink while tricks are played, so they hold all round);
- every player still in holds a trump until they have played to the first trick (they would have
  folded otherwise), and the player deciding whether to pass trumps holds one or two.

Which trumps a player passed to their partner only the two of them know; the passer has folded and
makes no more decisions this round, and the partner holds them, so no determinization needs it.
Not honoured: the number of trumps passed (public) as a floor on the partner's trumps, less those
they have since played.
"""

from __future__ import annotations

import random

from engines.hidden import blend, by_places, pairwise, reseed
from engines.king_pedro.round import State
from engines.king_pedro.rules import _TRUMPS, TRICKS, N, _sorted, places, score_round

#: Redeals tried before giving up on the count constraints (a real state always satisfies them,
#: and about one redeal in three does).
_TRIES = 300


def _voids(s: State, trumps: frozenset[str]) -> tuple[set[int], set[int]]:
    no_trump = {p for p, v in enumerate(s.no_trump) if v}
    only_trump = {p for p, v in enumerate(s.only_trump) if v}
    for trick in (s.trick, s.last_trick):
        if not trick:
            continue
        led_trump = trick[0][1] in trumps
        for p, c in trick[1:]:
            if led_trump and c not in trumps:
                no_trump.add(p)
            elif not led_trump and c in trumps:
                only_trump.add(p)
    for p, c in s.faceup:
        if c in trumps:
            only_trump.add(p)
    return no_trump, only_trump


def determinize(state: State, seat: int, rng: random.Random) -> State:
    s = state.clone()
    trumps = _TRUMPS[s.trump] if s.trump else frozenset()
    others = [p for p in range(N) if p != seat]
    no_trump, only_trump = _voids(s, trumps)
    # Places as (kind, seat, size, allowed): "T" trumps only, "P" non-trumps only, "*" any.
    places_: list[tuple[str, int, int, str]] = []
    for p in others:
        allowed = "P" if p in no_trump else "T" if p in only_trump else "*"
        places_.append(("hand", p, len(s.hands[p]), allowed))
        places_.append(("facedown", p, len(s.facedown[p]), "P"))
        places_.append(("folded", p, len(s.folded_cards[p]), "P"))
    places_.append(("stock", -1, len(s.stock), "*"))
    pool: list[str] = list(s.stock)
    for p in others:
        pool += s.hands[p]
        pool += s.facedown[p]
        pool += s.folded_cards[p]
    pool.sort()
    pool_t = [c for c in pool if c in trumps]
    pool_p = [c for c in pool if c not in trumps]
    # Count constraints on the trumps in a hand: (seat, least, most).
    bounds: list[tuple[int, int, int]] = []
    if s.phase == "passing" and s.turn in others:
        bounds.append((s.turn, 1, 2))
    if s.phase == "discarding" or (s.phase == "playing" and s.trick_no == 0):
        played = {p for p, _ in s.trick}
        bounds += [(p, 1, 99) for p in others if not s.folded[p] and p not in played]
    deal: dict[tuple[str, int], list[str]] = {}
    for _ in range(_TRIES):
        t, pl = pool_t[:], pool_p[:]
        rng.shuffle(t)
        rng.shuffle(pl)
        deal = {}
        for kind, p, size, allowed in places_:
            if allowed == "T":
                deal[kind, p], t = t[:size], t[size:]
            elif allowed == "P":
                deal[kind, p], pl = pl[:size], pl[size:]
        rest = sorted(t + pl)
        rng.shuffle(rest)
        for kind, p, size, allowed in places_:
            if allowed == "*":
                deal[kind, p], rest = rest[:size], rest[size:]
        if all(lo <= sum(1 for c in deal["hand", p] if c in trumps) <= hi for p, lo, hi in bounds):
            break
    hands, facedown, folded = list(s.hands), list(s.facedown), list(s.folded_cards)
    for p in others:
        hands[p] = _sorted(deal["hand", p], s.trump)
        facedown[p] = tuple(deal["facedown", p])
        folded[p] = tuple(deal["folded", p])
    s.hands, s.facedown, s.folded_cards = tuple(hands), tuple(facedown), tuple(folded)
    s.stock = tuple(deal["stock", -1])
    s.rng = reseed(rng)
    return s


def evaluate(s: State) -> list[float]:
    """Per seat in [0, 1], partners alike: the partnership's score, with this round's tricks so far
    counted at the share of the round they stand for."""
    a, b = s.scores
    if s.phase == "playing" and s.trick_no and s.bidder >= 0:
        share = s.trick_no / TRICKS
        da, db = score_round(s.bid, s.bidder % 2, s.team_pts)
        a, b = a + share * da, b + share * db
    team = pairwise([a, b], 60.0)
    margin = [team[p % 2] for p in range(N)]
    if s.phase == "over":
        return blend(by_places(places(s.winner)), margin)
    return margin
