"""What a seat cannot see in Pedwar, and a state redealt over it (the ``determinize`` hook).

Hidden from a seat: the other Maneuver hands, the other Goals (and the Goals out of play), and the
order of both decks. Every Maneuver card in the discard pile was bid or discarded in public, so its
contents stay; the Object deck holds exactly the Object cards not yet turned up.

After a reshuffle the Maneuver deck is no longer any part of the unseen cards: everyone saw the
discard pile it was formed from, and since then it only lost the cards drawn from it, the seat's
own draws among them. So the redealt deck is drawn from those cards (less the seat's draws) that
are still unseen, and the other hands get the rest: an OP nobody has discarded since the reshuffle
is in a hand, not in the deck.
"""

from __future__ import annotations

import random
from collections import Counter

from engines.hidden import blend, by_places, pairwise, redeal, reseed
from engines.pedwar import bids as B
from engines.pedwar.scoring import score_collection
from engines.pedwar.state import OVER, State


def determinize(state: State, seat: int, rng: random.Random) -> State:
    s = state.clone()
    others = [p for p in range(s.n) if p != seat]
    hands, s.mdeck = _maneuvers(state, seat, others, rng)
    for p, pile in zip(others, hands, strict=True):
        B.sort_hand(pile)
        s.hands[p] = pile
        s.drawn[p] = []  # the others' draws are theirs to know; no determinization reads them
    goals = redeal([state.goals[p] for p in others] + list(state.goals_out), [1] * len(others) +
                   [len(state.goals_out)], rng)
    for p, g in zip(others, goals, strict=False):
        s.goals[p] = g[0]
    s.goals_out = goals[-1]
    s.odeck = redeal(list(state.odeck), [len(state.odeck)], rng)[0]
    s.rng = reseed(rng)
    return s


def _maneuvers(state: State, seat: int, others: list[int], rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """The other seats' Maneuver hands and the Maneuver deck, redealt over the cards ``seat`` has not seen."""
    unseen = list(state.mdeck)
    for p in others:
        unseen += state.hands[p]
    sizes = [len(state.hands[p]) for p in others]
    if not state.reshuffled:
        piles = redeal(unseen, [*sizes, len(state.mdeck)], rng)
        return piles[:-1], piles[-1]
    # The deck holds only cards of the last reshuffle not drawn since, and only cards not seen since.
    room = (Counter(state.reshuffled) - Counter(state.drawn[seat])) & Counter(unseen)
    pool = list(room.elements())
    deck = redeal(pool, [len(state.mdeck), len(pool) - len(state.mdeck)], rng)[0]
    return redeal(list((Counter(unseen) - Counter(deck)).elements()), sizes, rng), deck


#: What an Object card that scores nothing yet is worth, in points, before the game ends: with some
#: 34 cards won among the players almost every card ends in a Straight (a point) or better, so a
#: search that counted only the score as it stands would not see why winning it matters.
CARD_WORTH = 0.6
#: Score margin (points) over which a seat's value against another goes from a half to about 0.73.
SCALE = 6.0


def estimate(s: State, seat: int) -> float:
    """``seat``'s final score as it looks now: the score with its Goal, plus a little per card."""
    return score_collection(s.colls[seat], s.goals[seat]) + CARD_WORTH * len(s.colls[seat])


def evaluate(s: State) -> list[float]:
    """Per seat in [0, 1]: at the end its place, and a little its margin; before, its estimated
    final score (``estimate``) against the others'."""
    if s.phase == OVER and s.final is not None:
        margin = pairwise(list(s.final["scores"]), SCALE)
        return blend(by_places(s.final["places"]), margin)
    return pairwise([estimate(s, p) for p in range(s.n)], SCALE)
