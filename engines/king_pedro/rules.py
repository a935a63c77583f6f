"""King Pedro rule tables and pure helpers (rules/king-pedro.md): trumps, ranks, points, legal cards."""

from __future__ import annotations

from typing import Any

from data.editions import king_pedro as edition

SUITS = edition.SUITS
SYM = edition.SUIT_SYMBOLS
DECK = edition.DECK
N = edition.NUM_PLAYERS
MIN_BID, MAX_BID = edition.MIN_BID, edition.MAX_BID
HAND, TRICKS = edition.HAND_SIZE, edition.TRICKS
TEAMS = ((0, 2), (1, 3))
TITLE = "Canadian and Ukrainian King Pedro"
#: The table options (rules/king-pedro.md), here so that the engine and the fast playout share them.
DEFAULT_OPTIONS: dict[str, Any] = {"target": 262, "max_rounds": 100}


def _rank_suit(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


def _build_tables() -> tuple[dict, dict, dict, dict, dict, dict]:
    ranks, points, dclass, sortkey, order = {}, {}, {}, {}, {}
    for t in SUITS:
        other5 = "5" + edition.SAME_COLOUR[t]
        high_to_low = [other5 if r == "O5" else r + t for r in edition.TRUMP_ORDER]
        order[t] = tuple(high_to_low)
        ranks[t] = {c: len(high_to_low) - i for i, c in enumerate(high_to_low)}
        points[t] = {(other5 if r == "O5" else r + t): p for r, p in edition.TRUMP_POINTS.items()}
        dclass[t] = {c: (0 if _rank_suit(c)[0] in edition.NON_SCORING and c != other5
                         else 1 if c == "2" + t else 2) for c in high_to_low}
        key = {c: i for i, c in enumerate(high_to_low)}
        for c in DECK:
            if c not in key:
                r, s = _rank_suit(c)
                key[c] = 100 + SUITS.index(s) * 20 + edition.RANKS.index(r)
        sortkey[t] = key
    plain = {c: SUITS.index(c[-1]) * 20 + edition.RANKS.index(c[:-1]) for c in DECK}
    return ranks, points, dclass, sortkey, order, plain


_TRANK, _POINTS, _DCLASS, _SORT, _TORDER, _PLAIN = _build_tables()
_TRUMPS = {t: frozenset(r) for t, r in _TRANK.items()}
_DECK_SET = frozenset(DECK)
_BIDS = tuple(f"bid:{n}" for n in range(MIN_BID, MAX_BID + 1))
_PLAY = {c: "play:" + c for c in DECK}
_DISCARD = {c: "discard:" + c for c in DECK}
_TRUMP_ACTIONS = tuple("trump:" + t for t in SUITS)


# ---------------------------------------------------------------- pure rule helpers

def trump_cards(trump: str) -> tuple[str, ...]:
    """The 14 trumps for ``trump``, high to low (the other five sits between the 5 and the 4)."""
    return _TORDER[trump]


def card_points(card: str, trump: str) -> int:
    """Points of ``card`` when ``trump`` is trump (only trumps score)."""
    return _POINTS[trump].get(card, 0)


def trick_winner(cards: list[str], trump: str) -> int:
    """Index of the winning card: the highest trump, or the leader (0) when no trump was played."""
    if trump not in _TRANK:
        raise ValueError(f"trump must be one of {', '.join(SUITS)}, not {trump!r}")
    rank = _TRANK[trump]
    best, best_rank = 0, 0
    for i, card in enumerate(cards):
        r = rank.get(card, 0)
        if r > best_rank:
            best, best_rank = i, r
    return best


def score_round(bid: int, bidding_team: int, team_points: tuple[int, int] | list[int]) -> tuple[int, int]:
    """Score changes (team 0, team 1): defenders always score; bidders score if they reach the bid, else lose it."""
    deltas = [team_points[0], team_points[1]]
    if team_points[bidding_team] < bid:
        deltas[bidding_team] = -bid
    return deltas[0], deltas[1]


def places(winner: int) -> list[int]:
    """Placings by seat for a finished game: partners share their place; ``winner`` 2 is a shared win."""
    if winner == 2:
        return [1] * N
    return [1 if p % 2 == winner else 3 for p in range(N)]


def legal_discards(hand: tuple[str, ...] | list[str], trump: str) -> list[str]:
    """Cards that may be discarded now while reducing to 6 (keep-your-trumps rules), in hand order."""
    if len(hand) <= HAND:
        return []
    trumps = _TRUMPS[trump]
    held = [c for c in hand if c in trumps]
    if len(held) <= HAND:
        return [c for c in hand if c not in trumps]
    cls = _DCLASS[trump]
    lowest = min(cls[c] for c in held)
    return [c for c in hand if c not in trumps or cls[c] == lowest]


def legal_plays(hand: tuple[str, ...] | list[str], led: str | None, trump: str, first_lead: bool) -> list[str]:
    """Cards that may be played: ``led`` is the trick's first card (None when leading)."""
    trumps = _TRUMPS[trump]
    if led is None:
        return [c for c in hand if c in trumps] if first_lead else list(hand)
    led_trump = led in trumps
    same = [c for c in hand if (c in trumps) == led_trump]
    return same or list(hand)


def pretty(card: str) -> str:
    return card[:-1] + SYM[card[-1]]


def _team_label(team: int) -> str:
    a, b = TEAMS[team]
    return f"{{p{a}}} & {{p{b}}}"


def sort_hand(hand: Any, trump: str) -> tuple[str, ...]:
    """Display order: trumps first (high to low), then the other suits; plain suit order before trump is named."""
    return _sorted(hand, trump)


def _sorted(hand: Any, trump: str) -> tuple[str, ...]:
    key = _SORT[trump] if trump else _PLAIN
    return tuple(sorted(hand, key=key.__getitem__))
