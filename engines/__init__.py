"""Pure game rules: one module per game, a registry, and bot players.

Nothing here does I/O, asyncio or Discord.
"""

from __future__ import annotations

import importlib

from engines.contract import Engine, IllegalAction, Options, View, check_options

GAME_TITLES: dict[str, str] = {
    "do_over": "Do Over!",
    "pedwar": "Pedwar",
    "king_pedro": "Canadian and Ukrainian King Pedro",
    "ogre_cheerleaders": "Ogre Cheerleaders",
    "pentawar": "Pentawar",
}
GAME_IDS: tuple[str, ...] = tuple(GAME_TITLES)

__all__ = ["GAME_IDS", "GAME_TITLES", "Engine", "IllegalAction", "Options", "View", "available_games",
           "check_options", "get_engine"]


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
