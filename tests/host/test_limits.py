"""The flood limits' rules on their own (issue 26): the cooldown on the bot's clock, who opens tournaments, bot
entrants, and the settings' bounds and defaults."""

from __future__ import annotations

import pytest

from host.errors import Refusal
from host.limits import NEW_TABLE, NEW_TOURNAMENT, Cooldowns, check_bot_entrants, check_tournament_creator
from host.settings import Settings, normalise, parse


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_cooldown_runs_on_the_clock_it_is_given_per_member_server_and_command() -> None:
    clock = Clock()
    cooldowns = Cooldowns(clock)
    cooldowns.take(1, 7, NEW_TABLE, 3)
    with pytest.raises(Refusal, match="new_cooldown"):
        cooldowns.take(1, 7, NEW_TABLE, 3)
    cooldowns.take(2, 7, NEW_TABLE, 3)  # another server
    cooldowns.take(1, 8, NEW_TABLE, 3)  # another member
    cooldowns.take(1, 7, NEW_TOURNAMENT, 3)  # the other command
    clock.now += 2.9
    with pytest.raises(Refusal, match="wait 1s"):
        cooldowns.take(1, 7, NEW_TABLE, 3)
    clock.now += 0.1
    cooldowns.take(1, 7, NEW_TABLE, 3)
    cooldowns.take(1, 9, NEW_TABLE, 0)
    cooldowns.take(1, 9, NEW_TABLE, 0)  # 0 turns it off


def test_a_cooldown_given_back_is_as_before() -> None:
    clock = Clock()
    cooldowns = Cooldowns(clock)
    cooldowns.take(1, 7, NEW_TABLE, 3)
    cooldowns.give_back(1, 7, NEW_TABLE)
    cooldowns.take(1, 7, NEW_TABLE, 3)  # the first opened nothing
    clock.now += 3
    cooldowns.take(1, 7, NEW_TABLE, 3)
    cooldowns.give_back(1, 7, NEW_TABLE)
    with pytest.raises(Refusal):  # back to the take before, 3 s ago, not forgotten
        cooldowns.take(1, 7, NEW_TABLE, 10)


def test_tournament_creators() -> None:
    check_tournament_creator("managers", None, True, ())
    check_tournament_creator("managers", 55, False, (55,))
    check_tournament_creator("everyone", None, False, ())
    for roles in ((), (56,)):
        with pytest.raises(Refusal, match="tournament_creators"):
            check_tournament_creator("managers", 55, False, roles)


def test_bot_entrants() -> None:
    check_bot_entrants(32, 30, 2, "Cup")
    with pytest.raises(Refusal, match=r"2 more bot entrants.*max_bot_entrants"):
        check_bot_entrants(32, 30, 3, "Cup")


def test_the_limits_defaults_and_bounds() -> None:
    defaults = Settings()
    assert (defaults.max_open_tables, defaults.max_thread_tables, defaults.tournament_creators,
            defaults.max_entrants_limit, defaults.max_bot_entrants, defaults.new_cooldown) == (
        5, 50, "managers", 256, 32, 3)
    stored = {name: normalise(name, value) for name, value in (
        ("max_open_tables", "9"), ("max_thread_tables", "0"), ("tournament_creators", "Everyone"),
        ("max_bot_entrants", "64"), ("new_cooldown", "10"))}
    changed = parse(stored)
    assert (changed.max_open_tables, changed.max_thread_tables, changed.tournament_creators,
            changed.max_bot_entrants, changed.new_cooldown) == (9, 0, "everyone", 64, 10)
    for name, bad in (("max_open_tables", "0"), ("max_open_tables", "1001"), ("max_thread_tables", "-1"),
                      ("tournament_creators", "mods"), ("max_bot_entrants", "1025"), ("new_cooldown", "3601"),
                      ("new_cooldown", "3s")):
        with pytest.raises(Refusal, match=name):
            normalise(name, bad)
