"""Pentawar (rules/pentawar.md): build a flight wing of five dragons while killing the others'.

State layout: cards are kind codes (``"sun"``). The pentawar is a list of 5 kinds (positions
0-4 clockwise), the deck a list whose end is the top, the tableau and hands plain lists, each
flight wing a list of 5 places ``A B C D E`` holding a kind or None.

Flight wing ([ruling]): row 1 = A, B; row 2 = C on A, D on B; row 3 = E on C and D.

Actions (the seat to act):
- ``gather``: draw to hand, then turn the next card face up into the tableau;
- ``wing:<src>:<kind>:<place>``: strengthen the flight wing (``src`` is ``hand`` or ``tableau``);
- ``kill:<src>:<kind>:<victim seat>:<place>``: kill an uncovered dragon of another player;
- ``alter:<src>:<kind>`` then ``replace:<position>`` (alter war: choose the card, then the
  position), then, if any kill is possible against the new pentawar, ``kill:...`` or ``skip``;
- ``pass`` only when nothing else is legal.

``altered`` remembers the last Alter war (position, the kind it replaced, the seat) from its
``replace`` until the next turn's first action, so the table shows what changed; the public view
has it as ``altered``. A dump holds it only while it is set, so snapshots written before it
existed load (as None) and replay to the same bytes.
"""

from __future__ import annotations

import random
from typing import Any

from data.editions import pentawar as edition
from engines.contract import IllegalAction, Options, View, check_options
from engines.hidden import blend, by_places, pairwise, redeal, reseed
from engines.rng import Rng, seed_state
from i18n import N_, message_of, msg, said, said_n

KINDS: tuple[str, ...] = edition.KINDS
KIND_SET = frozenset(KINDS)
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
NAMES = edition.NAMES
PLACES: tuple[str, ...] = ("A", "B", "C", "D", "E")
PLACE_INDEX = {p: i for i, p in enumerate(PLACES)}
ROW_OF: tuple[int, ...] = (1, 1, 2, 2, 3)
ROWS: tuple[tuple[int, ...], ...] = ((0, 1), (2, 3), (4,))
#: COVERERS[i]: the places whose card lies on place i.
COVERERS: tuple[tuple[int, ...], ...] = ((2,), (3,), (4,), (4,), ())
SOURCES: tuple[str, ...] = ("hand", "tableau")
WING_SIZE = edition.WING_SIZE
#: The reshuffle's event as tables logged it before its count took each language's plural: still in the
#: catalogues, so that a log stored then reads in French and Ukrainian too.
_LOGGED_RESHUFFLE = N_("The deck ran out: the discard pile ({count} cards) is shuffled into a new deck.")

TURN, ALTER, ALTER_KILL, OVER = "turn", "alter", "alter_kill", "over"


def can_kill(pentawar: list[str] | tuple[str, ...], attacker: str, target: str) -> bool:
    """Whether a dragon of kind ``attacker`` may kill one of kind ``target`` under ``pentawar``.

    The attacker's kind must be in the pentawar. It kills its own kind, or any kind sitting at
    a position across (p+2, p+3 mod 5) from any position ``p`` that the attacker's kind holds.
    """
    if attacker not in pentawar:
        return False
    if attacker == target:
        return True
    for p in range(5):
        if pentawar[p] == attacker and (pentawar[(p + 2) % 5] == target or pentawar[(p + 3) % 5] == target):
            return True
    return False


class State:
    __slots__ = ("altered", "deck", "discard", "end_reason", "events", "hands", "n", "pending", "phase",
                 "reshuffled", "rng", "tableau", "turn", "turn_no", "war", "wings")

    def clone(self) -> State:
        s = State.__new__(State)
        s.n = self.n
        s.rng = self.rng
        s.war = self.war[:]
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.tableau = self.tableau[:]
        s.hands = [h[:] for h in self.hands]
        s.wings = [w[:] for w in self.wings]
        s.turn = self.turn
        s.turn_no = self.turn_no
        s.phase = self.phase
        s.pending = self.pending
        s.reshuffled = self.reshuffled
        s.end_reason = self.end_reason
        s.altered = self.altered
        s.events = []
        return s


def _p(seat: int) -> str:
    return f"{{p{seat}}}"


def _a(kind: str, capital: bool = False) -> str:
    """``a Sun`` / ``an Ember`` (``A Sun`` / ``An Ember`` with ``capital``)."""
    name = NAMES[kind]
    article = "an " if name[0] in "AEIOU" else "a "
    return (article.capitalize() if capital else article) + name


def _distinct(cards: list[str]) -> list[str]:
    """The distinct kinds among ``cards``, in edition order."""
    return sorted(set(cards), key=KIND_INDEX.__getitem__)


def _covered(wing: list[str | None], i: int) -> bool:
    return any(wing[j] is not None for j in COVERERS[i])


def _open_places(wing: list[str | None]) -> list[int]:
    """Free places of the lowest row that has one ([ruling]: the player picks among them)."""
    for row in ROWS:
        free = [i for i in row if wing[i] is None]
        if free:
            return free
    return []


def _wing_count(wing: list[str | None]) -> int:
    return sum(1 for k in wing if k is not None)


def _standing(st: State, seat: int) -> tuple[int, int, int]:
    """(dragons in the wing, of which in the final pentawar, cards in hand): bigger is better."""
    war = set(st.war)
    wing = st.wings[seat]
    return (_wing_count(wing), sum(1 for k in wing if k is not None and k in war), len(st.hands[seat]))


def _places(keys: list[tuple[int, int, int]]) -> list[int]:
    """Standard competition ranking, biggest first: ties share a place (1, 1, 3)."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def _ordinal(n: int) -> Any:
    """A place as a message: "1st", "2nd", "3rd", "4th" in English, the reader's way elsewhere."""
    first = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}
    return msg(first[n]) if n in first else msg(N_("{n}th"), n=n)


def _kind(kind: str) -> Any:
    """A dragon kind's name as a message (the glossary's names)."""
    return msg(NAMES[kind])


def _targets(st: State, seat: int) -> list[tuple[int, int, str]]:
    """Every uncovered dragon in another player's wing: (victim, place index, kind)."""
    out = []
    for v in range(st.n):
        if v == seat:
            continue
        wing = st.wings[v]
        for i in range(5):
            k = wing[i]
            if k is not None and not _covered(wing, i):
                out.append((v, i, k))
    return out


def _source_cards(st: State, seat: int, src: str) -> list[str]:
    return st.hands[seat] if src == "hand" else st.tableau


def _killable(war: list[str], attacker: str) -> set[str]:
    """The kinds a dragon of kind ``attacker`` (in the pentawar) may kill: ``can_kill`` for all targets at once."""
    out = {attacker}
    for p in range(5):
        if war[p] == attacker:
            out.add(war[(p + 2) % 5])
            out.add(war[(p + 3) % 5])
    return out


def _kill_actions(st: State, seat: int, sources: list[tuple[str, list[str]]] | None = None) -> list[str]:
    targets = _targets(st, seat)
    if not targets:
        return []
    war = st.war
    out = []
    for src, kinds in sources or _sources(st, seat):
        for a in kinds:
            if a not in war:
                continue
            killable = _killable(war, a)
            for v, i, k in targets:
                if k in killable:
                    out.append(f"kill:{src}:{a}:{v}:{PLACES[i]}")
    return out


def _sources(st: State, seat: int) -> list[tuple[str, list[str]]]:
    return [("hand", _distinct(st.hands[seat])), ("tableau", _distinct(st.tableau))]


def _turn_actions(st: State, seat: int) -> list[str]:
    out = []
    if st.deck:
        out.append("gather")
    places = _open_places(st.wings[seat])
    sources = _sources(st, seat)
    if places:
        war = st.war
        for src, kinds in sources:
            for k in kinds:
                if k in war:
                    for i in places:
                        out.append(f"wing:{src}:{k}:{PLACES[i]}")
    out.extend(_kill_actions(st, seat, sources))
    for src, kinds in sources:
        for k in kinds:
            out.append(f"alter:{src}:{k}")
    if not out:
        out.append("pass")
    return out


def _src_text(src: str) -> Any:
    return msg("from hand") if src == "hand" else msg("from the tableau")


class PentawarEngine:
    game_id = "pentawar"
    title = edition.TITLE
    min_players = edition.MIN_PLAYERS
    max_players = edition.MAX_PLAYERS
    summary = N_(
        "**Pentawar** — 2-5 players, 40 dragons: ten kinds, four of each.\n"
        "Five dragons form the **pentawar**, a star: positions 0-4, each *across* from the two "
        "positions it is not next to.\n"
        "Each turn do exactly one thing:\n"
        "- **Gather**: draw a card to your hand, then turn the next one face up into the shared "
        "tableau (with one card left it just goes to your hand).\n"
        "- **Strengthen**: put a dragon from your hand or the tableau into your flight wing; "
        "its kind must be in the pentawar.\n"
        "- **Kill**: with a dragon from hand or tableau whose kind is in the pentawar, kill an "
        "uncovered dragon in another wing of its own kind, or of a kind across from it on the star. "
        "Both go to the discard pile.\n"
        "- **Alter war**: replace any pentawar dragon with one from hand or tableau, then you may kill "
        "against the new pentawar.\n"
        "Flight wing: row 1 = A, B; row 2 = C on A, D on B; row 3 = E on C and D. Rows fill in order; "
        "covered dragons are protected.\n"
        "The game ends when a player starts a turn with 5 dragons in the wing, or at the end of a turn "
        "with an empty deck (4-5 players reshuffle the discards once first).\n"
        "Most wing dragons wins; ties: most wing dragons in the final pentawar, then most cards in hand, "
        "then a shared victory."
    )

    def __init__(self) -> None:
        #: The rules file has no table options.
        self.default_options: Options = {}

    # ------------------------------------------------------------------ setup

    def new_game(self, num_players: int, seed: int, options: Options | None = None) -> State:
        check_options(self, options)
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not (
                self.min_players <= num_players <= self.max_players):
            raise ValueError(f"{self.title} needs {self.min_players} to {self.max_players} players")
        rng = Rng(seed_state(seed))
        deck = list(edition.DECK)
        rng.shuffle(deck)
        s = State.__new__(State)
        s.n = num_players
        s.war = [deck.pop() for _ in range(edition.PENTAWAR_SIZE)]
        s.hands = [[deck.pop() for _ in range(edition.HAND_SIZE)] for _ in range(num_players)]
        s.tableau = [deck.pop() for _ in range(edition.TABLEAU_SIZE)]
        s.deck = deck
        s.discard = []
        s.wings = [[None] * WING_SIZE for _ in range(num_players)]
        s.turn = rng.below(num_players)
        s.rng = rng.state
        s.turn_no = 1
        s.phase = TURN
        s.pending = None
        s.reshuffled = False
        s.end_reason = None
        s.altered = None
        s.events = []
        return s

    # ------------------------------------------------------------------ queries

    def to_act(self, state: State) -> list[int]:
        return [] if state.phase == OVER else [state.turn]

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state.phase == OVER or isinstance(seat, bool) or seat != state.turn:
            return []
        if state.phase == TURN:
            return _turn_actions(state, seat)
        if state.phase == ALTER:
            return [f"replace:{p}" for p in range(5)]
        return [*_kill_actions(state, seat), "skip"]

    def outcome(self, state: State) -> list[int]:
        return _places([_standing(state, s) for s in range(state.n)])

    # ------------------------------------------------------------------ apply

    def apply(self, state: State, seat: int, action: str) -> State:
        if state.phase == OVER:
            raise IllegalAction(said("The game is over."))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
            raise IllegalAction(said("There is no such seat at this table."))
        if seat != state.turn:
            raise IllegalAction(said("It is not your turn."))
        if not isinstance(action, str) or action not in self.legal_actions(state, seat):
            raise IllegalAction(self._why(state, seat, action))
        s = state.clone()
        if s.phase == TURN:
            s.altered = None  # a new turn: the last Alter war is no longer news
        parts = action.split(":")
        verb = parts[0]
        if verb == "gather":
            s.hands[seat].append(s.deck.pop())
            if s.deck:
                up = s.deck.pop()
                s.tableau.append(up)
                s.events.append(said("An {kind} is turned face up into the tableau.", kind=_kind(up))
                                if _a(up).startswith("an ") else
                                said("A {kind} is turned face up into the tableau.", kind=_kind(up)))
            else:
                s.events.append(said("{player} draws the last card of the deck.", player=_p(seat)))
            self._end_turn(s)
        elif verb == "wing":
            _take(s, seat, parts[1], parts[2])
            s.wings[seat][PLACE_INDEX[parts[3]]] = parts[2]
            self._end_turn(s)
        elif verb == "kill":
            _take(s, seat, parts[1], parts[2])
            victim, place = int(parts[3]), PLACE_INDEX[parts[4]]
            killed = s.wings[victim][place]
            s.wings[victim][place] = None
            s.discard.append(parts[2])
            s.discard.append(killed)
            self._end_turn(s)
        elif verb == "alter":
            _take(s, seat, parts[1], parts[2])
            s.pending = (parts[1], parts[2])
            s.phase = ALTER
        elif verb == "replace":
            pos = int(parts[1])
            old = s.war[pos]
            s.war[pos] = s.pending[1]
            s.discard.append(old)
            s.pending = None
            s.altered = (pos, old, seat)
            if _kill_actions(s, seat):
                s.phase = ALTER_KILL
            else:
                s.events.append(said("No kill is possible against the new pentawar: the turn ends."))
                self._end_turn(s)
        else:  # skip, pass
            self._end_turn(s)
        return s

    def _end_turn(self, s: State) -> None:
        s.phase = TURN
        if not s.deck:
            if s.n < edition.RESHUFFLE_FROM_PLAYERS:
                self._finish(s, said("the deck ran out"))
                return
            if s.reshuffled:
                self._finish(s, said("the deck ran out a second time"))
                return
            if not s.discard:
                self._finish(s, said("the deck ran out and the discard pile is empty"))
                return
            s.reshuffled = True
            rng = Rng(s.rng)
            deck = s.discard
            rng.shuffle(deck)
            s.rng = rng.state
            s.deck = deck
            s.discard = []
            s.events.append(said_n("The deck ran out: the discard pile ({n} card) is shuffled into a new deck.",
                                   "The deck ran out: the discard pile ({n} cards) is shuffled into a new deck.",
                                   len(deck)))
        s.turn = (s.turn + 1) % s.n
        s.turn_no += 1
        if _wing_count(s.wings[s.turn]) == WING_SIZE:
            self._finish(s, said("{player} starts a turn with 5 dragons in the flight wing", player=_p(s.turn)))

    def _finish(self, s: State, reason: str) -> None:
        s.phase = OVER
        s.end_reason = reason
        s.events.append(said("Game over: {reason}.", reason=message_of(reason)))
        keys = [_standing(s, seat) for seat in range(s.n)]
        places = _places(keys)
        for seat in sorted(range(s.n), key=lambda x: (places[x], x)):
            wing, in_war, hand = keys[seat]
            s.events.append(said("{place}: {player} with {wing} in the flight wing, {in_war} of them in the pentawar, "
                                 "{hand} in hand.", place=_ordinal(places[seat]), player=_p(seat), wing=wing,
                                 in_war=in_war, hand=hand))
        winners = [_p(seat) for seat in range(s.n) if places[seat] == 1]
        if len(winners) == 1:
            s.events.append(said("{player} wins.", player=winners[0]))
        else:
            s.events.append(said("{players} and {last} share the victory.", players=", ".join(winners[:-1]),
                                 last=winners[-1]))

    def _why(self, st: State, seat: int, action: Any) -> str:
        """A readable reason why ``action`` is not legal now, said from a message id (translated where shown)."""
        if not isinstance(action, str) or not action:
            return said("That is not an action.")
        parts = action.split(":")
        verb = parts[0]
        if st.phase == ALTER:
            return said("First choose the pentawar position (0-4) for your {kind}.", kind=_kind(st.pending[1]))
        if st.phase == ALTER_KILL and verb not in ("kill", "skip"):
            return said("After altering the war you may only kill against the new pentawar, or skip.")
        if verb in ("replace", "skip"):
            return said("You are not altering the war now.")
        if verb == "gather":
            return said("The deck is empty: you cannot gather.") if len(parts) == 1 else \
                said("Gather takes no argument.")
        if verb == "pass":
            return said("You may only pass when no other action is legal.")
        if verb not in ("wing", "kill", "alter"):
            return said("Unknown action {action}.", action=repr(action[:30]))
        want = {"wing": 4, "kill": 5, "alter": 3}[verb]
        if len(parts) != want:
            return said("Garbled {verb} action {action}.", verb=verb, action=repr(action[:40]))
        src, kind = parts[1], parts[2]
        if src not in SOURCES:
            return said("Unknown source {source}: use hand or tableau.", source=repr(src[:20]))
        if kind not in KIND_SET:
            return said("Unknown dragon kind {kind}.", kind=repr(kind[:20]))
        if kind not in _source_cards(st, seat, src):
            return said("You have no {kind} in your hand.", kind=_kind(kind)) if src == "hand" else \
                said("There is no {kind} in the tableau.", kind=_kind(kind))
        if verb == "wing":
            if kind not in st.war:
                return said("{kind} is not in the pentawar.", kind=_kind(kind))
            places = _open_places(st.wings[seat])
            if not places:
                return said("Your flight wing already has 5 dragons.")
            if parts[3] not in PLACE_INDEX or PLACE_INDEX[parts[3]] not in places:
                free = ", ".join(PLACES[i] for i in places)
                return said("Place {place} is not open: fill the lowest open row first ({free}).",
                            place=parts[3][:5], free=free)
        if verb == "kill":
            if kind not in st.war:
                return said("{kind} is not in the pentawar.", kind=_kind(kind))
            if not parts[3].isdigit() or not 0 <= int(parts[3]) < st.n:
                return said("There is no such player.")
            victim = int(parts[3])
            if victim == seat:
                return said("You cannot kill a dragon in your own flight wing.")
            if parts[4] not in PLACE_INDEX:
                return said("Unknown flight-wing place {place}.", place=repr(parts[4][:5]))
            i = PLACE_INDEX[parts[4]]
            target = st.wings[victim][i]
            if target is None:
                return said("{player} has no dragon at place {place}.", player=_p(victim), place=parts[4])
            if _covered(st.wings[victim], i):
                return said("{player}'s {kind} is covered and protected.", player=_p(victim), kind=_kind(target))
            if not can_kill(st.war, kind, target):
                return said("The {kind} cannot kill the {target} in this pentawar.", kind=_kind(kind),
                            target=_kind(target))
        return said("That is not a legal action now.")

    # ------------------------------------------------------------------ search hooks

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state ``seat`` cannot tell from ``state``: the other hands and the deck redealt.

        Every card in a hand came from the deck unseen (the tableau, wings and discard pile are
        face up, and nothing goes from them to a hand), so all of them are one pool.
        """
        s = state.clone()
        s.events = list(state.events)
        others = [p for p in range(s.n) if p != seat]
        pool = list(state.deck)
        for p in others:
            pool += state.hands[p]
        piles = redeal(pool, [len(state.hands[p]) for p in others] + [len(state.deck)], rng)
        for p, pile in zip(others, piles, strict=False):
            s.hands[p] = pile
        s.deck = piles[-1]
        s.rng = reseed(rng)
        return s

    def evaluate(self, state: State) -> list[float]:
        """Per seat in [0, 1]: the standing (wing first, then its dragons in the war, then the hand)."""
        keys = [_standing(state, p) for p in range(state.n)]
        margin = pairwise([3 * w + k + 0.2 * h for w, k, h in keys], 2.0)
        if state.phase == OVER:
            return blend(by_places(self.outcome(state)), margin)
        return margin

    def bot_move(self, state: State, seat: int, actions: list[str], draw: Any) -> str:
        """The Pentawar heuristic: see ``_bot_choice``."""
        return _bot_choice(state, seat, actions, draw)

    # ------------------------------------------------------------------ views

    def view(self, state: State, seat: int | None) -> View:
        st = state
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st.n):
            # a negative index would otherwise show another seat's hand
            raise ValueError(f"no seat {seat!r}")
        wings = []
        for wing in st.wings:
            wings.append({PLACES[i]: (None if wing[i] is None else {"kind": wing[i], "covered": _covered(wing, i)})
                          for i in range(5)})
        v: View = {
            "game": self.game_id,
            "num_players": st.n,
            "status": self._status(st),
            "to_act": self.to_act(st),
            "over": st.phase == OVER,
            "phase": st.phase,
            "turn": st.turn,
            "turn_number": st.turn_no,
            "pentawar": st.war[:],
            "tableau": st.tableau[:],
            "deck_count": len(st.deck),
            "discard_count": len(st.discard),
            "discard": st.discard[:],
            "wings": wings,
            "wing_counts": [_wing_count(w) for w in st.wings],
            "hand_counts": [len(h) for h in st.hands],
            "pending": None if st.pending is None else {"kind": st.pending[1], "from": st.pending[0]},
            "reshuffle": {"allowed": st.n >= edition.RESHUFFLE_FROM_PLAYERS, "done": st.reshuffled},
            "end_reason": st.end_reason,
            # the last Alter war, until the next turn's first action: which position now holds which kind
            "altered": None if st.altered is None else {
                "position": st.altered[0], "kind": st.war[st.altered[0]], "replaced": st.altered[1],
                "seat": st.altered[2]},
        }
        if st.phase == OVER:
            v["outcome"] = self.outcome(st)
            v["standings"] = [list(_standing(st, s)) for s in range(st.n)]
        if seat is not None:
            v["seat"] = seat
            v["hand"] = sorted(st.hands[seat], key=KINDS.index)
        return v

    def _status(self, st: State) -> str:
        if st.phase == OVER:
            reason: Any = st.end_reason or ""
            if "5 dragons" in reason:
                reason = said("a player starts a turn with 5 dragons in the flight wing")
            return said("Game over: {reason}", reason=message_of(reason))
        if st.phase == ALTER:
            kind = st.pending[1]
            if _a(kind).startswith("an "):
                return said("Alter war: placing an {kind} on the pentawar", kind=_kind(kind))
            return said("Alter war: placing a {kind} on the pentawar", kind=_kind(kind))
        if st.phase == ALTER_KILL:
            return said("Alter war: optional kill against the new pentawar")
        deck, discard = len(st.deck), len(st.discard)
        if st.n >= edition.RESHUFFLE_FROM_PLAYERS:
            if st.reshuffled:
                return said("Turn {turn}: deck {deck}, discard {discard}, reshuffled once", turn=st.turn_no, deck=deck,
                            discard=discard)
            return said("Turn {turn}: deck {deck}, discard {discard}, one reshuffle left", turn=st.turn_no, deck=deck,
                        discard=discard)
        return said("Turn {turn}: deck {deck}, discard {discard}", turn=st.turn_no, deck=deck, discard=discard)

    def describe(self, state: State, action: str) -> str:
        return self._label(state, action, actor=True)

    def public_label(self, state: State, seat: int, action: str) -> str:
        return self._label(state, action, actor=False)

    def _label(self, st: State, action: str, actor: bool) -> str:
        parts = action.split(":")
        verb = parts[0]
        try:
            if verb == "gather":
                if len(st.deck) == 1:
                    return (said("Gather forces: draw the last card") if actor
                            else said("gathers forces: draws the last card"))
                return (said("Gather forces: draw a card, turn one into the tableau") if actor
                        else said("gathers forces: draws a card, turns one into the tableau"))
            if verb == "wing":
                what = msg("{kind} {source}", kind=_kind(parts[2]), source=_src_text(parts[1]))
                where = msg("place {place} (row {row})", place=parts[3], row=ROW_OF[PLACE_INDEX[parts[3]]])
                return (said("Strengthen: {what} to {where}", what=what, where=where) if actor
                        else said("strengthens the flight wing: {what} to {where}", what=what, where=where))
            if verb == "kill":
                victim, i = int(parts[3]), PLACE_INDEX[parts[4]]
                target = st.wings[victim][i]
                tname = _kind(target) if target else msg("empty place")
                what = msg("{player}'s {target} (row {row}) with {kind} {source}", player=_p(victim), target=tname,
                           row=ROW_OF[i], kind=_kind(parts[2]), source=_src_text(parts[1]))
                return said("Kill {what}", what=what) if actor else said("kills {what}", what=what)
            if verb == "alter":
                what = msg("{kind} {source}", kind=_kind(parts[2]), source=_src_text(parts[1]))
                return (said("Alter war with {what}", what=what) if actor
                        else said("alters the war with {what}", what=what))
            if verb == "replace":
                pos = int(parts[1])
                new = _kind(st.pending[1]) if st.pending else msg("it")
                what = msg("{kind} on position {position}, replacing the {old}", kind=new, position=pos,
                           old=_kind(st.war[pos]))
                return said("Put {what}", what=what) if actor else said("puts {what}", what=what)
            if verb == "skip":
                return said("No kill: end the turn") if actor else said("makes no kill")
            if verb == "pass":
                return said("Pass (no legal action)") if actor else said("passes (no legal action)")
        except (IndexError, KeyError, ValueError, TypeError):
            pass
        return action[:100]

    def events(self, state: State) -> list[str]:
        return list(state.events)

    # ------------------------------------------------------------------ persistence

    def dump(self, state: State) -> dict[str, Any]:
        st = state
        out: dict[str, Any] = {
            "n": st.n,
            "rng": st.rng,
            "war": st.war[:],
            "deck": st.deck[:],
            "discard": st.discard[:],
            "tableau": st.tableau[:],
            "hands": [h[:] for h in st.hands],
            "wings": [w[:] for w in st.wings],
            "turn": st.turn,
            "turn_no": st.turn_no,
            "phase": st.phase,
            "pending": None if st.pending is None else list(st.pending),
            "reshuffled": st.reshuffled,
            "end_reason": st.end_reason,
            "events": st.events[:],
        }
        if st.altered is not None:  # only while set: older snapshots, without the key, stay byte for byte
            out["altered"] = list(st.altered)
        return out

    def load(self, data: dict[str, Any]) -> State:
        s = State.__new__(State)
        s.n = int(data["n"])
        s.rng = int(data["rng"])
        s.war = list(data["war"])
        s.deck = list(data["deck"])
        s.discard = list(data["discard"])
        s.tableau = list(data["tableau"])
        s.hands = [list(h) for h in data["hands"]]
        s.wings = [list(w) for w in data["wings"]]
        s.turn = int(data["turn"])
        s.turn_no = int(data["turn_no"])
        s.phase = str(data["phase"])
        s.pending = None if data["pending"] is None else (str(data["pending"][0]), str(data["pending"][1]))
        s.reshuffled = bool(data["reshuffled"])
        s.end_reason = data["end_reason"]
        s.events = list(data["events"])
        altered = data.get("altered")  # absent from snapshots older than the field
        s.altered = None if altered is None else (int(altered[0]), str(altered[1]), int(altered[2]))
        return s


def _take(s: State, seat: int, src: str, kind: str) -> None:
    (s.hands[seat] if src == "hand" else s.tableau).remove(kind)


ENGINE = PentawarEngine()


# ---------------------------------------------------------------------- the heuristic bot

def _bot_choice(st: State, seat: int, actions: list[str], draw: Any) -> str:
    """Rules of thumb: stop a rival about to finish a wing, else grow your own wing, else hurt
    the leader, else gather; alter the war only to bring in a kind you can then place.

    Tableau cards go first: they are everyone's, while a card kept in hand is a tie-breaker.
    Reads only the seat's own hand and what is face up.
    """
    if len(actions) == 1:
        return actions[0]
    counts = [_wing_count(w) for w in st.wings]
    rivals = [p for p in range(st.n) if p != seat]
    lead = max(counts[p] for p in rivals) if rivals else 0

    def kill_value(a: str) -> float:
        _, src, _, victim, _ = a.split(":")
        return counts[int(victim)] + (0.5 if src == "tableau" else 0.0)

    kills = [a for a in actions if a.startswith("kill:")]
    wings = [a for a in actions if a.startswith("wing:")]
    if st.phase == ALTER_KILL:
        return max(kills, key=kill_value) if kills else "skip"
    if st.phase == ALTER:
        # Replace the position whose kind does least for this seat's wing and hand.
        own = [k for k in st.wings[seat] if k is not None] + st.hands[seat]
        return min(actions, key=lambda a: (own.count(st.war[int(a.split(":")[1])]), a))
    if kills and lead >= WING_SIZE - 1:
        return max(kills, key=kill_value)
    if wings:
        return max(wings, key=lambda a: (a.split(":")[1] == "tableau", -KIND_INDEX[a.split(":")[2]]))
    if kills and lead >= counts[seat]:
        return max(kills, key=kill_value)
    if "gather" in actions:
        return "gather"
    if kills:
        return max(kills, key=kill_value)
    alters = [a for a in actions if a.startswith("alter:")]
    if alters:
        return alters[draw(len(alters))]
    return actions[draw(len(actions))]
