"""Bot players that fill seats."""

from __future__ import annotations

from engines.contract import Engine
from engines.rng import Rng, seed_state


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._rng = Rng(seed_state(seed))

    def choose(self, engine: Engine, state: object, seat: int) -> str:
        actions = engine.legal_actions(state, seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        return self._rng.choice(actions)


def bot_action(engine: Engine, state: object, seat: int, salt: int) -> str:
    """A reproducible bot move: the same state, seat and salt give the same action.

    The host passes the table seed plus the table version as ``salt``, so a
    bot's move survives a restart without storing the bot's generator.
    """
    return RandomBot(salt * 7919 + seat).choose(engine, state, seat)
