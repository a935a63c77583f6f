"""The Ogre Cheerleaders engine object: actions, views and labels over flow.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from data.editions import ogre_cheerleaders as edition
from engines.contract import IllegalAction, Options, View, check_options
from engines.ogre_cheerleaders import bot, flow, hidden
from engines.ogre_cheerleaders.rules import points, span_label
from engines.ogre_cheerleaders.state import State
from engines.words import count

SIDE = flow.SIDE
ENDS = ("L", "R")

SUMMARY = """\
**Ogre Cheerleaders** (2-4 players). 40 cards: four teams (O, S, C, U), numbers 1-10; a card is worth its number.
- **Setup:** 4 cards each, 4 face up in a row (the **field**), 1 face up on the **bench**.
- **Turn:** play a card from your hand at either end of the field and resolve its effect, as far as it can be.
- **Effects:** 1 join the bench's top card · 2 move a card to an end · 3 swap two cards · 4 take a card · \
5 bench a card · 6 steal a random card from an opponent and play it · 7 play the deck's top card · \
8 draw 2, keep 1, the other joins · 9 shuffle the field · 10 bench the 2 cards at the far end.
- **Join** places a card without its effect; **play** resolves it too, so chains happen (7, then 6, then 7...).
- **Scoring:** same team 3+, sequence 3+ (up or down), same number 2+, always at their longest, go to your \
score pile. When formations overlap you choose disjoint ones (each one left out must touch a chosen one). \
Gaps close and new formations score too.
- Formations already there when cards are dealt do not score until one of their cards leaves or moves, a card \
is played or joined next to them, or a 9 shuffles.
- **Bonus play:** field empty after scoring: deal 4 and play again (with no cards in hand, just deal).
- **Draw** up to 4 at the end of your turn; begin a turn with no cards: draw 4 first.
- **End:** when the deck runs out, finish the turn, then play on until the seat to the right of the first \
player has had one more turn. Most points wins; tie-break: more scored cards.
- **Stalemate:** 4 turns in a row with the same number played, nothing scored and the deck unchanged: \
everyone ties.
- Table option `max_turns` (default 500): the game ends there and is scored as it stands.
"""

PROMPTS = {
    "play": "play a card from your hand",
    "place": "choose the end for the card you must play",
    "join": "choose the end for the joining card",
    "eight": "choose which card of the 8 goes to your hand",
    "move": "choose the card for the 2 to move",
    "moveto": "choose the end to move the card to",
    "swap": "choose the first card for the 3 to swap",
    "swap2": "choose the second card to swap",
    "take": "choose the card for the 4 to take",
    "bench": "choose the card for the 5 to bench",
    "steal": "choose the opponent to steal from",
    "score": "choose which formations to score",
}
#: The same decisions as everyone else reads them, after the player's name: the acting seat may be a
#: bot, and a public line never speaks to anyone as "you" ("Robo Ada chooses the end for the card
#: they must play").
PUBLIC_PROMPTS = {
    "play": "plays a card from their hand",
    "place": "chooses the end for the card they must play",
    "join": "chooses the end for the joining card",
    "eight": "chooses which card of the 8 goes to their hand",
    "move": "chooses the card for the 2 to move",
    "moveto": "chooses the end to move the card to",
    "swap": "chooses the first card for the 3 to swap",
    "swap2": "chooses the second card to swap",
    "take": "chooses the card for the 4 to take",
    "bench": "chooses the card for the 5 to bench",
    "steal": "chooses the opponent to steal from",
    "score": "chooses which formations to score",
}


def _actions(s: State) -> list[str]:
    pend = s.pending
    if s.over or pend is None:
        return []
    kind = pend[0]
    if kind == "play":
        return [f"play:{c}:{e}" for c in s.hands[s.seat] for e in ENDS]
    if kind == "place":
        return ["place:L", "place:R"]
    if kind == "join":
        return ["join:L", "join:R"]
    if kind == "eight":
        acts = [f"keep:{c}" for c in s.transit]
        return [*acts, "join:L", "join:R"] if len(s.transit) == 1 else acts
    if kind == "move":
        return [f"move:{c}" for c in s.field if c != pend[1]]
    if kind == "moveto":
        return ["to:L", "to:R"]
    if kind == "swap":
        return [f"swap:{c}" for c in s.field if c != pend[1]]
    if kind == "swap2":
        return [f"with:{c}" for c in s.field if c != pend[1] and c != pend[2]]
    if kind in ("take", "bench"):
        return [f"{kind}:{c}" for c in s.field if c != pend[1]]
    if kind == "steal":
        return [f"steal:{q}" for q in flow.steal_targets(s)]
    return [f"score:{i}" for i in range(len(pend[2]))]


def _refusal(s: State, action: str, legal: list[str]) -> str:
    verb, _, arg = action.partition(":")
    prompt = PROMPTS[s.pending[0]]
    if verb not in {a.partition(":")[0] for a in legal}:
        return f"Not now: {prompt}"
    if verb == "play":
        card = arg.partition(":")[0]
        if card not in s.hands[s.seat]:
            return f"You have no {card or 'such card'} in your hand"
        return "Say which end: play:<card>:L or play:<card>:R"
    if verb in ("move", "swap", "with", "take", "bench"):
        return f"{arg or 'That'} is not a card you may choose now: {prompt}"
    if verb == "steal":
        return "Choose an opponent who has cards in hand"
    return f"Unknown choice {action!r}: {prompt}"


def _act(s: State, action: str) -> None:
    parts = action.split(":")
    verb = parts[0]
    pend = s.pending
    kind = pend[0]
    seat = s.seat
    if kind == "score":
        flow.score_set(s, pend[1], pend[2][int(parts[1])])
        flow.continue_scoring(s)
        return
    s.pending = None
    if verb == "play":
        card = parts[1]
        s.hands[seat].remove(card)
        flow.forget(s, seat, card)
        if not s.t_num:
            s.t_num = int(card[1:])
        flow.play_card(s, card, parts[2])
    elif verb == "place":
        card = s.transit.pop()
        if pend[1] == "steal":
            src = f"taken from {flow.p(s.steal_from)}'s hand"
            flow.forget(s, s.steal_from, card)   # now everyone sees which card left that hand
            s.steal_from = -1
        else:
            src = "the top card of the deck"
        s.events.append(f"{flow.p(seat)} played {card} ({src}) at the {SIDE[parts[1]]} end")
        flow.play_card(s, card, parts[1])
    elif verb == "join":
        card = s.transit.pop()
        flow.place(s, card, parts[1])
        if kind == "eight" or pend[1] == "deck":
            s.events.append(f"{card} (from the 8) joins the field at the {SIDE[parts[1]]} end")
    elif verb == "keep":
        s.transit.remove(parts[1])
        flow.to_hand(s, seat, parts[1])
        if s.transit:
            s.pending = ["join", "deck"]
    elif verb == "move":
        s.pending = ["moveto", pend[1], parts[1]]
    elif verb == "to":
        if not flow.move(s, pend[2], parts[1]):
            s.events.append(f"{pend[2]} is already at the {SIDE[parts[1]]} end: nothing changes")
    elif verb == "swap":
        s.pending = ["swap2", pend[1], parts[1]]
    elif verb == "with":
        flow.swap(s, pend[2], parts[1])
    elif verb == "take":
        flow.take(s, parts[1])
    elif verb == "bench":
        flow.bench(s, parts[1])
    elif verb == "steal":
        flow.steal(s, int(parts[1]))
    if s.pending is None:
        flow.continue_scoring(s)


def _card_text(card: str) -> str:
    return f"{card} ({edition.TEAM_SHORT[card[0]]} {card[1:]})"


class OgreCheerleaders:
    game_id = "ogre_cheerleaders"
    title = edition.TITLE
    min_players = edition.MIN_PLAYERS
    max_players = edition.MAX_PLAYERS
    summary = SUMMARY

    def __init__(self) -> None:
        self.default_options: Options = {"max_turns": edition.DEFAULT_MAX_TURNS}

    # ------------------------------------------------------------ lifecycle
    def new_game(self, num_players: int, seed: int, options: Options | None = None) -> State:
        if isinstance(num_players, bool) or not isinstance(num_players, int) \
                or not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.title} needs {self.min_players} to {self.max_players} players")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("seed must be an integer")
        opts = check_options(self, options)
        return flow.new_state(num_players, seed, opts["max_turns"])

    def to_act(self, state: State) -> list[int]:
        return [] if state.over else [state.seat]

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state.over or seat != state.seat:
            return []
        return _actions(state)

    def apply(self, state: State, seat: int, action: str) -> State:
        if state.over:
            raise IllegalAction("The game is over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
            raise IllegalAction(f"There is no seat {seat!r} at this table")
        if seat != state.seat:
            raise IllegalAction("It is not your turn")
        if not isinstance(action, str):
            raise IllegalAction("An action must be a text like play:O7:L")
        legal = _actions(state)
        if action not in legal:
            raise IllegalAction(_refusal(state, action, legal))
        s = state.clone()
        s.events = []
        s.last_scoring = None
        _act(s, action)
        return s

    def is_over(self, state: State) -> bool:
        return state.over

    def outcome(self, state: State) -> list[int]:
        return list(state.places) if state.over else []

    def events(self, state: State) -> list[str]:
        return list(state.events)

    def dump(self, state: State) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> State:
        return State.load(data)

    # ------------------------------------------------------------ search hooks
    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state ``seat`` cannot tell from ``state`` (see ``engines.ogre_cheerleaders.hidden``)."""
        return hidden.determinize(state, seat, rng)

    def evaluate(self, state: State) -> list[float]:
        return hidden.evaluate(state)

    def bot_move(self, state: State, seat: int, actions: list[str], draw: Callable[[int], int]) -> str:
        """The heuristic bot (``engines.ogre_cheerleaders.bot``), looking ahead through this engine."""
        return bot.choose(state, seat, actions, draw, self.apply, self.legal_actions, self.determinize)

    # ------------------------------------------------------------ text
    def describe(self, state: State, action: str) -> str:
        try:
            return _describe(state, action)[:100]
        except (KeyError, ValueError, IndexError, TypeError):
            return action[:100]

    def public_label(self, state: State, seat: int, action: str) -> str:
        try:
            return _public_label(state, action)[:100]
        except (KeyError, ValueError, IndexError, TypeError):
            return "acts"

    def status(self, state: State) -> str:
        return _status(state)

    # ------------------------------------------------------------ views
    def view(self, state: State, seat: int | None) -> View:
        s = state
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n):
            raise ValueError(f"no seat {seat!r}")
        tot = flow.totals(s)
        v: dict[str, Any] = {
            "game": self.game_id,
            "num_players": s.n,
            "status": _status(s),
            "to_act": self.to_act(s),
            "over": s.over,
            "turn": s.seat,
            "first": s.first,
            "last_seat": flow.last_seat(s),
            "turns": s.turns,
            "max_turns": s.max_turns,
            "field": list(s.field),
            "bench": list(s.bench),
            "bench_count": len(s.bench),
            "bench_top": s.bench[-1] if s.bench else None,
            "deck_count": len(s.deck),
            "hand_counts": [len(h) for h in s.hands],
            "scores": [t[0] for t in tot],
            "scored_counts": [t[1] for t in tot],
            "dealt_formations": [list(r) for r in s.records],
            "transit_count": len(s.transit),
            "bonus": s.bonus,
            "final_round": s.deck_out >= 0,
            "stalemate_streak": s.streak_len,
            "pending": _pending_view(s, seat),
            "last_scoring": _plain_scoring(s.last_scoring),
        }
        if s.over:
            v["outcome"] = list(s.places)
            v["result"] = s.result
        if seat is not None:
            v["seat"] = seat
            v["hand"] = list(s.hands[seat])
            v["legal_actions"] = self.legal_actions(s, seat)
        return v


def _plain_scoring(ls: dict[str, Any] | None) -> dict[str, Any] | None:
    if ls is None:
        return None
    return {"seat": ls["seat"], "field": list(ls["field"]), "highlight": list(ls["highlight"])}


def _pending_view(s: State, seat: int | None) -> dict[str, Any] | None:
    """The awaited decision; cards in transit only for the acting seat (a public 1's bench card for all)."""
    pend = s.pending
    if s.over or pend is None:
        return None
    kind = pend[0]
    # The acting seat's own view asks it ("choose…"); every other view, the public one too, tells of it.
    prompt = PROMPTS[kind] if seat == s.seat else PUBLIC_PROMPTS[kind]
    out: dict[str, Any] = {"kind": kind, "seat": s.seat, "prompt": prompt}
    if kind in ("move", "swap", "take", "bench"):
        out["card"] = pend[1]
    elif kind in ("moveto", "swap2"):
        out["card"] = pend[1]
        out["chosen"] = pend[2]
    elif kind == "score":
        field = s.field
        out["options"] = [[{"kinds": list(pend[1][i][2]), "cards": field[pend[1][i][0]:pend[1][i][1]],
                            "label": span_label(field, pend[1][i])} for i in ch] for ch in pend[2]]
    elif kind == "join" and pend[1] == "bench":
        out["transit"] = list(s.transit)
    if seat == s.seat and kind in ("place", "join", "eight"):
        out["transit"] = list(s.transit)
    if kind == "place" and pend[1] == "steal" and s.steal_from >= 0:
        out["from_seat"] = s.steal_from
    return out


def _status(s: State) -> str:
    if s.over:
        if s.result == "stalemate":
            return "Game over: stalemate, everyone ties"
        if s.result == "max_turns":
            return f"Game over: the turn limit of {s.max_turns} turns was reached"
        return f"Game over after {s.turns} turns: the deck ran out"
    kind = s.pending[0]
    who = flow.p(s.seat)
    where = f"{count(len(s.field), 'card')} on the field, {len(s.deck)} in the deck"
    if kind == "play":
        head = f"Turn {s.turns}, {who}: bonus play {s.bonus}" if s.bonus else f"Turn {s.turns}, {who}: play phase"
    else:
        head = f"Turn {s.turns}: {who} {PUBLIC_PROMPTS[kind]}"
    tail = "; final round" if s.deck_out >= 0 else ""
    return f"{head} ({where}{tail})"


def _describe(s: State, action: str) -> str:
    parts = action.split(":")
    verb = parts[0]
    pend = s.pending
    if verb == "play":
        card, end = parts[1], parts[2]
        return f"Play {_card_text(card)} at the {SIDE[end]} end: {edition.EFFECTS_SHORT[int(card[1:])]}"
    if verb == "place":
        card = s.transit[-1]
        return f"Play {_card_text(card)} at the {SIDE[parts[1]]} end: {edition.EFFECTS_SHORT[int(card[1:])]}"
    if verb == "join":
        return f"{s.transit[-1]} joins the field at the {SIDE[parts[1]]} end"
    if verb == "keep":
        other = [c for c in s.transit if c != parts[1]]
        tail = f"; {other[0]} joins the field" if other else ""
        return f"Keep {parts[1]} in your hand{tail}"
    if verb == "move":
        return f"Move {parts[1]} to an end of the field"
    if verb == "to":
        return f"Move {pend[2]} to the {SIDE[parts[1]]} end"
    if verb == "swap":
        return f"Swap {parts[1]} with another card"
    if verb == "with":
        return f"Swap {pend[2]} and {parts[1]}"
    if verb == "take":
        return f"Take {parts[1]} into your hand"
    if verb == "bench":
        return f"Bench {parts[1]}"
    if verb == "steal":
        q = int(parts[1])
        return f"Take a random card from {flow.p(q)}'s hand ({count(len(s.hands[q]), 'card')}) and play it"
    if verb == "score":
        spans, ch = pend[1], pend[2][int(parts[1])]
        return "Score " + " + ".join(
            f"{span_label(s.field, spans[i])} ({points(s.field[spans[i][0]:spans[i][1]])})" for i in ch)
    return action


def _public_label(s: State, action: str) -> str:
    parts = action.split(":")
    verb = parts[0]
    pend = s.pending
    if verb == "play":
        return f"plays {parts[1]} at the {SIDE[parts[2]]} end"
    if verb == "place":
        what = "the stolen card" if pend[1] == "steal" else "the top card of the deck"
        return f"plays {what} at the {SIDE[parts[1]]} end"
    if verb == "join":
        if pend[0] == "join" and pend[1] == "bench":
            return f"joins {s.transit[-1]} from the bench at the {SIDE[parts[1]]} end"
        which = "card" if pend[0] == "eight" else "other card"
        return f"has the 8's {which} join the field at the {SIDE[parts[1]]} end"
    if verb == "keep":
        return "keeps one of the 8's cards" if len(s.transit) > 1 else "keeps the 8's card in hand"
    if verb == "to":
        return f"moves {pend[2]} to the {SIDE[parts[1]]} end"
    if verb == "with":
        return f"swaps {pend[2]} and {parts[1]}"
    if verb in ("move", "swap"):
        return f"picks {parts[1]} to {verb}"
    if verb == "take":
        return f"takes {parts[1]} into their hand"
    if verb == "bench":
        return f"benches {parts[1]}"
    if verb == "steal":
        return f"steals a random card from {flow.p(int(parts[1]))}"
    if verb == "score":
        return "chooses the formations to score"
    return "acts"


ENGINE = OgreCheerleaders()
