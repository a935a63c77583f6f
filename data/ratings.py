"""openskill ratings per server and game, updated in the transaction that records a table's result.

The store knows no rating model: the host hands it a :class:`RatingPlan` whose ``rate`` function
turns the current (μ, σ) of the table's players into their new ones. The store reads the current
ratings and writes the new ones inside the results' transaction, so a result and its rating
change are committed together or not at all, and ``rated_tables`` keeps the order tables were
rated in, from which every rating can be recomputed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from data.backends.base import Tx
from data.database import Database

#: (μ, σ) per user id.
Ratings = Mapping[int, tuple[float, float]]
Rate = Callable[[Ratings, Sequence[Sequence[int]], Sequence[int]], Mapping[int, tuple[float, float]]]


@dataclass(frozen=True)
class RatingPlan:
    """How one finished table changes ratings: its human sides (user ids) and their places."""

    guild_id: int
    game: str
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    rate: Rate


@dataclass(frozen=True)
class RatingRecord:
    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma


def _record(row: Any) -> RatingRecord:
    return RatingRecord(row["guild_id"], row["game"], row["user_id"], row["mu"], row["sigma"], row["games"])


async def apply_rating(tx: Tx, table_id: int, plan: RatingPlan, now: float) -> None:
    """Rate one finished table inside the transaction that records its result (once per table)."""
    users = [u for side in plan.sides for u in side]
    marks = ", ".join("?" for _ in users)
    rows = await tx.fetchall(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
        (plan.guild_id, plan.game, *users))
    current = {r["user_id"]: (r["mu"], r["sigma"]) for r in rows}
    updated = plan.rate(current, plan.sides, plan.places)
    await tx.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " games = ratings.games + 1, updated_at = excluded.updated_at",
        [(plan.guild_id, plan.game, user, float(mu), float(sigma), now) for user, (mu, sigma) in updated.items()])
    await tx.execute("INSERT INTO rated_tables (guild_id, game, table_id) VALUES (?, ?, ?)",
                     (plan.guild_id, plan.game, table_id))


class RatingStore:
    """The rating queries of the store (``Store.ratings``), on the store's shared :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self._db = db
        #: Rating updates of one process run one at a time: each reads the ratings it changes inside its
        #: transaction, and on PostgreSQL two transactions could otherwise read the same old rating.
        self.lock = asyncio.Lock()

    async def ratings_of(self, guild_id: int, user_id: int, game: str | None = None) -> list[RatingRecord]:
        if game is None:
            rows = await self._db.all("SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game",
                                   (guild_id, user_id))
        else:
            rows = await self._db.all("SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? AND game = ?",
                                   (guild_id, user_id, game))
        return [_record(r) for r in rows]

    async def ratings_for(self, guild_id: int, game: str, user_ids: Sequence[int]) -> dict[int, RatingRecord]:
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._db.all(f"SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
                               (guild_id, game, *user_ids))
        return {r["user_id"]: _record(r) for r in rows}

    async def leaderboard(self, guild_id: int, game: str, min_games: int, limit: int) -> list[RatingRecord]:
        """The best ordinals (μ − 3σ) of the server in one game, among players with ``min_games`` rated games."""
        rows = await self._db.all(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND games >= ?"
            " ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?", (guild_id, game, min_games, limit))
        return [_record(r) for r in rows]

    async def rated_tables(self, guild_id: int, game: str) -> list[int]:
        """The tables that changed ratings, in the order they did: recomputing replays these."""
        rows = await self._db.all("SELECT table_id FROM rated_tables WHERE guild_id = ? AND game = ? ORDER BY id",
                               (guild_id, game))
        return [r["table_id"] for r in rows]
