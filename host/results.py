"""What a committed change did, for the messages that tell it: a move, a lobby edit."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from data.store import TableRecord


@dataclass
class ActOutcome:
    """What one committed action did, for the table message."""

    table: TableRecord
    seat: int
    line: str
    events: list[str]
    turn_changed: bool
    over: bool
    state: Any
    #: Seats that came to act with this action (they are told it is their turn).
    entered: list[int] = field(default_factory=list)


@dataclass
class LobbyChange:
    """A committed lobby edit: the lobby after it, and whether it closed the table."""

    table: TableRecord
    closed: bool
