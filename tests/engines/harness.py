"""Shared machinery for engine property tests: random playouts and contract checks."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from engines import Engine, IllegalAction
from engines.rng import Rng

StepCheck = Callable[[Any], None]


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def json_strings(obj: Any) -> Iterator[str]:
    """Every string (keys included) anywhere inside a JSON-like value."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from json_strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from json_strings(v)


def random_playout(engine: Engine, num_players: int, seed: int, options: dict | None = None,
                   on_step: StepCheck | None = None, max_steps: int = 200_000) -> tuple[Any, list[tuple[int, str]]]:
    """Play random legal actions to the end; check the contract at every step.

    Returns the final state and the action log as (seat, action) pairs.
    """
    rng = Rng(seed * 31 + 7)
    state = engine.new_game(num_players, seed, options)
    log: list[tuple[int, str]] = []
    if on_step:
        on_step(state)
    for _ in range(max_steps):
        seats = engine.to_act(state)
        assert engine.is_over(state) == (not seats), "to_act must be [] exactly when the game is over"
        if not seats:
            return state, log
        for s in range(num_players):
            acts = engine.legal_actions(state, s)
            assert (s in seats) == bool(acts), f"seat {s}: legal_actions must be non-empty exactly for seats in to_act"
        seat = rng.choice(seats)
        actions = engine.legal_actions(state, seat)
        assert len(set(actions)) == len(actions), "duplicate legal actions"
        action = rng.choice(actions)
        assert len(action) <= 80
        before = canonical(engine.dump(state))
        state2 = engine.apply(state, seat, action)
        assert canonical(engine.dump(state)) == before, "apply must not mutate its input state"
        state = state2
        log.append((seat, action))
        if on_step:
            on_step(state)
    raise AssertionError(f"game did not end within {max_steps} actions")


def replay(engine: Engine, num_players: int, seed: int, options: dict | None,
           log: list[tuple[int, str]]) -> Any:
    state = engine.new_game(num_players, seed, options)
    for seat, action in log:
        state = engine.apply(state, seat, action)
    return state


def assert_roundtrip(engine: Engine, state: Any) -> None:
    dumped = canonical(engine.dump(state))
    again = engine.load(json.loads(dumped))
    assert canonical(engine.dump(again)) == dumped, "dump/load must be byte-stable"


def assert_replay_deterministic(engine: Engine, num_players: int, seed: int, options: dict | None,
                                log: list[tuple[int, str]], final: Any) -> None:
    assert canonical(engine.dump(replay(engine, num_players, seed, options, log))) == canonical(engine.dump(final))


def assert_refuses(engine: Engine, state: Any, seat: int, action: str) -> None:
    """``action`` raises IllegalAction with a readable reason and leaves ``state`` unchanged."""
    before = canonical(engine.dump(state))
    try:
        engine.apply(state, seat, action)
    except IllegalAction as exc:
        assert str(exc), "IllegalAction needs a reason a player can read"
    else:
        raise AssertionError(f"{action!r} by seat {seat} should be illegal")
    assert canonical(engine.dump(state)) == before
