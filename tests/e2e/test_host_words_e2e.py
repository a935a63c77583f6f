"""The host layer's words end to end: a French or Ukrainian member's refusals of /game new, /game addbot,
/game start and /game abandon read in their language at an English server, and a French or Ukrainian
server's /game log (a file) shows each logged move, a timed-out one's note included, in that language."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from i18n import t
from tests.e2e.driver import latest_table_message, seats_to_act
from tests.languages import english_left

pytestmark = pytest.mark.asyncio


def answer(result: Any) -> str:
    return result.response.content if result.response is not None else result.followups[-1].content


@pytest.mark.parametrize(("lang", "words"), [
    ("fr", {"options": "`max_turns` accepte un nombre entier de 1 à 5\u202f000, pas 99\u202f999",
            "busy": "Ce salon a déjà une table (Pentawar, table n° ", "host": "peut ajouter des bots.",
            "start": "peut lancer la partie.", "abandon": "peut fermer la table."}),
    ("uk", {"options": "`max_turns` — це ціле число від 1 до 5\xa0000, а не 99\xa0999",
            "busy": "У цьому каналі вже є стіл (Pentawar, стіл № ", "host": "може додавати ботів.",
            "start": "може почати гру.", "abandon": "може закрити стіл."}),
])
async def test_a_members_table_refusals_read_in_their_language_at_an_english_server(
        world: Any, member_locales: dict[int, str], lang: str, words: dict[str, str]) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    member_locales[bob.id] = lang
    options = await bob.slash(world.channel, "game new", game="pedwar", options="max_turns=99999")
    assert answer(options).startswith(words["options"]), answer(options)
    await alice.slash(world.channel, "game new", game="pentawar")
    busy = await bob.slash(world.channel, "game new", game="pentawar")
    assert words["busy"] in answer(busy), answer(busy)
    await world.env.advance_time(4)  # past alice's new_cooldown
    assert "This channel already has a table" in answer(await alice.slash(world.channel, "game new",
                                                                         game="pentawar"))
    for command, key in (("game addbot", "host"), ("game start", "start"), ("game abandon", "abandon")):
        refused = await bob.slash(world.channel, command)
        assert refused.ephemeral and words[key] in answer(refused), answer(refused)
    texts = [answer(options), answer(busy)]
    assert not english_left(texts, lang), english_left(texts, lang)


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_the_move_log_of_a_french_or_ukrainian_server_reads_in_its_language(
        world: Any, member_locales: dict[int, str], lang: str) -> None:
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    await mona.slash(world.channel, "config set", setting="language", value=lang)
    alice, bob = world.members["alice"], world.members["bob"]
    for member in (alice, bob):
        member_locales[member.id] = lang
    await alice.slash(world.channel, "game new", game="pentawar", turn_time="60s")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    assert seats_to_act(latest_table_message(world.channel))
    await world.env.advance_time(61)  # the seat to act times out: the bot plays its move, noted in its line
    result = await alice.slash(world.channel, "game log")
    text = (await result.response.attachments[0].read()).decode()
    note = t(lang, "⏰ Time ran out, so the bot played for them: ").strip()
    assert note in text and "Time ran out" not in text, text
    lines = text.splitlines()
    assert not english_left(lines, lang), english_left(lines, lang)


@pytest.mark.parametrize(("lang", "words"), [("fr", "il me manque **Créer des fils publics**, **Gérer les fils**"),
                                             ("uk", "мені бракує дозволів **Створювати публічні гілки**")])
async def test_the_bots_missing_permissions_are_named_in_the_members_language(
        world: Any, member_locales: dict[int, str], lang: str, words: str) -> None:
    me = world.guild.me if hasattr(world.guild, "me") else None
    if me is None:
        pytest.skip("SimCord handle has no bot member")
    locked = world.guild.create_text_channel("locked", overwrites={
        me: discord.PermissionOverwrite(create_public_threads=False, manage_threads=False)})
    bob = world.members["bob"]
    member_locales[bob.id] = lang
    result = await bob.slash(locked, "game new", game="pentawar", thread=True)
    assert result.ephemeral and words in answer(result), answer(result)
    assert not english_left([answer(result)], lang)


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_seat_changes_are_in_the_log_in_the_servers_language(
        world: Any, member_locales: dict[int, str], db_path: str, lang: str) -> None:
    """A resignation and a replacement are stored with the messages of their lines (migration 13): /game log
    shows them in the language of whoever reads it."""
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    await mona.slash(world.channel, "config set", setting="language", value=lang)
    alice, bob, carol = world.members["alice"], world.members["bob"], world.members["carol"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    await carol.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    replaced = await alice.slash(world.channel, "game replace", player=carol, **{"with": mona})
    assert not replaced.ephemeral, answer(replaced)
    await bob.slash(world.channel, "game resign")
    member_locales[alice.id] = lang
    text = (await (await alice.slash(world.channel, "game log")).response.attachments[0].read()).decode()
    for line in (t(lang, "🏳️ **{player}** resigns.", player="bob"),
                 t(lang, "A bot plays **{player}**'s seat to the end; the seat is placed last.", player="bob"),
                 t(lang, "🔁 {member} takes over **{player}**'s seat (seat {seat}). Open your hand with "
                         "**Hand / act**.", member=f"<@{mona.id}>", player="carol", seat=0)):
        plain = line.replace("**", "")  # the file is plain text; below, the part before a seat number
        assert plain.split("(")[0] in text, (plain, text)
    lines = text.splitlines()
    assert not english_left(lines, lang), english_left(lines, lang)
    english = (await (await bob.slash(world.channel, "game log")).response.attachments[0].read()).decode()
    assert "🏳️ bob resigns." in english  # bob's client is English: the same log, in English
