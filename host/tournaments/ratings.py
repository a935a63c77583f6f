"""openskill ratings (Plackett–Luce) from table placings.

Ratings are kept per game and per server: the caller keys the dictionaries (for example by
``(guild_id, game)`` outside, by user id inside). Bots are not rated: the caller leaves them out,
and ``human_sides`` does that for it. Partners are one openskill team.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple, TypeVar

from openskill.models import PlackettLuce

Player = TypeVar("Player", bound=Hashable)

MU = 25.0
SIGMA = 25.0 / 3.0


class Rating(NamedTuple):
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """μ − 3σ: what leaderboards sort by, a rating the player is very likely above."""
        return self.mu - 3.0 * self.sigma


DEFAULT = Rating(MU, SIGMA)


@lru_cache(maxsize=1)
def _model() -> PlackettLuce:
    # Fixed defaults (μ 25, σ 25/3, τ 25/300): changing any of them changes every recomputed rating.
    return PlackettLuce(mu=MU, sigma=SIGMA)


def rate_table(ratings: Mapping[Player, tuple[float, float]], sides: Sequence[Sequence[Player]],
               places: Sequence[int]) -> dict[Player, Rating]:
    """New ratings of the players at one table (only those players), from their sides and places.

    ``ratings`` holds current (μ, σ) pairs; a player missing from it starts at (25, 25/3). Lower
    places are better; sides that share a place tie. Pass only human players (see ``human_sides``).
    """
    if len(sides) != len(places) or len(sides) < 2:
        raise ValueError("rate_table needs at least two sides and one place per side")
    model = _model()
    teams = [[model.rating(*ratings.get(p, DEFAULT)) for p in side] for side in sides]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    out: dict[Player, Rating] = {}
    for side, team in zip(sides, rated, strict=True):
        for player, r in zip(side, team, strict=True):
            out[player] = Rating(float(r.mu), float(r.sigma))
    return out


def human_sides(sides: Sequence[Sequence[Player]], places: Sequence[int],
                is_bot: Callable[[Player], bool]) -> tuple[list[list[Player]], list[int]] | None:
    """The sides and places to rate once bots are left out, or ``None`` when the table is not rated:
    a table counts only with at least two human players on at least two sides."""
    kept: list[list[Player]] = []
    kept_places: list[int] = []
    for side, place in zip(sides, places, strict=True):
        humans = [p for p in side if not is_bot(p)]
        if humans:
            kept.append(humans)
            kept_places.append(place)
    return (kept, kept_places) if len(kept) >= 2 else None


def recompute(results_in_order: Iterable[tuple[Sequence[Sequence[Player]], Sequence[int]]]
              ) -> dict[Player, Rating]:
    """Every rating from scratch, replaying each table's (sides, places) in the order they finished.

    Exactly the numbers that applying ``rate_table`` one table at a time gives, since it is the
    same fold: the stored ratings can always be rebuilt from the ``results`` table.
    """
    ratings: dict[Player, Rating] = {}
    for sides, places in results_in_order:
        ratings.update(rate_table(ratings, sides, places))
    return ratings
