"""The games on offer, as the commands list and describe them."""

from __future__ import annotations

from engines import GAME_IDS, GAME_TITLES, Engine, get_engine
from host.read_models import GameRules, OptionValues
from host.table_options import table_options

#: (game id, title) of every game, in the order the commands offer them.
GAMES: tuple[tuple[str, str], ...] = tuple((g, GAME_TITLES[g]) for g in GAME_IDS)


def game_rules(game_id: str) -> GameRules | None:
    """What /game rules shows of a game, and /game new suggests for its options; None for an unknown game."""
    try:
        engine = get_engine(game_id)
    except (KeyError, ModuleNotFoundError):
        return None
    options = tuple(OptionValues(o.name, o.default, o.low, o.high, o.choices) for o in table_options(engine))
    return GameRules(game_id, engine.title, engine.summary, engine.min_players, engine.max_players,
                     tuple(engine.default_options.items()), options, example_move(engine))


def example_move(engine: Engine) -> str:
    """The first move a new game offers its first player, as the menus and /play name it."""
    players = max(engine.min_players, 2)
    state = engine.new_game(players, 1)
    seat = engine.to_act(state)[0]
    return engine.describe(state, engine.legal_actions(state, seat)[0])
