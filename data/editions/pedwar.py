"""Pedwar edition data (rules/pedwar.md): Object cards, Maneuver cards with pips, Goal cards.

Plain constants, no I/O. Card codes follow DESIGN.md: Object cards are a colour letter
(R/B/G/Y) plus a number 1-8 or ``W`` for a Wild; Maneuver kinds are ``1+ 2+ 3 4 5 OP``.
"""

from __future__ import annotations

#: Colour letters, in seat-independent display order, with their names.
COLOURS: tuple[str, ...] = ("R", "B", "G", "Y")
COLOUR_NAMES: dict[str, str] = {"R": "Red", "B": "Blue", "G": "Green", "Y": "Yellow"}
NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)
WILD = "W"
WILDS_PER_COLOUR = 2

#: The 40 Object cards: per colour 1-8 and two identical Wilds.
OBJECT_CARDS: tuple[str, ...] = tuple(
    [f"{c}{n}" for c in COLOURS for n in NUMBERS] + [f"{c}{WILD}" for c in COLOURS for _ in range(WILDS_PER_COLOUR)])

#: Maneuver kinds, lowest to highest (also the tie-break ranking: OP > 5 > 4 > 3 > 2+ > 1+).
MANEUVER_KINDS: tuple[str, ...] = ("1+", "2+", "3", "4", "5", "OP")
OVERPOWER = "OP"
#: Kinds that may be paired with one other numbered card.
PAIRING_KINDS: tuple[str, ...] = ("1+", "2+")
#: Bid value of each numbered kind (OP has no number: it beats numbers by rule).
MANEUVER_VALUES: dict[str, int] = {"1+": 1, "2+": 2, "3": 3, "4": 4, "5": 5}
#: [ruling] copies of each kind (50 in all) and the pips printed on it.
MANEUVER_COPIES: dict[str, int] = {"1+": 10, "2+": 10, "3": 9, "4": 9, "5": 8, "OP": 4}
MANEUVER_PIPS: dict[str, int] = {"1+": 3, "2+": 2, "3": 2, "4": 1, "5": 1, "OP": 1}
MANEUVER_CARDS: tuple[str, ...] = tuple(k for k in MANEUVER_KINDS for _ in range(MANEUVER_COPIES[k]))
#: Pips discarded per extra action (rounded down).
PIPS_PER_ACTION = 3


def _goal(k: int) -> tuple[str, str, str, str]:
    """[ruling] Goal k lists Red k, Blue (k mod 8)+1, Green ((k+1) mod 8)+1, Yellow ((k+2) mod 8)+1."""
    return (f"R{k}", f"B{k % 8 + 1}", f"G{(k + 1) % 8 + 1}", f"Y{(k + 2) % 8 + 1}")


#: Goal number (1-8) -> the four Object cards it lists.
GOALS: dict[int, tuple[str, str, str, str]] = {k: _goal(k) for k in range(1, 9)}
GOAL_POINTS = 3

ROW_SIZE = 6
HAND_LIMIT = 6

#: Scoring points per numbered card (Wilds score 0).
STRAIGHT_POINTS = 1
STRAIGHT_FLUSH_POINTS = 2
FOUR_OF_A_KIND_POINTS = 3
MIN_RUN = 4

assert len(OBJECT_CARDS) == 40
assert len(MANEUVER_CARDS) == 50
