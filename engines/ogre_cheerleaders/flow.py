"""Game mechanics: setup, placing cards, the ten effects, scoring, bonus plays, turns and the end.

Every function works on a State the caller already cloned. ``s.pending`` names the decision awaited
from ``s.seat``:

=================  ============================================  =========================
pending            meaning                                       actions
=================  ============================================  =========================
["play"]           play phase (or a bonus play)                  play:<card>:L|R
["place", src]     play transit[0] (src "deck" for a 7,          place:L|R
                   "steal" for a 6)
["join", src]      join transit[0] (src "bench" for a 1,         join:L|R
                   "deck" for an 8)
["eight"]          an 8 drew transit (1 or 2 cards)              keep:<card> (+ join:L|R if 1)
["move", r]        a 2 (card r) picks the card to move           move:<card>
["moveto", r, c]   ... and the end                               to:L|R
["swap", r]        a 3 picks the first card                      swap:<card>
["swap2", r, c]    ... and the second                            with:<card>
["take", r]        a 4 picks the card to take                    take:<card>
["bench", r]       a 5 picks the card to bench                   bench:<card>
["steal"]          a 6 picks the opponent                        steal:<seat>
["score", sp, ch]  the overlap choice: spans and valid choices   score:<i>
=================  ============================================  =========================

Choices with a single option (a 4 with one other card, a 6 with one possible opponent, a 3 with
exactly two other cards) are carried out at once.
"""

from __future__ import annotations

from data.editions import ogre_cheerleaders as edition
from engines.ogre_cheerleaders.rules import formations, points, scorable_spans, score_choices, span_label
from engines.ogre_cheerleaders.state import State
from engines.rng import Rng, seed_state
from i18n import N_, message_of, msg, msg_n, said

TEAM_ORDER = {t: i for i, t in enumerate(edition.TEAMS)}
SIDE = {"L": "left", "R": "right"}
#: Each end of the field, said in the reader's words ("the left end").
END = {"L": N_("the left end"), "R": N_("the right end")}


def card_key(card: str) -> tuple[int, int]:
    return TEAM_ORDER[card[0]], int(card[1:])


def p(seat: int) -> str:
    return f"{{p{seat}}}"


def last_seat(s: State) -> int:
    """The seat to the right of the first player: the one who took the first turn of the game last."""
    return (s.first - 1) % s.n


# ------------------------------------------------------------------ setup


def new_state(n: int, seed: int, max_turns: int) -> State:
    rng = Rng(seed_state(seed))
    deck = list(edition.CARDS)
    rng.shuffle(deck)
    s = State.__new__(State)
    s.n = n
    s.max_turns = max_turns
    s.hands = [[] for _ in range(n)]
    for _ in range(edition.HAND_SIZE):
        for seat in range(n):
            s.hands[seat].append(deck.pop())
    for h in s.hands:
        h.sort(key=card_key)
    s.field = [deck.pop() for _ in range(edition.FIELD_DEAL)]
    s.bench = [deck.pop()]
    s.deck = deck
    s.piles = [[] for _ in range(n)]
    s.records = dealt_records(s.field)
    s.first = rng.below(n)
    s.rng = rng.state
    s.seat = s.first
    s.turns = 0
    s.pending = None
    s.transit = []
    s.t_deck = len(deck)
    s.t_num = 0
    s.t_scored = False
    s.streak_num = 0
    s.streak_len = 0
    s.deck_out = -1
    s.over = False
    s.result = ""
    s.places = []
    s.events = []
    s.last_scoring = None
    s.bonus = 0
    s.steal_from = -1
    s.known = [[] for _ in range(n)]
    start_turn(s, s.first)
    return s


def dealt_records(field: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    for _, a, b in formations(field):
        cards = field[a:b]
        if cards not in out:
            out.append(cards)
    return out


# ------------------------------------------------------------------ field changes


def drop_records(s: State, cards: set[str] | list[str]) -> None:
    """Records holding any of ``cards`` (a card left the field or was moved) are dropped for good."""
    if s.records:
        s.records = [r for r in s.records if not any(c in r for c in cards)]


def place(s: State, card: str, end: str) -> None:
    """Put ``card`` at an end (a play or a join). A record touching that end is dropped."""
    f = s.field
    if f:
        edge = f[0] if end == "L" else f[-1]
        if s.records:
            s.records = [r for r in s.records if edge not in r]
    if end == "L":
        f.insert(0, card)
    else:
        f.append(card)


def remove_from_field(s: State, card: str) -> None:
    s.field.remove(card)
    drop_records(s, (card,))


def to_hand(s: State, seat: int, card: str) -> None:
    h = s.hands[seat]
    h.append(card)
    h.sort(key=card_key)


def draw(s: State, seat: int, upto: int) -> int:
    h = s.hands[seat]
    got = 0
    while len(h) < upto and s.deck:
        h.append(s.deck.pop())
        got += 1
    if got:
        h.sort(key=card_key)
    return got


# ------------------------------------------------------------------ effects


def play_card(s: State, card: str, end: str) -> None:
    """Play: place the card, then resolve its effect (this may leave a decision pending)."""
    place(s, card, end)
    resolve(s, card, end)


def resolve(s: State, card: str, end: str) -> None:
    num = int(card[1:])
    seat = s.seat
    others = [c for c in s.field if c != card]
    s.pending = None
    if num == 1:
        if s.bench:
            s.transit.append(s.bench.pop())
            s.pending = ["join", "bench"]
        else:
            s.events.append(said("{card}: the bench is empty, nothing joins", card=card))
    elif num == 2:
        if others:
            s.pending = ["move", card]
        else:
            s.events.append(said("{card}: no other card to move", card=card))
    elif num == 3:
        if len(others) > 2:
            s.pending = ["swap", card]
        elif len(others) == 2:
            swap(s, others[0], others[1])
            s.events.append(said("{card} swaps {first} and {second}", card=card, first=others[0], second=others[1]))
        else:
            s.events.append(said("{card}: fewer than two other cards, nothing to swap", card=card))
    elif num in (4, 5):
        if len(others) > 1:
            s.pending = ["take" if num == 4 else "bench", card]
        elif others:
            if num == 4:
                take(s, others[0])
                s.events.append(said("{card} takes {other} into {player}'s hand", card=card, other=others[0],
                                     player=p(seat)))
            else:
                bench(s, others[0])
                s.events.append(said("{card} benches {other}", card=card, other=others[0]))
        else:
            s.events.append(said("{card}: no other card on the field", card=card))
    elif num == 6:
        victims = steal_targets(s)
        if len(victims) > 1:
            s.pending = ["steal"]
        elif victims:
            steal(s, victims[0])
        else:
            s.events.append(said("{card}: no opponent has cards in hand", card=card))
    elif num == 7:
        if s.deck:
            s.transit.append(s.deck.pop())
            s.pending = ["place", "deck"]
        else:
            s.events.append(said("{card}: the deck is empty", card=card))
    elif num == 8:
        if s.deck:
            s.transit.append(s.deck.pop())
            if s.deck:
                s.transit.append(s.deck.pop())
            s.pending = ["eight"]
        else:
            s.events.append(said("{card}: the deck is empty", card=card))
    elif num == 9:
        rng = Rng(s.rng)
        rng.shuffle(s.field)
        s.rng = rng.state
        s.records = []
        s.events.append(said("{card} shuffles the field: {field}", card=card, field=" ".join(s.field)))
    else:
        far = min(2, len(others))
        gone = []
        for _ in range(far):
            c = s.field.pop() if end == "L" else s.field.pop(0)
            s.bench.append(c)
            gone.append(c)
        drop_records(s, gone)
        if gone:
            s.events.append(said("{card} benches {first} and {second} from the far end", card=card, first=gone[0],
                                 second=gone[1])
                            if len(gone) > 1 else said("{card} benches {other} from the far end", card=card,
                                                       other=gone[0]))
        else:
            s.events.append(said("{card}: no other card on the field", card=card))


def steal_targets(s: State) -> list[int]:
    return [q for q in range(s.n) if q != s.seat and s.hands[q]]


def steal(s: State, victim: int) -> None:
    h = s.hands[victim]
    rng = Rng(s.rng)
    card = h.pop(rng.below(len(h)))
    s.rng = rng.state
    s.transit.append(card)
    s.steal_from = victim
    s.pending = ["place", "steal"]
    s.events.append(said("{player} takes a random card from {other}'s hand and must play it", player=p(s.seat),
                         other=p(victim)))


def move(s: State, card: str, end: str) -> bool:
    """A 2's move; moving a card to the end where it already is changes nothing (records stand)."""
    f = s.field
    if (f[0] if end == "L" else f[-1]) == card:
        return False
    f.remove(card)
    drop_records(s, (card,))
    if end == "L":
        f.insert(0, card)
    else:
        f.append(card)
    return True


def swap(s: State, a: str, b: str) -> None:
    f = s.field
    i, j = f.index(a), f.index(b)
    f[i], f[j] = b, a
    drop_records(s, (a, b))


def take(s: State, card: str) -> None:
    remove_from_field(s, card)
    to_hand(s, s.seat, card)
    s.known[s.seat] = [*s.known[s.seat], card]   # everyone saw it go from the field into that hand


def forget(s: State, seat: int, card: str) -> None:
    """``card`` left ``seat``'s hand in the open: it is no longer one known to be there."""
    if card in s.known[seat]:
        s.known[seat] = [c for c in s.known[seat] if c != card]


def bench(s: State, card: str) -> None:
    remove_from_field(s, card)
    s.bench.append(card)


# ------------------------------------------------------------------ scoring


def continue_scoring(s: State) -> None:
    """Scoring phase from the current field: score, close gaps, cascade; then bonus / end of turn."""
    while True:
        spans = scorable_spans(s.field, s.records)
        if not spans:
            break
        choices = unique_choices(s.field, spans, score_choices(spans))
        if len(choices) > 1:
            s.pending = ["score", spans, choices]
            return
        score_set(s, spans, choices[0])
    s.pending = None
    after_scoring(s)


def unique_choices(field: list[str], spans: list, choices: list[list[int]]) -> list[list[int]]:
    """Choices that score exactly the same cards are the same outcome: keep the first of each."""
    seen: set[frozenset[str]] = set()
    out = []
    for ch in choices:
        key = frozenset(c for i in ch for c in field[spans[i][0]:spans[i][1]])
        if key not in seen:
            seen.add(key)
            out.append(ch)
    return out


def score_set(s: State, spans: list, chosen: list[int]) -> None:
    seat = s.seat
    field = s.field
    if s.last_scoring is None:
        s.last_scoring = {"seat": seat, "field": field[:], "highlight": []}
    before = s.last_scoring["field"]
    gone: set[str] = set()
    for i in chosen:
        sp = spans[i]
        cards = field[sp[0]:sp[1]]
        gone.update(cards)
        s.events.append(said("{player} scored {formation} for {points}", player=p(seat),
                             formation=message_of(span_label(field, sp)), points=points(cards)))
    s.piles[seat] += [c for c in field if c in gone]
    s.field = [c for c in field if c not in gone]
    drop_records(s, gone)
    s.t_scored = True
    hl = set(s.last_scoring["highlight"]) | {before.index(c) for c in gone}
    s.last_scoring = {"seat": seat, "field": before, "highlight": sorted(hl)}


def after_scoring(s: State) -> None:
    if not s.field:
        s.field = [s.deck.pop() for _ in range(min(edition.FIELD_DEAL, len(s.deck)))]
        s.records = dealt_records(s.field)
        dealt = " ".join(s.field) if s.field else msg("no cards (the deck is empty)")
        if s.hands[s.seat]:
            s.bonus += 1
            s.pending = ["play"]
            s.events.append(said("The field is clear: dealt {dealt}; {player} gets a bonus play", dealt=dealt,
                                 player=p(s.seat)))
            return
        s.events.append(said("The field is clear: dealt {dealt}; {player} has no card for a bonus play", dealt=dealt,
                             player=p(s.seat)))
    end_turn(s)


# ------------------------------------------------------------------ turns and the end


def start_turn(s: State, seat: int) -> bool:
    """Begin ``seat``'s turn; False if it has no play (empty hand and empty deck)."""
    s.seat = seat
    s.turns += 1
    s.t_deck = len(s.deck)
    s.t_num = 0
    s.t_scored = False
    s.bonus = 0
    if not s.hands[seat]:
        got = draw(s, seat, edition.HAND_SIZE)
        if got:
            s.events.append(said("{player} begins the turn with no cards and draws {count}", player=p(seat), count=got))
    if s.hands[seat]:
        s.pending = ["play"]
        return True
    s.pending = None
    s.events.append(said("{player} has no cards and the deck is empty: the turn ends at once", player=p(seat)))
    return False


def end_turn(s: State) -> None:
    while True:
        seat = s.seat
        draw(s, seat, edition.HAND_SIZE)
        if s.deck_out < 0 and not s.deck:
            s.deck_out = s.turns
            last = last_seat(s)
            if seat == last:
                s.events.append(said("The deck is empty: everyone gets one more turn, ending with {player}",
                                     player=p(last)))
            else:
                s.events.append(said("The deck is empty: play continues until {player} has had one more turn",
                                     player=p(last)))
        if s.t_num and not s.t_scored and len(s.deck) == s.t_deck:
            if s.streak_len and s.streak_num == s.t_num:
                s.streak_len += 1
            else:
                s.streak_num, s.streak_len = s.t_num, 1
        else:
            s.streak_num, s.streak_len = 0, 0
        if s.streak_len >= edition.STALEMATE_TURNS:
            finish(s, "stalemate")
            return
        if s.deck_out >= 0 and s.turns > s.deck_out and seat == last_seat(s):
            finish(s, "deck")
            return
        if s.turns >= s.max_turns:
            finish(s, "max_turns")
            return
        if start_turn(s, (seat + 1) % s.n):
            return


def totals(s: State) -> list[tuple[int, int]]:
    return [(points(pile), len(pile)) for pile in s.piles]


def finish(s: State, result: str) -> None:
    s.over = True
    s.pending = None
    s.result = result
    if result == "stalemate":
        s.places = [1] * s.n
        s.events.append(said("Stalemate: {turns} turns in a row with the same number played, nothing scored and the "
                             "deck unchanged. The game ends in a tie for everyone", turns=edition.STALEMATE_TURNS))
        return
    keys = totals(s)
    s.places = [1 + sum(1 for o in keys if o > k) for k in keys]
    why = msg("the deck ran out and the last turn was played") if result == "deck" else \
        msg("the turn limit of {turns} turns was reached", turns=s.max_turns)
    listed = ", ".join(f"{{seat{q}}}" for q in range(s.n))  # structure, not words
    parts = msg(listed, **{f"seat{q}": msg("{player} {points} ({cards})", player=p(q),
                                           points=msg_n("{n} point", "{n} points", keys[q][0]),
                                           cards=msg_n("{n} card", "{n} cards", keys[q][1])) for q in range(s.n)})
    s.events.append(said("Game over: {why}. {scores}", why=why, scores=parts))
