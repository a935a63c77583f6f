"""Pentawar edition data (rules/pentawar.md): the 40 dragon cards as plain constants.

The seed names four dragon kinds (Citrine, Sun, Forest, Shadow); the other six are our
edition (a [ruling]). Each kind has a display name, a colour, a two-letter abbreviation and
a sigil shape, all distinct, so that dragons are easy to tell apart on a phone.
"""

from __future__ import annotations

from i18n import N_

TITLE = "Pentawar"

#: Card codes, one per dragon kind, in display order.
SEED_KINDS: tuple[str, ...] = ("citrine", "sun", "forest", "shadow")
EDITION_KINDS: tuple[str, ...] = ("ruby", "sapphire", "storm", "frost", "ember", "moon")
KINDS: tuple[str, ...] = SEED_KINDS + EDITION_KINDS

#: A set is the four cards of one kind.
COPIES_PER_KIND = 4

#: The full deck, one entry per physical card (40 cards).
DECK: tuple[str, ...] = tuple(k for k in KINDS for _ in range(COPIES_PER_KIND))
DECK_SIZE = len(DECK)

#: Human names.
NAMES: dict[str, str] = {
    "citrine": N_("Citrine"),
    "sun": N_("Sun"),
    "forest": N_("Forest"),
    "shadow": N_("Shadow"),
    "ruby": N_("Ruby"),
    "sapphire": N_("Sapphire"),
    "storm": N_("Storm"),
    "frost": N_("Frost"),
    "ember": N_("Ember"),
    "moon": N_("Moon"),
}

#: Distinct two-letter marks printed big on the cards.
ABBREVIATIONS: dict[str, str] = {
    "citrine": "Ci",
    "sun": "Su",
    "forest": "Fo",
    "shadow": "Sh",
    "ruby": "Ru",
    "sapphire": "Sa",
    "storm": "St",
    "frost": "Fr",
    "ember": "Em",
    "moon": "Mo",
}

#: Distinct card colours (RGB).
COLOURS: dict[str, tuple[int, int, int]] = {
    "citrine": (236, 200, 28),    # yellow
    "sun": (247, 128, 22),        # orange
    "forest": (36, 132, 58),      # green
    "shadow": (48, 38, 60),       # near black
    "ruby": (200, 24, 52),        # red
    "sapphire": (34, 82, 204),    # blue
    "storm": (104, 114, 130),     # slate grey
    "frost": (132, 214, 240),     # ice cyan
    "ember": (140, 72, 34),       # brown
    "moon": (196, 160, 238),      # lavender
}

#: Distinct sigil shapes drawn on the cards (the renderer knows how to draw each).
SIGILS: dict[str, str] = {
    "citrine": "diamond",
    "sun": "sunburst",
    "forest": "triangle",
    "shadow": "square",
    "ruby": "heart",
    "sapphire": "drop",
    "storm": "bolt",
    "frost": "snowflake",
    "ember": "flame",
    "moon": "crescent",
}

#: Setup sizes.
PENTAWAR_SIZE = 5
HAND_SIZE = 2
TABLEAU_SIZE = 2
WING_SIZE = 5

MIN_PLAYERS = 2
MAX_PLAYERS = 5
#: With this many players or more the deck is reshuffled once from the discards.
RESHUFFLE_FROM_PLAYERS = 4
