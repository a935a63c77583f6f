"""What the tournament service hands its callers: an event read at one moment, what a step of it did,
what a start did, and the times of its scheduled event. Plain data, no I/O."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from data.tournaments import EntrantRecord, PenaltyRecord, PlaceRecord, RoundRecord, TournamentChanged, TournamentRecord
from engines import GAME_TITLES
from host.errors import Refusal
from i18n import N_


@dataclass
class TournamentState:
    """Everything the presenters show about a tournament, read at one moment."""

    record: TournamentRecord
    entrants: list[EntrantRecord]
    rounds: list[RoundRecord]
    places: list[PlaceRecord]
    byes: list[tuple[int, int]]
    #: Penalties and notes: for organisers' eyes only (``/tournament status`` shows them privately).
    penalties: list[PenaltyRecord] = field(default_factory=list)

    @property
    def title(self) -> str:
        return GAME_TITLES.get(self.record.game, self.record.game)

    @property
    def names(self) -> dict[int, str]:
        return {e.id: e.name for e in self.entrants}

    @property
    def current(self) -> RoundRecord | None:
        return self.rounds[-1] if self.rounds else None

    def round_places(self, number: int) -> list[PlaceRecord]:
        return [p for p in self.places if p.round == number]

    def round_byes(self, number: int) -> list[int]:
        return [e for r, e in self.byes if r == number]

    @property
    def waiting(self) -> list[EntrantRecord]:
        """Entrants beyond ``max_entrants``, in sign-up order: the waiting list (before the start)."""
        cap = self.record.max_entrants
        if cap is None or self.record.status != "registration":
            return []
        return [e for e in self.entrants if e.active][cap:]


@dataclass
class Advance:
    """What one step of the event did: rounds finished, a round written, or the champion named."""

    tournament_id: int
    finished_round: int
    new_round: int | None = None
    champion: list[int] | None = None


@dataclass
class StartOutcome:
    state: TournamentState
    no_shows: list[EntrantRecord] = field(default_factory=list)
    waitlisted: list[EntrantRecord] = field(default_factory=list)


@dataclass(frozen=True)
class Calendar:
    """What the cog must do on Discord for a tournament's scheduled event."""

    starts_at: float
    ends_at: float


@contextmanager
def lost_race() -> Iterator[None]:
    """A change that another one beat (``TournamentChanged``) is refused; nothing was written."""
    try:
        yield
    except TournamentChanged:
        raise Refusal(N_("The tournament changed just now; try again.")) from None
