"""The games on offer, as the commands list and describe them."""

from __future__ import annotations

from engines import GAME_IDS, GAME_TITLES, get_engine
from host.read_models import GameRules

#: (game id, title) of every game, in the order the commands offer them.
GAMES: tuple[tuple[str, str], ...] = tuple((g, GAME_TITLES[g]) for g in GAME_IDS)


def game_rules(game_id: str) -> GameRules | None:
    """What /game rules shows of a game, and /game new suggests for its options; None for an unknown game."""
    try:
        engine = get_engine(game_id)
    except (KeyError, ModuleNotFoundError):
        return None
    return GameRules(game_id, engine.title, engine.summary, engine.min_players, engine.max_players,
                     tuple(engine.default_options.items()))
