"""/rating and /leaderboard: a server's openskill ratings, read as read models."""

from __future__ import annotations

from data.store import Store
from engines import GAME_TITLES
from host.known_members import known_names
from host.read_models import Leaderboard, LeaderRow, MemberRatings, RatingRow

#: Players need this many rated games to appear on a leaderboard, which shows this many.
MIN_GAMES = 5
TOP = 20
#: The one number members see: openskill's ordinal (μ − 3σ, what leaderboards sort by) on a familiar scale,
#: where a new player (μ 25, σ 25/3: ordinal 0) starts at 1,000 and a point of ordinal is worth 40.
START, SCALE = 1000, 40


def shown_rating(mu: float, sigma: float) -> int:
    return round(START + SCALE * (mu - 3 * sigma))


class RatingService:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def member(self, guild_id: int | None, user_id: int, name: str, game: str | None) -> MemberRatings:
        found = await self.store.ratings.ratings_of(guild_id or 0, user_id, game)
        rows = tuple(RatingRow(r.game, GAME_TITLES.get(r.game, r.game), r.mu, r.sigma, r.games,
                               shown_rating(r.mu, r.sigma)) for r in found)
        return MemberRatings(name, GAME_TITLES[game] if game else None, rows)

    async def leaderboard(self, guild_id: int | None, game: str) -> Leaderboard:
        rows = await self.store.ratings.leaderboard(guild_id or 0, game, MIN_GAMES, TOP)
        # Names for the CSV: the bot keeps no member list (the guilds intent alone), so the names members sat under.
        names = await known_names(self.store, guild_id or 0, [r.user_id for r in rows])
        return Leaderboard(GAME_TITLES[game], MIN_GAMES,
                           tuple(LeaderRow(r.user_id, r.ordinal, r.mu, r.sigma, r.games, shown_rating(r.mu, r.sigma),
                                           names.get(r.user_id)) for r in rows))
