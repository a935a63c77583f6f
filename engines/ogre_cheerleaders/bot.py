"""The Ogre Cheerleaders heuristic bot (the ``easy`` level, and the search's playout policy).

Rule of thumb: play the card whose effect, finished greedily, scores the most for you right now;
among equals keep high cards (they are the points a formation is worth) and leave the field
without easy formations for the next player. The look-ahead runs on a redealt state
(``determinize``), so a 7's deck card or a 6's stolen card is guessed, never read.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engines.ogre_cheerleaders import flow
from engines.ogre_cheerleaders.rules import formations
from engines.ogre_cheerleaders.state import State

Step = Callable[[State, int, str], State]
Legal = Callable[[State, int], list[str]]
Hide = Callable[[State, int, random.Random], State]
#: How many of its own decisions in a row the look-ahead follows (an effect chain is short).
_DEPTH = 4


def _score(s: State, seat: int) -> float:
    mine = flow.totals(s)[seat][0]
    threat = len(formations(s.field)) if not s.over and s.seat != seat else 0
    return mine - 2.0 * threat


def _finish(s: State, seat: int, step: Step, legal: Legal, depth: int) -> float:
    """Follow ``seat``'s own next decisions, each the best by immediate points."""
    for _ in range(depth):
        if s.over or s.seat != seat:
            break
        acts = legal(s, seat)
        s = max((step(s, seat, a) for a in acts), key=lambda t: _score(t, seat))
    return _score(s, seat)


def choose(state: State, seat: int, actions: list[str], draw: Callable[[int], int],
           step: Step, legal: Legal, hide: Hide) -> str:
    if len(actions) == 1:
        return actions[0]
    guess = hide(state, seat, random.Random(draw(1 << 30)))
    best, best_value = actions[0], float("-inf")
    for a in actions:
        value = _finish(step(guess, seat, a), seat, step, legal, _DEPTH)
        if a.startswith("play:"):
            value -= int(a.split(":")[1][1:]) * 0.05  # spend low cards first
        if value > best_value:
            best, best_value = a, value
    return best
