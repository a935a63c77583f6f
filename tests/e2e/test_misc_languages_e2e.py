"""/profile, /rating, /leaderboard, /tournament export's note, /game rules and /config show's values in the
member's language: a French or Ukrainian member's private answers hold no English message left, while an
English member at the same server keeps the English text."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from tests.e2e.driver import components
from tests.languages import english_left

pytestmark = pytest.mark.asyncio

LANGS = ("fr", "uk")


def texts(result: Any) -> list[str]:
    """Every word a member read in an answer: content, embeds (title, description, fields, footer), buttons."""
    found = []
    for message in ([result.response] if result.response is not None else []) + list(result.followups):
        found.append(message.content or "")
        for embed in message.embeds:
            found += [embed.title or "", embed.description or "", embed.footer.text or ""]
            found += [part for field in embed.fields for part in (field.name, field.value)]
        found += [c.get("label", "") for c in components(message)]
    return [text for text in found if text]


async def rated_games(world: Any, count: int = 5) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    for _ in range(count):
        await world.env.advance_time(3)  # alice's new_cooldown between two /game new
        await alice.slash(world.channel, "game new", game="do_over")
        await bob.slash(world.channel, "game join")
        await alice.slash(world.channel, "game start")
        await bob.slash(world.channel, "game resign")  # a finished table with two humans: rated


@pytest.mark.parametrize("lang", LANGS)
async def test_rating_and_leaderboard_speak_the_members_language(world: Any, member_locales: dict[int, str],
                                                                 lang: str) -> None:
    alice, carol = world.members["alice"], world.members["carol"]
    member_locales[alice.id] = lang
    none = await alice.slash(world.channel, "rating")
    empty = await alice.slash(world.channel, "leaderboard", game="pentawar")
    await rated_games(world)
    rating = await alice.slash(world.channel, "rating", game="do_over", details=True)
    board = await alice.slash(world.channel, "leaderboard", game="do_over")
    read = [t for result in (none, empty, rating, board) for t in texts(result)]
    assert english_left(read, lang) == []
    words = {"fr": ("aucune partie classée", "5 parties classées", "Palmarès de Do Over!"),
             "uk": ("рейтингових ігор", "5 рейтингових ігор", "Таблиця лідерів: Do Over!")}[lang]
    assert words[0] in texts(none)[0] and words[1] in "\n".join(texts(rating))
    assert board.response.embeds[0].title == words[2]
    assert re.search(r"1\s000", board.response.embeds[0].footer.text or "")  # 1 000: the language's way
    assert "," in "\n".join(texts(rating)).split("μ ")[1][:6]  # 25,00: the decimals the language's way
    english = "\n".join(texts(await carol.slash(world.channel, "rating", member=alice, game="do_over")))
    assert "'s ratings (a new player starts at 1,000):" in english and "5 rated games" in english


@pytest.mark.parametrize("lang", LANGS)
async def test_profile_and_game_rules_speak_the_members_language(world: Any, member_locales: dict[int, str],
                                                                 lang: str) -> None:
    alice = world.members["alice"]
    member_locales[alice.id] = lang
    read = []
    for visibility in ("hidden", "visible"):
        result = await alice.slash(world.channel, "profile", visibility=visibility)
        assert result.response.ephemeral
        read += texts(result)
    assert ("masquée" if lang == "fr" else "приховано") in read[0]
    for game in ("king_pedro", "do_over", "pentawar", "pedwar", "ogre_cheerleaders"):
        rules = await alice.slash(world.channel, "game rules", game=game)
        fields = {f.name: f.value for f in rules.response.embeds[0].fields}
        assert set(fields) == ({"Joueurs", "Vos coups", "Options de la table"} if lang == "fr"
                               else {"Гравці", "Ваші ходи", "Параметри столу"})
        read += texts(rules)  # the engine's summary too, from the catalogues
        assert not rules.response.embeds[0].description.startswith("**Do Over!** — be the first")
        if game == "king_pedro":  # the title's descriptive part, as the commands' choices say it
            assert rules.response.embeds[0].title.startswith(
                {"fr": "King Pedro canadien et ukrainien", "uk": "Канадсько-український Кінг Педро"}[lang])
    assert english_left(read, lang) == []
    assert any(("un nombre entier de 1 à 262" if lang == "fr" else "ціле число від 1 до 262") in t for t in read)


@pytest.mark.parametrize("lang", LANGS)
async def test_config_shows_the_process_default_in_the_members_language(world: Any, member_locales: dict[int, str],
                                                                        lang: str) -> None:
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    member_locales[mona.id] = lang
    shown = "\n".join(texts(await mona.slash(world.channel, "config show")))
    assert english_left([shown], lang) == [] and "(the process default)" not in shown
    assert ("valeur par défaut du processus" if lang == "fr" else "типове значення процесу") in shown
