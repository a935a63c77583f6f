"""What the channel reads about a lobby and a start (the notes on a lobby, its closing, the first line of a game,
a deleted thread's notice) speaks the server's ``language``; English servers keep the English text."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.results import to_discord_message

from tests.e2e.driver import components, configure, latest_table_message, seats_to_act
from tests.e2e.test_reliability_e2e import answer_text, cannot_draw
from tests.languages import english_left

pytestmark = pytest.mark.asyncio

#: The message ids this test covers: none of them may be left in English in a French or Ukrainian channel.
COVERED = ("{player} joined.", "{player} left.", "A bot sat down.", "Everyone left, so the table is closed.",
           "The game begins! Seats: {seats}", "The game has started.", "This table was closed.",
           "🗑️ Table #{table} ({game}) was closed as abandoned: channel deleted (its thread is gone).")
WORDS = {
    "fr": {"joined": "bob a rejoint la table.", "left": "bob a quitté la table.",
           "bot": "Un bot s'est assis à la table.", "closed": "carol a quitté la table. Tout le monde est parti : "
                                                            "la table est fermée.",
           "started": "La partie a commencé.", "begins": "La partie commence ! Places : 1. ",
           "deleted": "🗑️ La table n° 3 (Pentawar) a été fermée comme abandonnée : salon supprimé",
           "table 1": "table n° 1"},
    "uk": {"joined": "bob сідає за стіл.", "left": "bob виходить з-за столу.", "bot": "За стіл сів бот.",
           "closed": "carol виходить з-за столу. Усі пішли, тож стіл закрито.",
           "started": "Гра почалася.", "begins": "Гра починається! Місця: 1. ",
           "deleted": "🗑️ Стіл №3 (Pentawar) закрито як покинутий: канал видалено",
           "table 1": "стіл № 1"},
}


def stored_messages(channel: Any) -> list[discord.Message]:
    """Every message in ``channel`` as it stands now (edits included), oldest first."""
    stored = channel._env.backend.messages.get(channel.id, {})
    return [to_discord_message(channel._env, stored[i]) for i in sorted(stored)]


def lobby_of(channel: Any, table_id: int) -> discord.Message:
    """The newest message of ``channel`` holding table ``table_id``'s lobby buttons."""
    return [m for m in stored_messages(channel)
            if any(c.get("custom_id", "").startswith(f"dh:l:{table_id}:") for c in components(m))][-1]


def lobby_button(message: discord.Message, action: str) -> str:
    return next(c["custom_id"] for c in components(message) if c.get("custom_id", "").endswith(f":{action}"))


def leaks(texts: list[str], lang: str) -> list[str]:
    return [leak for leak in english_left(texts, lang) if leak.startswith(tuple(repr(m) for m in COVERED))]


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_lobby_notes_the_start_and_a_deleted_thread_speak_the_servers_language(world: Any, lang: str) -> None:
    await configure(world, language=lang)
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    words = WORDS[lang]
    await alice.slash(world.channel, "game new", game="pedwar")
    await bob.click(lobby_of(world.channel, 1), custom_id=lobby_button(lobby_of(world.channel, 1), "join"))
    assert words["joined"] in lobby_of(world.channel, 1).content
    await bob.click(lobby_of(world.channel, 1), custom_id=lobby_button(lobby_of(world.channel, 1), "leave"))
    assert words["left"] in lobby_of(world.channel, 1).content
    added = await alice.slash(world.channel, "game addbot")
    assert words["bot"] in answer_text(added)
    await alice.click(lobby_of(world.channel, 1), custom_id=lobby_button(lobby_of(world.channel, 1), "start"))
    # Every lobby message of the table now says, in the server's language, that its game has started.
    started = [m for m in stored_messages(world.channel) if m.embeds and words["table 1"] in (m.embeds[0].title or "")]
    assert started and all(words["started"] in m.content for m in started), [m.content for m in started]

    other = world.guild.create_text_channel("more")
    await carol.slash(other, "game new", game="do_over")
    closed = await carol.slash(other, "game leave")
    assert answer_text(closed).startswith(words["closed"]), answer_text(closed)

    await dave.slash(world.channel, "game new", game="pentawar", thread=True)
    thread = world.channel.threads[0]
    await bob.slash(thread, "game join")
    begun = await dave.slash(thread, "game start")
    assert words["begins"] in answer_text(begun), answer_text(begun)
    world.env.backend.delete_channel(thread.id)
    await world.env.advance_time(1)
    deleted = [m.content for m in world.channel.history() if m.content.startswith("🗑️")]
    assert len(deleted) == 1 and deleted[0].startswith(words["deleted"]), deleted

    read = [m.content for channel in (world.channel, other) for m in stored_messages(channel)]
    read += [answer_text(added), answer_text(closed), answer_text(begun)]
    assert leaks(read, lang) == []


async def test_an_english_server_keeps_the_english_lobby_notes(world: Any) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pedwar")
    await bob.click(lobby_of(world.channel, 1), custom_id=lobby_button(lobby_of(world.channel, 1), "join"))
    assert "bob joined." in lobby_of(world.channel, 1).content
    added = await alice.slash(world.channel, "game addbot")
    assert "A bot sat down." in answer_text(added)
    await alice.click(lobby_of(world.channel, 1), custom_id=lobby_button(lobby_of(world.channel, 1), "start"))
    started = [m for m in stored_messages(world.channel) if m.embeds and "#1" in (m.embeds[0].title or "")]
    assert all("The game has started." in m.content for m in started), [m.content for m in started]


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_a_retired_lobby_message_speaks_the_servers_language(world: Any, lang: str) -> None:
    await configure(world, language=lang)
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pedwar")
    for _ in range(3):  # six more lobby messages: the oldest are retired
        await bob.slash(world.channel, "game join")
        await bob.slash(world.channel, "game leave")
    retired = [m.content for m in stored_messages(world.channel) if m.content.startswith("⬇️")]
    said = {"fr": "⬇️ Cette salle d'attente a un message plus récent ci-dessous.",
            "uk": "⬇️ Для цього лобі нижче є новіше повідомлення."}[lang]
    assert retired and all(text == said for text in retired), retired


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_a_start_or_a_move_whose_answer_fails_is_told_in_the_members_language(
        world: Any, lang: str, member_locales: dict[int, str], monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    member_locales[alice.id] = member_locales[bob.id] = lang
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    with monkeypatch.context() as patched:
        patched.setattr("cogs.flow.lobby_message", cannot_draw)
        started = await alice.click(lobby_of(world.channel, 1), custom_id=lobby_button(lobby_of(world.channel, 1),
                                                                                          "start"))
    said = {"fr": ("La partie a commencé (places : ", "votre coup a bien été joué"),
            "uk": ("Гра почалася (місця: ", "ваш хід зроблено")}[lang]
    assert said[0] in answer_text(started), answer_text(started)
    message = latest_table_message(world.channel)
    mover = alice if seats_to_act(message)[0] == alice.id else bob
    value = (await mover.autocomplete(world.channel, "play", "action", ""))[0]["value"]
    monkeypatch.setattr("cogs.flow.hand_message", cannot_draw)
    monkeypatch.setattr("cogs.flow.move_done_message", cannot_draw)
    moved = await mover.slash(world.channel, "play", action=value)
    assert moved.ephemeral and said[1] in answer_text(moved), answer_text(moved)
    assert english_left([answer_text(started), answer_text(moved)], lang) == []


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_a_lobby_of_an_abandoned_or_finished_table_says_so_in_the_servers_language(world: Any,
                                                                                          lang: str) -> None:
    await configure(world, language=lang)
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pedwar")
    await alice.slash(world.channel, "game abandon")
    closed = {"fr": "Cette table a été fermée.", "uk": "Цей стіл закрито."}[lang]
    number = WORDS[lang]["table 1"]
    first = [m for m in stored_messages(world.channel) if m.embeds and number in (m.embeds[0].title or "")]
    assert first and all(m.content == closed for m in first), [m.content for m in first]

    other = world.guild.create_text_channel("more")
    await bob.slash(other, "game new", game="do_over")  # bob: alice waits out her new_cooldown
    await alice.slash(other, "game join")
    await bob.slash(other, "game start")
    await alice.slash(other, "game resign")
    over = {"fr": "🏁 La partie est terminée.", "uk": "🏁 Гру закінчено."}[lang]
    number = {"fr": "table n° 2", "uk": "стіл № 2"}[lang]
    second = [m for m in stored_messages(other) if m.embeds and number in (m.embeds[0].title or "")]
    assert second and all(m.content == over for m in second), [m.content for m in second]
