"""The game-hosting service: tables, lobbies, seats, applying actions, bots. No discord here."""

from collections.abc import Awaitable, Callable

from data.store import Store, TableRecord
from host.errors import Refusal, StaleClick
from host.read_models import HandPanel
from host.results import ActOutcome, LobbyChange
from host.seat_changes import Reminder, SeatNotice
from host.tables import TableService

__all__ = ["ActOutcome", "HandPanel", "LobbyChange", "Refusal", "Reminder", "SeatNotice", "StaleClick", "TableRecord",
           "TableService", "replay_check"]


def replay_check(store: Store) -> Callable[[int], Awaitable[bool]]:
    """Whether a table's log replays to its snapshot, for ``python -m data.migrate`` (which may not import
    host: pyproject.toml registers this function under its ``deckhand.replay`` entry point)."""
    return TableService(store).verify_replay
