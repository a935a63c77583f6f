"""Do Over! (rules/do-over.md): shed your Hand, then your face-up and blind face-down Reserve.

State layout (plain lists, shared copy-on-write between states):
cards are small ints, the index of their code in ``edition.CODES`` (numbers 1..11 first,
then BOMB, DO, REV). A Hand is a list of 14 counts; a Reserve layer is a list of 3 slots
holding a card index or -1 when empty.

Actions:
- swap step: ``swap:<handcard>:<pile>`` (exchange a Hand card with face-up Reserve pile 0-2), ``ready``;
- play: ``play:<card>`` (from the Hand), ``up:<pile>`` (a face-up Reserve card),
  ``flip:<pile>`` (a face-down Reserve card, blind), ``take`` (the whole Discard Pile).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from data.editions import do_over as edition
from engines.contract import IllegalAction, Options, View, check_options
from engines.hidden import blend, by_places, pairwise, redeal, reseed
from engines.rng import Rng, seed_state
from i18n import N_, msg, said, said_n

CODES: tuple[str, ...] = edition.CODES
NCODES = len(CODES)
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}
BOMB = INDEX[edition.BOMB]
DO = INDEX[edition.DO_OVER]
REV = INDEX[edition.REVERSE]
#: value of each card index; None for the special cards
VALUES: tuple[int | None, ...] = tuple(int(c) if c.isdigit() else None for c in CODES)
MAX_VALUE = max(v for v in VALUES if v is not None)
#: PLAYABLE[pile value] = card indices that may go on a pile of that value
PLAYABLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, v in enumerate(VALUES) if v is None or v >= pv) for pv in range(MAX_VALUE + 1))
PLAY_ACT = tuple(f"play:{c}" for c in CODES)
UP_ACT = tuple(f"up:{j}" for j in range(edition.RESERVE_PILES))
FLIP_ACT = tuple(f"flip:{j}" for j in range(edition.RESERVE_PILES))
DECK: tuple[int, ...] = tuple(INDEX[c] for c in edition.DECK)
NPILES = edition.RESERVE_PILES
HAND_SIZE = edition.HAND_SIZE

SWAP, PLAY, OVER = "swap", "play", "over"


def pile_value(pile: list[str]) -> int:
    """The value the next card must equal or beat; ``pile`` is bottom to top, plain codes.

    Empty: 0. A number: its value. Do Over!: 0. Reverse: look down past Reverses to the
    first other card (a number gives its value; Do Over! or nothing gives 0). A Bomb never
    stays on the pile; should one be there it counts as 0.
    """
    for code in reversed(pile):
        if code == edition.REVERSE:
            continue
        return int(code) if code.isdigit() else 0
    return 0


def _value(pile: list[int]) -> int:
    for c in reversed(pile):
        if c == REV:
            continue
        v = VALUES[c]
        return 0 if v is None else v
    return 0


class State:
    __slots__ = ("cur", "dealer", "dealt_up", "dir", "down", "draw", "events", "hand_n", "hands", "known", "n",
                 "opts", "phase", "pile", "places", "ready", "removed", "rng", "turns", "up", "winner")

    def clone(self) -> State:
        """Shallow copy: the outer per-seat lists are copied, inner lists are shared until written."""
        s = State.__new__(State)
        s.n = self.n
        s.opts = self.opts
        s.rng = self.rng
        s.dealer = self.dealer
        s.phase = self.phase
        s.hands = self.hands[:]
        s.hand_n = self.hand_n[:]
        s.known = self.known[:]
        s.up = self.up[:]
        s.down = self.down[:]
        s.dealt_up = self.dealt_up
        s.ready = self.ready
        s.draw = self.draw
        s.pile = self.pile
        s.removed = self.removed
        s.cur = self.cur
        s.dir = self.dir
        s.turns = self.turns
        s.winner = self.winner
        s.places = self.places
        s.events = []
        return s


def _rank(counts: list[int]) -> list[int]:
    """Standard competition ranking, fewest first: [3, 0, 3, 5] -> [2, 1, 2, 4]."""
    return [1 + sum(1 for other in counts if other < c) for c in counts]


def _cards_left(st: State, s: int) -> int:
    return st.hand_n[s] + sum(1 for c in st.up[s] if c >= 0) + sum(1 for c in st.down[s] if c >= 0)


def _source(st: State, s: int) -> str:
    if st.hand_n[s]:
        return "hand"
    if st.up[s].count(-1) < NPILES:
        return "up"
    if st.down[s].count(-1) < NPILES:
        return "down"
    return "none"


def _gone(dealt: list[int], up: list[int]) -> list[int]:
    """Counts per card of those face-up as ``dealt`` and no longer ``up``: swapped into the Hand."""
    out = [0] * NCODES
    for c in dealt:
        if c >= 0:
            out[c] += 1
    for c in up:
        if c >= 0 and out[c]:
            out[c] -= 1
    return out


def _hand_codes(h: list[int]) -> list[str]:
    """A Hand's card codes in display order, repeats included."""
    out: list[str] = []
    for i in range(NCODES):
        if h[i]:
            out += [CODES[i]] * h[i]
    return out


def _p(s: int) -> str:
    return f"{{p{s}}}"


def _name(code: str) -> object:
    """A card's name as a message: a number is itself, a special card is translated (the glossary's names)."""
    return msg(edition.NAMES[code])


def _pile_no(arg: str) -> int:
    if len(arg) != 1 or not arg.isdigit() or int(arg) >= NPILES:
        raise IllegalAction(said("there is no Reserve pile {pile}; piles are 0 to {last}", pile=repr(arg),
                                 last=NPILES - 1))
    return int(arg)


def _card(arg: str) -> int:
    if arg not in INDEX:
        raise IllegalAction(said("{card} is not a Do Over! card", card=repr(arg)))
    return INDEX[arg]


class DoOverEngine:
    game_id = "do_over"
    title = edition.TITLE
    min_players = edition.MIN_PLAYERS
    max_players = edition.MAX_PLAYERS

    def __init__(self) -> None:
        self.default_options: Options = {"allow_voluntary_take": True, "max_turns": 1000}

    summary = N_(
        "**Do Over!** — be the first to get rid of all your cards.\n"
        "- Cards: 1 to 11 (four each), 4 Bomb, 4 Do Over!, 2 Reverse. 2–6 players.\n"
        "- Each player has a Reserve of 3 piles (one card face down, one face up on it) and a Hand of 3.\n"
        "- Swap step: before play, swap Hand cards with your face-up Reserve cards in private, then ready.\n"
        "- On your turn discard one card that equals or beats the pile's value, or any special card, "
        "or take the whole pile into your Hand (forced if you cannot play; never an empty pile).\n"
        "- Play from your Hand first; then your face-up Reserve cards; then flip a face-down card blind.\n"
        "- A blind flip that is too low: you take the pile, that card included. No taking instead of flipping.\n"
        "- After discarding from your Hand, draw back up to 3 cards while the Draw Pile lasts.\n"
        "- **Do Over!** resets the value to 0. **Reverse** reverses the direction "
        "(the value stays that of the card beneath; with two players it is a free play). "
        "**Bomb** removes the whole pile from the game; the next player starts a new pile.\n"
        "- The first player with no cards at all wins at once; the others rank by cards left (Hand + Reserve).\n"
        "- Options: `allow_voluntary_take` (default on), `max_turns` (default 1000: then all rank by cards left)."
    )

    # ----------------------------------------------------------------- setup
    def new_game(self, num_players: int, seed: int, options: Options | None = None) -> State:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or \
                not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.title} needs {self.min_players} to {self.max_players} players")
        opts = check_options(self, options)
        rng = Rng(seed_state(seed))
        deck = list(DECK)
        rng.shuffle(deck)
        n = num_players
        dealer = rng.below(n)
        st = State.__new__(State)
        st.n = n
        st.opts = opts
        st.dealer = dealer
        st.phase = SWAP
        st.down = [[deck.pop() for _ in range(NPILES)] for _ in range(n)]
        st.up = [[deck.pop() for _ in range(NPILES)] for _ in range(n)]
        st.hands = []
        for _ in range(n):
            h = [0] * NCODES
            for _ in range(HAND_SIZE):
                h[deck.pop()] += 1
            st.hands.append(h)
        st.hand_n = [HAND_SIZE] * n
        st.known = [[0] * NCODES for _ in range(n)]
        st.dealt_up = [u[:] for u in st.up]
        st.ready = [False] * n
        st.draw = deck
        st.pile = []
        st.removed = []
        st.cur = (dealer + 1) % n
        st.dir = 1
        st.turns = 0
        st.winner = -1
        st.places = None
        st.events = []
        st.rng = rng.state
        return st

    # ----------------------------------------------------------------- queries
    def to_act(self, state: State) -> list[int]:
        if state.phase == PLAY:
            return [state.cur]
        if state.phase == SWAP:
            return [s for s in range(state.n) if not state.ready[s]]
        return []

    def legal_actions(self, state: State, seat: int) -> list[str]:
        st = state
        if isinstance(seat, bool):
            return []
        if st.phase == PLAY:
            if seat != st.cur:
                return []
            pile = st.pile
            if st.hand_n[seat]:
                h = st.hands[seat]
                acts = [PLAY_ACT[i] for i in PLAYABLE[_value(pile)] if h[i]]
            else:
                up = st.up[seat]
                if up.count(-1) == NPILES:
                    down = st.down[seat]
                    return [FLIP_ACT[j] for j in range(NPILES) if down[j] >= 0]
                ok = PLAYABLE[_value(pile)]
                acts = [UP_ACT[j] for j in range(NPILES) if up[j] >= 0 and up[j] in ok]
            if pile and (not acts or st.opts["allow_voluntary_take"]):
                acts.append("take")
            return acts
        if st.phase == SWAP and 0 <= seat < st.n and not st.ready[seat]:
            h = st.hands[seat]
            up = st.up[seat]
            acts = [f"swap:{CODES[i]}:{j}" for i in range(NCODES) if h[i] for j in range(NPILES) if up[j] != i]
            acts.append("ready")
            return acts
        return []

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def outcome(self, state: State) -> list[int]:
        """Finishing places; before the end, the current standing by cards left."""
        if state.places is not None:
            return list(state.places)
        return _rank([_cards_left(state, s) for s in range(state.n)])

    def events(self, state: State) -> list[str]:
        return list(state.events)

    # ----------------------------------------------------------------- apply
    def apply(self, state: State, seat: int, action: str) -> State:
        if not isinstance(action, str):
            raise IllegalAction(said("an action must be text"))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
            raise IllegalAction(said("there is no seat {seat} at this table", seat=repr(seat)))
        if state.phase == OVER:
            raise IllegalAction(said("the game is over"))
        verb, _, arg = action.partition(":")
        if state.phase == SWAP:
            return self._apply_swap(state, seat, action)
        if seat != state.cur:
            raise IllegalAction(said("it is not your turn"))
        st = state
        pv = _value(st.pile)
        if verb == "play":
            if not st.hand_n[seat]:
                raise IllegalAction(said("your Hand is empty; play from your Reserve"))
            c = _card(arg)
            if not st.hands[seat][c]:
                raise IllegalAction(said("you have no {card} in your Hand", card=_name(arg)))
            if c not in PLAYABLE[pv]:
                raise IllegalAction(said("{card} is lower than the pile's value {value}", card=_name(arg), value=pv))
            st = st.clone()
            h = st.hands[seat] = st.hands[seat][:]
            h[c] -= 1
            st.hand_n[seat] -= 1
            if st.known[seat][c]:
                k = st.known[seat] = st.known[seat][:]
                k[c] -= 1
            return self._discard(st, seat, c, from_hand=True)
        if verb == "up":
            j = _pile_no(arg)
            if st.hand_n[seat]:
                raise IllegalAction(said("play out your Hand before your Reserve"))
            c = st.up[seat][j]
            if c < 0:
                raise IllegalAction(said("Reserve pile {pile} has no face-up card", pile=j + 1))
            if c not in PLAYABLE[pv]:
                raise IllegalAction(said("{card} is lower than the pile's value {value}", card=_name(CODES[c]),
                                                 value=pv))
            st = st.clone()
            u = st.up[seat] = st.up[seat][:]
            u[j] = -1
            return self._discard(st, seat, c, from_hand=False)
        if verb == "flip":
            j = _pile_no(arg)
            if st.hand_n[seat] or st.up[seat].count(-1) < NPILES:
                raise IllegalAction(said("you flip face-down cards only once your Hand and face-up Reserve are gone"))
            c = st.down[seat][j]
            if c < 0:
                raise IllegalAction(said("Reserve pile {pile} has no face-down card", pile=j + 1))
            st = st.clone()
            d = st.down[seat] = st.down[seat][:]
            d[j] = -1
            if c in PLAYABLE[pv]:
                st.events.append(said("{player} flips {card}: it stays on the pile", player=_p(seat),
                                      card=_name(CODES[c])))
                return self._discard(st, seat, c, from_hand=False)
            st.pile = [*st.pile, c]
            st.events.append(said_n("{player} flips {card}, lower than {value}, and takes the pile ({n} card)",
                                    "{player} flips {card}, lower than {value}, and takes the pile ({n} cards)",
                                    len(st.pile), player=_p(seat), card=CODES[c], value=pv))
            self._take(st, seat)
            return self._end_turn(st, seat)
        if action == "take":
            if not st.pile:
                raise IllegalAction(said("the pile is empty; there is nothing to take"))
            src = _source(st, seat)
            if src == "down":
                raise IllegalAction(said("a player on face-down cards must flip one, not take the pile"))
            if not st.opts["allow_voluntary_take"] and self._can_play(st, seat, pv):
                raise IllegalAction(said("you can play a card, and this table does not allow taking the pile then"))
            st = st.clone()
            self._take(st, seat)
            return self._end_turn(st, seat)
        if verb in ("swap", "ready"):
            raise IllegalAction(said("the swap step is over"))
        raise IllegalAction(said("unknown action {action}", action=repr(action)))

    def _can_play(self, st: State, seat: int, pv: int) -> bool:
        ok = PLAYABLE[pv]
        if st.hand_n[seat]:
            h = st.hands[seat]
            return any(h[i] for i in ok)
        return any(c >= 0 and c in ok for c in st.up[seat])

    def _apply_swap(self, state: State, seat: int, action: str) -> State:
        verb, _, arg = action.partition(":")
        if state.ready[seat]:
            raise IllegalAction(said("you are already ready; wait for the other players"))
        if verb == "swap":
            card, _, pile = arg.partition(":")
            c = _card(card)
            j = _pile_no(pile)
            if not state.hands[seat][c]:
                raise IllegalAction(said("you have no {card} in your Hand", card=_name(card)))
            u0 = state.up[seat][j]
            if u0 == c:
                raise IllegalAction(said("face-up Reserve pile {pile} already shows {card}", pile=j + 1,
                                                 card=_name(card)))
            st = state.clone()
            h = st.hands[seat] = st.hands[seat][:]
            u = st.up[seat] = st.up[seat][:]
            h[c] -= 1
            h[u0] += 1
            u[j] = c
            return st
        if action == "ready":
            st = state.clone()
            st.ready = st.ready[:]
            st.ready[seat] = True
            if all(st.ready):
                st.phase = PLAY
                # The face-up cards were seen as dealt and are seen now: those gone are in their Hands.
                st.known = [_gone(dealt, up) for dealt, up in zip(st.dealt_up, st.up, strict=True)]
                st.dealt_up = None
                st.events.append(said("Everyone is ready: play begins with {player}", player=_p(st.cur)))
            return st
        if verb in ("play", "up", "flip", "take"):
            raise IllegalAction(said("the swap step is not over yet: swap cards or say ready"))
        raise IllegalAction(said("unknown action {action}", action=repr(action[:40])))

    def _take(self, st: State, seat: int) -> None:
        h = st.hands[seat] = st.hands[seat][:]
        k = st.known[seat] = st.known[seat][:]
        for c in st.pile:
            h[c] += 1
            k[c] += 1
        st.hand_n[seat] += len(st.pile)
        st.pile = []

    def _discard(self, st: State, seat: int, c: int, from_hand: bool) -> State:
        if c == BOMB:
            st.removed = st.removed + st.pile + [c]
            st.events.append(said_n("The Bomb removes {n} card from the game; the next player starts a new pile",
                                    "The Bomb removes {n} cards from the game; the next player starts a new pile",
                                    len(st.pile) + 1))
            st.pile = []
        else:
            st.pile = [*st.pile, c]
            if c == REV:
                if st.n > 2:
                    st.dir = -st.dir
                    st.events.append(said("Play now goes clockwise") if st.dir == 1
                                     else said("Play now goes counterclockwise"))
                else:
                    st.events.append(said("Reverse with two players is a free play"))
        if from_hand and st.hand_n[seat] < HAND_SIZE and st.draw:
            k = min(HAND_SIZE - st.hand_n[seat], len(st.draw))
            draw = st.draw[:]
            h = st.hands[seat]
            for _ in range(k):
                h[draw.pop()] += 1
            st.draw = draw
            st.hand_n[seat] += k
            st.events.append(said_n("{player} draws {n} card", "{player} draws {n} cards", k, player=_p(seat)))
        if not st.hand_n[seat] and st.up[seat].count(-1) == NPILES and st.down[seat].count(-1) == NPILES:
            st.winner = seat
        return self._end_turn(st, seat)

    def _end_turn(self, st: State, seat: int) -> State:
        st.turns += 1
        if st.winner >= 0:
            st.events.append(said("{player} has no cards left and wins", player=_p(seat)))
            self._finish(st)
        elif st.turns >= st.opts["max_turns"]:
            st.events.append(said("The turn limit ({turns}) is reached: the game ends and players rank by cards left",
                                  turns=st.opts["max_turns"]))
            self._finish(st)
        else:
            st.cur = (st.cur + st.dir) % st.n
        return st

    def _finish(self, st: State) -> None:
        st.phase = OVER
        st.places = _rank([_cards_left(st, s) for s in range(st.n)])

    # ----------------------------------------------------------------- search hooks
    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state ``seat`` cannot tell from ``state``: hidden cards redealt, counts kept.

        Hidden from ``seat``: the other Hands, every face-down Reserve card (its own too: they are
        blind) and the Draw Pile. During the swap step the others' face-up cards are shown as dealt,
        so each other seat is put back to its deal (face-up cards as dealt, the rest in its Hand):
        ``seat`` cannot tell whether anyone swapped. Cards known to be in a Hand stay there
        (``known``: the pile a player took, face-up cards they swapped away, less what they
        have played of them since); only the rest of each Hand is redealt.
        """
        st = state.clone()
        st.events = list(state.events)
        n = st.n
        others = [p for p in range(n) if p != seat]
        pool: list[int] = list(state.draw)
        for p in others:
            h, k = state.hands[p], state.known[p]
            for i in range(NCODES):
                pool += [i] * (h[i] - k[i])
            if state.dealt_up is not None:
                pool += [c for c in state.up[p] if c >= 0]
                for c in state.dealt_up[p]:
                    if c >= 0:
                        pool.remove(c)
                st.up[p] = state.dealt_up[p][:]
        for p in range(n):
            pool += [c for c in state.down[p] if c >= 0]
        sizes = [st.hand_n[p] - sum(state.known[p]) for p in others]
        sizes += [sum(1 for c in state.down[p] if c >= 0) for p in range(n)]
        piles = redeal(pool, [*sizes, len(state.draw)], rng)
        for p, pile in zip(others, piles, strict=False):
            h = state.known[p][:]
            for c in pile:
                h[c] += 1
            st.hands[p] = h
        for p in range(n):
            cards = iter(piles[len(others) + p])
            st.down[p] = [next(cards) if c >= 0 else -1 for c in state.down[p]]
        st.draw = piles[-1]
        st.rng = reseed(rng)
        return st

    def evaluate(self, state: State) -> list[float]:
        """Per seat in [0, 1]: fewer cards left than the others is better, by how many counts too."""
        margin = pairwise([-_cards_left(state, p) for p in range(state.n)], 4.0)
        if state.phase == OVER:
            return blend(by_places(self.outcome(state)), margin)
        return margin

    def bot_move(self, state: State, seat: int, actions: list[str], draw: Callable[[int], int]) -> str:
        """The Do Over! heuristic: see ``_bot_choice``."""
        return _bot_choice(state, seat, actions, draw)

    # ----------------------------------------------------------------- text
    def describe(self, state: State, action: str) -> str:
        verb, _, arg = action.partition(":")
        try:
            if verb == "play":
                return said("Play {card} from your Hand on the pile", card=_name(arg))
            if verb == "up":
                return said("Play face-up Reserve card {card} (pile {pile})",
                            card=CODES[state.up[state.cur][int(arg)]], pile=int(arg) + 1)
            if verb == "flip":
                return said("Flip the face-down card of Reserve pile {pile} blind", pile=int(arg) + 1)
            if verb == "take":
                return said_n("Take the pile ({n} card) into your Hand", "Take the pile ({n} cards) into your Hand",
                              len(state.pile))
            if verb == "swap":
                card, _, j = arg.partition(":")
                return said("Swap {card} from your Hand into face-up Reserve pile {pile}", card=_name(card),
                            pile=int(j) + 1)
            if verb == "ready":
                return said("Ready: done swapping")
        except (KeyError, ValueError, IndexError, TypeError):
            pass
        return action[:100]

    def describe_for(self, state: State, seat: int, action: str) -> str:
        """``describe`` as ``seat``'s own menu shows it: a swap names both cards, the one leaving the Hand
        and the face-up one it takes from the Reserve pile (moves of the play step name the seat to act
        already, and need no seat)."""
        verb, _, arg = action.partition(":")
        if verb == "swap" and 0 <= seat < state.n:
            card, _, j = arg.partition(":")
            try:
                up = state.up[seat][int(j)]
                if card in edition.NAMES and up >= 0:
                    return said("Swap {card} from your Hand for the face-up {other} of Reserve pile {pile}",
                                card=_name(card), other=_name(CODES[up]), pile=int(j) + 1)
            except (ValueError, IndexError):
                pass
        return self.describe(state, action)

    def public_label(self, state: State, seat: int, action: str) -> str:
        verb, _, arg = action.partition(":")
        if verb == "play" and arg in INDEX:
            return said("plays {card}", card=_name(arg))
        if verb == "up" and arg in ("0", "1", "2") and 0 <= seat < state.n and state.up[seat][int(arg)] >= 0:
            return said("plays {card} from their face-up Reserve", card=_name(CODES[state.up[seat][int(arg)]]))
        if verb == "flip":
            return said("flips a face-down Reserve card")
        if verb == "take":
            return said_n("takes the pile ({n} card)", "takes the pile ({n} cards)", len(state.pile))
        if verb == "swap":
            return said("swaps cards in private")
        if verb == "ready":
            return said("is ready")
        return said("acts")

    def _status(self, st: State) -> str:
        if st.phase == SWAP:
            return said("Swap step: {ready} of {players} players ready", ready=sum(st.ready), players=st.n)
        if st.phase == PLAY:
            return said_n("Turn {turn}: pile value {value}, {n} card on the pile, {draw} in the Draw Pile",
                          "Turn {turn}: pile value {value}, {n} cards on the pile, {draw} in the Draw Pile",
                          len(st.pile), turn=st.turns + 1, value=_value(st.pile), draw=len(st.draw))
        if st.winner >= 0:
            return said("Game over after {turns} turns: a player has no cards left", turns=st.turns)
        return said("Game over: the turn limit of {turns} turns was reached", turns=st.opts["max_turns"])

    def view(self, state: State, seat: int | None) -> View:
        st = state
        seats = []
        for s in range(st.n):
            # During the private swap step others see the face-up cards as they were dealt.
            as_dealt = st.dealt_up is not None and s != seat
            up = st.dealt_up[s] if as_dealt else st.up[s]
            down = [1 if c >= 0 else 0 for c in st.down[s]]
            seats.append({
                "hand_count": st.hand_n[s],
                "up": [CODES[c] if c >= 0 else None for c in up],
                "up_as_dealt": as_dealt,
                "down": down,
                "down_count": sum(down),
                "cards_left": _cards_left(st, s),
                "source": _source(st, s) if st.phase == PLAY else None,
                "ready": st.ready[s],
            })
        v: dict[str, Any] = {
            "game": self.game_id,
            "num_players": st.n,
            "status": self._status(st),
            "phase": st.phase,
            "to_act": self.to_act(st),
            "over": st.phase == OVER,
            "current": st.cur if st.phase == PLAY else None,
            "dealer": st.dealer,
            "direction": "clockwise" if st.dir == 1 else "counterclockwise",
            "pile": [CODES[c] for c in st.pile],
            "pile_value": _value(st.pile),
            "pile_count": len(st.pile),
            "draw_count": len(st.draw),
            "removed": [CODES[c] for c in st.removed],
            "removed_count": len(st.removed),
            "turns": st.turns,
            "max_turns": st.opts["max_turns"],
            "allow_voluntary_take": st.opts["allow_voluntary_take"],
            "seats": seats,
        }
        if st.phase == OVER:
            v["outcome"] = list(st.places)
            v["winner"] = st.winner if st.winner >= 0 else None
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st.n:
                raise ValueError(f"no seat {seat!r}")
            v["seat"] = seat
            v["hand"] = _hand_codes(st.hands[seat])
        return v

    # ----------------------------------------------------------------- persistence
    def dump(self, state: State) -> dict[str, Any]:
        st = state

        def slots(layer: list[int]) -> list[str | None]:
            return [CODES[c] if c >= 0 else None for c in layer]

        return {
            "game": self.game_id,
            "n": st.n,
            "options": dict(st.opts),
            "rng": st.rng,
            "dealer": st.dealer,
            "phase": st.phase,
            "hands": [_hand_codes(h) for h in st.hands],
            "known": [_hand_codes(k) for k in st.known],
            "up": [slots(u) for u in st.up],
            "down": [slots(d) for d in st.down],
            "dealt_up": None if st.dealt_up is None else [slots(u) for u in st.dealt_up],
            "ready": list(st.ready),
            "draw": [CODES[c] for c in st.draw],
            "pile": [CODES[c] for c in st.pile],
            "removed": [CODES[c] for c in st.removed],
            "current": st.cur,
            "direction": st.dir,
            "turns": st.turns,
            "winner": st.winner,
            "places": None if st.places is None else list(st.places),
            "events": list(st.events),
        }

    def load(self, data: dict[str, Any]) -> State:
        if data.get("game") != self.game_id:
            raise ValueError("not a Do Over! state")

        def slots(layer: list[str | None]) -> list[int]:
            return [INDEX[c] if c is not None else -1 for c in layer]

        st = State.__new__(State)
        st.n = int(data["n"])
        st.opts = check_options(self, data["options"])
        st.rng = int(data["rng"])
        st.dealer = int(data["dealer"])
        st.phase = data["phase"]
        st.hands = []
        for codes in data["hands"]:
            h = [0] * NCODES
            for c in codes:
                h[INDEX[c]] += 1
            st.hands.append(h)
        st.hand_n = [sum(h) for h in st.hands]
        # Snapshots from before ``known`` was kept: nothing known.
        st.known = [[0] * NCODES for _ in range(st.n)]
        for p, codes in enumerate(data.get("known") or []):
            for c in codes:
                st.known[p][INDEX[c]] += 1
        st.up = [slots(u) for u in data["up"]]
        st.down = [slots(d) for d in data["down"]]
        st.dealt_up = None if data["dealt_up"] is None else [slots(u) for u in data["dealt_up"]]
        st.ready = [bool(r) for r in data["ready"]]
        st.draw = [INDEX[c] for c in data["draw"]]
        st.pile = [INDEX[c] for c in data["pile"]]
        st.removed = [INDEX[c] for c in data["removed"]]
        st.cur = int(data["current"])
        st.dir = int(data["direction"])
        st.turns = int(data["turns"])
        st.winner = int(data["winner"])
        st.places = None if data["places"] is None else [int(p) for p in data["places"]]
        st.events = [str(e) for e in data["events"]]
        return st


# ----------------------------------------------------------------- the heuristic bot
#: Specials are kept for when nothing else goes: a Bomb clears a big pile, a Do Over! resets a high one.
_SPECIAL_ORDER = (REV, DO, BOMB)


def _bot_choice(st: State, seat: int, actions: list[str], draw: Callable[[int], int]) -> str:
    """Rules of thumb: in the swap step put high cards and specials face up; in play shed the
    lowest number that goes, hold specials back until nothing else goes (a Bomb first on a big
    pile), and take the pile only when forced. Reads only the seat's own Hand and face-up cards.
    """
    if len(actions) == 1:
        return actions[0]
    if st.phase == SWAP:
        return _swap_choice(st, seat, actions)
    if actions[0].startswith("flip:"):
        return actions[draw(len(actions))]
    cards: list[tuple[int, str]] = []
    for a in actions:
        verb, _, arg = a.partition(":")
        if verb == "play":
            cards.append((INDEX[arg], a))
        elif verb == "up":
            cards.append((st.up[seat][int(arg)], a))
    numbers = [(c, a) for c, a in cards if VALUES[c] is not None]
    if numbers:
        return min(numbers, key=lambda x: (VALUES[x[0]], x[1]))[1]
    specials = {c: a for c, a in cards}
    if BOMB in specials and len(st.pile) >= 4:
        return specials[BOMB]
    for c in _SPECIAL_ORDER:
        if c in specials:
            return specials[c]
    return "take" if "take" in actions else actions[0]


def _keep_rank(c: int) -> int:
    """How much a card is worth keeping for later (face up): specials most, then high numbers."""
    v = VALUES[c]
    return 20 + c if v is None else v


def _swap_choice(st: State, seat: int, actions: list[str]) -> str:
    best, gain = "ready", 0
    for a in actions:
        if a == "ready":
            continue
        _, card, pile = a.split(":")
        g = _keep_rank(INDEX[card]) - _keep_rank(st.up[seat][int(pile)])
        if g > gain:
            best, gain = a, g
    return best


ENGINE = DoOverEngine()
