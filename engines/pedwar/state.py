"""Pedwar game state: plain lists and ints, a hand-written clone, JSON dump/load."""

from __future__ import annotations

from typing import Any

DISCARD, ACTION, TRUMP, OVER = "discard", "action", "trump", "over"

#: Field name -> kind used by clone/dump/load: "v" plain value, "l" list, "ll" list of lists.
FIELDS: dict[str, str] = {
    "n": "v", "max_turns": "v", "rng": "v",
    "row": "l",          # 6 slots: an Object card code or None (taken this turn, refilled in the End phase)
    "odeck": "l",        # Object deck, drawn from the end
    "mdeck": "l",        # Maneuver deck, drawn from the end
    "mdisc": "l",        # Maneuver discard pile
    "reshuffled": "l",   # the Maneuver deck as the last reshuffle formed it (public: the discard pile); [] before
    "drawn": "ll",       # per seat, the Maneuver cards it drew since that reshuffle (each seat knows only its own)
    "hands": "ll",       # Maneuver hands, sorted 1+ .. OP
    "goals": "l",        # Goal number per seat
    "goals_out": "l",    # Goal cards out of play
    "colls": "ll",       # collections, in the order won
    "bids": "ll",        # per row slot: bids this turn as [seat, bid text], oldest first
    "spent": "l",        # Maneuver cards of bids on cards already won by an OP this turn
    "discarded": "l",    # Maneuver cards discarded in this turn's Discard phase
    "inplay": "l",       # row slots in play in the Trump phase
    "raised": "l",       # row slots raised in the current trump turn
    "first": "v", "active": "v", "turns": "v", "phase": "v", "pips": "v", "actions": "v", "used": "v",
    "tseat": "v", "passes": "v",
    "events": "l",
    "final": "v",        # None, or at the end {"reason", "scores", "places", "breakdown", "tiebreak"}
}


class State:
    __slots__ = tuple(FIELDS)

    n: int
    max_turns: int
    rng: int
    row: list[str | None]
    odeck: list[str]
    mdeck: list[str]
    mdisc: list[str]
    reshuffled: list[str]
    drawn: list[list[str]]
    hands: list[list[str]]
    goals: list[int]
    goals_out: list[int]
    colls: list[list[str]]
    bids: list[list[list[Any]]]
    spent: list[str]
    discarded: list[str]
    inplay: list[int]
    raised: list[int]
    first: int
    active: int
    turns: int
    phase: str
    pips: int
    actions: int
    used: int
    tseat: int | None
    passes: int
    events: list[str]
    final: dict[str, Any] | None

    def clone(self) -> State:
        """Copy every list this state may change (the inner [seat, bid] pairs are never mutated)."""
        s = State.__new__(State)
        s.n, s.max_turns, s.rng = self.n, self.max_turns, self.rng
        s.row, s.odeck, s.mdeck, s.mdisc = self.row[:], self.odeck[:], self.mdeck[:], self.mdisc[:]
        s.reshuffled = self.reshuffled  # replaced, never changed in place
        s.drawn = [d[:] for d in self.drawn]
        s.hands = [h[:] for h in self.hands]
        s.goals, s.goals_out = self.goals[:], self.goals_out[:]
        s.colls = [c[:] for c in self.colls]
        s.bids = [b[:] for b in self.bids]
        s.spent, s.discarded, s.inplay, s.raised = self.spent[:], self.discarded[:], self.inplay[:], self.raised[:]
        s.first, s.active, s.turns, s.phase = self.first, self.active, self.turns, self.phase
        s.pips, s.actions, s.used = self.pips, self.actions, self.used
        s.tseat, s.passes = self.tseat, self.passes
        s.events = self.events[:]
        s.final = self.final  # set once at the end, never changed afterwards
        return s


def dump(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, kind in FIELDS.items():
        value = getattr(state, name)
        if kind == "l":
            value = list(value)
        elif kind == "ll":
            value = [list(x) for x in value]
        elif name == "final" and value is not None:
            value = _plain(value)
        out[name] = value
    if state.bids:
        out["bids"] = [[[b[0], b[1]] for b in slot] for slot in state.bids]
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


#: Fields that snapshots from before them lack, and what they load as. Without the reshuffle record
#: a determinization cannot tell which Maneuver cards may still be in the deck (it redeals them with
#: the hands, as it used to), until the next reshuffle records one.
LATER = {"reshuffled": lambda data: [], "drawn": lambda data: [[] for _ in range(data["n"])]}


def load(data: dict[str, Any]) -> State:
    data = {**{k: make(data) for k, make in LATER.items() if k not in data and "n" in data}, **data}
    missing = [name for name in FIELDS if name not in data]
    if missing:
        raise ValueError(f"not a Pedwar state: missing {', '.join(missing)}")
    s = State.__new__(State)
    for name, kind in FIELDS.items():
        value = data[name]
        if kind == "l":
            value = list(value)
        elif kind == "ll":
            value = [list(x) for x in value]
        elif name == "final" and value is not None:
            value = _plain(value)
        setattr(s, name, value)
    s.bids = [[[b[0], b[1]] for b in slot] for slot in data["bids"]]
    return s
