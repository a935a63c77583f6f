"""Ogre Cheerleaders edition data (rules/ogre-cheerleaders.md): the 40-card deck as plain constants.

The seed names the four teams but prints only some effects (in its notes); the effect of each
number is our edition (a [ruling] in the rules file), kept here so that an edition can be swapped.
"""

from __future__ import annotations

from i18n import N_

TITLE = "Ogre Cheerleaders"

#: Team letters in display order.
TEAMS: tuple[str, ...] = ("O", "S", "C", "U")

#: Full team names.
TEAM_NAMES: dict[str, str] = {
    "O": N_("Orange County Onions"),
    "S": N_("Stillwater Swamp Monsters"),
    "C": N_("Cave Springs Clubs"),
    "U": N_("Unionville Unicorns"),
}

#: Short team names for small card faces.
TEAM_SHORT: dict[str, str] = {
    "O": N_("Onions"),
    "S": N_("Swamp Monsters"),
    "C": N_("Clubs"),
    "U": N_("Unicorns"),
}

NUMBERS: tuple[int, ...] = tuple(range(1, 11))

#: Every card code: team letter + number, one card of each number per team (40 cards).
CARDS: tuple[str, ...] = tuple(f"{t}{n}" for t in TEAMS for n in NUMBERS)

#: Effect text per number ("other" = any card except the one being resolved).
EFFECTS: dict[int, str] = {
    1: N_("Join the top card of the bench to the field, at either end."),
    2: N_("Move any other card on the field to either end of the field."),
    3: N_("Swap the places of any two other cards on the field."),
    4: N_("Take any other card from the field into your hand."),
    5: N_("Bench any other card on the field."),
    6: N_("Choose an opponent who has cards in hand. Take a random card from their hand and play it."),
    7: N_("Play the top card of the deck."),
    8: N_("Take the top two cards of the deck. Put one into your hand; the other joins the field at either end."),
    9: N_("Shuffle the whole field, this 9 included."),
    10: N_("Bench the two cards at the far end of the field, the end this card was not played on."),
}

#: The same effects in a few words, for card faces on the table.
EFFECTS_SHORT: dict[int, str] = {
    1: N_("Join bench top"),
    2: N_("Move a card to an end"),
    3: N_("Swap two cards"),
    4: N_("Take a card to hand"),
    5: N_("Bench a card"),
    6: N_("Steal & play a card"),
    7: N_("Play deck top"),
    8: N_("Draw 2: keep 1, join 1"),
    9: N_("Shuffle the field"),
    10: N_("Bench 2 at far end"),
}

#: Formation kinds as named in the rules.
KIND_NAMES: dict[str, str] = {"team": N_("Same team"), "sequence": N_("Sequence"), "number": N_("Same number")}

HAND_SIZE = 4
FIELD_DEAL = 4
MIN_TEAM = 3
MIN_SEQUENCE = 3
MIN_NUMBER = 2
STALEMATE_TURNS = 4

MIN_PLAYERS = 2
MAX_PLAYERS = 4
DEFAULT_MAX_TURNS = 500


def team(card: str) -> str:
    return card[0]


def number(card: str) -> int:
    return int(card[1:])
