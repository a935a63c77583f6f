"""The Pedwar heuristic bot (the ``easy`` level, and the search's playout policy).

Rules of thumb, in Pedwar's terms: an Object card is worth what it adds to your best scoring
collections plus 3 if it is on your Goal, and half of what it would add to the best rival's
collections (denying it). On your turn, bid hard: your hand refills to 6 at the end of the turn,
so bid the card worth most with your strongest bid, an OP when the card is worth a lot. In other
players' trump phases spend cards only to raise on a card worth a lot to you, with the cheapest
raise that beats; cards spent there are not refilled until your turn. Reads only the seat's own
hand and Goal and what is face up.
"""

from __future__ import annotations

from collections.abc import Callable

from data.editions import pedwar as edition
from engines.pedwar import bids as B
from engines.pedwar.scoring import score_collection
from engines.pedwar.state import ACTION, DISCARD, State

#: A card worth at least this much to you deserves an OP on your own turn.
OP_WORTH = 6.0
#: Least worth of a card to raise on outside your own turn, and on it.
RAISE_WORTH, RAISE_WORTH_ACTIVE = 4.0, 1.0


def card_worth(s: State, seat: int, card: str) -> float:
    code = card.split("#")[0]
    mine = s.colls[seat]
    goal = s.goals[seat]
    gain = score_collection([*mine, code], goal) - score_collection(mine, goal)
    near = sum(1 for c in mine if c[1] != edition.WILD and code[1] != edition.WILD
               and abs(int(c[1]) - int(code[1])) <= 1)
    deny = max((score_collection([*s.colls[p], code], None) - score_collection(s.colls[p], None)
                for p in range(s.n) if p != seat), default=0)
    return gain + 0.5 * near + 0.5 * deny + (0.5 if code[1] == edition.WILD else 0.0)


def _bid_value(text: str) -> int:
    value = B.BY_TEXT[text][2]
    return 99 if value is None else value


def choose(s: State, seat: int, actions: list[str], draw: Callable[[int], int]) -> str:
    if len(actions) == 1:
        return actions[0]
    if s.phase == DISCARD:
        return "done"
    worth: dict[str, float] = {}
    moves = []
    for a in actions:
        verb, _, rest = a.partition(":")
        if verb in ("bid", "raise"):
            card, _, text = rest.partition(":")
            if card not in worth:
                worth[card] = card_worth(s, seat, card)
            moves.append((worth[card], card, text, a))
    if s.phase == ACTION:
        if not moves or (s.used and max(m[0] for m in moves) < 1.0):
            return "done" if "done" in actions else actions[0]
        top = max(m[0] for m in moves)
        card = min(m[1] for m in moves if m[0] == top)
        options = [m for m in moves if m[1] == card]
        op = [m for m in options if B.BY_TEXT[m[2]][2] is None]
        numbered = [m for m in options if B.BY_TEXT[m[2]][2] is not None]
        if op and (top >= OP_WORTH or not numbered):
            return op[0][3]
        return max(numbered, key=lambda m: (_bid_value(m[2]), m[3]))[3]
    # Trump phase: the cheapest raise on the card worth most, if it is worth enough.
    threshold = RAISE_WORTH_ACTIVE if seat == s.active else RAISE_WORTH
    good = [m for m in moves if m[0] >= threshold]
    if not good:
        return "done" if "done" in actions else "pass"
    top = max(m[0] for m in good)
    return min((m for m in good if m[0] == top), key=lambda m: (_bid_value(m[2]), m[3]))[3]
