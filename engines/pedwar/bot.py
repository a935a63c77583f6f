"""The Pedwar heuristic bot (the ``easy`` level, and the search's playout policy).

Rules of thumb, in Pedwar's terms: an Object card is worth what it adds to your best scoring
collections plus 3 if it is on your Goal, and half of what it would add to the best rival's
collections (denying it). On your turn your hand refills to 6 at the end, so spend it: discard
for extra actions until actions and cards left meet (a 1+ is 3 pips, a whole action), bid on as
many cards as you can, single cards while more actions remain, an OP on a card worth a little.
In every trump phase raise on the card worth most to you with the cheapest raise that beats:
every card won is one more towards a Straight (measured: raising only on cards worth 4 or more
won 5 % of games against random bidders, raising whenever possible 70 %). Reads only the
seat's own hand and Goal and what is face up.
"""

from __future__ import annotations

from collections.abc import Callable

from data.editions import pedwar as edition
from engines.pedwar import bids as B
from engines.pedwar.scoring import score_collection
from engines.pedwar.state import ACTION, DISCARD, State

#: A card worth at least this much to you deserves an OP on your own turn.
OP_WORTH = 3.0
#: Least worth of a card to raise on outside your own turn, and on it (see above: raise always).
RAISE_WORTH, RAISE_WORTH_ACTIVE = 0.0, 0.0


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


def _discard_plan(hand: list[str], pips: int) -> str | None:
    """The next card to discard on the way to the most bids this turn: every action is one Object
    card more, and each needs its own card, so discard until actions and cards left meet.
    Among plans with as many bids, keep the strongest cards. None: stop discarding."""
    best: tuple[int, int] = (min(len(hand), 1 + pips // edition.PIPS_PER_ACTION), sum(_strength(k) for k in hand))
    pick = None
    n = len(hand)
    for mask in range(1, 1 << n):
        out = [hand[i] for i in range(n) if mask >> i & 1]
        keep = [hand[i] for i in range(n) if not mask >> i & 1]
        if not keep:
            continue
        bids = min(len(keep), 1 + (pips + sum(B.PIPS[k] for k in out)) // edition.PIPS_PER_ACTION)
        key = (bids, sum(_strength(k) for k in keep))
        if key > best:
            best, pick = key, min(out, key=_strength)
    return pick


def _strength(kind: str) -> int:
    return 8 if kind == B.OP else B.VALUES[kind]


def _bid_value(text: str) -> int:
    value = B.BY_TEXT[text][2]
    return 99 if value is None else value


def choose(s: State, seat: int, actions: list[str], draw: Callable[[int], int]) -> str:
    if len(actions) == 1:
        return actions[0]
    if s.phase == DISCARD:
        kind = _discard_plan(s.hands[seat], s.pips)
        return f"discard:{kind}" if kind is not None and f"discard:{kind}" in actions else "done"
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
        # Every action used is a card more in the collection, and the hand refills at the end of
        # the turn: bid on as many cards as the actions allow, spreading single cards while more
        # actions remain and putting everything left into the last one.
        if not moves:
            return "done" if "done" in actions else actions[0]
        top = max(m[0] for m in moves)
        card = min(m[1] for m in moves if m[0] == top)
        options = [m for m in moves if m[1] == card]
        op = [m for m in options if B.BY_TEXT[m[2]][2] is None]
        numbered = [m for m in options if B.BY_TEXT[m[2]][2] is not None]
        if op and (top >= OP_WORTH or not numbered):
            return op[0][3]
        if s.actions - s.used > 1 and len(s.hands[seat]) > 1:
            singles = [m for m in numbered if "," not in m[2]]
            numbered = singles or numbered
        return max(numbered, key=lambda m: (_bid_value(m[2]), m[3]))[3]
    # Trump phase: the cheapest raise on the card worth most, if it is worth enough.
    threshold = RAISE_WORTH_ACTIVE if seat == s.active else RAISE_WORTH
    good = [m for m in moves if m[0] >= threshold]
    if not good:
        return "done" if "done" in actions else "pass"
    top = max(m[0] for m in good)
    return min((m for m in good if m[0] == top), key=lambda m: (_bid_value(m[2]), m[3]))[3]
