"""What a seat cannot see in Ogre Cheerleaders, and a state redealt over it (the ``determinize`` hook).

Hidden from a seat: the other hands, the deck's order, and cards in transit that only the acting
seat sees (a 7's or an 8's deck card, a 6's stolen card). Score piles are face down but every card
in them was scored from the face-up field, so a careful player knows them: they stay. So does a card
a 4 took from the field into a hand, until it is played (``known``).
"""

from __future__ import annotations

import random

from engines.hidden import blend, by_places, pairwise, redeal, reseed
from engines.ogre_cheerleaders import flow
from engines.ogre_cheerleaders.state import State


def transit_seen(s: State, seat: int) -> bool:
    """Whether ``seat`` sees the cards in transit (the rule of the view's pending block)."""
    if not s.transit or s.pending is None:
        return True
    kind = s.pending[0]
    if kind == "join" and s.pending[1] == "bench":
        return True
    return seat == s.seat and kind in ("place", "join", "eight")


def _known(s: State, p: int, hide_transit: bool) -> list[str]:
    """The cards ``seat`` knows are in ``p``'s hand. While a 6's stolen card waits to be played, one
    of the victim's cards is in transit: a seat that sees it knows which; one that does not knows
    none of the victim's cards for sure."""
    if s.steal_from == p and s.transit:
        return [] if hide_transit else [c for c in s.known[p] if c not in s.transit]
    return s.known[p]


def determinize(state: State, seat: int, rng: random.Random) -> State:
    s = state.clone()
    others = [p for p in range(s.n) if p != seat]
    hide_transit = not transit_seen(state, seat)
    known = {p: _known(state, p, hide_transit) for p in others}
    pool = list(state.deck)
    for p in others:
        pool += [c for c in state.hands[p] if c not in known[p]]
    if hide_transit:
        pool += state.transit
    sizes = [len(state.hands[p]) - len(known[p]) for p in others]
    sizes += [len(state.transit) if hide_transit else 0, len(state.deck)]
    piles = redeal(pool, sizes, rng)
    for p, pile in zip(others, piles, strict=False):
        s.hands[p] = sorted(pile + known[p], key=flow.card_key)
    if hide_transit:
        s.transit = piles[-2]
    s.deck = piles[-1]
    s.rng = reseed(rng)
    return s


def evaluate(s: State) -> list[float]:
    """Per seat in [0, 1]: points ahead of the others, more scored cards breaking ties."""
    margin = pairwise([pts + 0.01 * cards for pts, cards in flow.totals(s)], 8.0)
    if s.over:
        return blend(by_places(s.places), margin)
    return margin
