"""Pure game rules: one module per game, a registry, and bot players.

Nothing here does I/O, asyncio or Discord.
"""

from __future__ import annotations

import importlib

from engines.contract import Engine, IllegalAction, Options, View, check_options

GAME_IDS: tuple[str, ...] = ("do_over", "pedwar", "king_pedro", "ogre_cheerleaders", "pentawar")

__all__ = ["GAME_IDS", "Engine", "IllegalAction", "Options", "View", "available_games", "check_options", "get_engine"]


def get_engine(game_id: str) -> Engine:
    """The engine object for ``game_id``; raises ``KeyError`` for an unknown game."""
    if game_id not in GAME_IDS:
        raise KeyError(f"unknown game {game_id!r}")
    module = importlib.import_module(f"engines.{game_id}")
    return module.ENGINE


def available_games() -> list[Engine]:
    """Engines whose module exists in this build, in registry order."""
    found = []
    for game_id in GAME_IDS:
        try:
            found.append(get_engine(game_id))
        except ModuleNotFoundError:
            continue
    return found
