"""Table options: each game's options, the values they take, and refusals that list them."""

from __future__ import annotations

import pytest

from engines import GAME_IDS, get_engine
from host.errors import Refusal
from host.table_options import check_table_options, listing, table_options


def test_defaults_are_kept_and_every_default_is_within_its_own_range() -> None:
    for game in GAME_IDS:
        engine = get_engine(game)
        assert check_table_options(engine, None) == dict(engine.default_options)
        for option in table_options(engine):
            assert option.problem(option.default) is None, (game, option)


@pytest.mark.parametrize(("game", "options", "why"), [
    ("pedwar", {"max_turns": 5_001}, "`max_turns` is a whole number from 1 to 5,000, not 5,001"),
    ("pedwar", {"max_turns": 100_000}, "not 100,000"),
    ("king_pedro", {"target": 300}, "`target` is a whole number from 1 to 262, not 300"),
    ("king_pedro", {"max_rounds": 501}, "`max_rounds` is a whole number from 1 to 500"),
    ("do_over", {"allow_voluntary_take": 3}, "`allow_voluntary_take` is true or false"),
    ("do_over", {"max_turns": True}, "`max_turns` is a whole number"),
    ("pedwar", {"target": 200}, "`target` is an unknown option for Pedwar"),
    ("pentawar", {"max_turns": 10}, "`max_turns` is an unknown option for Pentawar"),
])
def test_a_value_the_game_cannot_use_is_refused_naming_every_option(game: str, options: dict[str, object],
                                                                     why: str) -> None:
    engine = get_engine(game)
    with pytest.raises(Refusal) as refused:
        check_table_options(engine, options)
    assert why in str(refused.value)
    assert str(listing(engine)) in str(refused.value)  # the game's options, with their values, every time


def test_the_listing_names_each_option_with_its_values_and_default() -> None:
    assert str(listing(get_engine("king_pedro"))) == ("Canadian and Ukrainian King Pedro options: `target`: a whole "
                                                 "number from 1 to 262 (default 262); `max_rounds`: a whole number "
                                                 "from 1 to 500 (default 100).")
    assert str(listing(get_engine("pentawar"))) == "Pentawar tables have no options."


def test_the_values_inside_the_range_are_taken() -> None:
    assert check_table_options(get_engine("king_pedro"), {"target": 200})["target"] == 200
    assert check_table_options(get_engine("king_pedro"), {"target": 30})["target"] == 30  # a quick game
    assert check_table_options(get_engine("pedwar"), {"max_turns": 5_000})["max_turns"] == 5_000
