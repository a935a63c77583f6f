"""The refusals of typed values (durations, table options, /config settings, threads) keep their message id and
params, so the guard shows each in the member's language; their English text is unchanged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest

from cogs.guard import refusal_text
from cogs.threads import open_table_thread
from engines import get_engine
from host.durations import TURN_TIME_BOUNDS, parse_duration
from host.errors import Refusal
from host.parsing import MAX_OPTION, parse_options
from host.settings import MAX_BOT_DELAY, NUMBER_BOUNDS, ServerSettings, Settings, normalise
from host.table_options import check_table_options
from tests.languages import english_left

LANGS = ("fr", "uk")
OPEN_HIGH = NUMBER_BOUNDS["max_open_tables"][1]


def refused(call: Callable[[], Any]) -> Refusal:
    with pytest.raises(Refusal) as caught:
        call()
    return caught.value


def turn_time(text: str) -> Callable[[], Any]:
    return lambda: parse_duration(text, low=TURN_TIME_BOUNDS[0], high=TURN_TIME_BOUNDS[1])


#: Each refusal, how to cause it, its English text (unchanged) and a word of each translation.
CASES = [
    (turn_time("soon"), "`soon` isn't a duration I can read for `turn_time`. Use `off`, or a whole number with s, "
                        "m, h or d, such as `90s`, `10m`, `12h`, `3d` or `1d12h`.",
     {"fr": "Je ne sais pas lire `soon`", "uk": "Не можу прочитати `soon`"}),
    (turn_time("5s"), "`turn_time` must be between 30s and 14d; `5s` is shorter than that.",
     {"fr": "`5s` est plus court", "uk": "`5s` — коротше"}),
    (turn_time("20d"), "`turn_time` must be between 30s and 14d; `20d` is longer than that.",
     {"fr": "`20d` est plus long", "uk": "`20d` — довше"}),
    (lambda: parse_options("max_turns"), "Options look like `name=value`, e.g. `max_turns=300`; I couldn't read "
                                         "`max_turns`.",
     {"fr": "je n'ai pas pu lire `max_turns`", "uk": "не вдалося прочитати `max_turns`"}),
    (lambda: parse_options("Max=3"), "`Max` isn't an option name; see `/game rules` for the game's options.",
     {"fr": "`/partie règles`", "uk": "`/гра правила`"}),
    # A value no option takes is refused by the game's own check, with that option's range (a range of the
    # parser's own, "1 to 100,000", contradicted the game's), and an option the game lacks as unknown.
    (lambda: check_table_options(get_engine("pedwar"), parse_options("max_turns=lots")),
     "`max_turns` is a whole number from 1 to 5,000. Pedwar options: `max_turns`: a whole number from 1 to 5,000 "
     "(default 500).", {"fr": "`max_turns` accepte un nombre entier de 1 à 5\u202f000", "uk": "ціле число від 1 до 5"}),
    (lambda: check_table_options(get_engine("pentawar"), parse_options("max_turns=abc")),
     "`max_turns` is an unknown option for Pentawar. Pentawar tables have no options.",
     {"fr": "n'est pas une option de Pentawar", "uk": "невідомий параметр для Pentawar"}),
    (lambda: normalise("colour", "red"), "There is no setting `colour`. The settings are: turn_time, on_timeout, "
                                         "thread, reminders, bot_delay, bot_level, lobby_timeout, game_channels, "
                                         "web_pages, timezone, max_entrants_limit, tournament_organiser_role, "
                                         "language, max_open_tables, max_thread_tables, tournament_creators, "
                                         "max_bot_entrants, new_cooldown.",
     {"fr": "Il n'y a pas de réglage `colour`", "uk": "Налаштування `colour` немає"}),
    (lambda: normalise("bot_delay", "slow"), f"`bot_delay` is a whole number of seconds from 0 to {MAX_BOT_DELAY}.",
     {"fr": f"nombre entier de secondes, de 0 à {MAX_BOT_DELAY}", "uk": f"ціле число секунд від 0 до {MAX_BOT_DELAY}"}),
    (lambda: normalise("max_open_tables", "0"), f"`max_open_tables` is a whole number from 1 to {OPEN_HIGH}.",
     {"fr": f"`max_open_tables` est un nombre entier de 1 à {OPEN_HIGH}",
      "uk": f"`max_open_tables` — ціле число від 1 до {OPEN_HIGH}"}),
    (lambda: normalise("tournament_organiser_role", "mods"),
     "`tournament_organiser_role` is a role (a mention or its id), or `none`.",
     {"fr": "est un rôle", "uk": "це роль"}),
    (lambda: normalise("game_channels", "#games"),
     "`game_channels` is `any`, or channels (#mentions or ids) separated by spaces.",
     {"fr": "séparés par des espaces", "uk": "розділені пробілами"}),
    (lambda: normalise("game_channels", " "),
     "`game_channels` is `any`, or channels (#mentions or ids) separated by spaces.",
     {"fr": "séparés par des espaces", "uk": "розділені пробілами"}),
    (lambda: normalise("timezone", "Mars/Olympus"), "`Mars/Olympus` is not a time zone I know. Use an IANA name such "
                                                    "as `UTC`, `Europe/Paris` or `America/New_York`.",
     {"fr": "Je ne connais pas le fuseau horaire `Mars/Olympus`", "uk": "Я не знаю часового поясу `Mars/Olympus`"}),
]


@pytest.mark.parametrize(("cause", "english", "words"), CASES, ids=[c[1][:40] for c in CASES])
def test_a_typed_value_refusal_reads_in_each_language_and_english_is_unchanged(
        cause: Callable[[], Any], english: str, words: dict[str, str]) -> None:
    refusal = refused(cause)
    assert str(refusal) == english
    assert refusal_text(refusal, "en") == english
    for lang in LANGS:
        shown = refusal_text(refusal, lang)
        assert words[lang] in shown, shown
        assert english_left([shown], lang) == []


def test_every_value_a_game_option_takes_is_read_as_a_number() -> None:
    # The parser reads whole numbers up to MAX_OPTION; past it a value is kept as text, for the game to refuse.
    from engines import GAME_TITLES
    from host.table_options import table_options

    for game in GAME_TITLES:
        for option in table_options(get_engine(game)):
            if not option.is_flag and option.high is not None:
                assert option.high <= MAX_OPTION, (game, option.name)
                assert parse_options(f"{option.name}={option.high}") == {option.name: option.high}


async def test_a_table_opened_outside_the_game_channels_is_refused_in_each_language() -> None:
    service = ServerSettings.__new__(ServerSettings)

    async def get(guild_id: int | None) -> Settings:
        return Settings(game_channels=(11, 12))

    service.get = get  # type: ignore[method-assign]
    refusal = None
    try:
        await service.require_play_here(1, 99, "Tables")
    except Refusal as caught:
        refusal = caught
    assert refusal is not None
    assert str(refusal) == "Tables can't be opened here. This server plays in <#11> <#12>."
    assert refusal_text(refusal, "fr") == "Impossible d'ouvrir une table ici. Ce serveur joue dans <#11> <#12>."
    assert refusal_text(refusal, "uk") == "Тут не можна відкривати столи. На цьому сервері грають у <#11> <#12>."


class _NoThreads:
    """A channel without threads (a voice channel's text chat)."""


class _Refusing:
    def __init__(self, error: Exception) -> None:
        self.error = error

    async def create_thread(self, **kwargs: Any) -> Any:
        raise self.error


class _Response:
    status = 403
    reason = "Forbidden"


def _http(status: int, code: int) -> discord.HTTPException:
    response = _Response()
    response.status = status
    cls = discord.Forbidden if status == 403 else discord.HTTPException
    return cls(response, {"code": code, "message": "no"})  # type: ignore[arg-type]


THREAD_CASES = [
    (_NoThreads(), "Threads can't be opened in this kind of channel.", {"fr": "`fil:false`", "uk": "`гілка:false`"}),
    (_Refusing(_http(403, 50013)), "I need the **Create Public Threads** permission",
     {"fr": "**Créer des fils publics**", "uk": "**Створювати публічні гілки**"}),
    (_Refusing(_http(400, 160006)), "reached Discord's limit of active threads",
     {"fr": "limite de fils actifs", "uk": "ліміту Discord на активні гілки"}),
    (_Refusing(_http(500, 0)), "Discord refused to open a thread (500).",
     {"fr": "Discord a refusé d'ouvrir un fil (500)", "uk": "Discord відмовився відкрити гілку (500)"}),
]


@pytest.mark.parametrize(("channel", "english", "words"), THREAD_CASES, ids=["kind", "permission", "limit", "other"])
async def test_a_thread_refusal_reads_in_each_language(channel: Any, english: str, words: dict[str, str]) -> None:
    with pytest.raises(Refusal) as caught:
        await open_table_thread(channel, "Pedwar · new table")
    assert english in str(caught.value)
    for lang in LANGS:
        shown = refusal_text(caught.value, lang)
        assert words[lang] in shown, shown
        assert english_left([shown], lang) == []
