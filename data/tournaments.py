"""Tournaments as rows: the event, its entrants, its rounds with their tables and byes.

A round is written whole (its tables and byes) in the transaction that finishes the round before
it, or starts the event, so a round is never paired twice. Its game tables are created later, one
by one, each in a transaction that links it to its place in the round; the results a game table
records are copied to its place in that same transaction (``record_tournament_result``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from data.backends.base import IntegrityError, Tx
from data.database import Database
from data.revisions import bump_revision
from data.sql import ShardSet, shard_filter

REGISTRATION, PLAYING, FINISHED, CANCELLED = "registration", "playing", "finished", "cancelled"
ACTIVE_TOURNAMENT = (REGISTRATION, PLAYING)
#: ``EntrantRecord.left``: why an entrant is no longer paired.
DROPPED = "drop"
NO_SHOW = "no_show"
#: Disqualified by an organiser: dropped, and never champion.
DISQUALIFIED = "disqualified"
#: Signed up beyond ``max_entrants`` and still on the waiting list when the event started.
WAITLISTED = "waitlist"
#: ``left`` reasons of entrants who never played: the pairing functions never see them.
NEVER_PLAYED = (NO_SHOW, WAITLISTED)
#: Tournament timer kinds: open the check-in, start the event, push the scheduled event's end later.
CHECKIN_TIMER, START_TIMER, EVENT_END_TIMER = "checkin", "start", "event_end"


class TournamentBusy(Exception):
    """The channel already runs a tournament."""


class AlreadyEntered(Exception):
    """The member is already an entrant."""


class TournamentChanged(Exception):
    """The tournament moved on (another change won the race); nothing was written."""


@dataclass
class TournamentRecord:
    id: int
    guild_id: int | None
    channel_id: int
    name: str
    game: str
    format: str
    table_size: int
    top_cut: int
    rounds: int | None
    planned_rounds: int | None
    turn_time: int | None
    round_time: int | None
    options: dict[str, Any]
    organiser_id: int
    status: str
    checkin: bool
    message_id: int | None
    champion: list[int] | None
    #: The top cut's seeds, best first, fixed when the cut begins.
    cut_seeds: list[int] | None
    revision: int
    created_at: float
    #: When the event starts by itself (``/tournament new starts_at``), or None.
    starts_at: float | None = None
    checkin_minutes: int = 30
    #: The Discord scheduled event announcing it, and the end it shows.
    event_id: int | None = None
    event_end: float | None = None
    #: A role every entrant must hold, a cap on entrants, and how many Swiss rounds may still be joined.
    role_id: int | None = None
    max_entrants: int | None = None
    late_join_rounds: int = 0
    #: A 2-player top cut's bracket: ``single`` or ``double`` elimination.
    top_cut_format: str = "single"

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_TOURNAMENT


@dataclass
class EntrantRecord:
    id: int
    tournament_id: int
    user_id: int | None
    name: str
    is_bot: bool
    level: str | None
    lot: int | None
    rating: float | None
    checked_in: bool
    left: str | None
    #: Rounds played before this entrant joined late: each a loss with no opponent.
    missed_rounds: int = 0

    @property
    def active(self) -> bool:
        return self.left is None


@dataclass
class RoundRecord:
    tournament_id: int
    number: int
    stage: str
    status: str
    due: float | None
    announced: int
    started_at: float


@dataclass
class PlaceRecord:
    """One table of a round: entrant ids by seat, the sides, and once over, each side's place."""

    tournament_id: int
    round: int
    position: int
    seats: list[int]
    sides: list[list[int]]
    table_id: int | None
    status: str
    places: list[int] | None
    drawn: bool


@dataclass
class PenaltyRecord:
    """A penalty (warning, game_loss, disqualify) or an organiser's note about an entrant."""

    id: int
    tournament_id: int
    entrant_id: int
    kind: str
    text: str
    organiser_id: int
    at: float
    #: A game loss still waiting for the entrant's next table.
    pending: bool


@dataclass
class RoundPlan:
    """A round to write: its tables (seats and sides, entrant ids) and its byes."""

    number: int
    stage: str
    tables: list[tuple[list[int], list[list[int]]]]
    byes: list[int] = field(default_factory=list)
    due: float | None = None
    #: Tables decided without play (a walkover in a bracket): seats, sides, places.
    decided: list[tuple[list[int], list[list[int]], list[int]]] = field(default_factory=list)


def _tournament(row: Any) -> TournamentRecord:
    return TournamentRecord(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], name=row["name"], game=row["game"],
        format=row["format"], table_size=row["table_size"], top_cut=row["top_cut"], rounds=row["rounds"],
        planned_rounds=row["planned_rounds"], turn_time=row["turn_time"], round_time=row["round_time"],
        options=json.loads(row["options"]), organiser_id=row["organiser_id"], status=row["status"],
        checkin=bool(row["checkin"]), message_id=row["message_id"],
        champion=json.loads(row["champion"]) if row["champion"] else None,
        cut_seeds=json.loads(row["cut_seeds"]) if row["cut_seeds"] else None, revision=row["revision"],
        created_at=row["created_at"], starts_at=row["starts_at"], checkin_minutes=row["checkin_minutes"],
        event_id=row["event_id"], event_end=row["event_end"], role_id=row["role_id"],
        max_entrants=row["max_entrants"], late_join_rounds=row["late_join_rounds"],
        top_cut_format=row["top_cut_format"])


def _entrant(row: Any) -> EntrantRecord:
    return EntrantRecord(row["id"], row["tournament_id"], row["user_id"], row["name"], bool(row["is_bot"]),
                         row["level"], row["lot"], row["rating"], bool(row["checked_in"]), row["left_reason"],
                         row["missed_rounds"])


def _place(row: Any) -> PlaceRecord:
    return PlaceRecord(row["tournament_id"], row["round"], row["position"], json.loads(row["seats"]),
                       json.loads(row["sides"]), row["table_id"], row["status"],
                       json.loads(row["places"]) if row["places"] else None, bool(row["drawn"]))


async def record_tournament_result(tx: Tx, table_id: int, results: Sequence[tuple[int, int | None, int]],
                                   drawn: bool = False) -> None:
    """Copy a finished game table's places to its place in a tournament round, if it has one."""
    row = await tx.fetchone("SELECT seats, sides FROM tournament_tables WHERE table_id = ?", (table_id,))
    if row is None:
        return
    seats: list[int] = json.loads(row["seats"])
    sides: list[list[int]] = json.loads(row["sides"])
    place_of_seat = {seat: place for seat, _, place in results}
    seat_of = {entrant: i for i, entrant in enumerate(seats)}
    places = [min(place_of_seat[seat_of[e]] for e in side) for side in sides]
    await tx.execute("UPDATE tournament_tables SET status = 'finished', places = ?, drawn = ?"
                     " WHERE table_id = ? AND status <> 'finished'", (json.dumps(places), int(drawn), table_id))


class TournamentStore:
    """The tournament queries of the store (``Store.tournaments``), on the store's shared :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------------ reads

    async def tournament(self, tournament_id: int) -> TournamentRecord | None:
        if not 0 < tournament_id < 2**63:
            return None
        row = await self._db.one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _tournament(row)

    async def active_tournament(self, channel_id: int) -> TournamentRecord | None:
        row = await self._db.one("SELECT * FROM tournaments WHERE channel_id = ?"
                              " AND status IN ('registration', 'playing')", (channel_id,))
        return None if row is None else _tournament(row)

    async def latest_tournament(self, channel_id: int) -> TournamentRecord | None:
        row = await self._db.one("SELECT * FROM tournaments WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                              (channel_id,))
        return None if row is None else _tournament(row)

    async def running_tournaments(self) -> list[TournamentRecord]:
        rows = await self._db.all("SELECT * FROM tournaments WHERE status = 'playing' ORDER BY id")
        return [_tournament(r) for r in rows]

    async def entrants(self, tournament_id: int) -> list[EntrantRecord]:
        rows = await self._db.all("SELECT * FROM entrants WHERE tournament_id = ? ORDER BY id", (tournament_id,))
        return [_entrant(r) for r in rows]

    async def tournament_rounds(self, tournament_id: int) -> list[RoundRecord]:
        rows = await self._db.all("SELECT * FROM rounds WHERE tournament_id = ? ORDER BY number", (tournament_id,))
        return [RoundRecord(r["tournament_id"], r["number"], r["stage"], r["status"], r["due"], r["announced"],
                            r["started_at"]) for r in rows]

    async def round_places(self, tournament_id: int, number: int | None = None) -> list[PlaceRecord]:
        if number is None:
            rows = await self._db.all("SELECT * FROM tournament_tables WHERE tournament_id = ?"
                                      " ORDER BY round, position",
                                   (tournament_id,))
        else:
            rows = await self._db.all("SELECT * FROM tournament_tables WHERE tournament_id = ? AND round = ?"
                                   " ORDER BY position", (tournament_id, number))
        return [_place(r) for r in rows]

    async def place_of_table(self, table_id: int) -> PlaceRecord | None:
        row = await self._db.one("SELECT * FROM tournament_tables WHERE table_id = ?", (table_id,))
        return None if row is None else _place(row)

    async def tournament_byes(self, tournament_id: int) -> list[tuple[int, int]]:
        """(round, entrant) for every bye, in round order."""
        rows = await self._db.all("SELECT round, entrant_id FROM byes WHERE tournament_id = ?"
                                  " ORDER BY round, entrant_id",
                               (tournament_id,))
        return [(r["round"], r["entrant_id"]) for r in rows]

    # ----------------------------------------------------------------- writes

    @staticmethod
    async def _bump_tournament(tx: Tx, tournament_id: int, revision: int, statuses: Sequence[str], sets: str = "",
                               params: Sequence[Any] = ()) -> None:
        if not await bump_revision(tx, "tournaments", tournament_id, revision, statuses, sets, params):
            raise TournamentChanged(f"tournament {tournament_id} changed since revision {revision}")

    async def create_tournament(self, *, guild_id: int | None, channel_id: int, name: str, game: str, format: str,
                                table_size: int, top_cut: int, rounds: int | None, turn_time: int | None,
                                round_time: int | None, options: dict[str, Any], organiser_id: int,
                                starts_at: float | None = None, checkin_minutes: int = 30,
                                role_id: int | None = None, max_entrants: int | None = None,
                                late_join_rounds: int = 0, top_cut_format: str = "single",
                                timers: Sequence[tuple[str, float]] = ()) -> int:
        """Open registration; ``timers`` (kind, due) are the calendar's, written in the same transaction."""
        now = self._db.now()
        try:
            async with self._db.transaction() as tx:
                written = await tx.execute(
                    "INSERT INTO tournaments (guild_id, channel_id, name, game, format, table_size, top_cut, rounds,"
                    " turn_time, round_time, options, organiser_id, status, created_at, updated_at, starts_at,"
                    " checkin_minutes, role_id, max_entrants, late_join_rounds, top_cut_format)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'registration', ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, name, game, format, table_size, top_cut, rounds, turn_time, round_time,
                     json.dumps(options, sort_keys=True), organiser_id, now, now, starts_at, checkin_minutes,
                     role_id, max_entrants, late_join_rounds, top_cut_format))
                tournament_id = int(written.lastrowid or 0)
                await self._set_timers(tx, tournament_id, timers, now)
                return tournament_id
        except IntegrityError as exc:
            raise TournamentBusy from exc

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def add_entrant(self, tournament_id: int, revision: int, *, user_id: int | None, name: str,
                          is_bot: bool = False, level: str | None = None) -> None:
        try:
            async with self._db.transaction() as tx:
                await self._bump_tournament(tx, tournament_id, revision, (REGISTRATION,), ", updated_at = ?",
                                            (self._db.now(),))
                await tx.execute(
                    "INSERT INTO entrants (tournament_id, user_id, name, is_bot, level, checked_in, joined_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (tournament_id, user_id, name, int(is_bot), level, int(is_bot), self._db.now()))
        except IntegrityError as exc:
            raise AlreadyEntered from exc

    async def remove_entrant(self, tournament_id: int, revision: int, entrant_id: int) -> None:
        async with self._db.transaction() as tx:
            await self._bump_tournament(tx, tournament_id, revision, (REGISTRATION,), ", updated_at = ?",
                                        (self._db.now(),))
            # A member who leaves during registration takes that entry's notes and penalties with them: they
            # name the entry, and rejoining makes a new one.
            await tx.execute("DELETE FROM tournament_penalties WHERE entrant_id = ? AND tournament_id = ?",
                             (entrant_id, tournament_id))
            await tx.execute("DELETE FROM entrants WHERE id = ? AND tournament_id = ?", (entrant_id, tournament_id))

    async def open_checkin(self, tournament_id: int, revision: int) -> None:
        async with self._db.transaction() as tx:
            await self._bump_tournament(tx, tournament_id, revision, (REGISTRATION,), ", checkin = 1, updated_at = ?",
                                        (self._db.now(),))

    async def check_in(self, tournament_id: int, revision: int, entrant_id: int) -> None:
        async with self._db.transaction() as tx:
            await self._bump_tournament(tx, tournament_id, revision, (REGISTRATION,), ", updated_at = ?",
                                        (self._db.now(),))
            await tx.execute("UPDATE entrants SET checked_in = 1 WHERE id = ? AND tournament_id = ?",
                             (entrant_id, tournament_id))

    async def start_tournament(self, tournament_id: int, revision: int, *, planned_rounds: int,
                               lots: dict[int, tuple[int, float]], no_shows: Sequence[int], first: RoundPlan,
                               waitlisted: Sequence[int] = ()) -> None:
        """Close registration, store each entrant's lot and seeding rating, drop the no-shows, and
        write round 1: all or nothing."""
        now = self._db.now()
        async with self._db.transaction() as tx:
            await self._bump_tournament(tx, tournament_id, revision, (REGISTRATION,),
                                        ", status = 'playing', planned_rounds = ?, updated_at = ?",
                                        (planned_rounds, now))
            await tx.executemany("UPDATE entrants SET lot = ?, rating = ? WHERE id = ?",
                                 [(lot, rating, e) for e, (lot, rating) in lots.items()])
            await tx.executemany("UPDATE entrants SET left_reason = ? WHERE id = ?",
                                 [(NO_SHOW, e) for e in no_shows])
            await tx.executemany("UPDATE entrants SET left_reason = ? WHERE id = ?",
                                 [(WAITLISTED, e) for e in waitlisted])
            # Started (by hand or by its timer): the calendar's check-in and start have nothing left to do.
            await tx.execute("DELETE FROM tournament_timers WHERE tournament_id = ? AND kind IN (?, ?)",
                             (tournament_id, CHECKIN_TIMER, START_TIMER))
            await self._write_round(tx, tournament_id, first, now)

    @staticmethod
    async def _write_round(tx: Tx, tournament_id: int, plan: RoundPlan, now: float) -> None:
        await tx.execute("INSERT INTO rounds (tournament_id, number, stage, status, due, started_at)"
                         " VALUES (?, ?, ?, 'playing', ?, ?)", (tournament_id, plan.number, plan.stage, plan.due, now))
        rows = [(tournament_id, plan.number, i, json.dumps(seats), json.dumps(sides), "pending", None)
                for i, (seats, sides) in enumerate(plan.tables)]
        rows += [(tournament_id, plan.number, len(plan.tables) + i, json.dumps(seats), json.dumps(sides), "finished",
                  json.dumps(places)) for i, (seats, sides, places) in enumerate(plan.decided)]
        await tx.executemany("INSERT INTO tournament_tables (tournament_id, round, position, seats, sides, status,"
                             " places) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        await tx.executemany("INSERT INTO byes (tournament_id, round, entrant_id) VALUES (?, ?, ?)",
                             [(tournament_id, plan.number, e) for e in plan.byes])

    async def advance_tournament(self, tournament_id: int, finished_round: int, *, next_round: RoundPlan | None = None,
                                 champion: Sequence[int] | None = None, cut_seeds: Sequence[int] | None = None) -> None:
        """Finish round ``finished_round`` and write the next one, or finish the event with its champion.

        Refused (``TournamentChanged``) if that round was already finished: a round is paired once.
        """
        now = self._db.now()
        async with self._db.transaction() as tx:
            written = await tx.execute("UPDATE rounds SET status = 'finished', finished_at = ?"
                                       " WHERE tournament_id = ? AND number = ? AND status = 'playing'",
                                       (now, tournament_id, finished_round))
            if written.rowcount != 1:
                raise TournamentChanged(f"round {finished_round} of tournament {tournament_id} is already finished")
            if next_round is not None:
                await self._write_round(tx, tournament_id, next_round, now)
            if cut_seeds is not None:
                await tx.execute("UPDATE tournaments SET cut_seeds = ? WHERE id = ?",
                                 (json.dumps(list(cut_seeds)), tournament_id))
            if champion is not None:
                await tx.execute("UPDATE tournaments SET status = 'finished', champion = ?, revision = revision + 1,"
                                 " updated_at = ? WHERE id = ? AND status = 'playing'",
                                 (json.dumps(list(champion)), now, tournament_id))

    async def drop_entrant(self, tournament_id: int, entrant_id: int, reason: str = DROPPED) -> None:
        async with self._db.transaction() as tx:
            written = await tx.execute("UPDATE entrants SET left_reason = ? WHERE id = ? AND tournament_id = ?"
                                       " AND left_reason IS NULL", (reason, entrant_id, tournament_id))
            if written.rowcount != 1:
                raise TournamentChanged(f"entrant {entrant_id} has already left")

    async def cancel_tournament(self, tournament_id: int, revision: int) -> None:
        async with self._db.transaction() as tx:
            await self._bump_tournament(tx, tournament_id, revision, ACTIVE_TOURNAMENT,
                                        ", status = 'cancelled', updated_at = ?", (self._db.now(),))
            await tx.execute("DELETE FROM tournament_timers WHERE tournament_id = ? AND kind <> ?",
                             (tournament_id, EVENT_END_TIMER))

    async def mark_round_announced(self, tournament_id: int, number: int, level: int = 1) -> None:
        """``rounds.announced``: 0 not yet, 1 its pairings were posted, 2 (the last round) the event's end too."""
        async with self._db.transaction() as tx:
            await tx.execute("UPDATE rounds SET announced = GREATEST(announced, ?)"
                             " WHERE tournament_id = ? AND number = ?", (level, tournament_id, number))

    async def unannounced_finals(self) -> list[int]:
        """Finished tournaments whose final standings were never posted (a restart in between)."""
        rows = await self._db.all(
            "SELECT t.id FROM tournaments t JOIN rounds r ON r.tournament_id = t.id"
            " WHERE t.status = 'finished' AND r.announced < 2"
            " AND r.number = (SELECT MAX(number) FROM rounds WHERE tournament_id = t.id) ORDER BY t.id")
        return [r["id"] for r in rows]

    # ------------------------------------------------- calendar, rules, penalties

    @staticmethod
    async def _set_timers(tx: Tx, tournament_id: int, timers: Sequence[tuple[str, float]], now: float) -> None:
        for kind, due in timers:
            await tx.execute("INSERT INTO tournament_timers (tournament_id, kind, due, started) VALUES (?, ?, ?, ?)"
                             " ON CONFLICT (tournament_id, kind) DO UPDATE SET due = excluded.due,"
                             " started = excluded.started", (tournament_id, kind, due, now))

    async def set_tournament_timers(self, tournament_id: int, timers: Sequence[tuple[str, float]]) -> None:
        async with self._db.transaction() as tx:
            await self._set_timers(tx, tournament_id, timers, self._db.now())

    async def reschedule_tournament(self, tournament_id: int, revision: int, starts_at: float,
                                    timers: Sequence[tuple[str, float]]) -> None:
        """Move the start: the new time and its timers (the check-in's dropped if it is already open)."""
        now = self._db.now()
        async with self._db.transaction() as tx:
            await self._bump_tournament(tx, tournament_id, revision, (REGISTRATION,),
                                        ", starts_at = ?, updated_at = ?", (starts_at, now))
            await tx.execute("DELETE FROM tournament_timers WHERE tournament_id = ? AND kind IN (?, ?)",
                             (tournament_id, CHECKIN_TIMER, START_TIMER))
            await self._set_timers(tx, tournament_id, timers, now)

    async def set_tournament_event(self, tournament_id: int, event_id: int | None, event_end: float | None) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("UPDATE tournaments SET event_id = ?, event_end = ? WHERE id = ?",
                             (event_id, event_end, tournament_id))

    async def tournament_timers(self, tournament_id: int) -> list[tuple[str, float]]:
        rows = await self._db.all("SELECT kind, due FROM tournament_timers WHERE tournament_id = ? ORDER BY due, kind",
                               (tournament_id,))
        return [(r["kind"], float(r["due"])) for r in rows]

    async def next_tournament_due(self, shards: ShardSet | None = None) -> float | None:
        owned, params = shard_filter("t.guild_id", shards)
        row = await self._db.one("SELECT MIN(x.due) FROM tournament_timers x"
                                 " JOIN tournaments t ON t.id = x.tournament_id"
                                 f" WHERE {owned or '1 = 1'}", params)
        return None if row is None or row[0] is None else float(row[0])

    async def due_tournament_timers(self, now: float, limit: int,
                                    shards: ShardSet | None = None) -> list[tuple[int, str, float, float]]:
        """(tournament, kind, due, started) due by ``now``, in due order."""
        owned, params = shard_filter("t.guild_id", shards)
        rows = await self._db.all(
            "SELECT x.tournament_id, x.kind, x.due, x.started FROM tournament_timers x"
            f" JOIN tournaments t ON t.id = x.tournament_id WHERE x.due <= ? AND {owned or '1 = 1'}"
            " ORDER BY x.due, x.tournament_id, x.kind LIMIT ?", (now, *params, limit))
        return [(r["tournament_id"], r["kind"], float(r["due"]), float(r["started"])) for r in rows]

    async def take_tournament_timer(self, tournament_id: int, kind: str, started: float) -> bool:
        """Consume a tournament timer if it is still the same one: True for the one caller that did."""
        async with self._db.transaction() as tx:
            written = await tx.execute("DELETE FROM tournament_timers WHERE tournament_id = ? AND kind = ?"
                                       " AND started = ?", (tournament_id, kind, started))
        return written.rowcount == 1

    async def push_tournament_timer(self, tournament_id: int, kind: str, started: float, due: float) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("UPDATE tournament_timers SET due = ? WHERE tournament_id = ? AND kind = ?"
                             " AND started = ?", (due, tournament_id, kind, started))

    async def add_late_entrant(self, tournament_id: int, *, user_id: int, name: str, lot: int,
                               rating: float, missed_rounds: int) -> None:
        """A Swiss entrant joining after the start, before round ``missed_rounds + 1`` is paired."""
        try:
            async with self._db.transaction() as tx:
                row = await tx.fetchone("SELECT COUNT(*) FROM rounds WHERE tournament_id = ?", (tournament_id,))
                if row is None or int(row[0]) != missed_rounds:
                    raise TournamentChanged(f"tournament {tournament_id} paired another round meanwhile")
                await tx.execute(
                    "INSERT INTO entrants (tournament_id, user_id, name, is_bot, level, checked_in, joined_at, lot,"
                    " rating, missed_rounds) VALUES (?, ?, ?, 0, NULL, 1, ?, ?, ?, ?)",
                    (tournament_id, user_id, name, self._db.now(), lot, rating, missed_rounds))
        except IntegrityError as exc:
            raise AlreadyEntered from exc

    async def add_penalty(self, tournament_id: int, entrant_id: int, kind: str, text: str, organiser_id: int,
                          pending: bool = False) -> int:
        async with self._db.transaction() as tx:
            written = await tx.execute(
                "INSERT INTO tournament_penalties (tournament_id, entrant_id, kind, text, organiser_id, at, pending)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (tournament_id, entrant_id, kind, text, organiser_id, self._db.now(), int(pending)))
            return int(written.lastrowid or 0)

    async def penalties(self, tournament_id: int) -> list[PenaltyRecord]:
        rows = await self._db.all("SELECT * FROM tournament_penalties WHERE tournament_id = ? ORDER BY id",
                               (tournament_id,))
        return [PenaltyRecord(r["id"], r["tournament_id"], r["entrant_id"], r["kind"], r["text"], r["organiser_id"],
                              r["at"], bool(r["pending"])) for r in rows]

    async def settle_penalty(self, penalty_id: int) -> bool:
        """A pending game loss has been applied: True for the one caller that did."""
        async with self._db.transaction() as tx:
            written = await tx.execute("UPDATE tournament_penalties SET pending = 0 WHERE id = ? AND pending = 1",
                                       (penalty_id,))
        return written.rowcount == 1

    async def rewrite_pending_place(self, tournament_id: int, number: int, position: int, seats: Sequence[int],
                                    sides: Sequence[Sequence[int]], places: Sequence[int] | None,
                                    drawn: bool = False) -> bool:
        """Change a table not yet seated: fewer seats (someone dropped), or decided without play
        (``places``: a walkover or a draw). False if it was seated meanwhile."""
        status = "pending" if places is None else "finished"
        async with self._db.transaction() as tx:
            written = await tx.execute(
                "UPDATE tournament_tables SET seats = ?, sides = ?, status = ?, places = ?, drawn = ?"
                " WHERE tournament_id = ? AND round = ? AND position = ? AND status = 'pending'",
                (json.dumps(list(seats)), json.dumps([list(s) for s in sides]), status,
                 None if places is None else json.dumps(list(places)), int(drawn), tournament_id, number, position))
        return written.rowcount == 1
