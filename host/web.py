"""The read models of the public web pages: what ``web/`` shows, built from public views only.

Nothing here can reveal a hidden card: a table is shown through ``engine.view(state, None)`` (the view a
spectator gets), the public move labels and the seat names, exactly as the table image is. Every lookup
answers ``None`` (the page 404s) unless the server turned its pages on (``/config set setting:web_pages``),
the table's or tournament's channel is one @everyone can view (a fact the bot records, ``web_channels``),
and, for a player page, the member has not hidden it (``/profile visibility:hidden``).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import i18n
import render
from data.schema import SCHEMA_VERSION
from data.store import ACTIVE, Store, TableRecord
from data.timers import DEADLINE
from data.tournaments import TournamentRecord
from engines import GAME_TITLES, get_engine
from host.known_members import known_names
from host.move_lines import line_of
from host.names import fill_names
from host.read_models import Percent, Points
from host.replay import rebuild
from host.tables import TableService, seat_names
from host.tournaments.models import Standing
from host.tournaments.service import FORMAT_NAMES, TournamentService
from render.markup import plain_text

#: Players need this many rated games to appear on a leaderboard page (as in /leaderboard).
MIN_GAMES = 5
LEADERBOARD_ROWS = 100
RECENT = 30
#: The newest tables a server page looks at (lobbies, running and finished together).
SERVER_ROWS = 150
#: Drawn pictures kept in memory (table images per version, replay steps, brackets).
PICTURE_CACHE = 512
#: Game states kept for table pages (each is loaded from its snapshot again after the cache is emptied).
STATE_CACHE = 256
#: Tournaments whose standings are kept, each until it changes.
EVENT_CACHE = 32

Draw = Callable[..., Awaitable[bytes]]
#: A server's Discord language (``guild.preferred_locale``) when the bot knows it, else None: what a page speaks
#: when the server's ``language`` setting is ``auto``.
LocaleOf = Callable[[int], str | None]


async def draw_in_thread(table_id: int, fn: Callable[..., bytes], /, *args: Any) -> bytes:
    return await asyncio.to_thread(fn, *args)


@dataclass(frozen=True)
class SeatLine:
    position: int
    name: str
    #: The member's id when their player page may be linked (not a bot, not hidden), else None.
    user_id: int | None
    is_bot: bool
    place: int | None = None
    to_act: bool = False
    deadline: float | None = None


@dataclass(frozen=True)
class MoveLine:
    version: int
    seat: int
    label: str


@dataclass(frozen=True)
class TablePage:
    guild_id: int
    id: int
    game: str
    title: str
    status: str
    version: int
    #: What the live page compares (``PublicSite.stamps``): the revision and status.
    stamp: str
    paused: bool
    seats: list[SeatLine]
    status_line: str
    moves: list[MoveLine]
    alt: str
    turn_time: int | None
    #: Why an abandoned table ended ("channel deleted"…), when it is known.
    end_reason: str | None = None

    @property
    def to_act(self) -> list[SeatLine]:
        return [s for s in self.seats if s.to_act]


@dataclass(frozen=True)
class TableLine:
    id: int
    title: str
    status: str
    to_act: list[str] = field(default_factory=list)
    deadline: float | None = None
    players: int = 0


@dataclass(frozen=True)
class EventLine:
    id: int
    name: str
    title: str
    status: str
    format: str


@dataclass(frozen=True)
class ServerPage:
    guild_id: int
    lobbies: list[TableLine]
    running: list[TableLine]
    finished: list[TableLine]
    tournaments: list[EventLine]
    games: list[tuple[str, str]]  # (game id, title)


@dataclass(frozen=True)
class PairingLine:
    position: int
    table_id: int | None
    #: Each side's names, in seat order.
    sides: list[list[str]]
    status: str
    #: Each side's place once finished.
    places: list[int] | None
    drawn: bool
    linked: bool  # the table page exists (the table is played in a public channel)


@dataclass(frozen=True)
class RoundLine:
    number: int
    stage: str
    status: str
    tables: list[PairingLine]
    byes: list[str]


@dataclass(frozen=True)
class StandingLine:
    place: int
    name: str
    user_id: int | None
    points: Points
    opp: Percent
    oopp: Percent
    games: int
    byes: int
    dropped: bool


@dataclass(frozen=True)
class EntrantLine:
    name: str
    user_id: int | None
    is_bot: bool
    checked_in: bool
    left: str | None


@dataclass(frozen=True)
class TournamentPage:
    guild_id: int
    id: int
    name: str
    game: str
    title: str
    format: str
    status: str
    table_size: int
    top_cut: int
    entrants: list[EntrantLine]
    rounds: list[RoundLine]
    standings: list[StandingLine]
    champion: list[str]
    has_bracket: bool
    stamp: str


@dataclass(frozen=True)
class LeaderLine:
    rank: int
    name: str
    user_id: int | None
    ordinal: float
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class LeaderboardPage:
    guild_id: int
    game: str
    title: str
    rows: list[LeaderLine]


@dataclass(frozen=True)
class PlayerPage:
    guild_id: int
    user_id: int
    name: str
    ratings: list[tuple[str, float, float, float, int]]  # (title, ordinal, mu, sigma, games)
    results: list[tuple[int, str, int, int, bool]]  # (table id, title, place, players, linked)
    tournaments: list[tuple[int, str, str, str, bool]]  # (id, name, title, status, champion)


#: The export's columns, in order (documented in the docs' "Web pages" section).
STANDINGS_COLUMNS = ("place", "name", "points", "opp", "oopp", "games", "byes", "dropped")
RESULTS_COLUMNS = ("round", "stage", "table", "side", "names", "place", "status")


def said_move(lang: str, action: Any) -> str:
    """A logged move's public line in ``lang``, as plain text (said again from its stored message when it has
    one; an older move keeps its English)."""
    return plain_text(i18n.say_text(lang, line_of(action.label, action.label_params)))


class PublicSite:
    """Every page's read model, or None when the page must not exist (404)."""

    def __init__(self, store: Store, draw: Draw = draw_in_thread, locale_of: LocaleOf | None = None) -> None:
        self.store = store
        #: Given by the bot (bot.py); the web server on its own (``python -m web``) knows no Discord language.
        self.locale_of = locale_of
        self.tables = TableService(store)
        self.events = TournamentService(self.tables)
        self.draw = draw
        self._pictures: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._events: OrderedDict[tuple[int, str], tuple[Any, list[Standing]]] = OrderedDict()
        #: Table pictures being drawn, so that pages asking together share one drawing.
        self._drawing: dict[tuple[Any, ...], asyncio.Future[bytes | None]] = {}

    # ------------------------------------------------------------------ gates

    async def pages_on(self, guild_id: int) -> bool:
        if not 0 < guild_id < 2**63:
            return False
        return (await self.store.settings.guild_settings(guild_id)).get("web_pages") == "on"

    async def language(self, guild_id: int) -> str:
        """What a server's pages speak: as its channels do, its ``language`` setting (``auto``: its Discord
        language, as the gateway tells it in the bot's process or as the bot last stored it; else English)."""
        setting = (await self.store.settings.guild_settings(guild_id)).get("language", i18n.AUTO)
        if setting != i18n.AUTO:
            return i18n.server_language(setting, None)
        # In the bot's process the gateway tells; in ``python -m web``, the language the bot last stored.
        preferred = self.locale_of(guild_id) if self.locale_of is not None else None
        if preferred is None:
            preferred = await self.store.settings.guild_locale(guild_id)
        return i18n.server_language(setting, preferred)

    async def _public_channel(self, channel_id: int) -> bool:
        return bool(await self.store.web.known_channel(channel_id))

    async def _table(self, guild_id: int, table_id: int) -> TableRecord | None:
        if not await self.pages_on(guild_id):
            return None
        record = await self.store.tables.get_table(table_id) if 0 < table_id < 2**63 else None
        if record is None or record.guild_id != guild_id:
            return None
        if not await self._public_channel(record.parent_id or record.channel_id):
            return None
        return record

    async def _tournament(self, guild_id: int, tournament_id: int) -> TournamentRecord | None:
        if not await self.pages_on(guild_id) or not 0 < tournament_id < 2**63:
            return None
        record = await self.store.tournaments.tournament(tournament_id)
        if record is None or record.guild_id != guild_id or not await self._public_channel(record.channel_id):
            return None
        return record

    async def _linkable(self, user_ids: Sequence[int | None]) -> set[int]:
        ids = [u for u in user_ids if u]
        hidden = await self.store.web.hidden_profiles(ids)
        return {u for u in ids if u not in hidden}

    # ------------------------------------------------------------------ tables

    async def table(self, guild_id: int, table_id: int) -> TablePage | None:
        record = await self._table(guild_id, table_id)
        return None if record is None else await self._table_page(record)

    async def _table_page(self, record: TableRecord) -> TablePage:
        if len(self.tables._states) > STATE_CACHE:  # pages of many tables: keep the newest states only
            self.tables._states.clear()
        engine = get_engine(record.game)
        names = seat_names(record)
        linkable = await self._linkable([s.user_id for s in record.seats if not s.is_bot])
        lang = await self.language(record.guild_id or 0)
        actions = await self.store.tables.actions(record.id) if record.status != "lobby" else []
        moves = [MoveLine(a.version, a.seat, said_move(lang, a)) for a in actions]
        to_act: list[int] = []
        places: list[int] | None = None
        status_line = ""
        view: dict[str, Any] | None = None
        if record.status in ("playing", "finished"):
            state = await self.tables.state(record)
            view = engine.view(state, None)
            status_line = fill_names(i18n.say_text(lang, view.get("status", "")), names)
            if record.status == "playing":
                to_act = list(engine.to_act(state))
            else:
                places = await self.tables.places(record)
        deadlines = {}
        if record.status == "playing":
            deadlines = {t.seat: t.due for t in await self.store.timers.timers_of(record.id) if t.kind == DEADLINE}
        seats = [SeatLine(s.position, s.name, s.user_id if s.user_id in linkable else None, s.is_bot,
                          places[s.position] if places else None, s.position in to_act,
                          deadlines.get(s.position)) for s in record.seats]
        last = moves[-1].label if moves else None
        alt = render.alt_text(record.game, view, names, last, lang=lang) if view is not None else \
            i18n.t(lang, "{game} table #{id}: waiting for players.", game=engine.title, id=record.id)
        return TablePage(record.guild_id or 0, record.id, record.game, engine.title, record.status, record.version,
                         f"{record.revision}.{record.status}", record.paused, seats, status_line, moves, alt,
                         record.turn_time, record.end_reason)

    async def live_stamp(self, guild_id: int, table_id: int) -> str | None:
        """What a table page's live part is kept under, from one indexed read (two when a seated member hid
        their page), or None when the page must 404. A following page asks this on every fetch; the part is
        built once per stamp (``web.live.Shared``), however many pages follow the table."""
        if not 0 < guild_id < 2**63 or not 0 < table_id < 2**63:
            return None
        row = await self.store.web.live_table(table_id)
        if row is None or row.guild_id != guild_id or not row.pages_on or not row.public:
            return None
        hidden = await self.store.web.hidden_at_table(table_id) if row.hidden_members else []
        return f"{row.revision}.{row.status}.{row.version}" + "".join(f".h{u}" for u in hidden)

    async def table_image(self, guild_id: int, table_id: int, version: int) -> bytes | None:
        """The table as it stands at ``version`` (its current one): drawn once per version, however many
        pages ask for it at once (the first asks the worker; the others wait for its picture)."""
        if not 0 < guild_id < 2**63 or not 0 < table_id < 2**63:
            return None
        row = await self.store.web.live_table(table_id)
        if row is None or row.guild_id != guild_id or not row.pages_on or not row.public or \
                row.status not in ("playing", "finished") or version != row.version:
            return None
        lang = await self.language(guild_id)  # the picture's words speak the server's language, as its page
        key = ("table", table_id, version, lang)
        if key in self._pictures:
            return self._pictures[key]
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = asyncio.ensure_future(self._draw_table(guild_id, table_id, version, lang))
            self._drawing[key] = drawing
            drawing.add_done_callback(lambda _: self._drawing.pop(key, None))
        return await asyncio.shield(drawing)

    async def _draw_table(self, guild_id: int, table_id: int, version: int, lang: str) -> bytes | None:
        record = await self._table(guild_id, table_id)
        if record is None or record.status not in ("playing", "finished") or version != record.version:
            return None  # it moved on meanwhile: the page asks for the new version
        engine = get_engine(record.game)
        view = engine.view(await self.tables.state(record), None)
        actions = await self.store.tables.actions(record.id, record.version - 1) if record.version else []
        last = said_move(lang, actions[-1]) if actions else None
        data = await self.draw(record.id, render.table_png, record.game, view, seat_names(record), last, None, lang)
        self._keep(("table", record.id, record.version, lang), data)
        return data

    async def replay_image(self, guild_id: int, table_id: int, move: int) -> tuple[bytes, str] | None:
        """The table after ``move`` moves (0 = the deal), as ``/game replay`` draws it, with its alt text."""
        record = await self._table(guild_id, table_id)
        if record is None or record.status not in ("playing", "finished") or not 0 <= move <= record.version:
            return None
        lang = await self.language(guild_id)
        key = ("replay", record.id, move, lang)
        engine = get_engine(record.game)
        actions = await self.store.tables.actions(record.id)
        if move > len(actions):
            return None
        state = rebuild(engine, record, actions[:move])
        view = engine.view(state, None)
        names = seat_names(record)
        last = said_move(lang, actions[move - 1]) if move else i18n.t(lang, "The deal")
        if key not in self._pictures:
            self._keep(key, await self.draw(record.id, render.table_png, record.game, view, names, last, None, lang))
        return self._pictures[key], render.alt_text(record.game, view, names, last, lang=lang)

    def _keep(self, key: tuple[Any, ...], data: bytes) -> None:
        self._pictures[key] = data
        self._pictures.move_to_end(key)
        while len(self._pictures) > PICTURE_CACHE:
            self._pictures.popitem(last=False)

    # ------------------------------------------------------------------ server

    async def server(self, guild_id: int) -> ServerPage | None:
        if not await self.pages_on(guild_id):
            return None
        public = await self.store.web.public_channels(guild_id)
        rows = await self.store.web.recent_tables(guild_id, (*ACTIVE, "finished"), SERVER_ROWS)
        lobbies, running, finished = [], [], []
        for row in rows:
            if (row["parent_id"] or row["channel_id"]) not in public:
                continue
            title = GAME_TITLES.get(row["game"], row["game"])
            if row["status"] == "lobby":
                record = await self.store.tables.get_table(row["id"])
                lobbies.append(TableLine(row["id"], title, "lobby", players=len(record.seats) if record else 0))
            elif row["status"] == "playing":
                record = await self.store.tables.get_table(row["id"])
                if record is None:
                    continue
                state = await self.tables.state(record)
                turn = get_engine(record.game).to_act(state)
                due = [t.due for t in await self.store.timers.timers_of(record.id) if t.kind == DEADLINE and t.due]
                running.append(TableLine(row["id"], title, "playing", [record.seats[s].name for s in turn],
                                         min(due) if due else None, len(record.seats)))
            elif len(finished) < RECENT:
                finished.append(TableLine(row["id"], title, "finished"))
        events = [EventLine(r["id"], r["name"], GAME_TITLES.get(r["game"], r["game"]), r["status"],
                            FORMAT_NAMES.get(r["format"], r["format"]))
                  for r in await self.store.web.guild_tournaments(guild_id, 50) if r["channel_id"] in public]
        return ServerPage(guild_id, lobbies, running, finished, events, sorted(GAME_TITLES.items()))

    # ------------------------------------------------------------------ tournaments

    async def tournament(self, guild_id: int, tournament_id: int) -> TournamentPage | None:
        record = await self._tournament(guild_id, tournament_id)
        if record is None:
            return None
        stamp = await self.store.web.tournament_stamp(record.id)
        state, rows = await self._standings_at(record.id, stamp)
        names = state.names
        users = {e.id: e.user_id for e in state.entrants if not e.is_bot}
        linkable = await self._linkable(list(users.values()))
        public = await self.store.web.public_channels(guild_id)
        channels = await self.store.web.table_channels([p.table_id for p in state.places if p.table_id])
        shown_tables = {t for t, channel in channels.items() if channel in public}
        lang = await self.language(guild_id)

        def name(entrant: int) -> str:
            # An entrant whose name is missing, in the page's language (as the standings' message names it).
            return names.get(entrant) or i18n.t(lang, "Entrant {number}", number=entrant)

        rounds = []
        for r in state.rounds:
            tables = [PairingLine(p.position, p.table_id, [[name(e) for e in side] for side in p.sides],
                                  p.status, p.places, p.drawn, p.table_id in shown_tables)
                      for p in state.round_places(r.number)]
            rounds.append(RoundLine(r.number, r.stage, r.status, tables, [name(e) for e in state.round_byes(r.number)]))
        standings = [self._standing(s, name, users, linkable) for s in rows] if state.rounds else []
        champion = [name(e) for e in (record.champion or [])]
        bracket = (record.format in ("single_elimination", "double_elimination") or bool(record.cut_seeds)) and \
            await self.events.bracket(record.id) is not None
        return TournamentPage(
            guild_id, record.id, record.name, record.game, state.title, FORMAT_NAMES.get(record.format, record.format),
            record.status, record.table_size, record.top_cut,
            [EntrantLine(e.name, e.user_id if e.user_id in linkable else None, e.is_bot, e.checked_in, e.left)
             for e in state.entrants], rounds, standings, champion, bracket, stamp)

    async def _standings_at(self, tournament_id: int, stamp: str) -> tuple[Any, list[Standing]]:
        """The tournament's state and standings, read again only when its stamp changed (a page of 256
        entrants reads some 400 rows and computes every tie-breaker; it changes far less often than it is read)."""
        key = (tournament_id, stamp)
        found = self._events.get(key)
        if found is None:
            found = await self.events.standings(tournament_id)
            self._events[key] = found
            while len(self._events) > EVENT_CACHE:
                self._events.popitem(last=False)
        self._events.move_to_end(key)
        return found

    @staticmethod
    def _standing(s: Standing, name: Callable[[int], str], users: dict[int, int | None],
                  linkable: set[int]) -> StandingLine:
        user = users.get(s.entrant)
        return StandingLine(s.place, name(s.entrant), user if user in linkable else None,
                            Points(s.points), Percent(s.opp), Percent(s.oopp), s.games,
                            s.byes, s.dropped)

    async def bracket_image(self, guild_id: int, tournament_id: int) -> tuple[bytes, str] | None:
        record = await self._tournament(guild_id, tournament_id)
        if record is None:
            return None
        found = await self.events.bracket(record.id)
        if found is None:
            return None
        rounds, said_title = found
        # The picture speaks the server's language, as the one posted in its channel does.
        lang = await self.language(guild_id)
        title = i18n.say_text(lang, said_title)
        key = ("bracket", record.id, json.dumps(rounds), lang)
        from render.bracket import alt_text, bracket_png, views

        view = views(rounds)
        if key not in self._pictures:
            self._keep(key, await self.draw(-record.id, bracket_png, view, title, lang))
        return self._pictures[key], alt_text(view, title, lang)

    async def export(self, guild_id: int | None, tournament_id: int, fmt: str,
                     check: bool = True, organiser: bool = False) -> tuple[bytes, str] | None:
        """The standings, every round's pairings and results, and the tie-breakers, as CSV or JSON.

        ``check=False`` (the ``/tournament export`` command, run in the server itself) skips the web gates.
        ``organiser``: an organiser asked, so the penalties and notes are in it too (never on a page)."""
        record = await (self._tournament(guild_id or 0, tournament_id) if check
                        else self.store.tournaments.tournament(tournament_id))
        if record is None:
            return None
        penalties = await self.store.tournaments.penalties(record.id) if organiser and not check else None
        return export_tournament(await self.events.standings(record.id), fmt, penalties), \
            f"tournament-{record.id}.{fmt}"

    # ------------------------------------------------------------------ ratings

    async def leaderboard(self, guild_id: int, game: str) -> LeaderboardPage | None:
        if game not in GAME_TITLES or not await self.pages_on(guild_id):
            return None
        rows = await self.store.ratings.leaderboard(guild_id, game, MIN_GAMES, LEADERBOARD_ROWS)
        linkable = await self._linkable([r.user_id for r in rows])
        names = await self._names(guild_id, [r.user_id for r in rows])
        lang = await self.language(guild_id)  # a member who never sat here (an imported rating) gets a placeholder
        return LeaderboardPage(guild_id, game, GAME_TITLES[game], [
            LeaderLine(i, names.get(r.user_id, i18n.t(lang, "Player {id}", id=r.user_id)),
                       r.user_id if r.user_id in linkable else None, r.ordinal, r.mu, r.sigma, r.games)
            for i, r in enumerate(rows, start=1)])

    async def _names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The name each member last sat under at a table in this server, or else entered a tournament under:
        the members who have a player page here."""
        return await known_names(self.store, guild_id, user_ids)

    async def player(self, guild_id: int, user_id: int) -> PlayerPage | None:
        if not 0 < user_id < 2**63 or not await self.pages_on(guild_id):
            return None
        if await self.store.web.hidden_profiles([user_id]):
            return None
        name = (await self._names(guild_id, [user_id])).get(user_id)
        if name is None:
            return None  # never sat at a table nor entered a tournament here: no page
        public = await self.store.web.public_channels(guild_id)
        ratings = [(GAME_TITLES.get(r.game, r.game), r.ordinal, r.mu, r.sigma, r.games)
                   for r in await self.store.ratings.ratings_of(guild_id, user_id)]
        channels = await self.store.web.played_channels(guild_id, user_id, RECENT)
        results = [(p.table_id, GAME_TITLES.get(p.game, p.game), p.place, p.players, channels.get(p.table_id) in public)
                   for p in await self.store.web.played_by(guild_id, user_id, RECENT)]
        events = [(e.tournament_id, e.name, GAME_TITLES.get(e.game, e.game), e.status, e.champion)
                  for e in await self.store.web.entered_by(guild_id, user_id) if e.channel_id in public]
        return PlayerPage(guild_id, user_id, name, ratings, results, events)

    async def leaderboard_csv(self, guild_id: int, game: str) -> bytes | None:
        page = await self.leaderboard(guild_id, game)
        return None if page is None else leaderboard_csv(page)

    # ------------------------------------------------------------------ live

    async def stamps(self, guild_id: int, table_ids: Sequence[int]) -> dict[int, str]:
        """What a live page compares: a table's revision and status (every change bumps the revision)."""
        return {t: f"{v[1]}.{v[2]}" for t, v in (await self.store.web.table_versions(table_ids)).items()}

    async def tournament_stamp(self, tournament_id: int) -> str:
        return await self.store.web.tournament_stamp(tournament_id)


PENALTY_COLUMNS = ("kind", "name", "text", "organiser_id", "at", "pending")
#: What a spreadsheet reads as the start of a formula: a member named ``=HYPERLINK("http://…")`` would turn
#: the organiser's copy of the export into a link or a command (CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(row: Sequence[Any]) -> list[Any]:
    """A CSV row whose text cells a spreadsheet shows as written: one that would start a formula gets a
    leading apostrophe, the mark spreadsheets take for "text" (numbers are left as they are)."""
    return ["'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_START) and not _number(cell) else cell
            for cell in row]


def _number(text: str) -> bool:
    """Whether ``text`` is a plain number (a negative rating), which a spreadsheet reads as one, never a formula."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def export_tournament(found: tuple[Any, list[Standing]], fmt: str, penalties: Sequence[Any] | None = None) -> bytes:
    """The export's bytes; ``penalties`` (an organiser's export only) adds the penalties and notes."""
    state, rows = found
    names = state.names
    entrant_names = {e.id: e.name for e in getattr(state, "entrants", [])}
    kept = [{"kind": p.kind, "name": entrant_names.get(p.entrant_id, f"Entrant {p.entrant_id}"), "text": p.text,
             "organiser_id": p.organiser_id, "at": p.at, "pending": bool(p.pending)} for p in penalties or []]
    standings = [{"place": s.place, "name": names.get(s.entrant, f"Entrant {s.entrant}"),
                  "points": float(s.points), "opp": round(float(s.opp), 6), "oopp": round(float(s.oopp), 6),
                  "games": s.games, "byes": s.byes, "dropped": s.dropped} for s in rows]
    results = []
    for r in state.rounds:
        for p in state.round_places(r.number):
            for i, side in enumerate(p.sides):
                results.append({"round": r.number, "stage": r.stage, "table": p.position + 1, "side": i + 1,
                                "names": [names.get(e, f"Entrant {e}") for e in side],
                                "place": p.places[i] if p.places else None, "status": p.status})
        for e in state.round_byes(r.number):
            results.append({"round": r.number, "stage": r.stage, "table": None, "side": None,
                            "names": [names.get(e, f"Entrant {e}")], "place": None, "status": "bye"})
    record = state.record
    if fmt == "json":
        body = {"tournament": {"id": record.id, "name": record.name, "game": record.game,
                               "format": record.format, "status": record.status,
                               "champion": [names.get(e, "") for e in record.champion or []]},
                "tie_breakers": ["points", "opp", "oopp", "lot"],
                "standings": standings, "results": results}
        if penalties is not None:
            body["penalties"] = kept
        return json.dumps(body, indent=1, ensure_ascii=False).encode()
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["# standings"])
    writer.writerow(STANDINGS_COLUMNS)
    for s in standings:
        writer.writerow(spreadsheet_safe([s[c] for c in STANDINGS_COLUMNS]))
    writer.writerow([])
    writer.writerow(["# rounds"])
    writer.writerow(RESULTS_COLUMNS)
    for r in results:
        writer.writerow(spreadsheet_safe(["" if r[c] is None else (" & ".join(r[c]) if c == "names" else r[c])
                                          for c in RESULTS_COLUMNS]))
    if penalties is not None:
        writer.writerow([])
        writer.writerow(["# penalties and notes (organisers only)"])
        writer.writerow(PENALTY_COLUMNS)
        for p in kept:
            writer.writerow(spreadsheet_safe([p[c] for c in PENALTY_COLUMNS]))
    return out.getvalue().encode()


LEADERBOARD_COLUMNS = ("rank", "name", "rating", "mu", "sigma", "games")


def leaderboard_csv(page: LeaderboardPage) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(LEADERBOARD_COLUMNS)
    for r in page.rows:
        writer.writerow(spreadsheet_safe([r.rank, r.name, f"{r.ordinal:.2f}", f"{r.mu:.4f}", f"{r.sigma:.4f}",
                                          r.games]))
    return out.getvalue().encode()


def as_dict(page: Any) -> dict[str, Any]:
    return asdict(page)


class SchemaMismatch(RuntimeError):
    """The database is not at the schema this build's pages read: ``python -m web`` refuses to start."""


def schema_mismatch(found: int, needed: int = SCHEMA_VERSION) -> str | None:
    """Why pages of this build cannot read a database at schema ``found`` (None when they can). The web never
    migrates, so a newer web deployed before the bot ran its migrations would fail on every page that reads a
    table the older schema lacks (migration 14's guild_locales for every ``auto`` server)."""
    if found < needed:
        return f"the database is at schema {found}, this web needs {needed}: run the bot once to migrate"
    if found > needed:
        return (f"the database is at schema {found}, newer than this web knows ({needed}): "
                "deploy the web of the bot's version")
    return None


async def open_site(target: str) -> PublicSite:
    """The pages of the database at ``target``, opened read-only (for ``python -m web``); SchemaMismatch when
    its schema is not this build's."""
    store = await Store.open_read_only(target)
    try:
        problem = schema_mismatch(await store.applied_schema())
    except BaseException:
        await store.close()
        raise
    if problem:
        await store.close()
        raise SchemaMismatch(problem)
    return PublicSite(store)
