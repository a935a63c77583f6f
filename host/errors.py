"""Refusals: expected, player-facing reasons why a request changed nothing."""

from __future__ import annotations


class Refusal(Exception):
    """A request that was refused; ``str(exc)`` is shown to the player as is."""


class StaleClick(Refusal):
    """A control drawn for an older version of the table."""

    def __init__(self, table_id: int) -> None:
        super().__init__("That table has moved on since this was drawn. Here is the current state.")
        self.table_id = table_id
