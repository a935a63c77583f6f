"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

The searching seat never sees a hidden card: every iteration starts from
``engine.determinize(state, seat, rng)``, a state redealt over what the seat cannot see, and
walks one tree shared by all such states. A node is reached by a sequence of (seat, action)
moves; a child is *available* in an iteration when its action is legal in that iteration's
state, and selection scores children by UCB1 with the availability count in place of the
parent's visits (the paper's ISMCTS selection), so an action that is rarely possible is not
starved of exploration.

Only the contract is used: ``determinize``, ``to_act``, ``legal_actions``, ``apply``,
``is_over``, ``outcome``, plus two optional hooks: ``evaluate(state) -> list[float]`` (per seat
in [0, 1], from the game's scores, so margins count and playouts may stop early) and
``bot_move`` (the heuristic, for playouts). Partners (the ``teams`` hook) share a value.

Several seats may be to act at once (Do Over!'s swap step): their moves do not depend on each
other, so the tree orders them, the searching seat first. Others' private moves (a swap, a
face-down discard) are then treated as seen: the usual single-observer simplification.

Everything is driven by the ``rng`` the caller passes and fixed counts, never the clock, so a
search is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.contract import Engine
from engines.hidden import by_places

Values = list[float]


@dataclass(frozen=True)
class SearchSettings:
    #: Determinized iterations (tree walk, expansion, playout, back-up) per decision.
    iterations: int
    #: Playout moves after the tree before the position is scored by ``evaluate``.
    horizon: int
    #: Playouts use the game's heuristic (``bot_move``) when True, uniform random moves when False.
    heuristic_playouts: bool
    #: UCB1 exploration constant; values are in [0, 1].
    exploration: float = 0.7
    #: Visits credited to the heuristic's own choice at the root, as a share of the iterations: the
    #: search overrules the rules of thumb only when its playouts clearly favour another move.
    prior: float = 0.0


class _Node:
    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[tuple[int, str], _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def _actor(engine: Engine, state: Any, seat: int) -> int | None:
    seats = engine.to_act(state)
    if not seats:
        return None
    return seat if seat in seats else seats[0]


def _team_values(engine: Engine, values: Values) -> Values:
    """Partners share one value (their mean), whatever the game's hook returned."""
    teams = getattr(engine, "teams", None)
    if not teams:
        return values
    out = list(values)
    for team in teams:
        mean = sum(values[p] for p in team) / len(team)
        for p in team:
            out[p] = mean
    return out


def _score(engine: Engine, state: Any, n: int) -> Values:
    evaluate = getattr(engine, "evaluate", None)
    if evaluate is not None:
        return _team_values(engine, evaluate(state))
    if engine.is_over(state):
        return by_places(engine.outcome(state))
    return [0.5] * n


def _playout(engine: Engine, state: Any, seat: int, settings: SearchSettings, rng: random.Random,
             policy: Callable[..., str] | None) -> Any:
    draw = rng.randrange
    for _ in range(settings.horizon):
        actor = _actor(engine, state, seat)
        if actor is None:
            break
        legal = engine.legal_actions(state, actor)
        if not legal:
            break
        action = policy(state, actor, legal, draw) if policy is not None else legal[draw(len(legal))]
        state = engine.apply(state, actor, action)
    return state


def ismcts(engine: Engine, state: Any, seat: int, rng: random.Random, settings: SearchSettings) -> str:
    """The action ``seat`` takes in ``state``: the most visited root move after the search."""
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if len(actions) == 1:
        return actions[0]
    determinize = engine.determinize  # type: ignore[attr-defined]
    policy = getattr(engine, "bot_move", None) if settings.heuristic_playouts else None
    n = engine.view(state, None)["num_players"]
    c = settings.exploration
    root = _Node(-1)
    for _ in range(settings.iterations):
        d = determinize(state, seat, rng)
        node = root
        path = [root]
        while True:
            actor = _actor(engine, d, seat)
            if actor is None:
                break
            legal = engine.legal_actions(d, actor)
            if not legal:
                break
            children = node.children
            untried = [a for a in legal if (actor, a) not in children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[actor, action] = _Node(actor)
                for a in legal:
                    ch = children.get((actor, a))
                    if ch is not None:
                        ch.avail += 1
                d = engine.apply(d, actor, action)
                path.append(child)
                break
            best, best_ucb = legal[0], -1.0
            for a in legal:
                ch = children[actor, a]
                ch.avail += 1
                ucb = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if ucb > best_ucb:
                    best, best_ucb = a, ucb
            d = engine.apply(d, actor, best)
            node = children[actor, best]
            path.append(node)
        end = _playout(engine, d, seat, settings, rng, policy)
        values = _score(engine, end, n)
        for nd in path[1:]:
            nd.visits += 1
            nd.total += values[nd.mover]
    visits = {a: root.children[seat, a].visits if (seat, a) in root.children else -1 for a in actions}
    own_bot = getattr(engine, "bot_move", None)
    if settings.prior and own_bot is not None:
        # The heuristic reads only what the seat sees, like everything else here.
        visits[own_bot(state, seat, actions, rng.randrange)] += settings.prior * settings.iterations
    return max(actions, key=lambda a: visits[a])
