"""Replay is the truth: rebuild a table's state from its seed and action log."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from data.store import ActionRecord, TableRecord
from engines import Engine


def canonical(data: Any) -> str:
    """The byte-stable JSON form used for snapshots."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def rebuild(engine: Engine, table: TableRecord, actions: Sequence[ActionRecord]) -> Any:
    state = engine.new_game(len(table.seats), table.seed, table.options)
    for record in actions:
        state = engine.apply(state, record.seat, record.action)
    return state
