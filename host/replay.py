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


def agrees(stored: Any, rebuilt: Any) -> bool:
    """Whether a stored snapshot says what the replayed one says, where it says anything.

    A snapshot written by an earlier build lacks the fields a later engine added (Pentawar's altered
    position, say): a key the stored dump does not have is not a disagreement. Every key it has, at any
    depth, must hold exactly the replayed value; lists must match item for item."""
    if isinstance(stored, dict):
        return isinstance(rebuilt, dict) and all(k in rebuilt and agrees(v, rebuilt[k]) for k, v in stored.items())
    if isinstance(stored, list):
        return (isinstance(rebuilt, list) and len(stored) == len(rebuilt)
                and all(agrees(a, b) for a, b in zip(stored, rebuilt, strict=True)))
    return stored == rebuilt and type(stored) is type(rebuilt)


def rebuild(engine: Engine, table: TableRecord, actions: Sequence[ActionRecord]) -> Any:
    state = engine.new_game(len(table.seats), table.seed, table.options)
    for record in actions:
        state = engine.apply(state, record.seat, record.action)
    return state
