"""Slash commands are synced only when they differ from what Discord holds (Discord's daily change allowance)."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from bot import commands_match, create_bot


def syncs(env: Any, since: int = 0) -> int:
    return sum(1 for r in env.http_requests[since:] if r.method == "PUT" and r.path.endswith("/commands"))


def reads(env: Any, since: int = 0) -> int:
    return sum(1 for r in env.http_requests[since:] if r.method == "GET" and r.path.endswith("/commands"))


async def test_a_fresh_world_syncs_and_a_restart_with_unchanged_commands_does_not(world: Any) -> None:
    env = world.env
    assert syncs(env) == 1, "a world that holds no commands gets them"
    mark = len(env.http_requests)
    await env.restart_bot(create_bot())
    assert reads(env, mark) == 1 and syncs(env, mark) == 0


async def test_a_changed_command_syncs_once(world: Any) -> None:
    env = world.env
    bot = create_bot()

    @app_commands.command(name="ping", description="A command the previous start did not have")
    async def ping(interaction: Any) -> None:
        await interaction.response.send_message("pong")

    bot.tree.add_command(ping)
    mark = len(env.http_requests)
    await env.restart_bot(bot)
    assert syncs(env, mark) == 1
    mark = len(env.http_requests)
    again = create_bot()
    again.tree.add_command(ping)
    await env.restart_bot(again)
    assert syncs(env, mark) == 0


async def test_a_fresh_world_against_an_existing_database_syncs(db_path: str) -> None:
    """As the crash tests start: the database holds tables, the Discord world is new and holds no commands."""
    import simcord

    from bot import DeckhandBot

    try:
        for _ in range(2):
            async with simcord.run(create_bot()) as env:
                guild = env.create_guild("Deckhand Test")
                channel = guild.create_text_channel("games")
                alice = guild.add_member(env.create_user("alice"))
                await alice.slash(channel, "game new", game="do_over")
                assert syncs(env) == 1
                await env.bot.close()
    finally:
        await DeckhandBot.close_all()


@pytest.mark.parametrize("mode", ["force", "off"])
async def test_sync_commands_force_and_off(world: Any, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    monkeypatch.setenv("SYNC_COMMANDS", mode)
    mark = len(world.env.http_requests)
    await world.env.restart_bot(create_bot())
    assert syncs(world.env, mark) == (1 if mode == "force" else 0)


def test_payload_comparison_ignores_what_discord_adds_and_sees_what_changed() -> None:
    wanted = [{"name": "game", "type": 1, "description": "d", "nsfw": False, "options": [
        {"name": "new", "type": 1, "description": "x", "required": False}]}]
    registered = [{"id": "1", "application_id": "2", "version": "3", "name": "game", "type": 1, "description": "d",
                   "default_member_permissions": None, "options": [{"name": "new", "type": 1, "description": "x"}]}]
    assert commands_match(wanted, registered)
    assert not commands_match(wanted, [{**registered[0], "description": "other"}])
    assert not commands_match(wanted, [{**registered[0], "options": []}])
    assert not commands_match(wanted, [*registered, {"name": "ping", "type": 1, "description": "p"}])


def _without_localizations(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_localizations(v) for k, v in value.items()
                if k not in ("name_localizations", "description_localizations")}
    if isinstance(value, list):
        return [_without_localizations(v) for v in value]
    return value


async def test_a_restart_with_translated_commands_does_not_sync_where_discord_hides_localizations(
        world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord answers GET …/commands without the localizations unless asked ``with_localizations=true``
    (SimCord always gives them): the French and Ukrainian names must not make every start a sync."""
    from simcord.http import router
    from simcord.http.routes import commands as routes

    def like_discord(ctx: Any) -> Any:
        found = routes.get_global_commands(ctx)
        asked = str(ctx.params.get("with_localizations", "")).lower() == "true"
        return found if asked else _without_localizations(found)

    monkeypatch.setitem(router._ROUTES, "GET", [(template, like_discord if handler is routes.get_global_commands
                                                 else handler) for template, handler in router._ROUTES["GET"]])
    env = world.env
    assert any("name_localizations" in c for c in routes.get_global_commands(router.RequestContext(env.backend, {})))
    mark = len(env.http_requests)
    await env.restart_bot(create_bot())
    assert reads(env, mark) == 1 and syncs(env, mark) == 0
