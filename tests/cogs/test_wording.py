"""Every message template reads right for any count: each presenter is given read models whose counts are
0, 1, 2, 5 and 11 (cards, choices, seats, moves, games, byes, points, rounds, entrants, tables, minutes), and
every text it produces (content, embed title, description, fields and footer, alt text) is checked for
plural errors ("1 cards", "2 game"), "a"/"an" before the wrong sound, and a deadline told in a tense
that turns false once it passes ("runs out <t:…:R>": Discord writes a past time as "5 minutes ago").

The engines' own sentences are checked in tests/engines/test_words.py with the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cogs.long_games import log_message, mine_text, tables_text
from cogs.presenter import (
    Outgoing,
    _hand_lines,
    clock_line,
    collapse,
    lobby_message,
    move_done_message,
    placings,
    reminder_message,
)
from cogs.ratings import leader_line, rating_line
from cogs.standings_pages import standing_line, standings_pages
from cogs.tournament_views import (
    entrant_list,
    format_line,
    joined_text,
    rules_lines,
    signup_message,
    status_message,
)
from host import read_models as rm
from render.words import article
from tests.engines.test_words import wording_faults

COUNTS = (0, 1, 2, 5, 11)
#: A verb before a relative Discord timestamp: true before the time, false after it ("runs out 5 minutes ago").
TENSE = re.compile(r"\b(?:runs? out|will run out|ends|expires|is due|closes|opens|starts|begins) <t:\d+:R>")
TITLES = ("Do Over!", "Pedwar", "Canadian and Ukrainian King Pedro", "Ogre Cheerleaders", "Pentawar")

CLOCK = rm.ClockView(rm.Duration(3600), "bot", False, False)
WHERE = rm.Where(1, 2, 3)
PICTURE = rm.Picture(1, "pedwar", {}, ("alice", "bob"))


def texts(out: Outgoing | str | tuple[str, Any] | list[str]) -> Iterator[str]:
    if isinstance(out, str):
        yield out
    elif isinstance(out, tuple):
        yield out[0]
    elif isinstance(out, list):
        yield from out
    else:
        yield out.content
        if out.embed is not None:
            e = out.embed
            yield from (t for t in (e.title, e.description, e.footer.text) if t)
            for f in e.fields:
                yield f"{f.name}"
                yield f"{f.value}"


def faults_in(out: Any) -> list[str]:
    found = []
    for text in texts(out):
        found += wording_faults(text, public=False)
        found += [f"tense: {m.group(0)!r} in {text!r}" for m in TENSE.finditer(text)]
    return found


def seats(n: int) -> tuple[rm.SeatView, ...]:
    return tuple(rm.SeatView(i, f"p{i}", 100 + i, False) for i in range(n))


def hand(choices: int, status: str = rm.PLAYING) -> rm.HandPanel:
    return rm.HandPanel(1, "Pedwar", 4, status, 0, "alice", "", None,
                        tuple((f"a{i}", f"Move {i}") for i in range(choices)), ("bob",), PICTURE, 1e9)


def event(n: int, status: str = "registration") -> rm.TournamentView:
    record = rm.EventInfo(1, "Cup", "pedwar", "Pedwar", "swiss", 2, 0, n or None, rm.Duration(3600),
                          rm.Duration(7200), {}, 9, status, False, None, None, starts_at=1e9, checkin_minutes=n,
                          max_entrants=n, late_join_rounds=n)
    entrants = tuple(rm.EntrantInfo(i, 100 + i, f"e{i}", False, False, None, missed_rounds=n) for i in range(1, n + 1))
    rounds = (rm.RoundInfo(1, "swiss", "playing", 1e9, 0),) if status == "playing" else ()
    places = tuple(rm.PlaceInfo(1, i, ((1,), (2,)), i, "finished" if i % 2 else "playing", None, False)
                   for i in range(n)) if status == "playing" else ()
    return rm.TournamentView(record, entrants, rounds, places, ())


def every_template(n: int) -> Iterator[tuple[str, Any]]:
    yield "lobby", lobby_message(rm.LobbyMessage(1, "Pedwar", 9, rm.LOBBY, seats(n), 2, max(n, 4), (), CLOCK))
    for status in (rm.PLAYING, rm.FINISHED, rm.ABANDONED):
        yield f"lobby {status}", lobby_message(rm.LobbyMessage(1, "Pedwar", 9, status, seats(n), 2, 4, (), CLOCK))
    yield "hand", _hand_lines(hand(n), "")
    yield "move done", move_done_message(hand(0), "✅ done")
    yield "clock", clock_line(CLOCK)
    yield "collapsed", collapse(["**bob** discards a card face down"] * n + ["**bob** bids 40"] * n)
    yield "placings", placings(tuple(rm.Placing(i + 1, f"p{i}") for i in range(n)))
    yield "reminder", reminder_message(rm.ReminderMessage(1, WHERE, (0,), (100,), 1e9))
    yield "mine", mine_text(rm.MyTables(tuple(
        rm.MineRow(i, "Pedwar", rm.PLAYING, i % 2 == 0, ("bob",), 1e9, False, WHERE) for i in range(n))))
    rows = tuple(rm.TableRow(i, "Pedwar", status, n, 4, CLOCK, WHERE) for i in range(n) for status in (rm.LOBBY,
                                                                                                     rm.PLAYING))
    yield "tables", tables_text(rm.ServerTables(rows[::2], rows[1::2]))
    yield "log", log_message(rm.MoveLog(1, "Pedwar", rm.PLAYING, seats(2), tuple(
        rm.LoggedMove(i, 1e9, "**alice** passes", ()) for i in range(n))))
    row = rm.RatingRow("pedwar", "Pedwar", 25.0, 8.0, n, 1000)
    yield "rating", [rating_line(row, False), rating_line(row, True)]
    yield "leaderboard", leader_line(1, rm.LeaderRow(100, 1.0, 25.0, 8.0, n, 1000))
    for points in (Fraction(n), Fraction(1, 2), Fraction(3, 2)):
        standing = rm.StandingRow(1, 1, points, Fraction(1, 2), Fraction(1, 2), n, n, False)
        yield f"standing {points}", standing_line(standing, "alice")
    yield "standings", [p.description for p in standings_pages(
        [rm.StandingRow(i + 1, i, Fraction(n), Fraction(0), Fraction(0), n, 0, False) for i in range(n)], {})]
    for status in ("registration", "playing"):
        view = event(n, status)
        yield f"event {status}", [format_line(view), entrant_list(view), *rules_lines(view)]
        yield f"signup {status}", signup_message(view)
        yield f"status {status}", status_message(view, {})
        if view.entrants:
            yield f"joined {status}", joined_text(view, 100 + n)


@pytest.mark.parametrize("n", COUNTS)
def test_every_message_template_reads_right_for_the_count(n: int) -> None:
    faults = [f"{name}: {fault}" for name, out in every_template(n) for fault in faults_in(out)]
    assert not faults, "\n".join(faults)


def test_game_titles_take_the_article_of_their_sound() -> None:
    for title in TITLES:
        assert not wording_faults(f"opened {article(title)} {title} table", public=True), title


def test_the_tense_check_catches_a_verb_before_a_relative_time() -> None:
    assert faults_in("The round's time runs out <t:5:R>.")
    assert not faults_in("Round deadline: <t:5:R>.")


@pytest.mark.parametrize("lang", ["fr", "uk"])
def test_a_tournaments_web_page_button_speaks_the_servers_language(lang: str) -> None:
    """The link button under a tournament's sign-up, status and round messages is labelled in their language."""
    from dataclasses import replace

    from i18n import t

    view = event(2)
    view = replace(view, record=replace(view.record, web_url="https://deck.example/s/1/tournaments/9"))
    for out in (signup_message(view, lang=lang), status_message(view, {}, lang=lang)):
        labels = [item.label for item in out.view.children if getattr(item, "url", None)]
        assert labels == [t(lang, "Web page")] != ["Web page"]


#: Answers read the moment they are sent, when their time is always still ahead: a future tense is right there.
READ_AT_ONCE = {"The check-in has not opened yet. It opens <t:{when}:R>."}


def test_no_catalogue_message_puts_a_relative_time_in_the_future_tense() -> None:
    """A posted message stays and is read after its time too ("ends 2 hours ago"): every template in the catalogue,
    not only those rendered above, says a relative time without a tense (the round's pairings and the check-in
    ping did not)."""
    from babel.messages.pofile import read_po

    tense = re.compile(TENSE.pattern.replace(r"<t:\d+:R>", r"<t:\{\w+\}:R>"))
    with open(Path(__file__).resolve().parents[2] / "i18n" / "locales" / "deckhand.pot", "rb") as pot:
        ids = [i for m in read_po(pot) for i in (m.id if isinstance(m.id, tuple) else (m.id,)) if i]
    assert len(ids) > 500
    assert [i for i in ids if tense.search(i) and i not in READ_AT_ONCE] == []
