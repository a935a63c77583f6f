"""Canadian and Ukrainian King Pedro (rules/king-pedro.md): four players, seats 0 & 2 against 1 & 3.

- ``rules``: trump tables and pure helpers (``trick_winner``, ``score_round``, legal cards);
- ``round``: the state (every container a tuple, so a clone is a shallow copy) and the round steps;
- ``engine``: the contract object ``ENGINE``.
"""

from engines.king_pedro.engine import ENGINE, KingPedroEngine
from engines.king_pedro.round import State
from engines.king_pedro.rules import (
    card_points,
    legal_discards,
    legal_plays,
    pretty,
    score_round,
    sort_hand,
    trick_winner,
    trump_cards,
)

__all__ = [
    "ENGINE",
    "KingPedroEngine",
    "State",
    "card_points",
    "legal_discards",
    "legal_plays",
    "pretty",
    "score_round",
    "sort_hand",
    "trick_winner",
    "trump_cards",
]
