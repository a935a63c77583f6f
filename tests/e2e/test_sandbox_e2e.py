"""The sandbox's world and its view that follows threads, run in-process in SimCord."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import sandbox
from tests.e2e.test_reliability_e2e import answer_text


@contextlib.asynccontextmanager
async def sandbox_world(env: Any) -> AsyncIterator[tuple[sandbox.World, Any, sandbox.Follower]]:
    world = await sandbox.build_world(env, env.bot)
    async with env.preview(world.home, viewers=world.members, layout="channel") as preview:
        follower = await sandbox.follow(env, preview, world, env.bot)
        yield world, preview, follower


async def settle(follower: sandbox.Follower) -> None:
    for _ in range(sandbox.GRACE_LOOKS + 1):
        await follower.look()


async def test_alice_manages_the_server_and_the_others_do_not(simcord_env: Any) -> None:
    async with sandbox_world(simcord_env) as (world, _, _):
        alice, bob = world.members[0], world.members[1]
        shown = await alice.slash(world.home, "config show")
        assert shown.ephemeral and "bot_delay" in answer_text(shown)
        # Discord hides manager commands from the others, as it would on a real server.
        assert any(name.startswith("config") for name in alice.available_commands(world.home))
        assert not any(name.startswith("config") for name in bob.available_commands(world.home))
        changed = await alice.slash(world.home, "config set", setting="bot_delay", value="2")
        assert changed.ephemeral and "Manage Server" not in answer_text(changed)
        welcome = world.home.history()[0].content
        assert "**alice** manages this server" in welcome and "/sandbox go" in welcome


async def test_sandbox_go_offers_the_threads_and_moves_the_view(simcord_env: Any) -> None:
    async with sandbox_world(simcord_env) as (world, preview, follower):
        alice = world.members[0]
        await alice.slash(world.home, "game new", game="pedwar", thread=True)
        thread = world.home.threads[0]
        offered = await alice.autocomplete(world.home, "sandbox go", "place", "")
        assert [choice["value"] for choice in offered] == [str(thread.id), str(world.home.id)]
        assert offered[0]["name"].endswith(str(thread.name))
        answer = await alice.slash(world.home, "sandbox go", place=str(thread.id))
        assert answer.ephemeral
        await settle(follower)
        assert (await preview.snapshot())["channelId"] == str(thread.id)
        # A place that does not exist is refused and moves nothing.
        refused = await alice.slash(thread, "sandbox go", place="12345")
        assert refused.ephemeral and "don't know that place" in answer_text(refused)
        await settle(follower)
        assert (await preview.snapshot())["channelId"] == str(thread.id)
        await alice.slash(thread, "sandbox go", place=str(world.home.id))
        await settle(follower)
        assert (await preview.snapshot())["channelId"] == str(world.home.id)


async def test_the_view_is_republished_when_the_bot_sends_anything(simcord_env: Any) -> None:
    async with sandbox_world(simcord_env) as (world, preview, follower):
        alice = world.members[0]
        await follower.look()
        before = preview._python.revision
        await alice.slash(world.home, "game new", game="pedwar", turn_time="30s")
        await follower.look()
        assert preview._python.revision > before  # republished: the bot sent something
        unchanged = preview._python.revision
        await follower.look()
        assert preview._python.revision == unchanged  # nothing new, nothing republished


async def test_the_sandbox_speaks_the_servers_and_the_members_language(simcord_env: Any,
                                                                      member_locales: dict[int, str]) -> None:
    from tests.languages import english_left

    world = await sandbox.build_world(simcord_env, simcord_env.bot, locale="fr")
    welcome = world.home.history()[0].content
    assert "**alice** gère ce serveur" in welcome and english_left([welcome], "fr") == []
    async with simcord_env.preview(world.home, viewers=world.members, layout="channel") as preview:
        await sandbox.follow(simcord_env, preview, world, simcord_env.bot)
        bob = world.members[1]
        member_locales[bob.id] = "uk"
        refused = await bob.slash(world.home, "sandbox go", place="nowhere")
        assert refused.ephemeral and answer_text(refused) == \
            "Я не знаю такого місця. Виберіть #games або гілку з підказок."
        moved = await bob.slash(world.home, "sandbox go", place=str(world.home.id))
        said = answer_text(moved)
        assert said.startswith("Переношу цей перегляд до ") and english_left([said], "uk") == []
