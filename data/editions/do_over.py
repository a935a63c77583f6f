"""Do Over! edition data (rules/do-over.md): the 54-card deck as plain constants.

The seed does not print the numbers on the numbered cards; our edition (a [ruling]) has
values 1 to 11, four of each. The 11 is simply the highest card.
"""

from __future__ import annotations

from i18n import N_

TITLE = "Do Over!"

#: Numbered cards: value -> copies.  The code of a numbered card is its value as a string.
NUMBER_VALUES: tuple[int, ...] = tuple(range(1, 12))
COPIES_PER_NUMBER = 4

#: Special cards: code -> copies.
BOMB = "BOMB"
DO_OVER = "DO"
REVERSE = "REV"
SPECIAL_COPIES: dict[str, int] = {BOMB: 4, DO_OVER: 4, REVERSE: 2}

#: Every distinct card code, in display order: numbers low to high, then the specials.
CODES: tuple[str, ...] = (*(str(v) for v in NUMBER_VALUES), BOMB, DO_OVER, REVERSE)

#: Human names for the codes.
NAMES: dict[str, str] = {**{str(v): str(v) for v in NUMBER_VALUES},
                         BOMB: N_("Bomb"), DO_OVER: "Do Over!", REVERSE: N_("Reverse")}

#: The full deck, one entry per physical card (54 cards).
DECK: tuple[str, ...] = tuple(
    [str(v) for v in NUMBER_VALUES for _ in range(COPIES_PER_NUMBER)]
    + [code for code, copies in SPECIAL_COPIES.items() for _ in range(copies)]
)

DECK_SIZE = len(DECK)

#: Setup sizes.
RESERVE_PILES = 3
HAND_SIZE = 3

MIN_PLAYERS = 2
MAX_PLAYERS = 6

assert DECK_SIZE == 54
