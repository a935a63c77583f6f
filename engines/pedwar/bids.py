"""Pedwar bids: a single numbered Maneuver card, a pair (a 1+ or 2+ plus one other numbered card), or an OP.

A bid is written as its cards, lowest first, joined by commas: ``3``, ``2+,5``, ``1+,1+``, ``OP``.
"""

from __future__ import annotations

from functools import lru_cache

from data.editions import pedwar as edition
from engines.contract import IllegalAction
from i18n import said

KINDS = edition.MANEUVER_KINDS
OP = edition.OVERPOWER
RANK = {k: i for i, k in enumerate(KINDS)}
VALUES = edition.MANEUVER_VALUES
PIPS = edition.MANEUVER_PIPS
NUMBERED = tuple(k for k in KINDS if k != OP)
PAIRING = edition.PAIRING_KINDS

#: Bid = (text, cards, value); value is None for an OP.
Bid = tuple[str, tuple[str, ...], int | None]


def _all_bids() -> list[Bid]:
    bids: list[Bid] = [(k, (k,), VALUES[k]) for k in NUMBERED]
    for a in PAIRING:
        for b in NUMBERED:
            if RANK[b] >= RANK[a]:
                bids.append((f"{a},{b}", (a, b), VALUES[a] + VALUES[b]))
    bids.sort(key=lambda x: (x[2], [RANK[k] for k in x[1]]))
    bids.append((OP, (OP,), None))
    return bids


#: Every bid shape, in offer order: by value, then cards, OP last.
ALL_BIDS: tuple[Bid, ...] = tuple(_all_bids())
BY_TEXT: dict[str, Bid] = {b[0]: b for b in ALL_BIDS}


def parse_bid(text: str) -> Bid:
    """The bid written ``text``, or IllegalAction with the rule it breaks."""
    bid = BY_TEXT.get(text)
    if bid is not None:
        return bid
    parts = text.split(",")
    if any(p not in KINDS for p in parts):
        raise IllegalAction(said("{bid} is not a bid: use Maneuver cards 1+ 2+ 3 4 5 OP", bid=repr(text)))
    if OP in parts:
        raise IllegalAction(said("An OP is bid alone"))
    if len(parts) > 2:
        raise IllegalAction(said("A bid is one card, or a pair of two cards"))
    if not any(p in PAIRING for p in parts):
        raise IllegalAction(said("A pair needs a 1+ or 2+"))
    return BY_TEXT[",".join(sorted(parts, key=RANK.__getitem__))]


@lru_cache(maxsize=4096)
def bids_from(hand: tuple[str, ...]) -> tuple[Bid, ...]:
    """Every distinct bid the (sorted) hand can make, in offer order."""
    counts = {k: 0 for k in KINDS}
    for k in hand:
        counts[k] += 1
    out = []
    for bid in ALL_BIDS:
        cards = bid[1]
        if len(cards) == 2 and cards[0] == cards[1]:
            if counts[cards[0]] >= 2:
                out.append(bid)
        elif all(counts[k] for k in cards):
            out.append(bid)
    return tuple(out)


def holds(hand: list[str], cards: tuple[str, ...]) -> bool:
    if len(cards) == 2 and cards[0] == cards[1]:
        return hand.count(cards[0]) >= 2
    return all(k in hand for k in cards)


def beats(bid: Bid, top: Bid | None) -> bool:
    """Whether ``bid`` is high enough over the current highest bid ``top`` (OP lock aside)."""
    if top is None:
        return True
    if top[2] is None:  # an OP: only an OP (by the active player) can go over it
        return bid[2] is None
    return bid[2] is None or bid[2] >= top[2] + 1


def words(bid: Bid) -> str:
    """ "2+ and 5 (7)", "4", "OP" """
    if bid[2] is None:
        return OP
    if len(bid[1]) == 1:
        return bid[0]
    return said("{card} and {other} ({value})", card=bid[1][0], other=bid[1][1], value=bid[2])


def sort_hand(hand: list[str]) -> None:
    hand.sort(key=RANK.__getitem__)
