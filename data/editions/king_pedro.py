"""Canadian and Ukrainian King Pedro: the deck, trump ranks and card points (rules/king-pedro.md).

Plain constants only; the engine derives its per-trump tables from these.
"""

from __future__ import annotations

from i18n import N_

#: Suits in display order (colours alternate: black, red, black, red).
SUITS: tuple[str, ...] = ("S", "H", "C", "D")

SUIT_NAMES: dict[str, str] = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: The other suit of the same colour (its 5 is the "other five").
SAME_COLOUR: dict[str, str] = {"S": "C", "C": "S", "H": "D", "D": "H"}

#: Ranks high to low (plain order, used to sort non-trumps for display; non-trumps have no rank in play).
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")

#: The 52 card codes, rank + suit ("AS", "10H", "5D", "2C"), in a fixed canonical order.
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

#: Trump order high to low; "O5" stands for the other five (5 of the same-colour suit).
TRUMP_ORDER: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "O5", "4", "3", "2")

#: Points of trumps by rank ("O5" = the other five). Every other card scores nothing.
TRUMP_POINTS: dict[str, int] = {"A": 1, "K": 30, "J": 1, "10": 10, "9": 9, "5": 5, "O5": 5, "2": 1}

#: Non-scoring trump ranks, discarded first by a player holding more than 6 trumps.
NON_SCORING: tuple[str, ...] = ("Q", "8", "7", "6", "4", "3")

POINTS_PER_ROUND = 62  # sum of TRUMP_POINTS
HAND_SIZE = 6
FIRST_DEAL = 9  # dealt three at a time
DEAL_PACKET = 3
SECOND_DEAL = 4
TRICKS = 6
MIN_BID = 30
MAX_BID = 62
NUM_PLAYERS = 4
