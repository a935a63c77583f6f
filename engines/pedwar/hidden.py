"""What a seat cannot see in Pedwar, and a state redealt over it (the ``determinize`` hook).

Hidden from a seat: the other Maneuver hands, the other Goals (and the Goals out of play), and the
order of both decks. Every Maneuver card in the discard pile was bid or discarded in public, so its
contents stay; the Object deck holds exactly the Object cards not yet turned up.
"""

from __future__ import annotations

import random

from engines.hidden import blend, by_places, pairwise, redeal, reseed
from engines.pedwar import bids as B
from engines.pedwar.scoring import score_collection
from engines.pedwar.state import OVER, State


def determinize(state: State, seat: int, rng: random.Random) -> State:
    s = state.clone()
    others = [p for p in range(s.n) if p != seat]
    pool = list(state.mdeck)
    for p in others:
        pool += state.hands[p]
    piles = redeal(pool, [len(state.hands[p]) for p in others] + [len(state.mdeck)], rng)
    for p, pile in zip(others, piles, strict=False):
        B.sort_hand(pile)
        s.hands[p] = pile
    s.mdeck = piles[-1]
    goals = redeal([state.goals[p] for p in others] + list(state.goals_out), [1] * len(others) +
                   [len(state.goals_out)], rng)
    for p, g in zip(others, goals, strict=False):
        s.goals[p] = g[0]
    s.goals_out = goals[-1]
    s.odeck = redeal(list(state.odeck), [len(state.odeck)], rng)[0]
    s.rng = reseed(rng)
    return s


def evaluate(s: State) -> list[float]:
    """Per seat in [0, 1]: the score with its Goal, as it stands, against the others'."""
    if s.phase == OVER and s.final is not None:
        margin = pairwise(list(s.final["scores"]), 6.0)
        return blend(by_places(s.final["places"]), margin)
    return pairwise([score_collection(s.colls[p], s.goals[p]) for p in range(s.n)], 6.0)
