"""Tournaments, pure part: settings, pairing (Swiss, round robin, single elimination, top cut),
pods, byes, points, tie-breakers and ratings.

No discord, no database, no clock: every function takes plain data and returns plain data, so the
tournament service can store what they return and call them again after a restart.
"""

from host.tournaments.bracket_view import bracket_view
from host.tournaments.byes import choose_byes
from host.tournaments.elimination import (
    Match,
    bracket,
    bracket_positions,
    champion,
    next_elimination_round,
    seed_order,
    table_winner,
)
from host.tournaments.models import (
    Bye,
    Entrant,
    EntrantId,
    Format,
    PlayedRound,
    Round,
    Side,
    Standing,
    Table,
    TableResult,
)
from host.tournaments.points import BYE_POINTS, side_points, table_points
from host.tournaments.ratings import Rating, human_sides, rate_table, recompute
from host.tournaments.refusals import TournamentRefusal
from host.tournaments.round_robin import round_robin_round, round_robin_schedule
from host.tournaments.seating import seat_table
from host.tournaments.settings import (
    Settings,
    check_start,
    default_table_size,
    make_settings,
    needed_entrants,
    rounds_for,
)
from host.tournaments.sizes import table_sizes
from host.tournaments.standings import OPP_FLOOR, standings
from host.tournaments.swiss import pair_swiss
from host.tournaments.top_cut import cut_champions, cut_seeds, next_cut_round

__all__ = [
    "BYE_POINTS", "OPP_FLOOR", "Bye", "Entrant", "EntrantId", "Format", "Match", "PlayedRound", "Rating",
    "Round", "Settings", "Side", "Standing", "Table", "TableResult", "TournamentRefusal",
    "bracket", "bracket_positions", "bracket_view", "champion", "check_start", "choose_byes", "cut_champions",
    "cut_seeds",    "default_table_size", "human_sides", "make_settings", "needed_entrants",
    "next_cut_round", "next_elimination_round", "pair_swiss", "rate_table", "recompute",
    "round_robin_round", "round_robin_schedule", "rounds_for", "seat_table", "seed_order", "side_points",
    "standings", "table_points", "table_sizes", "table_winner",
]
