"""Bot players that fill seats."""

from __future__ import annotations

import random
from collections.abc import Callable

from engines.contract import Engine


def bot_draws(seed: int) -> Callable[[int], int]:
    """A seeded draw of a uniform index in ``[0, n)``: what bot players pick their moves with.

    Engines keep their own generator (``engines.rng``) inside the state, so it
    must be tiny and stable. A bot's generator is never stored, so it can be
    the standard library's, whose draw costs about half a pure-Python SplitMix64
    draw; random playouts make one draw per move.
    """
    return random.Random(seed).randrange


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._draw = bot_draws(seed)

    def choose(self, engine: Engine, state: object, seat: int) -> str:
        actions = engine.legal_actions(state, seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        return actions[self._draw(len(actions))]


def bot_action(engine: Engine, state: object, seat: int, salt: int) -> str:
    """A reproducible bot move: the same state, seat and salt give the same action.

    The host passes the table seed plus the table version as ``salt``, so a
    bot's move survives a restart without storing the bot's generator. (Python
    does not promise ``randrange`` the same output across versions; after an
    upgrade only a bot move not yet made could come out differently, since
    the log, not the bot, is what replays.) An engine with a bot player of its
    own offers it as ``bot_move(state, seat, actions, draw)``, as King Pedro
    does; elsewhere the bot moves like ``RandomBot``.
    """
    draw = bot_draws(salt * 7919 + seat)
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    own_bot = getattr(engine, "bot_move", None)
    if own_bot is not None:
        return own_bot(state, seat, actions, draw)
    return actions[draw(len(actions))]
