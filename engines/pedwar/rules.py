"""Pedwar turn flow: setup, the five phases of a game turn, scoring and the tie-break.

Every function here works on a State that the caller has already cloned.
"""

from __future__ import annotations

from data.editions import pedwar as edition
from engines.contract import IllegalAction
from engines.pedwar import bids as B
from engines.pedwar.scoring import score_breakdown, score_collection
from engines.pedwar.state import ACTION, DISCARD, OVER, TRUMP, State
from engines.rng import Rng, seed_state
from i18n import message_of, msg, msg_n, said, said_n

ROW = edition.ROW_SIZE
HAND_LIMIT = edition.HAND_LIMIT
TIE_RANK = {k: i for i, k in enumerate(edition.MANEUVER_KINDS)}  # OP > 5 > 4 > 3 > 2+ > 1+
TIE_ROUNDS = 10


def setup(n: int, seed: int, max_turns: int) -> State:
    s = State.__new__(State)
    rng = Rng(seed_state(seed))
    odeck = list(edition.OBJECT_CARDS)
    rng.shuffle(odeck)
    mdeck = list(edition.MANEUVER_CARDS)
    rng.shuffle(mdeck)
    gdeck = list(edition.GOALS)
    rng.shuffle(gdeck)
    s.n, s.max_turns = n, max_turns
    s.row = [odeck.pop() for _ in range(ROW)]
    s.odeck, s.mdeck, s.mdisc = odeck, mdeck, []
    s.reshuffled, s.drawn = [], [[] for _ in range(n)]
    first = rng.below(n)
    s.hands = [[] for _ in range(n)]
    s.goals = [0] * n
    for i in range(n):
        seat = (first + i) % n
        s.hands[seat] = [mdeck.pop() for _ in range(HAND_LIMIT)]
        B.sort_hand(s.hands[seat])
        s.goals[seat] = gdeck.pop()
    s.goals_out = gdeck
    s.rng = rng.state
    s.colls = [[] for _ in range(n)]
    s.bids = [[] for _ in range(ROW)]
    s.spent, s.discarded, s.inplay, s.raised = [], [], [], []
    s.first = s.active = first
    s.turns = 0
    s.pips = s.actions = s.used = s.passes = 0
    s.tseat = None
    s.final = None
    s.events = [said("{player} plays first", player=f"{{p{first}}}")]
    start_turn(s)
    return s


# ---------------------------------------------------------------- turn flow

def start_turn(s: State) -> None:
    """Begin the active player's turn; a player without Maneuver cards skips to the End phase."""
    while True:
        s.phase = DISCARD
        s.pips = s.actions = s.used = s.passes = 0
        s.tseat = None
        s.discarded, s.spent, s.inplay, s.raised = [], [], [], []
        hand = s.hands[s.active]
        if hand:
            if len(hand) == 1:  # nothing may be discarded: the last card must stay
                begin_actions(s)
            return
        s.events.append(said("{player} has no Maneuver cards and skips to the End phase", player=f"{{p{s.active}}}"))
        if not end_phase(s):
            return


def begin_actions(s: State) -> None:
    s.phase = ACTION
    extra = s.pips // edition.PIPS_PER_ACTION
    s.actions = 1 + extra
    s.used = 0
    if s.discarded:
        s.events.append(said("{player} discarded {pips}: {extra}", player=f"{{p{s.active}}}",
                             pips=msg_n("{n} pip", "{n} pips", s.pips),
                             extra=msg_n("{n} extra action", "{n} extra actions", extra)))


def open_targets(s: State) -> list[int]:
    return [i for i in range(ROW) if s.row[i] is not None and not s.bids[i]]


def after_bid(s: State) -> None:
    """End the Action phase when no action is left, the hand is empty or every card has a bid."""
    if s.used >= s.actions or not s.hands[s.active] or not open_targets(s):
        end_actions(s)


def end_actions(s: State) -> None:
    s.inplay = [i for i in range(ROW) if s.row[i] is not None and s.bids[i]]
    if not s.inplay:
        resolve_and_end(s)
        return
    s.phase = TRUMP
    s.passes = 0
    s.raised = []
    s.tseat = (s.active + 1) % s.n
    settle_trump(s)


def win_now(s: State, slot: int, seat: int) -> None:
    """An OP that wins at once: the card joins the collection, its bids wait for the End phase."""
    card = s.row[slot]
    assert card is not None
    s.colls[seat].append(card)
    s.spent.extend(k for _seat, text in s.bids[slot] for k in B.BY_TEXT[text][1])
    s.bids[slot] = []
    s.row[slot] = None
    if slot in s.inplay:
        s.inplay.remove(slot)
    s.events.append(said("{player} wins {card} at once with an OP", player=f"{{p{seat}}}", card=card))


def can_raise_somewhere(s: State, seat: int) -> bool:
    """Whether ``seat`` might raise, judged only on what the table can see (so an automatic pass
    never tells anyone about the hand): cards left, and an in-play card it is allowed to bid on."""
    if not s.hands[seat]:
        return False
    for slot in s.inplay:
        if slot in s.raised:
            continue
        top_seat, top_text = s.bids[slot][-1]
        if top_seat == seat:
            continue
        if top_text == B.OP and seat != s.active:
            continue
        return True
    return False


def settle_trump(s: State) -> None:
    """Move the Trump phase on past seats that cannot raise, and end it when it is over."""
    while True:
        if not s.inplay or s.passes >= s.n:
            resolve_and_end(s)
            return
        seat = s.tseat
        assert seat is not None
        if can_raise_somewhere(s, seat):
            return
        s.passes += 1
        s.events.append(said("{player} cannot raise and passes", player=f"{{p{seat}}}"))
        next_trump_turn(s)


def next_trump_turn(s: State) -> None:
    assert s.tseat is not None
    s.tseat = (s.tseat + 1) % s.n
    s.raised = []


def resolve_and_end(s: State) -> None:
    for slot in s.inplay:
        card = s.row[slot]
        seat, text = s.bids[slot][-1]
        s.colls[seat].append(card)
        s.row[slot] = None
        s.events.append(said("{player} takes {card} with {bid}", player=f"{{p{seat}}}", card=card,
                             bid=message_of(B.words(B.BY_TEXT[text]))))
    s.inplay = []
    s.raised = []
    s.tseat = None
    if end_phase(s):
        start_turn(s)


def end_phase(s: State) -> bool:
    """Discard played cards, refill the row, draw, pass the turn. False when the game ended."""
    for slot in range(ROW):
        for _seat, text in s.bids[slot]:
            s.mdisc.extend(B.BY_TEXT[text][1])
        s.bids[slot] = []
    s.mdisc.extend(s.spent)
    s.spent = []
    s.discarded = []
    turned = []
    for slot in range(ROW):
        if s.row[slot] is None and s.odeck:
            s.row[slot] = s.odeck.pop()
            turned.append(s.row[slot])
            if not s.odeck:
                s.events.append(said("Row refilled: {cards}", cards=" ".join(turned)))
                finish(s, said("the last Object card is turned face up"))
                return False
    if turned:
        s.events.append(said("Row refilled: {cards}", cards=" ".join(turned)))
    drawn = draw_up(s, s.active)
    if drawn:
        s.events.append(said_n("{player} draws {n} Maneuver card", "{player} draws {n} Maneuver cards", drawn,
                               player=f"{{p{s.active}}}"))
    s.turns += 1
    if s.turns >= s.max_turns:
        finish(s, said("{turns} game turns played", turns=s.max_turns))
        return False
    s.active = (s.active + 1) % s.n
    return True


def draw_one(s: State) -> str | None:
    """Top Maneuver card; the discard pile is shuffled into a new deck only when one is needed."""
    if not s.mdeck:
        if not s.mdisc:
            return None
        s.mdeck, s.mdisc = s.mdisc, []
        # Everyone saw the discard pile: the new deck holds exactly these cards, less what is drawn
        # from it from now on (determinize keeps the deck within them).
        s.reshuffled = sorted(s.mdeck)
        s.drawn = [[] for _ in range(s.n)]
        rng = Rng(s.rng)
        rng.shuffle(s.mdeck)
        s.rng = rng.state
        s.events.append(said("The Maneuver discard pile is shuffled to form a new deck"))
    return s.mdeck.pop()


def draw_up(s: State, seat: int) -> int:
    hand = s.hands[seat]
    drawn = 0
    while len(hand) < HAND_LIMIT:
        card = draw_one(s)
        if card is None:
            break
        hand.append(card)
        if s.reshuffled:
            s.drawn[seat].append(card)
        drawn += 1
    B.sort_hand(hand)
    return drawn


# ---------------------------------------------------------------- end of the game

def finish(s: State, reason: str) -> None:
    s.phase = OVER
    s.tseat = None
    s.inplay, s.raised = [], []
    scores = [score_collection(s.colls[i], s.goals[i]) for i in range(s.n)]
    breakdown = [score_breakdown(s.colls[i], s.goals[i]) for i in range(s.n)]
    s.events.append(said("Game over: {reason}", reason=message_of(reason)))
    for i in range(s.n):
        joined = "; ".join(f"{{line{k}}}" for k in range(len(breakdown[i])))  # structure, not words
        lines = msg(joined, **{f"line{k}": message_of(line) for k, line in enumerate(breakdown[i])})
        s.events.append(said("{player} (Goal {goal}): {collections} = {score}", player=f"{{p{i}}}", goal=s.goals[i],
                             collections=lines if breakdown[i] else msg("no collections"), score=scores[i]))
    top = max(scores)
    order = [(s.active + 1 + i) % s.n for i in range(s.n)]  # seat order from the last active player's left
    tied = [seat for seat in order if scores[seat] == top]
    tiebreak: list[list[list[object]]] = []
    while len(tied) > 1 and len(tiebreak) < TIE_ROUNDS:
        draws = []
        for seat in tied:
            card = draw_one(s)
            draws.append([seat, card])
        s.mdisc.extend(card for _seat, card in draws if card is not None)
        tiebreak.append(draws)
        best = max(-1 if card is None else TIE_RANK[card] for _seat, card in draws)
        tied = [seat for seat, card in draws if card is not None and TIE_RANK[card] == best] or tied
        listed = ", ".join(f"{{draw{k}}}" for k in range(len(draws)))  # structure, not words
        shown = msg(listed,
                    **{f"draw{k}": msg("{player} draws {card}", player=f"{{p{seat}}}", card=card) if card
                       else msg("{player} draws nothing", player=f"{{p{seat}}}")
                       for k, (seat, card) in enumerate(draws)})
        s.events.append(said("Tie-break round {round}: {draws}", round=len(tiebreak), draws=shown))
    winners = set(tied)
    places = []
    for seat in range(s.n):
        if seat in winners:
            places.append(1)
        else:
            ahead = len(winners) + sum(1 for o in range(s.n) if o not in winners and scores[o] > scores[seat])
            places.append(1 + ahead)
    if len(winners) == 1:
        s.events.append(said("{player} wins with {points} points", player=f"{{p{tied[0]}}}", points=top))
    else:
        names = " and ".join(f"{{p{w}}}" for w in sorted(winners))
        both = said("{players} share first place with {points} points", players=names, points=top)
        if len(winners) == 2:  # "alice and bob" in the reader's words
            first, second = sorted(winners)
            both = said("{player} and {other} share first place with {points} points", player=f"{{p{first}}}",
                        other=f"{{p{second}}}", points=top)
        s.events.append(both)
    s.final = {"reason": reason, "scores": scores, "places": places, "breakdown": breakdown, "tiebreak": tiebreak}


# ---------------------------------------------------------------- references to row cards

def refs(s: State) -> list[str | None]:
    """How actions name each row slot: the card code, plus ``#k`` when two identical cards are in play."""
    out: list[str | None] = list(s.row)
    if s.phase == TRUMP:
        seen: dict[str, list[int]] = {}
        for slot in s.inplay:
            seen.setdefault(s.row[slot], []).append(slot)  # type: ignore[arg-type]
        for code, slots in seen.items():
            if len(slots) > 1:
                for k, slot in enumerate(sorted(slots), 1):
                    out[slot] = f"{code}#{k}"
    return out


def find_target(s: State, ref: str) -> int:
    """The row slot an action-phase bid names (the first card of that code without a bid)."""
    slots = [i for i in range(ROW) if s.row[i] == ref]
    if not slots:
        raise IllegalAction(said("{card} is not a face-up Object card in the row", card=ref))
    for i in slots:
        if not s.bids[i]:
            return i
    raise IllegalAction(said("{card} already has a bid this turn: each action uses a different Object card",
                              card=ref))


def find_in_play(s: State, ref: str) -> int:
    r = refs(s)
    for slot in s.inplay:
        if r[slot] == ref:
            return slot
    twins = [r[slot] for slot in s.inplay if s.row[slot] == ref]
    if twins:
        raise IllegalAction(said("Two {card} are in play: name one as {choices}", card=ref,
                                 choices=msg("{one} or {other}", one=twins[0], other=twins[-1])))
    if ref in s.row or ref.split("#")[0] in s.row:
        raise IllegalAction(said("{card} is not in play: only cards bid on in this Action phase can be raised",
                                 card=ref))
    raise IllegalAction(said("{card} is not a face-up Object card in the row", card=ref))
