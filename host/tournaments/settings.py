"""A tournament's settings, checked against the game before anything is stored.

Every refusal is a ``TournamentRefusal`` whose text an organiser can act on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engines import GAME_IDS, GAME_TITLES, get_engine
from host.tournaments.models import Format
from host.tournaments.refusals import Phrase, TournamentRefusal
from i18n import N_


@dataclass(frozen=True)
class Settings:
    game: str
    format: Format
    #: Seats per table; Swiss may also use tables of ``table_size - 1`` (never below ``min_table``).
    table_size: int
    #: The game's own minimum players.
    min_table: int
    top_cut: int = 0
    #: As asked; ``None`` means the format's usual number (see ``rounds_for``).
    rounds: int | None = None
    #: The engine's partnerships by seat (King Pedro: ((0, 2), (1, 3))), or ``None``.
    teams: tuple[tuple[int, ...], ...] | None = None
    #: How a 2-player top cut is played: ``single`` or ``double`` elimination.
    top_cut_format: str = "single"

    @property
    def pods(self) -> bool:
        """Tables of more than two players."""
        return self.table_size > 2


def default_table_size(game: str) -> int:
    """4 for King Pedro (always four, in partnerships), 2 for every other game."""
    return get_engine(game).min_players if game == "king_pedro" else 2


#: The ``top_cut_format`` choices.
TOP_CUT_FORMATS = ("single", "double")
#: The formats played as a bracket at 2-player tables.
BRACKETS = frozenset({Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION})


def make_settings(game: str, format: str | Format, table_size: int | None = None, top_cut: int = 0,
                  rounds: int | None = None, top_cut_format: str | None = None) -> Settings:
    """Checked settings for ``/tournament new``; raises ``TournamentRefusal`` with the reason."""
    if game not in GAME_IDS:
        raise TournamentRefusal(N_("Unknown game {game}. Choose one of: {games}."), game=repr(game),
                                games=", ".join(GAME_IDS))
    try:
        fmt = Format(format)
    except ValueError:
        raise TournamentRefusal(N_("Unknown format {format}. Choose one of: {formats}."), format=repr(format),
                                formats=", ".join(f.value for f in Format)) from None
    engine = get_engine(game)
    title = GAME_TITLES[game]
    size = default_table_size(game) if table_size is None else table_size
    if not engine.min_players <= size <= engine.max_players:
        limits = (Phrase(N_("always {low}"), low=engine.min_players) if engine.min_players == engine.max_players
                  else Phrase(N_("{low} to {high}"), low=engine.min_players, high=engine.max_players))
        raise TournamentRefusal(N_("{title} seats {limits} players at a table, so table_size {size} cannot be used."),
                                title=title, limits=limits, size=size)
    if fmt is Format.ROUND_ROBIN and size > 2:
        raise TournamentRefusal(
            N_("Round robin is for 2-player tables, and {title} tables of {size} are pods. "
               "Use format swiss for pods: it pairs every round by points and avoids repeated pods."),
            title=title, size=size)
    if fmt in BRACKETS and size > 2:
        text = (N_("Single elimination is for 2-player tables, and {title} tables of {size} are pods. "
                   "Use format swiss with top_cut:{size}: the top {size} of the standings then play one final table.")
                if fmt is Format.SINGLE_ELIMINATION else
                N_("Double elimination is for 2-player tables, and {title} tables of {size} are pods. "
                   "Use format swiss with top_cut:{size}: the top {size} of the standings then play one final table."))
        raise TournamentRefusal(text, title=title, size=size)
    if top_cut:
        if fmt is not Format.SWISS:
            raise TournamentRefusal(N_("top_cut is for Swiss events; leave it out for this format."))
        if size == 2 and (top_cut < 2 or top_cut & (top_cut - 1)):
            raise TournamentRefusal(
                N_("top_cut must be 0 or a power of two (2, 4, 8, 16, …) at 2-player tables, not {top_cut}."),
                top_cut=top_cut)
        if size > 2 and top_cut != size:
            raise TournamentRefusal(
                N_("With tables of {size}, top_cut must be 0 or {size} (the top {size} play one final table), "
                   "not {top_cut}."), size=size, top_cut=top_cut)
    elif top_cut < 0:
        raise TournamentRefusal(N_("top_cut cannot be negative."))
    if top_cut_format is not None:
        if top_cut_format not in TOP_CUT_FORMATS:
            raise TournamentRefusal(N_("top_cut_format is {formats}, not {given}."),
                                    formats=" or ".join(TOP_CUT_FORMATS), given=repr(top_cut_format))
        if not top_cut:
            raise TournamentRefusal(N_("top_cut_format is for a Swiss event's top cut: give top_cut too."))
        if size > 2 and top_cut_format == "double":
            raise TournamentRefusal(
                N_("A double-elimination cut is for 2-player tables; with tables of {size} the cut is one final "
                   "table."), size=size)
    if rounds is not None:
        if fmt is Format.SINGLE_ELIMINATION:
            raise TournamentRefusal(N_("Single elimination plays ⌈log₂ N⌉ rounds for N entrants; leave rounds out."))
        if fmt is Format.DOUBLE_ELIMINATION:
            raise TournamentRefusal(N_("Double elimination plays until every entrant but one has lost twice; "
                                       "leave rounds out."))
        if rounds < 1:
            raise TournamentRefusal(N_("rounds must be at least 1."))
    teams = getattr(engine, "teams", None)
    return Settings(game=game, format=fmt, table_size=size, min_table=engine.min_players, top_cut=top_cut,
                    rounds=rounds, teams=tuple(tuple(t) for t in teams) if teams else None,
                    top_cut_format=top_cut_format or "single")


#: The most rounds ``/tournament new rounds:`` asks for. The largest field a server may allow (1,024 entrants)
#: plays ⌈log₂ N⌉ = 10 Swiss rounds; twice that is a long league already, at a day a turn for weeks each round.
#: A full round robin needs no ``rounds`` (left out, every pair meets once, however many rounds that takes).
MAX_ROUNDS = 20


def needed_entrants(settings: Settings) -> int:
    """The fewest entrants ``/tournament start`` accepts: a full table, and the whole top cut."""
    return max(2, settings.table_size, settings.top_cut)


def round_robin_rounds(entrants: int) -> int:
    """Rounds for every pair to meet once: N − 1, or N with an odd N (one bye a round)."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def log2_rounds(entrants: int) -> int:
    """⌈log₂ N⌉, at least 1."""
    return max(1, math.ceil(math.log2(entrants))) if entrants > 1 else 1


def check_start(settings: Settings, entrants: int) -> int:
    """The number of rounds to play (the top cut not counted); raises ``TournamentRefusal`` if the
    event cannot start with ``entrants`` entrants."""
    need = needed_entrants(settings)
    if entrants < need:
        if settings.top_cut > settings.table_size:
            raise TournamentRefusal(
                N_("This tournament needs at least {need} entrants to start (top_cut is {top_cut}); it has "
                   "{entrants}. {more} more must join (or the organiser can use {/tournament addbot})."),
                need=need, top_cut=settings.top_cut, entrants=entrants, more=need - entrants)
        raise TournamentRefusal(
            N_("This tournament needs at least {need} entrants to start; it has {entrants}. {more} more must join "
               "(or the organiser can use {/tournament addbot})."), need=need, entrants=entrants, more=need - entrants)
    if settings.top_cut > entrants:  # unreachable through need, kept for callers that skip it
        raise TournamentRefusal(N_("top_cut {top_cut} is larger than the field of {entrants}."),
                                top_cut=settings.top_cut, entrants=entrants)
    return rounds_for(settings, entrants)


def rounds_for(settings: Settings, entrants: int) -> int:
    """Swiss: ``rounds`` or ⌈log₂ N⌉; round robin: ``rounds`` (at most all) or all; single elimination:
    ⌈log₂ N⌉; double elimination: 2⌈log₂ N⌉ + 1 at most (the grand final's reset included; both
    brackets play at once, and fewer rounds when the losers' bracket has byes)."""
    if settings.format is Format.SINGLE_ELIMINATION:
        return log2_rounds(entrants)
    if settings.format is Format.DOUBLE_ELIMINATION:
        return 2 * log2_rounds(entrants) + 1
    if settings.format is Format.ROUND_ROBIN:
        full = round_robin_rounds(entrants)
        if settings.rounds is not None and settings.rounds > full:
            raise TournamentRefusal(
                N_("A round robin of {entrants} entrants has {full} rounds; rounds:{rounds} is too many."),
                entrants=entrants, full=full, rounds=settings.rounds)
        return settings.rounds or full
    return settings.rounds or log2_rounds(entrants)
