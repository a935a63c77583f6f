"""The game-hosting service: tables, lobbies, seats, applying actions, bots. No discord here."""

from data.store import TableRecord
from host.errors import Refusal, StaleClick
from host.read_models import HandPanel
from host.results import ActOutcome, LobbyChange
from host.seat_changes import Reminder, SeatNotice
from host.tables import TableService

__all__ = ["ActOutcome", "HandPanel", "LobbyChange", "Refusal", "Reminder", "SeatNotice", "StaleClick", "TableRecord",
           "TableService"]
