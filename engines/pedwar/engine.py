"""The Pedwar engine object: the contract entry points (see DESIGN.md).

Actions
- Discard phase (active player): ``discard:<kind>`` one Maneuver card at a time, then ``done``.
- Action phase (active player): ``bid:<object card>:<bid>`` e.g. ``bid:R5:3``, ``bid:R5:2+,5``, ``bid:GW:OP``;
  ``done`` ends the phase early once at least one action was taken.
- Trump phase (the seat whose trump turn it is): ``raise:<card>:<bid>`` on one or more in-play cards,
  then ``done``; or ``pass``. When two identical cards are in play they are told apart as ``GW#1``/``GW#2``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engines.contract import IllegalAction, Options, View, check_options
from engines.pedwar import bids as B
from engines.pedwar import bot, hidden
from engines.pedwar import rules as R
from engines.pedwar import views as V
from engines.pedwar.state import ACTION, DISCARD, OVER, TRUMP, State
from engines.pedwar.state import dump as _dump
from engines.pedwar.state import load as _load
from i18n import N_, message_of, msg, said

#: Marked for the catalogues: /game rules shows it in the member's language.
SUMMARY = N_("""\
**Pedwar** — 2 to 4 players collect Object cards (4 colours, numbers 1-8, two Wilds each) with Maneuver cards.
Your turn has five phases:
1. **Discard** any Maneuver cards (keep at least one): every 3 pips discarded gives an extra action.
2. **Action**: each action puts a bid on a different Object card in the row: a single card (1+ 2+ 3 4 5), \
a pair (a 1+ or 2+ with another numbered card, worth the sum) or an OP, which wins the card at once.
3. **Trump**: from your left, everyone (you too) passes or raises in-play cards, each raise a new bid \
worth at least 1 more. Nobody raises their own highest bid. An OP by another player beats every number and \
then only you may bid there, with an OP; your OP wins the card at once. It ends when all pass in a row.
4. **Resolve**: the highest bid on each card takes it into that player's collection.
5. **End**: refill the row to 6, then you draw back up to 6 Maneuver cards (hand limit 6).
The game ends the moment the last Object card is turned face up.
**Scoring:** Straight (4+ in a row) 1 per numbered card, Straight Flush (one colour) 2, \
Four of a Kind (one of each colour) 3; Wilds stand in and score 0. Each card on your hidden Goal: 3.
Ties: tied players draw Maneuver cards, OP > 5 > 4 > 3 > 2+ > 1+.
Actions: `discard:4`, `bid:R5:2+,5`, `raise:R5:OP`, `pass`, `done`.""")


class PedwarEngine:
    game_id = "pedwar"
    title = "Pedwar"
    min_players = 2
    max_players = 4
    summary = SUMMARY

    def __init__(self) -> None:
        self.default_options: Options = {"max_turns": 500}

    # ------------------------------------------------------------ setup and turn order
    def new_game(self, num_players: int, seed: int, options: Options | None = None) -> State:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not (
                self.min_players <= num_players <= self.max_players):
            raise ValueError(f"Pedwar is for {self.min_players} to {self.max_players} players")
        opts = check_options(self, options)
        return R.setup(num_players, int(seed), opts["max_turns"])

    def to_act(self, state: State) -> list[int]:
        if state.phase == OVER:
            return []
        if state.phase == TRUMP:
            return [state.tseat]  # type: ignore[list-item]
        return [state.active]

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def outcome(self, state: State) -> list[int]:
        if state.final is None:
            raise ValueError("the game is not over")
        return list(state.final["places"])

    def events(self, state: State) -> list[str]:
        return list(state.events)

    def dump(self, state: State) -> dict[str, Any]:
        return _dump(state)

    def load(self, data: dict[str, Any]) -> State:
        return _load(data)

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state.phase == OVER or isinstance(seat, bool) or seat not in self.to_act(state):
            return []
        hand = state.hands[seat]
        if state.phase == DISCARD:
            acts = [f"discard:{k}" for k in _distinct(hand)] if len(hand) > 1 else []
            acts.append("done")
            return acts
        if state.phase == ACTION:
            options = B.bids_from(tuple(hand))
            acts = []
            seen = set()
            for slot in R.open_targets(state):
                card = state.row[slot]
                if card in seen:  # identical cards without a bid: the same action
                    continue
                seen.add(card)
                acts.extend(f"bid:{card}:{b[0]}" for b in options)
            if state.used:
                acts.append("done")
            return acts
        # Trump phase
        acts = []
        refs = R.refs(state)
        options = B.bids_from(tuple(hand))
        for slot in state.inplay:
            if slot in state.raised:
                continue
            acts.extend(f"raise:{refs[slot]}:{b[0]}" for b in _raise_options(state, seat, slot, options))
        acts.append("done" if state.raised else "pass")
        return acts

    # ------------------------------------------------------------ apply
    def apply(self, state: State, seat: int, action: str) -> State:
        if state.phase == OVER:
            raise IllegalAction(said("The game is over"))
        if not isinstance(action, str):
            raise IllegalAction(said("Actions are text such as bid:R5:3"))
        if isinstance(seat, bool) or seat not in self.to_act(state):
            if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n:
                raise IllegalAction(said("It is not your turn"))
            raise IllegalAction(said("There is no seat {seat} in this game", seat=repr(seat)))
        verb, _, rest = action.partition(":")
        handler = _HANDLERS.get((state.phase, verb))
        if handler is None:
            raise IllegalAction(_wrong_phase(state, verb, action))
        s = state.clone()
        s.events = []
        handler(s, seat, rest)
        return s

    # ------------------------------------------------------------ search hooks
    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state ``seat`` cannot tell from ``state`` (see ``engines.pedwar.hidden``)."""
        return hidden.determinize(state, seat, rng)

    def evaluate(self, state: State) -> list[float]:
        return hidden.evaluate(state)

    def bot_move(self, state: State, seat: int, actions: list[str], draw: Callable[[int], int]) -> str:
        """The heuristic bot (``engines.pedwar.bot``)."""
        return bot.choose(state, seat, actions, draw)

    # ------------------------------------------------------------ labels and views
    def describe(self, state: State, action: str) -> str:
        return V.label(state, action, actor=True)

    def public_label(self, state: State, seat: int, action: str) -> str:
        return V.label(state, action, actor=False)

    def view(self, state: State, seat: int | None) -> View:
        return V.view(self.game_id, self.to_act, state, seat)


def _distinct(hand: list[str]) -> list[str]:
    out: list[str] = []
    for k in hand:
        if not out or out[-1] != k:
            out.append(k)
    return out


def _raise_options(s: State, seat: int, slot: int, options: tuple[B.Bid, ...]) -> list[B.Bid]:
    top_seat, top_text = s.bids[slot][-1]
    if top_seat == seat:
        return []
    top = B.BY_TEXT[top_text]
    if top[2] is None:  # a non-active OP: only the active player, only with an OP
        return [b for b in options if b[2] is None] if seat == s.active else []
    return [b for b in options if B.beats(b, top)]


#: The phases as a refusal names them.
_PHASES = {DISCARD: N_("the Discard phase"), ACTION: N_("the Action phase"), TRUMP: N_("the Trump phase")}


def _wrong_phase(s: State, verb: str, action: str) -> str:
    known = {"discard", "bid", "raise", "pass", "done"}
    if verb not in known:
        return said("Unknown action {action}", action=repr(action))
    return said("{verb} is not possible in {phase}", verb=verb, phase=msg(_PHASES[s.phase]))


# ---------------------------------------------------------------- handlers

def _discard(s: State, seat: int, rest: str) -> None:
    hand = s.hands[seat]
    if rest not in B.KINDS:
        raise IllegalAction(said("{card} is not a Maneuver card (1+ 2+ 3 4 5 OP)", card=repr(rest)))
    if rest not in hand:
        raise IllegalAction(said("You hold no {card}", card=rest))
    if len(hand) <= 1:
        raise IllegalAction(said("You must keep at least one Maneuver card in hand"))
    hand.remove(rest)
    s.discarded.append(rest)
    s.mdisc.append(rest)
    s.pips += B.PIPS[rest]
    if len(hand) <= 1:
        R.begin_actions(s)


def _discard_done(s: State, seat: int, rest: str) -> None:
    if rest:
        raise IllegalAction(said("Unknown action {action}", action=repr(f"done:{rest}")))
    R.begin_actions(s)


def _split(rest: str, verb: str) -> tuple[str, B.Bid]:
    ref, sep, text = rest.partition(":")
    if not sep or not ref or not text:
        raise IllegalAction(said("Write {verb}:<card>:<bid>, e.g. {verb}:R5:2+,5", verb=verb))
    return ref, B.parse_bid(text)


def _bid(s: State, seat: int, rest: str) -> None:
    ref, bid = _split(rest, "bid")
    slot = R.find_target(s, ref)
    hand = s.hands[seat]
    if not B.holds(hand, bid[1]):
        raise IllegalAction(said("You do not hold {bid}", bid=message_of(B.words(bid))))
    for k in bid[1]:
        hand.remove(k)
    s.bids[slot].append([seat, bid[0]])
    s.used += 1
    if bid[2] is None:
        R.win_now(s, slot, seat)
    R.after_bid(s)


def _action_done(s: State, seat: int, rest: str) -> None:
    if rest:
        raise IllegalAction(said("Unknown action {action}", action=repr(f"done:{rest}")))
    if not s.used:
        raise IllegalAction(said("At least one action is required"))
    R.end_actions(s)


def _raise(s: State, seat: int, rest: str) -> None:
    ref, bid = _split(rest, "raise")
    slot = R.find_in_play(s, ref)
    if slot in s.raised:
        raise IllegalAction(said("You already raised on {card} this trump turn", card=ref))
    top_seat, top_text = s.bids[slot][-1]
    top = B.BY_TEXT[top_text]
    if top_seat == seat:
        raise IllegalAction(said("The highest bid on {card} is already yours", card=ref))
    if top[2] is None and (seat != s.active or bid[2] is not None):
        raise IllegalAction(said("After an OP on {card}, only the active player may bid there, and only with an OP",
                                 card=ref))
    if not B.beats(bid, top):
        raise IllegalAction(said("A raise on {card} must be worth at least {value}", card=ref,
                                 value=top[2] + 1))  # type: ignore[operator]
    hand = s.hands[seat]
    if not B.holds(hand, bid[1]):
        raise IllegalAction(said("You do not hold {bid}", bid=message_of(B.words(bid))))
    for k in bid[1]:
        hand.remove(k)
    s.bids[slot].append([seat, bid[0]])
    s.raised.append(slot)
    if bid[2] is None and seat == s.active:
        R.win_now(s, slot, seat)
    if not s.inplay:
        R.resolve_and_end(s)
    elif not R.can_raise_somewhere(s, seat):  # nothing left this turn that the table sees as possible
        _trump_done(s, seat, "")


def _trump_done(s: State, seat: int, rest: str) -> None:
    if rest:
        raise IllegalAction(said("Unknown action {action}", action=repr(f"done:{rest}")))
    if not s.raised:
        raise IllegalAction(said("You raised nothing this trump turn: pass instead"))
    s.passes = 0
    R.next_trump_turn(s)
    R.settle_trump(s)


def _pass(s: State, seat: int, rest: str) -> None:
    if rest:
        raise IllegalAction(said("Unknown action {action}", action=repr(f"pass:{rest}")))
    if s.raised:
        raise IllegalAction(said("You raised this trump turn: end it with done"))
    s.passes += 1
    R.next_trump_turn(s)
    R.settle_trump(s)


_HANDLERS = {
    (DISCARD, "discard"): _discard,
    (DISCARD, "done"): _discard_done,
    (ACTION, "bid"): _bid,
    (ACTION, "done"): _action_done,
    (TRUMP, "raise"): _raise,
    (TRUMP, "done"): _trump_done,
    (TRUMP, "pass"): _pass,
}

ENGINE = PedwarEngine()
