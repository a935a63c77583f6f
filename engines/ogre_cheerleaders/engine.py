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
from i18n import N_, message_of, msg, msg_n, said, said_n

SIDE = flow.SIDE
ENDS = ("L", "R")

#: Marked for the catalogues: /game rules shows it in the member's language.
SUMMARY = N_("""\
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
""")

PROMPTS = {
    "play": N_("play a card from your hand"),
    "place": N_("choose the end for the card you must play"),
    "join": N_("choose the end for the joining card"),
    "eight": N_("choose which card of the 8 goes to your hand"),
    "move": N_("choose the card for the 2 to move"),
    "moveto": N_("choose the end to move the card to"),
    "swap": N_("choose the first card for the 3 to swap"),
    "swap2": N_("choose the second card to swap"),
    "take": N_("choose the card for the 4 to take"),
    "bench": N_("choose the card for the 5 to bench"),
    "steal": N_("choose the opponent to steal from"),
    "score": N_("choose which formations to score"),
}
#: The same decisions as everyone else reads them, after the player's name: the acting seat may be a
#: bot, and a public line never speaks to anyone as "you" ("Robo Ada chooses the end for the card
#: they must play").
PUBLIC_PROMPTS = {
    "play": N_("plays a card from their hand"),
    "place": N_("chooses the end for the card they must play"),
    "join": N_("chooses the end for the joining card"),
    "eight": N_("chooses which card of the 8 goes to their hand"),
    "move": N_("chooses the card for the 2 to move"),
    "moveto": N_("chooses the end to move the card to"),
    "swap": N_("chooses the first card for the 3 to swap"),
    "swap2": N_("chooses the second card to swap"),
    "take": N_("chooses the card for the 4 to take"),
    "bench": N_("chooses the card for the 5 to bench"),
    "steal": N_("chooses the opponent to steal from"),
    "score": N_("chooses which formations to score"),
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
    prompt = msg(PROMPTS[s.pending[0]])
    if verb not in {a.partition(":")[0] for a in legal}:
        return said("Not now: {prompt}", prompt=prompt)
    if verb == "play":
        card = arg.partition(":")[0]
        if card not in s.hands[s.seat]:
            return said("You have no {card} in your hand", card=card) if card else \
                said("You have no such card in your hand")
        return said("Say which end: play:<card>:L or play:<card>:R")
    if verb in ("move", "swap", "with", "take", "bench"):
        return said("{card} is not a card you may choose now: {prompt}", card=arg, prompt=prompt) if arg else \
            said("That is not a card you may choose now: {prompt}", prompt=prompt)
    if verb == "steal":
        return said("Choose an opponent who has cards in hand")
    return said("Unknown choice {action}: {prompt}", action=repr(action), prompt=prompt)


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
            src = msg("taken from {player}'s hand", player=flow.p(s.steal_from))
            flow.forget(s, s.steal_from, card)   # now everyone sees which card left that hand
            s.steal_from = -1
        else:
            src = msg("the top card of the deck")
        s.events.append(said("{player} played {card} ({source}) at {end}", player=flow.p(seat), card=card, source=src,
                             end=_end(parts[1])))
        flow.play_card(s, card, parts[1])
    elif verb == "join":
        card = s.transit.pop()
        flow.place(s, card, parts[1])
        if kind == "eight" or pend[1] == "deck":
            s.events.append(said("{card} (from the 8) joins the field at {end}", card=card, end=_end(parts[1])))
    elif verb == "keep":
        s.transit.remove(parts[1])
        flow.to_hand(s, seat, parts[1])
        if s.transit:
            s.pending = ["join", "deck"]
    elif verb == "move":
        s.pending = ["moveto", pend[1], parts[1]]
    elif verb == "to":
        if not flow.move(s, pend[2], parts[1]):
            s.events.append(said("{card} is already at {end}: nothing changes", card=pend[2], end=_end(parts[1])))
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


def _card_text(card: str) -> Any:
    return msg("{card} ({team} {number})", card=card, team=msg(edition.TEAM_SHORT[card[0]]), number=card[1:])


def _end(side: str) -> Any:
    """"the left end" or "the right end", said in the reader's words."""
    return msg(flow.END[side])


def _short(text: str) -> str:
    # A label is at most 100 characters; a shorter one keeps its message (for the reader's language).
    return text if len(text) <= 100 else text[:100]


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
            raise IllegalAction(said("The game is over"))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
            raise IllegalAction(said("There is no seat {seat} at this table", seat=repr(seat)))
        if seat != state.seat:
            raise IllegalAction(said("It is not your turn"))
        if not isinstance(action, str):
            raise IllegalAction(said("An action must be a text like play:O7:L"))
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
            return _short(_describe(state, action))
        except (KeyError, ValueError, IndexError, TypeError):
            return action[:100]

    def public_label(self, state: State, seat: int, action: str) -> str:
        try:
            return _short(_public_label(state, action))
        except (KeyError, ValueError, IndexError, TypeError):
            return said("acts")

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
            return said("Game over: stalemate, everyone ties")
        if s.result == "max_turns":
            return said("Game over: the turn limit of {turns} turns was reached", turns=s.max_turns)
        return said("Game over after {turns} turns: the deck ran out", turns=s.turns)
    kind = s.pending[0]
    who = flow.p(s.seat)
    where = msg_n("{n} card on the field, {deck} in the deck", "{n} cards on the field, {deck} in the deck",
                  len(s.field), deck=len(s.deck))
    if kind == "play":
        head = (msg("Turn {turn}, {player}: bonus play {bonus}", turn=s.turns, player=who, bonus=s.bonus) if s.bonus
                else msg("Turn {turn}, {player}: play phase", turn=s.turns, player=who))
    else:
        head = msg("Turn {turn}: {player} {doing}", turn=s.turns, player=who, doing=msg(PUBLIC_PROMPTS[kind]))
    if s.deck_out >= 0:
        return said("{head} ({where}; final round)", head=head, where=where)
    return said("{head} ({where})", head=head, where=where)


def _describe(s: State, action: str) -> str:
    parts = action.split(":")
    verb = parts[0]
    pend = s.pending
    if verb == "play":
        card, end = parts[1], parts[2]
        return said("Play {card} at {end}: {effect}", card=_card_text(card), end=_end(end),
                    effect=msg(edition.EFFECTS_SHORT[int(card[1:])]))
    if verb == "place":
        card = s.transit[-1]
        return said("Play {card} at {end}: {effect}", card=_card_text(card), end=_end(parts[1]),
                    effect=msg(edition.EFFECTS_SHORT[int(card[1:])]))
    if verb == "join":
        return said("{card} joins the field at {end}", card=s.transit[-1], end=_end(parts[1]))
    if verb == "keep":
        other = [c for c in s.transit if c != parts[1]]
        if other:
            return said("Keep {card} in your hand; {other} joins the field", card=parts[1], other=other[0])
        return said("Keep {card} in your hand", card=parts[1])
    if verb == "move":
        return said("Move {card} to an end of the field", card=parts[1])
    if verb == "to":
        return said("Move {card} to {end}", card=pend[2], end=_end(parts[1]))
    if verb == "swap":
        return said("Swap {card} with another card", card=parts[1])
    if verb == "with":
        return said("Swap {card} and {other}", card=pend[2], other=parts[1])
    if verb == "take":
        return said("Take {card} into your hand", card=parts[1])
    if verb == "bench":
        return said("Bench {card}", card=parts[1])
    if verb == "steal":
        q = int(parts[1])
        return said_n("Take a random card from {player}'s hand ({n} card) and play it",
                      "Take a random card from {player}'s hand ({n} cards) and play it", len(s.hands[q]),
                      player=flow.p(q))
    if verb == "score":
        spans, ch = pend[1], pend[2][int(parts[1])]
        listed = " + ".join(f"{{set{k}}}" for k in range(len(ch)))  # structure, not words
        each = {f"set{k}": msg("{formation} ({points})", formation=message_of(span_label(s.field, spans[i])),
                               points=points(s.field[spans[i][0]:spans[i][1]])) for k, i in enumerate(ch)}
        sets = msg(listed, **each)
        return said("Score {formations}", formations=sets)
    return action


def _public_label(s: State, action: str) -> str:
    parts = action.split(":")
    verb = parts[0]
    pend = s.pending
    if verb == "play":
        return said("plays {card} at {end}", card=parts[1], end=_end(parts[2]))
    if verb == "place":
        if pend[1] == "steal":
            return said("plays the stolen card at {end}", end=_end(parts[1]))
        return said("plays the top card of the deck at {end}", end=_end(parts[1]))
    if verb == "join":
        if pend[0] == "join" and pend[1] == "bench":
            return said("joins {card} from the bench at {end}", card=s.transit[-1], end=_end(parts[1]))
        if pend[0] == "eight":
            return said("has the 8's card join the field at {end}", end=_end(parts[1]))
        return said("has the 8's other card join the field at {end}", end=_end(parts[1]))
    if verb == "keep":
        return said("keeps one of the 8's cards") if len(s.transit) > 1 else said("keeps the 8's card in hand")
    if verb == "to":
        return said("moves {card} to {end}", card=pend[2], end=_end(parts[1]))
    if verb == "with":
        return said("swaps {card} and {other}", card=pend[2], other=parts[1])
    if verb in ("move", "swap"):
        return (said("picks {card} to move", card=parts[1]) if verb == "move"
                else said("picks {card} to swap", card=parts[1]))
    if verb == "take":
        return said("takes {card} into their hand", card=parts[1])
    if verb == "bench":
        return said("benches {card}", card=parts[1])
    if verb == "steal":
        return said("steals a random card from {player}", player=flow.p(int(parts[1])))
    if verb == "score":
        return said("chooses the formations to score")
    return said("acts")


ENGINE = OgreCheerleaders()
