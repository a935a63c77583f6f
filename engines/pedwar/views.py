"""Pedwar views (public and per seat) and action labels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from data.editions import pedwar as edition
from engines.pedwar import bids as B
from engines.pedwar import rules as R
from engines.pedwar.scoring import score_collection
from engines.pedwar.state import ACTION, DISCARD, OVER, TRUMP, State
from engines.words import article
from i18n import message_of, msg_n, said, said_n

_COLOUR_ORDER = {c: i for i, c in enumerate(edition.COLOURS)}


def _reading_order(card: str) -> tuple[int, int]:
    rank = card[1]
    return _COLOUR_ORDER[card[0]], 9 if rank == edition.WILD else int(rank)


def status(s: State) -> str:
    if s.phase == OVER:
        assert s.final is not None
        return said("Game over: {reason}", reason=message_of(s.final["reason"]))
    if s.phase == DISCARD:
        extra = s.pips // edition.PIPS_PER_ACTION
        return said("Discard phase: {pips} discarded, {extra}", pips=msg_n("{n} pip", "{n} pips", s.pips),
                    extra=msg_n("{n} extra action", "{n} extra actions", extra))
    if s.phase == ACTION:
        return said_n("Action phase: {used} of {n} action used", "Action phase: {used} of {n} actions used",
                      s.actions, used=s.used)
    k = len(s.inplay)
    return said("Trump phase: {cards} in play, {passes} in a row", cards=msg_n("{n} card", "{n} cards", k),
                passes=msg_n("{n} pass", "{n} passes", s.passes))


def view(game_id: str, to_act: Callable[[State], list[int]], s: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: the public view); ``game_id`` and ``to_act`` come from the engine,
    which imports this module, so this module never imports the engine."""
    over = s.phase == OVER
    refs = R.refs(s)
    row = []
    for slot in range(edition.ROW_SIZE):
        bids = [{"seat": b_seat, "cards": list(B.BY_TEXT[text][1]), "value": B.BY_TEXT[text][2]}
                for b_seat, text in s.bids[slot]]
        row.append({"slot": slot, "card": s.row[slot], "ref": refs[slot], "bids": bids,
                    "in_play": slot in s.inplay, "high": bids[-1]["seat"] if bids else None})
    players = []
    for i in range(s.n):
        coll = sorted(s.colls[i], key=_reading_order)
        p: dict[str, Any] = {"seat": i, "hand_count": len(s.hands[i]), "collection": coll,
                             "score": score_collection(coll, None), "goal": None}
        if over:
            assert s.final is not None
            p["goal"] = s.goals[i]
            p["goal_cards"] = list(edition.GOALS[s.goals[i]])
            p["final_score"] = s.final["scores"][i]
            p["breakdown"] = list(s.final["breakdown"][i])
            p["place"] = s.final["places"][i]
        players.append(p)
    v: dict[str, Any] = {
        "game": game_id,
        "num_players": s.n,
        "status": status(s),
        "to_act": to_act(s),
        "over": over,
        "phase": s.phase,
        "active": s.active,
        "turn": s.turns + (0 if over else 1),
        "max_turns": s.max_turns,
        "trump_seat": s.tseat,
        "row": row,
        "object_deck": len(s.odeck),
        "maneuver_deck": len(s.mdeck),
        "maneuver_discard": len(s.mdisc),
        "discarded": list(s.discarded),
        "pips": s.pips,
        "actions": s.actions,
        "actions_used": s.used,
        "passes": s.passes,
        "raised": [refs[slot] for slot in s.raised],
        "spent": list(s.spent),
        "players": players,
    }
    if over:
        assert s.final is not None
        v["outcome"] = list(s.final["places"])
        v["reason"] = s.final["reason"]
        v["tiebreak"] = [[{"seat": d_seat, "card": card} for d_seat, card in rnd] for rnd in s.final["tiebreak"]]
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n:
            raise ValueError(f"no seat {seat!r}")
        v["seat"] = seat
        v["hand"] = list(s.hands[seat])
        v["goal"] = s.goals[seat]
        v["goal_cards"] = list(edition.GOALS[s.goals[seat]])
        v["score_with_goal"] = score_collection(s.colls[seat], s.goals[seat])
        v["pips_in_hand"] = sum(B.PIPS[k] for k in s.hands[seat])
    return v


def label(s: State, action: str, actor: bool) -> str:
    """A short human label; everything it names is face up (bids, discards: the discard pile is public)."""
    verb, _, rest = action.partition(":")
    ref, _, text = rest.partition(":")
    bid = B.BY_TEXT.get(text)

    def say(you: str, they: str) -> str:
        # A label is at most 100 characters (every label here is far shorter, and keeps its message).
        text = you if actor else they
        return text if len(text) <= 100 else text[:100]

    if verb == "discard" and rest in B.PIPS:
        pips = B.PIPS[rest]
        if article(rest) == "an":
            return say(said_n("Discard an {card} ({n} pip)", "Discard an {card} ({n} pips)", pips, card=rest),
                       said_n("discards an {card} ({n} pip)", "discards an {card} ({n} pips)", pips, card=rest))
        return say(said_n("Discard a {card} ({n} pip)", "Discard a {card} ({n} pips)", pips, card=rest),
                   said_n("discards a {card} ({n} pip)", "discards a {card} ({n} pips)", pips, card=rest))
    if verb == "bid" and bid is not None:
        if bid[2] is None:
            return say(said("Play OP on {ref}: take it at once", ref=ref),
                       said("plays OP on {ref} and takes it at once", ref=ref))
        return say(said("Bid {bid} on {ref}", bid=message_of(B.words(bid)), ref=ref),
                   said("bids {bid} on {ref}", bid=message_of(B.words(bid)), ref=ref))
    if verb == "raise" and bid is not None:
        if bid[2] is None:
            if s.phase == TRUMP and _is_active(s):
                return say(said("Play OP on {ref}: take it at once", ref=ref),
                           said("plays OP on {ref} and takes it at once", ref=ref))
            return say(said("Raise {ref} with OP", ref=ref), said("raises {ref} with OP", ref=ref))
        return say(said("Raise {ref} to {value} with {bid}", ref=ref, value=bid[2], bid=message_of(B.words(bid))),
                   said("raises {ref} to {value} with {bid}", ref=ref, value=bid[2], bid=message_of(B.words(bid))))
    if verb == "pass":
        return say(said("Pass"), said("passes"))
    if verb == "done":
        if s.phase == DISCARD:
            extra = s.pips // edition.PIPS_PER_ACTION
            return say(said_n("Stop discarding ({n} extra action)", "Stop discarding ({n} extra actions)", extra),
                       said_n("stops discarding ({n} extra action)", "stops discarding ({n} extra actions)", extra))
        if s.phase == ACTION:
            return say(said("End the Action phase"), said("ends the Action phase"))
        return say(said("End your trump turn"), said("ends the trump turn"))
    return say(action, action)


def _is_active(s: State) -> bool:
    return s.tseat == s.active
