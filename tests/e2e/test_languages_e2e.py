"""Which language Deckhand speaks: a server's ``language`` setting (``auto`` follows its Discord language when
it is English, French or Ukrainian), and each member's last seen locale, kept for direct messages."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import create_bot
from cogs.locales import channel_language
from tests.e2e.test_reliability_e2e import answer_text
from tests.languages import english_left


def manager(world: Any, guild: Any = None) -> Any:
    guild = guild or world.guild
    role = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(world.env.create_user("mona"), roles=[role])


async def language_of(world: Any, guild: Any) -> str:
    bot = world.env.bot
    settings = await bot.services.server_settings.get(guild.id)
    return channel_language(settings, bot.get_guild(guild.id))


def stored(db_path: str, sql: str, *args: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(sql, args).fetchall()


async def test_a_server_follows_its_discord_language_until_a_manager_sets_one(world: Any, db_path: str) -> None:
    env = world.env
    ukrainian = env.create_guild("Козаки", preferred_locale="uk")
    german = env.create_guild("Skat", preferred_locale="de")
    canadian = env.create_guild("Québec", preferred_locale="fr")
    assert await language_of(world, ukrainian) == "uk"
    assert await language_of(world, canadian) == "fr"
    assert await language_of(world, german) == "en"
    assert await language_of(world, world.guild) == "en"  # SimCord's default, en-US
    mona = manager(world, german)
    channel = german.create_text_channel("games")
    done = await mona.slash(channel, "config set", setting="language", value="FR")
    assert "`language` is now **fr**" in answer_text(done)
    assert await language_of(world, german) == "fr"
    assert stored(db_path, "SELECT value FROM guild_settings WHERE guild_id = ? AND name = 'language'",
                  german.id) == [("fr",)]
    shown = answer_text(await mona.slash(channel, "config show"))
    assert "`language` = **fr**" in shown
    await mona.slash(channel, "config set", setting="language", value="auto")
    assert await language_of(world, german) == "en"


async def test_a_language_deckhand_does_not_speak_is_refused_privately_and_changes_nothing(world: Any,
                                                                                         db_path: str) -> None:
    mona = manager(world)
    bad = await mona.slash(world.channel, "config set", setting="language", value="de")
    text = answer_text(bad)
    assert "`en`" in text and "`fr`" in text and "`uk`" in text and "`auto`" in text
    assert bad.response.flags.ephemeral
    assert stored(db_path, "SELECT COUNT(*) FROM guild_settings") == [(0,)]


async def test_a_refusal_speaks_the_members_language(world: Any, db_path: str,
                                                     member_locales: dict[int, str]) -> None:
    mona = manager(world)
    member_locales[mona.id] = "fr"
    bad = await mona.slash(world.channel, "config set", setting="language", value="de")
    assert answer_text(bad) == "`language` prend l'une de ces valeurs : `en`, `fr`, `uk`, `auto`."
    assert bad.response.flags.ephemeral
    assert stored(db_path, "SELECT COUNT(*) FROM guild_settings") == [(0,)]


async def test_a_members_last_seen_locale_is_kept_for_direct_messages_across_a_restart(
        world: Any, db_path: str, member_locales: dict[int, str]) -> None:
    alice, bob, carol = world.members["alice"], world.members["bob"], world.members["carol"]
    member_locales[alice.id] = "fr"
    member_locales[bob.id] = "uk"
    await alice.slash(world.channel, "game tables")
    await bob.slash(world.channel, "game tables")
    first_seen = stored(db_path, "SELECT seen_at FROM member_locales WHERE user_id = ?", bob.id)
    await world.env.advance_time(60)
    await bob.slash(world.channel, "game mine")
    languages = world.env.bot.services.languages
    assert await languages.dm_language(alice.id) == "fr"
    assert await languages.dm_language(bob.id) == "uk"
    assert await languages.dm_language(carol.id) == "en"  # never seen
    # Bob's second interaction, in the same locale, a minute later, wrote nothing.
    assert stored(db_path, "SELECT seen_at FROM member_locales WHERE user_id = ?", bob.id) == first_seen
    assert stored(db_path, "SELECT user_id, locale FROM member_locales ORDER BY locale") == [
        (alice.id, "fr"), (bob.id, "uk")]
    member_locales[alice.id] = "en-GB"
    await alice.slash(world.channel, "game tables")
    await world.env.restart_bot(create_bot())
    languages = world.env.bot.services.languages
    assert await languages.dm_language(alice.id) == "en"
    assert await languages.dm_language(bob.id) == "uk"


async def test_a_regional_french_locale_is_french(world: Any, member_locales: dict[int, str]) -> None:
    dave = world.members["dave"]
    member_locales[dave.id] = "fr-CA"  # Discord sends only "fr" today; the mapping is by language anyway
    await dave.slash(world.channel, "game tables")
    assert await world.env.bot.services.languages.dm_language(dave.id) == "fr"


async def test_config_answers_each_manager_in_their_own_language(world: Any, member_locales: dict[int, str]) -> None:
    """/config's answers are private: they speak the member's Discord language, whatever the server's."""
    mona = manager(world)
    member_locales[mona.id] = "fr"
    shown = answer_text(await mona.slash(world.channel, "config show"))
    assert shown.startswith("**Réglages de Deckhand pour ce serveur**")
    assert "`max_entrants_limit` = **256**: le nombre maximal d'inscrits à un tournoi, de 2 à 1\u202f024" in shown
    assert "Deckhand settings" not in shown and "default turn clock" not in shown
    assert english_left([shown], "fr") == []
    done = answer_text(await mona.slash(world.channel, "config set", setting="reminders", value="off"))
    assert done.startswith("`reminders` vaut maintenant **off**.")
    member_locales[mona.id] = "uk"
    done = answer_text(await mona.slash(world.channel, "config set", setting="language", value="uk"))
    assert done.startswith("`language` тепер **uk**.")
    member_locales[mona.id] = "en-US"  # the server now speaks Ukrainian; an English member still reads English
    shown = answer_text(await mona.slash(world.channel, "config show"))
    assert shown.startswith("**Deckhand settings for this server**") and "`language` = **uk**" in shown


async def test_the_apology_for_a_failure_speaks_the_members_language(world: Any, member_locales: dict[int, str],
                                                                     monkeypatch: Any) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(world.env.bot.services.server_settings, "shown", broken)
    mona = manager(world)
    member_locales[mona.id] = "uk"
    failed = await mona.slash(world.channel, "config show")
    assert answer_text(failed) == "Вибачте, у мене щось пішло не так. Стіл у безпеці; спробуйте ще раз."
    assert failed.response.flags.ephemeral


@pytest.mark.parametrize("locale, lang", [("fr", "fr"), ("uk", "uk"), ("en-US", "en"), ("de", "en")])
async def test_game_rules_attaches_the_rules_in_the_members_language(world: Any, member_locales: dict[int, str],
                                                                     locale: str, lang: str) -> None:
    root = Path(__file__).resolve().parents[2] / "docs" / "rules"
    alice = world.members["alice"]
    member_locales[alice.id] = locale
    for game in ("do_over", "king_pedro"):
        result = await alice.slash(world.channel, "game rules", game=game)
        name = f"{game.replace('_', '-')}.md"
        translated = root / lang / name
        # A language's rules are attached once translated; until then the English ones.
        expected = translated if lang != "en" and translated.exists() else root / name
        assert [a.filename for a in result.response.attachments] == [name]
        assert (await result.response.attachments[0].read()).decode() == expected.read_text(encoding="utf-8")
    if lang == "fr":
        assert (root / "fr" / "do-over.md").exists(), "the French rules are in the repository"


async def test_a_stale_click_is_told_in_the_members_language(world: Any, member_locales: dict[int, str]) -> None:
    from tests.e2e.driver import choices_in, latest_table_message, open_hand, seats_to_act, take_turn
    from tests.e2e.test_do_over_e2e import open_table

    alice, bob, carol = (world.members[n] for n in ("alice", "bob", "carol"))
    await open_table(world, ["alice", "bob", "carol"])
    await alice.slash(world.channel, "game start")
    for member in (alice, bob, carol):
        await take_turn(member, latest_table_message(world.channel),
                        lambda opts: next(o for o in opts if o[2] == "ready"))
    message = latest_table_message(world.channel)
    mover = next(m for m in (alice, bob, carol) if m.id == seats_to_act(message)[0])
    member_locales[mover.id] = "fr"
    panel = await open_hand(mover, message)
    choice = choices_in(panel)[0]
    await mover.slash(world.channel, "play", action=choice[2])
    old = await (mover.click(panel, custom_id=choice[1]) if choice[0] == "button"
                 else mover.select(panel, [choice[2]], custom_id=choice[1]))
    text = old.response.content + "".join(f.content for f in old.followups)
    assert old.ephemeral and "⏩ Cette table a avancé depuis que ceci a été affiché." in text, text
    assert "moved on" not in text


@pytest.mark.parametrize(("lang", "game_new", "game_status"), [("fr", "/partie nouvelle", "/partie état"),
                                                               ("uk", "/гра нова", "/гра стан")])
async def test_a_command_named_in_an_answer_is_the_one_the_members_client_offers(
        world: Any, member_locales: dict[int, str], lang: str, game_new: str, game_status: str) -> None:
    """A French or Ukrainian member is told to type the command their command list shows (issue 29), the cooldown's
    refusal included; an English member at the same server keeps the English names."""
    alice, bob = world.members["alice"], world.members["bob"]
    member_locales[bob.id] = lang
    nothing = answer_text(await bob.slash(world.channel, "game status"))
    assert f"`{game_new}`" in nothing and "/game" not in nothing, nothing
    assert "`/game new`" in answer_text(await alice.slash(world.channel, "game status"))
    await bob.slash(world.channel, "game new", game="pentawar")
    other = world.guild.create_text_channel("other")
    slow = answer_text(await bob.slash(other, "game new", game="pentawar"))  # within new_cooldown
    await world.env.advance_time(4)  # past it
    taken = answer_text(await bob.slash(world.channel, "game new", game="pentawar"))
    assert f"`{game_status}`" in taken and "/game" not in taken, taken
    assert f"`{game_new}`" in slow and "/game" not in slow, slow
    assert english_left([nothing, taken, slow], lang) == []
