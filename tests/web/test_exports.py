"""The exports' standings equal the standings computed again from the ``results`` rows (each finished table's
place per seat), the entrants and the byes, on both backends; the page's files equal the command's."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest

from data.store import Store
from host.tournaments.models import Entrant, PlayedRound, TableResult
from host.tournaments.standings import standings
from host.web import LeaderboardPage, LeaderLine, PublicSite, leaderboard_csv
from tests.web.helpers import GUILD, PUBLIC, bot_event, client, pages_on, service

pytestmark = pytest.mark.asyncio


async def from_results(store: Store, tournament_id: int) -> list[tuple[str, Fraction, Fraction, Fraction]]:
    """(name, points, OPP, OOPP) best first, from ``results`` joined to each round's seating."""
    entrants = await store.db.all("SELECT id, name, is_bot, lot FROM entrants WHERE tournament_id = ?",
                                (tournament_id,))
    names = {r["id"]: r["name"] for r in entrants}
    rounds = []
    for rnd in await store.db.all("SELECT number FROM rounds WHERE tournament_id = ? ORDER BY number",
                                (tournament_id,)):
        results = []
        for place in await store.db.all("SELECT seats, sides, table_id FROM tournament_tables"
                                      " WHERE tournament_id = ? AND round = ?", (tournament_id, rnd["number"])):
            rows = await store.db.all("SELECT seat, place FROM results WHERE table_id = ?", (place["table_id"],))
            if not rows:
                continue
            seat_place = {r["seat"]: r["place"] for r in rows}
            seats = json.loads(place["seats"])
            sides = [tuple(side) for side in json.loads(place["sides"])]
            results.append(TableResult(tuple(sides), tuple(seat_place[seats.index(side[0])] for side in sides)))
        byes = [r["entrant_id"] for r in await store.db.all(
            "SELECT entrant_id FROM byes WHERE tournament_id = ? AND round = ?", (tournament_id, rnd["number"]))]
        rounds.append(PlayedRound(tuple(results), tuple(byes)))
    rows = standings([Entrant(r["id"], r["name"], bool(r["is_bot"]), r["lot"] or 0) for r in entrants], rounds)
    return [(names[s.entrant], s.points, s.opp, s.oopp) for s in rows]


async def test_exports_equal_the_standings_from_the_results_rows(store: Store) -> None:
    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    event = await bot_event(store, tables, players=8, rounds=3)
    expected = await from_results(store, event)
    assert len(expected) == 8 and len({p for _, p, _, _ in expected}) > 1
    site = PublicSite(store)
    data, name = await site.export(None, event, "json", check=False)
    assert name == f"tournament-{event}.json"
    got = json.loads(data)
    assert [(s["name"], s["points"], s["opp"], s["oopp"]) for s in got["standings"]] == [
        (n, float(p), round(float(o), 6), round(float(oo), 6)) for n, p, o, oo in expected]
    text = (await site.export(None, event, "csv", check=False))[0].decode()
    lines = list(csv.reader(io.StringIO(text)))
    head = lines.index(["place", "name", "points", "opp", "oopp", "games", "byes", "dropped"])
    shown = lines[head + 1: head + 1 + len(expected)]
    assert [(r[1], float(r[2])) for r in shown] == [(n, float(p)) for n, p, _, _ in expected]
    assert [int(r[0]) for r in shown] == list(range(1, 9))
    finished = await store.db.all("SELECT COUNT(*) FROM tournament_tables WHERE tournament_id = ? AND status ="
                                " 'finished'", (event,))
    assert sum(1 for r in got["results"] if r["status"] == "finished") == 2 * finished[0][0]
    await pages_on(store)
    async with client(store) as c:
        for fmt in ("csv", "json"):
            response = await c.get(f"/s/{GUILD}/tournaments/{event}/export.{fmt}")
            assert response.status == 200
            assert await response.read() == (await site.export(None, event, fmt, check=False))[0]


FORMULAS = ['=HYPERLINK("http://evil.example","click")', "+1+1", "-2+3", "@SUM(A1:A9)", "\tTab"]


async def test_a_name_that_starts_a_formula_is_text_in_every_csv(store: Store) -> None:
    """CSV injection: a spreadsheet opening the export must show each hostile name as written, not run it."""
    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    event = await bot_event(store, tables, players=len(FORMULAS), rounds=1)
    ids = [r["id"] for r in await store.db.all("SELECT id FROM entrants WHERE tournament_id = ? ORDER BY id",
                                                (event,))]
    async with store.db.transaction() as tx:
        for entrant, name in zip(ids, FORMULAS, strict=True):
            await tx.execute("UPDATE entrants SET name = ? WHERE id = ?", (name, entrant))
    site = PublicSite(store)
    text = (await site.export(None, event, "csv", check=False))[0].decode()
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    for name in FORMULAS:
        assert "'" + name in cells, (name, text)
    assert not [c for c in cells if c.startswith(("=", "+", "@", "\t"))], text
    # The JSON is no spreadsheet: names stay as written there.
    got = json.loads((await site.export(None, event, "json", check=False))[0])
    assert sorted(s["name"] for s in got["standings"]) == sorted(FORMULAS)
    board = leaderboard_csv(LeaderboardPage(GUILD, "pedwar", "Pedwar", [
        LeaderLine(1, FORMULAS[0], 7, -1.5, 20.0, 7.0, 5)])).decode()
    assert list(csv.reader(io.StringIO(board)))[1] == ["1", "'" + FORMULAS[0], "-1.50", "20.0000", "7.0000", "5"]
