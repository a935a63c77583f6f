"""The game state: plain lists and ints, a hand-written clone, JSON dump/load."""

from __future__ import annotations

from typing import Any

# Inner lists of ``records`` and ``pending`` and the ``last_scoring`` dict are never mutated in place
# (always replaced), so a clone may share them.
_FIELDS = (
    "n", "max_turns", "rng", "deck", "hands", "field", "bench", "piles", "records", "first", "seat",
    "turns", "pending", "transit", "t_deck", "t_num", "t_scored", "streak_num", "streak_len", "deck_out",
    "over", "result", "places", "events", "last_scoring", "bonus", "steal_from", "known",
)
#: Fields added since the first snapshots, with what an older snapshot means by their absence.
_OPTIONAL: dict[str, Any] = {"known": None}


class State:
    """One game of Ogre Cheerleaders.

    deck: top card last. hands: sorted card lists per seat. field: left to right. bench: bottom to top.
    piles: score piles per seat. records: standing dealt-formation records (ordered card lists).
    pending: the decision awaited from ``seat`` (see flow.py), None only when the game is over.
    transit: cards out of every pile while an effect waits for a choice (a 6's stolen card, a 7's deck
    card, an 8's two cards, a 1's bench card); they are counted there.
    t_*: this turn's deck size at its start, number of the first card played from hand, whether
    anything scored. streak_*: the stalemate streak. deck_out: the turn number during which the deck
    ran out. result: "", "deck", "stalemate" or "max_turns".
    known: per seat, the cards everyone knows are in that hand (taken from the field with a 4 and not
    played since); the determinization leaves them there.
    """

    __slots__ = _FIELDS

    n: int
    max_turns: int
    rng: int
    deck: list[str]
    hands: list[list[str]]
    field: list[str]
    bench: list[str]
    piles: list[list[str]]
    records: list[list[str]]
    first: int
    seat: int
    turns: int
    pending: list[Any] | None
    transit: list[str]
    t_deck: int
    t_num: int
    t_scored: bool
    streak_num: int
    streak_len: int
    deck_out: int
    over: bool
    result: str
    places: list[int]
    events: list[str]
    last_scoring: dict[str, Any] | None
    bonus: int
    steal_from: int
    known: list[list[str]]

    def clone(self) -> State:
        c = State.__new__(State)
        c.n = self.n
        c.max_turns = self.max_turns
        c.rng = self.rng
        c.deck = self.deck[:]
        c.hands = [h[:] for h in self.hands]
        c.field = self.field[:]
        c.bench = self.bench[:]
        c.piles = [p[:] for p in self.piles]
        c.records = self.records[:]
        c.first = self.first
        c.seat = self.seat
        c.turns = self.turns
        c.pending = self.pending
        c.transit = self.transit[:]
        c.t_deck = self.t_deck
        c.t_num = self.t_num
        c.t_scored = self.t_scored
        c.streak_num = self.streak_num
        c.streak_len = self.streak_len
        c.deck_out = self.deck_out
        c.over = self.over
        c.result = self.result
        c.places = self.places[:]
        c.events = self.events[:]
        c.last_scoring = self.last_scoring
        c.bonus = self.bonus
        c.steal_from = self.steal_from
        c.known = self.known[:]
        return c

    def dump(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name in _FIELDS:
            d[name] = _plain(getattr(self, name))
        return d

    @staticmethod
    def load(data: dict[str, Any]) -> State:
        s = State.__new__(State)
        missing = [name for name in _FIELDS if name not in data and name not in _OPTIONAL]
        if missing:
            raise ValueError(f"not an Ogre Cheerleaders state: missing {', '.join(missing)}")
        for name in _FIELDS:
            setattr(s, name, _plain(data.get(name, _OPTIONAL.get(name))))
        if s.known is None:
            s.known = [[] for _ in range(s.n)]
        return s


def _plain(value: Any) -> Any:
    """A deep, JSON-shaped copy (tuples become lists)."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def all_cards(s: State) -> list[str]:
    """Every card in the state, wherever it is (for accounting checks)."""
    out = list(s.deck) + list(s.field) + list(s.bench) + list(s.transit)
    for h in s.hands:
        out += h
    for p in s.piles:
        out += p
    return out
