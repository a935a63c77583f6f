"""The host layer's refusals (tables, table options, flood limits, the bot's permissions) keep their message id
and params down to the guard, which shows each in the member's language: no English left in French or
Ukrainian, numbers written each language's way, and the English text as it always was."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from cogs.guard import refusal_text
from data.store import Store
from engines import get_engine
from host import permissions
from host.errors import Refusal
from host.limits import NEW_TABLE, Cooldowns, check_new_table
from host.table_options import check_table_options
from host.tables import TableService
from i18n import said
from tests.languages import english_left

LANGS = ("fr", "uk")


@pytest.fixture
async def tables(tmp_path: Any) -> AsyncIterator[TableService]:
    store = await Store.connect(str(tmp_path / "store.sqlite3"))
    yield TableService(store)
    await store.close()


def shown(refusal: Refusal, english: str, words: dict[str, str]) -> None:
    """The refusal's English holds ``english``; in French and Ukrainian it holds ``words`` and no English."""
    assert english in str(refusal) and english in refusal_text(refusal, "en"), str(refusal)
    for lang in LANGS:
        text = refusal_text(refusal, lang)
        assert words[lang] in text, text
        assert english_left([text], lang) == [], text


async def refused(call: Callable[[], Awaitable[Any]]) -> Refusal:
    with pytest.raises(Refusal) as caught:
        await call()
    return caught.value


async def new(tables: TableService, channel: int = 5, user: int = 1, parent: int | None = None) -> Any:
    return await tables.create(guild_id=1, channel_id=channel, game_id="pentawar", options=None, user_id=user,
                               user_name=f"member{user}", parent_id=parent)


async def test_a_busy_channel_names_its_table_and_status_in_the_members_language(tables: TableService) -> None:
    await new(tables)
    refusal = await refused(lambda: new(tables, user=2))
    shown(refusal, "This channel already has a table (Pentawar, table #1, lobby). Use `/game status`",
          {"fr": "Ce salon a déjà une table (Pentawar, table n° 1, salle d'attente). Utilisez `/partie état`",
           "uk": "У цьому каналі вже є стіл (Pentawar, стіл № 1, лобі)."})


async def test_a_channel_whose_tables_play_in_threads_points_to_them(tables: TableService) -> None:
    await new(tables, channel=50, parent=5)
    await new(tables, channel=51, user=2, parent=5)
    refusal = await refused(lambda: tables.require_table(5))
    shown(refusal, "play in their own threads: table #2 in <#51>, table #1 in <#50>. Use the command there.",
          {"fr": "leurs propres fils : la table n° 2 dans <#51>, la table n° 1 dans <#50>.",
           "uk": "у власних гілках: стіл № 2 у <#51>, стіл № 1 у <#50>."})


async def test_lobby_refusals_read_in_the_members_language(tables: TableService) -> None:
    table = await new(tables)
    level = await refused(lambda: tables.add_bot(5, 1, False, level="impossible"))
    shown(level, "Bot levels are random, easy", {"fr": "Les niveaux des bots sont random, easy",
                                                "uk": "Рівні ботів: random, easy"})
    host_only = await refused(lambda: tables.start(5, 2, False))
    shown(host_only, "Only the table's host or a member with **Manage Server** can start the game.",
          {"fr": "**Gérer le serveur** peut lancer la partie.", "uk": "**Керувати сервером** може почати гру."})
    bots = await refused(lambda: tables.add_bot(5, 2, False))
    shown(bots, "can add bot players.", {"fr": "peut ajouter des bots.", "uk": "може додавати ботів."})
    await tables.abandon(5, 1, False)
    twice = await refused(lambda: tables.abandon(5, 1, False, table_id=table.id))
    shown(twice, "Table #1 is already abandoned.", {"fr": "La table n° 1 est déjà fermée.",
                                                    "uk": "Стіл № 1 уже закрито."})


async def test_an_unknown_game_is_named_in_the_members_language(tables: TableService) -> None:
    with pytest.raises(Refusal) as caught:
        tables.game("snap")
    shown(caught.value, "I don't know a game called `snap`.", {"fr": "aucun jeu nommé `snap`",
                                                              "uk": "не знаю гри з назвою `snap`"})


def options_refusal(game: str, options: dict[str, Any]) -> Refusal:
    with pytest.raises(Refusal) as caught:
        check_table_options(get_engine(game), options)
    return caught.value


def test_table_option_refusals_list_the_options_in_the_members_language() -> None:
    out_of_range = options_refusal("pedwar", {"max_turns": 5_001})
    shown(out_of_range, "`max_turns` is a whole number from 1 to 5,000, not 5,001. Pedwar options: `max_turns`",
          {"fr": "`max_turns` accepte un nombre entier de 1 à 5\u202f000, pas 5\u202f001. Options de Pedwar : "
                 "`max_turns` : un nombre entier",
           "uk": "`max_turns` — це ціле число від 1 до 5\xa0000, а не 5\xa0001. Параметри Pedwar: `max_turns`"})
    unknown = options_refusal("king_pedro", {"colour": 3})
    shown(unknown, "`colour` is an unknown option for Canadian and Ukrainian King Pedro. Canadian and Ukrainian "
                   "King Pedro options: `target`",
          {"fr": "`colour` n'est pas une option de King Pedro canadien et ukrainien. Options de King Pedro canadien",
           "uk": "`colour` — невідомий параметр для"})
    flag = options_refusal("do_over", {"allow_voluntary_take": 3})
    shown(flag, "`allow_voluntary_take` is true or false", {"fr": "`allow_voluntary_take` accepte true ou false",
                                                            "uk": "`allow_voluntary_take` — це true або false"})
    none = options_refusal("pentawar", {"max_turns": 10})
    shown(none, "Pentawar tables have no options.", {"fr": "Les tables de Pentawar n'ont pas d'options.",
                                                     "uk": "Столи Pentawar не мають параметрів."})


def test_missing_permissions_are_named_as_discord_shows_them_in_each_language() -> None:
    with pytest.raises(Refusal) as caught:
        permissions.require({"view_channel", "send_messages", "read_message_history"}, permissions.OPEN_TABLE,
                            thread=True)
    shown(caught.value, "I can't open a table here: I lack **Send Messages in Threads**, **Embed Links**, **Attach "
                        "Files**, **Create Public Threads**, **Manage Threads** in this channel.",
          {"fr": "Je ne peux pas ouvrir une table ici : il me manque **Envoyer des messages dans les fils**, "
                 "**Intégrer des liens**, **Joindre des fichiers**, **Créer des fils publics**, **Gérer les fils**",
           "uk": "Я не можу відкрити стіл тут: мені бракує дозволів **Надсилати повідомлення в гілках**"})
    with pytest.raises(Refusal) as caught:  # the tournament cog names its action with the same words
        permissions.require(set(), "open a tournament", thread=True, scheduled=True)
    shown(caught.value, "I can't open a tournament here", {"fr": "ouvrir un tournoi", "uk": "відкрити турнір"})


def test_the_cooldown_reads_in_the_members_language() -> None:
    cooldowns = Cooldowns(lambda: 100.0)
    cooldowns.take(1, 7, NEW_TABLE, 30)
    with pytest.raises(Refusal) as caught:
        cooldowns.take(1, 7, NEW_TABLE, 30)
    shown(caught.value, "Slow down: wait 30s before your next `/game new`. This server's limit is one every 30s",
          {"fr": "attendez 30 s avant votre prochain `/partie nouvelle`",
           "uk": "зачекайте 30 с перед наступним `/гра нова`"})


@pytest.mark.parametrize(("hosted", "fr", "uk"), [(1, "l'hôte de 1 table ouverte", "господар 1 відкритого столу"),
                                                  (2, "l'hôte de 2 tables ouvertes", "господар 2 відкритих столів")])
async def test_the_open_tables_limit_counts_in_each_languages_plural(tables: TableService, hosted: int, fr: str,
                                                                     uk: str) -> None:
    for channel in range(hosted):
        await new(tables, channel=5 + channel)
    refusal = await refused(lambda: check_new_table(tables.store, 1, 1, False, max_open_tables=hosted,
                                                    max_thread_tables=9))
    english = "1 open table in" if hosted == 1 else f"{hosted} open tables in"
    shown(refusal, f"You already host {english} this server", {"fr": fr, "uk": uk})


@pytest.mark.parametrize(("threads", "fr", "uk"), [
    (1, "a déjà 1 table active dans un fil", "вже 1 активний стіл у гілці"),
    (3, "a déjà 3 tables actives dans des fils", "вже 3 активні столи в гілках"),
    (5, "a déjà 5 tables actives", "вже 5 активних столів у гілках")])
async def test_the_thread_tables_limit_counts_in_each_languages_plural(tables: TableService, threads: int, fr: str,
                                                                       uk: str) -> None:
    for n in range(threads):
        await new(tables, channel=50 + n, user=10 + n, parent=5)
    refusal = await refused(lambda: check_new_table(tables.store, 1, 1, True, max_open_tables=9,
                                                    max_thread_tables=threads))
    shown(refusal, "This server already has", {"fr": fr, "uk": uk})
    assert "`fil:false`" in refusal_text(refusal, "fr") and "`гілка:false`" in refusal_text(refusal, "uk")


def test_an_engines_reason_said_from_a_message_reads_in_the_members_language() -> None:
    # An engine's IllegalAction carries an i18n.Said: the refusal keeps it, not its English alone.
    reason = said("Table #{table} was abandoned by {member}.", table=4, member="<@1>")
    refusal = Refusal(reason)
    assert str(refusal) == "Table #4 was abandoned by <@1>."
    assert refusal_text(refusal, "fr") == "La table n° 4 a été abandonnée par <@1>."


async def test_a_move_when_nobody_is_to_act_says_nobody_in_the_members_language(
        tables: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    await new(tables)
    await tables.join(5, 2, "member2")
    table = await tables.start(5, 1, False)
    engine = tables.engine_of(table)
    other = 1 - engine.to_act(await tables.state(table))[0]
    waiting = await refused(lambda: tables.apply(table, other, "x"))
    assert "Waiting for member" in str(waiting)
    monkeypatch.setattr(engine, "to_act", lambda state: [])  # as at a game's end
    nobody = await refused(lambda: tables.apply(table, 0, "x"))
    shown(nobody, "It's not your turn. Waiting for nobody.",
          {"fr": "En attente de personne.", "uk": "Чекаємо на: ніхто."})
