"""Pedwar (rules/pedwar.md): bid Maneuver cards to collect Object cards, then score
Straights, Straight Flushes, Four of a Kinds and your hidden Goal.

Modules: ``scoring`` (the pure rule helper), ``bids`` (bid shapes), ``state`` (the state,
dump/load), ``rules`` (turn flow), ``views`` (views and labels), ``engine`` (the contract object).
"""

from __future__ import annotations

from engines.pedwar.engine import ENGINE, PedwarEngine
from engines.pedwar.scoring import best_collections, score_breakdown, score_collection
from engines.pedwar.state import State

__all__ = ["ENGINE", "PedwarEngine", "State", "best_collections", "score_breakdown", "score_collection"]
