"""Rows guarded by a revision: a change is written only if the row is still at the revision it was read at.

Tables and tournaments both keep a ``revision`` that every change outside a move bumps; a writer that
read an older one (another process, a lost race) changes nothing and learns so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data.backends.base import Tx


async def bump_revision(tx: Tx, table: str, row_id: int, revision: int, statuses: Sequence[str], sets: str = "",
                        params: Sequence[Any] = ()) -> bool:
    """Move row ``row_id`` of ``table`` from ``revision`` to the next (with ``sets``, e.g. ``", status = ?"``,
    and their ``params``), if it is still at that revision and in one of ``statuses``; whether it was."""
    marks = ", ".join("?" for _ in statuses)
    written = await tx.execute(
        f"UPDATE {table} SET revision = revision + 1{sets} WHERE id = ? AND revision = ? AND status IN ({marks})",
        (*params, row_id, revision, *statuses))
    return written.rowcount == 1
