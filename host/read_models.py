"""Read models: one plain, immutable value per kind of message, holding everything that message shows.

``host`` builds them; a presenter (the Discord cogs, later web pages or other languages) only formats
them and never calls back into ``host``, ``data`` or an engine. They hold data, not wording: names
already chosen, places, deadlines as POSIX instants, whom to mention, and what the renderer draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The stage of a top cut's rounds, as RoundInfo.stage says it.
from host.tournaments.progress import CUT as CUT
from i18n import N_

#: The statuses of a table, as stored.
LOBBY, PLAYING, FINISHED, ABANDONED = "lobby", "playing", "finished", "abandoned"

#: Why a member's seat offers them no move: they gave it up, or a bot stands in after timeouts.
GAVE_UP, TIMED_OUT = "gave_up", "timed_out"


@dataclass(frozen=True)
class Duration:
    """A length of time in whole seconds, or None for ``off``.

    ``str()`` gives the notation members type in commands (``1d 2h 3m 4s``, ``off``): the same in
    every language, so a presenter may show it as it is."""

    seconds: int | None

    def __str__(self) -> str:
        if self.seconds is None:
            return "off"
        left = int(self.seconds)
        parts = []
        for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
            if left >= size:
                parts.append(f"{left // size}{unit}")
                left %= size
        return " ".join(parts) or "0s"


@dataclass(frozen=True)
class SeatView:
    position: int
    name: str
    #: The member to mention; None for a bot seat.
    user_id: int | None
    is_bot: bool


@dataclass(frozen=True)
class ClockView:
    """A table's clock settings, as the lobby, /game status and /game tables show them."""

    turn_time: Duration
    on_timeout: str
    in_thread: bool
    paused: bool
    #: Paused by the bot: Discord refused its posts in the table's channel (the reason shown with the pause).
    lost: bool = False


@dataclass(frozen=True)
class Picture:
    """What the renderer draws: a game's view (public, or a seat's) with the seat names."""

    table_id: int
    game: str
    view: Mapping[str, Any]
    names: tuple[str, ...]
    #: Each seat's final place once the table is over (``()``: over without a result, as when abandoned);
    #: None while it is in play. An over table's picture shows nobody to act.
    placings: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Turn:
    """A seat that is to act, and when its time runs out (None: no clock)."""

    seat: SeatView
    due: float | None


@dataclass(frozen=True)
class Placing:
    place: int
    name: str


@dataclass(frozen=True)
class TableMessage:
    """The public table message: the picture, what happened since the last one, whose turn, the result."""

    table_id: int
    title: str
    version: int
    status: str
    #: Public lines since the last message, oldest first.
    lines: tuple[str, ...]
    #: The game's own status line with the names filled in ("" when it has none).
    status_line: str
    to_act: tuple[Turn, ...]
    #: Every seat in finishing order, once the game is over.
    placings: tuple[Placing, ...]
    clock: ClockView
    picture: Picture
    #: The table's web page, when the server's pages are on.
    web_url: str | None = None


@dataclass(frozen=True)
class HandPanel:
    """A seat's private panel: its hand, its choices (action, label), and whom the table waits for."""

    table_id: int
    title: str
    version: int
    status: str
    seat: int
    seat_name: str
    status_line: str
    #: GAVE_UP or TIMED_OUT when the table's bot plays this seat, else None.
    bot_plays: str | None
    choices: tuple[tuple[str, str], ...]
    waiting_for: tuple[str, ...]
    picture: Picture
    #: When this seat's time to move runs out (a table with a turn clock, while the seat has a move).
    due: float | None = None


@dataclass(frozen=True)
class LobbyMessage:
    table_id: int
    title: str
    host_id: int | None
    status: str
    seats: tuple[SeatView, ...]
    min_players: int
    max_players: int
    options: tuple[tuple[str, Any], ...]
    clock: ClockView
    web_url: str | None = None


@dataclass(frozen=True)
class ReminderMessage:
    """A half-time reminder at one table: the members reminded, their seats, and when their time runs out."""

    table_id: int
    where: Where
    seats: tuple[int, ...]
    users: tuple[int, ...]
    due: float


@dataclass(frozen=True)
class Where:
    """Where a table's newest message is (no message yet: its channel or thread)."""

    guild_id: int | None
    channel_id: int
    message_id: int | None


@dataclass(frozen=True)
class MineRow:
    """One of a member's tables in /game mine."""

    table_id: int
    title: str
    status: str
    your_turn: bool
    waiting_for: tuple[str, ...]
    due: float | None
    paused: bool
    where: Where


@dataclass(frozen=True)
class MyTables:
    rows: tuple[MineRow, ...]


@dataclass(frozen=True)
class TableRow:
    """One table of the server in /game tables."""

    table_id: int
    title: str
    status: str
    seats: int
    max_players: int
    clock: ClockView
    where: Where


@dataclass(frozen=True)
class ServerTables:
    lobbies: tuple[TableRow, ...]
    running: tuple[TableRow, ...]


@dataclass(frozen=True)
class LoggedMove:
    version: int
    at: float
    label: str
    events: tuple[str, ...]


@dataclass(frozen=True)
class MoveLog:
    """/game log: a table's whole public move list."""

    table_id: int
    title: str
    status: str
    seats: tuple[SeatView, ...]
    moves: tuple[LoggedMove, ...]
    #: Why an abandoned table ended ("channel deleted"…), when it is known.
    end_reason: str | None = None
    #: The seat changes (a resignation, a replacement, a bot taking a seat over), each after the move it
    #: followed: version 0 is before the first move.
    changes: tuple[LoggedChange, ...] = ()


@dataclass(frozen=True)
class LoggedChange:
    """A seat change in /game log: the table's version then, when, and the lines that told the table."""

    version: int
    at: float
    lines: tuple[str, ...]


@dataclass(frozen=True)
class ReplayFrame:
    """/game replay: the table as it stood after a move."""

    table_id: int
    title: str
    move: int
    #: The public lines up to that move (the deal alone: none).
    lines: tuple[str, ...]
    picture: Picture


@dataclass(frozen=True)
class RatingRow:
    game: str
    title: str
    mu: float
    sigma: float
    games: int
    #: The number members see (host.ratings.shown_rating): 1,000 for a new player.
    rating: int


@dataclass(frozen=True)
class MemberRatings:
    """/rating: a member's ratings in one server (one game, or all they have played)."""

    name: str
    game_title: str | None
    rows: tuple[RatingRow, ...]


@dataclass(frozen=True)
class LeaderRow:
    user_id: int
    ordinal: float
    mu: float
    sigma: float
    games: int
    rating: int
    #: The name the member last sat (or entered a tournament) under in the server; None if unknown.
    name: str | None = None


@dataclass(frozen=True)
class Leaderboard:
    title: str
    min_games: int
    rows: tuple[LeaderRow, ...]


@dataclass(frozen=True)
class Bench:
    """/game bench: the bench's cards, top first."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class OptionValues:
    """A table option and the values it takes: a whole number from ``low`` to ``high``, one of ``choices``,
    or true/false when the default is."""

    name: str
    default: bool | int
    low: int | None
    high: int | None
    choices: tuple[int, ...]


@dataclass(frozen=True)
class GameRules:
    """/game rules: a game's summary, its player counts and its table options with their defaults."""

    game: str
    title: str
    summary: str
    min_players: int
    max_players: int
    default_options: tuple[tuple[str, Any], ...]
    #: Each option with the values it takes (name, default, low, high, choices): host.table_options.
    options: tuple[OptionValues, ...] = ()
    #: A real first move of a new game, in words as the menus show it (e.g. "Bid 30").
    example_move: str = ""


@dataclass(frozen=True)
class SettingsShown:
    """/config show: each setting's name, value (as a manager types it) and help (a message id)."""

    rows: tuple[tuple[str, str, str], ...]
    #: The numbers the help texts name, by placeholder.
    help_values: tuple[tuple[str, int], ...] = ()


# ----------------------------------------------------------------- tournaments
# A tournament's messages (sign-up, pairings, standings, status, the end) all format one TournamentView:
# the event, its entrants, rounds, tables and byes read at one moment, each as a frozen copy.

#: The formats' names (message ids: the presenters translate them).
FORMAT_NAMES = {"swiss": N_("Swiss"), "round_robin": N_("Round robin"),
                "single_elimination": N_("Single elimination"), "double_elimination": N_("Double elimination")}


@dataclass(frozen=True)
class Points:
    """Tournament points, exact. ``str()``: 4 → ``4``, 4½ → ``4½``, thirds and others to two decimals."""

    value: Any  # a Fraction

    def __str__(self) -> str:
        if self.value.denominator == 1:
            return str(self.value.numerator)
        if self.value.denominator == 2:
            whole = self.value.numerator // 2
            return f"{whole}½" if whole else "½"
        return f"{float(self.value):.2f}"


@dataclass(frozen=True)
class Percent:
    """A share from 0 to 1 (OPP, OOPP). ``str()``: ``58.3%``."""

    value: Any  # a Fraction

    def __str__(self) -> str:
        return f"{float(self.value) * 100:.1f}%"


@dataclass(frozen=True)
class EventInfo:
    """The tournament itself: its name, game, format and clocks, its organiser and where it stands."""

    id: int
    name: str
    game: str
    #: The game's title, as the messages name it.
    title: str
    format: str
    table_size: int
    top_cut: int
    #: The rounds of the main stage: as planned at the start, else as the organiser set them (None: by format).
    rounds: int | None
    turn_time: Duration
    round_time: Duration
    options: Mapping[str, Any]
    organiser_id: int
    status: str
    checkin: bool
    message_id: int | None
    champion: tuple[int, ...] | None
    #: The tournament's web page, when the server's pages are on.
    web_url: str | None = None
    #: A Swiss event's 2-player top cut: "single" or "double" elimination.
    top_cut_format: str = "single"
    #: The start on the calendar (a POSIX time), and how many minutes before it the check-in opens.
    starts_at: float | None = None
    checkin_minutes: int = 30
    #: Registration rules: the role entrants must hold, the cap (beyond it, a waiting list), and the
    #: Swiss round players may still join until.
    role_id: int | None = None
    max_entrants: int | None = None
    late_join_rounds: int = 0


@dataclass(frozen=True)
class EntrantInfo:
    id: int
    user_id: int | None
    name: str
    is_bot: bool
    checked_in: bool
    left: str | None
    #: Rounds played before this entrant joined late: each a loss with no opponent.
    missed_rounds: int = 0

    @property
    def active(self) -> bool:
        return self.left is None


@dataclass(frozen=True)
class PenaltyInfo:
    """A penalty (warning, game_loss, disqualify) or an organiser's note about an entrant: organisers' eyes only."""

    id: int
    entrant_id: int
    kind: str
    text: str
    organiser_id: int
    at: float
    #: A game loss still waiting for the entrant's next table.
    pending: bool


@dataclass(frozen=True)
class RoundInfo:
    number: int
    stage: str
    status: str
    due: float | None
    announced: int


@dataclass(frozen=True)
class PlaceInfo:
    """One table of a round: entrant ids by side, its table once seated, and once over each side's place."""

    round: int
    position: int
    sides: tuple[tuple[int, ...], ...]
    table_id: int | None
    status: str
    places: tuple[int, ...] | None
    drawn: bool


@dataclass(frozen=True)
class StandingRow:
    place: int
    entrant: int
    points: Any  # a Fraction: ties are exact
    opp: Any
    oopp: Any
    games: int
    byes: int
    dropped: bool


@dataclass(frozen=True)
class TournamentView:
    record: EventInfo
    entrants: tuple[EntrantInfo, ...]
    rounds: tuple[RoundInfo, ...]
    places: tuple[PlaceInfo, ...]
    byes: tuple[tuple[int, int], ...]
    #: Penalties and notes: only the organisers' private ``/tournament status`` shows them.
    penalties: tuple[PenaltyInfo, ...] = ()

    @property
    def title(self) -> str:
        return self.record.title

    @property
    def waiting(self) -> tuple[EntrantInfo, ...]:
        """Entrants beyond ``max_entrants``, in sign-up order: the waiting list (before the start)."""
        cap = self.record.max_entrants
        if cap is None or self.record.status != "registration":
            return ()
        return tuple(e for e in self.entrants if e.active)[cap:]

    @property
    def names(self) -> dict[int, str]:
        return {e.id: e.name for e in self.entrants}

    @property
    def current(self) -> RoundInfo | None:
        return self.rounds[-1] if self.rounds else None

    def round_places(self, number: int) -> list[PlaceInfo]:
        return [p for p in self.places if p.round == number]

    def round_byes(self, number: int) -> list[int]:
        return [e for r, e in self.byes if r == number]
