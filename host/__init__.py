"""The game-hosting service: tables, lobbies, seats, applying actions, bots. No discord here."""

from host.errors import Refusal, StaleClick
from host.results import ActOutcome, LobbyChange
from host.seat_changes import Reminder, SeatNotice
from host.tables import HandInfo, TableService

__all__ = ["ActOutcome", "HandInfo", "LobbyChange", "Refusal", "Reminder", "SeatNotice", "StaleClick",
           "TableService"]
