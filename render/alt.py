"""Alt text for table images: the picture's facts in words, for screen readers and failed loads.

Built from the same public view as the image, so it can hold no hidden card. Discord allows
1024 characters in an attachment's description; the most important facts come first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import i18n
from data.editions import do_over as do_over_edition
from i18n import DEFAULT, N_, say_text, tn
from render.common import finished
from render.words import count, ordinal

MAX_ALT = 1024
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_PLACEHOLDER = re.compile(r"\{p(\d)\}")


def _name(names: list[str], seat: int | None, lang: str = DEFAULT) -> str:
    if seat is None:
        return i18n.t(lang, "nobody")
    return names[seat] if 0 <= seat < len(names) and names[seat] else i18n.t(lang, "Seat {number}", number=seat + 1)


def _fill(text: str, names: list[str], lang: str = DEFAULT) -> str:
    return _PLACEHOLDER.sub(lambda m: _name(names, int(m.group(1)), lang), text)


def _ordinal(lang: str, n: int) -> str:
    """A place: "1st", "2nd" in English; the language's own way elsewhere ("1er", "2e"; "1-е")."""
    if lang == DEFAULT:
        return ordinal(n)
    return i18n.t(lang, N_("1st")) if n == 1 else i18n.t(lang, N_("{n}th"), n=n)


def _turn(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> str:
    if view.get("over") or view.get("placings") is not None:
        return i18n.t(lang, "Game over.")
    acting = view.get("to_act", [])
    if not acting:
        return ""
    who = ", ".join(_name(names, s, lang) for s in acting)
    return i18n.t(lang, "To act: {who}.", who=who)


def _places(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> str:
    outcome = view.get("placings") or (view.get("outcome") if view.get("over") else None)
    if not outcome:
        return ""
    order = sorted(range(len(outcome)), key=lambda s: (outcome[s], s))
    return i18n.t(lang, "Placings: {places}.",
             places=", ".join(f"{_ordinal(lang, outcome[s])} {_name(names, s, lang)}" for s in order))


def _cards(k: int) -> str:
    return count(k, "card")


def _kp_card(code: str) -> str:
    rank, suit = code[:-1], code[-1]
    rank = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}.get(rank, rank)
    return f"{rank} of {SUITS.get(suit, suit)}"


def _do_over(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> list[str]:
    pile = view.get("pile", [])
    top = pile[-1] if pile else None
    if top:
        # A card by its code in English (as ever); a special card by its name in another language.
        card = top if lang == DEFAULT else i18n.t(lang, do_over_edition.NAMES.get(top, top))
        out = [tn(lang, "Pile value {value}, top card {card}, {n} card.",
                  "Pile value {value}, top card {card}, {n} cards.",
                  view.get("pile_count", len(pile)), value=view.get("pile_value", 0), card=card)]
    else:
        out = [i18n.t(lang, "The pile is empty.")]
    draw = view.get("draw_count", 0)
    out.append(i18n.t(lang, "Play goes clockwise; draw pile {count}.", count=draw)
               if view.get("direction", "clockwise") == "clockwise"
               else i18n.t(lang, "Play goes counterclockwise; draw pile {count}.", count=draw))
    seats = view.get("seats", [])
    left = ", ".join(f"{_name(names, s, lang)} {seat.get('cards_left', 0)}" for s, seat in enumerate(seats))
    out.append(i18n.t(lang, "Cards left: {seats}.", seats=left))
    if view.get("over") and view.get("winner") is not None:
        out.append(i18n.t(lang, "{name} wins.", name=_name(names, view["winner"], lang)))
    return out


def _pedwar(view: dict[str, Any], names: list[str]) -> list[str]:
    out = []
    if view.get("active") is not None and not view.get("over") and view.get("placings") is None:
        out.append(f"Turn {view.get('turn', '?')}, {_name(names, view['active'])} is the active player.")
    out.append("Scores: " + ", ".join(f"{_name(names, p['seat'])} {p.get('score', 0)}"
                                      f" ({_cards(len(p.get('collection', [])))} collected)"
                                      for p in view.get("players", [])) + ".")
    row = []
    for slot in view.get("row", []):
        card = slot.get("card") or "taken"
        bid = ""
        if slot.get("bids"):
            b = slot["bids"][-1]
            bid = f", high bid {b.get('value')} by {_name(names, b.get('seat'))}"
        row.append(f"{card}{bid}")
    if row:
        out.append("Row: " + "; ".join(row) + ".")
    return out


def _king_pedro(view: dict[str, Any], names: list[str]) -> list[str]:
    out = []
    teams = view.get("teams", [])
    scores = view.get("scores", [])
    for t, members in enumerate(teams):
        who = " and ".join(_name(names, s) for s in members)
        out.append(f"{who}: {count(scores[t] if t < len(scores) else 0, 'point')}.")
    out[-1:] = [out[-1] + f" Target {view['target']}."] if out and view.get("target") else out[-1:]
    if view.get("trump"):
        bidder = view.get("bidder")
        line = f"Trump {SUITS.get(view['trump'], view['trump'])}, bid {view.get('bid')} by {_name(names, bidder)}"
        if view.get("phase") == "playing" and bidder is not None and teams:
            team = next((t for t, m in enumerate(teams) if bidder in m), 0)
            got = view.get("round_points", [0, 0])[team]
            line += f", {got} of {view.get('bid')} made so far"
        out.append(line + ".")
    elif view.get("auction"):
        last = view["auction"][-1]
        out.append(f"Bidding: {_name(names, last[0])} {'passes' if last[1] == 'pass' else 'bids ' + str(last[1])}.")
    trick = view.get("trick", [])
    if trick:
        plays = [f"{_name(names, seat)} {_kp_card(card)}" for seat, card in trick]
        out.append("Trick so far: " + ", ".join(plays) + ".")
    elif view.get("last_trick") and view.get("last_trick_winner") is not None:
        out.append(f"Last trick won by {_name(names, view['last_trick_winner'])}.")
    return out


def _ogre(view: dict[str, Any], names: list[str]) -> list[str]:
    field = view.get("field", [])
    out = [f"Field, left to right, {_cards(len(field))}: " + (", ".join(field) if field else "empty") + "."]
    scores = view.get("scores", [])
    out.append("Scores: " + ", ".join(f"{_name(names, s)} {p}" for s, p in enumerate(scores)) + ".")
    out.append(f"Deck {view.get('deck_count', 0)}, bench {view.get('bench_count', 0)}"
               + (f", bench top {view['bench_top']}" if view.get("bench_top") else "") + ".")
    ls = view.get("last_scoring")
    if ls and ls.get("seat") is not None:
        out.append(f"Last scored by {_name(names, ls['seat'])}.")
    return out


def _pentawar(view: dict[str, Any], names: list[str]) -> list[str]:
    out = ["Pentawar, positions 0 to 4: " + ", ".join(view.get("pentawar", [])) + "."]
    altered = view.get("altered")  # the last Alter war, until the next turn's first action
    if altered:
        out.append(f"War altered by {_name(names, altered.get('seat'))}: position {altered.get('position')} is now "
                   f"{altered.get('kind')}, replacing {altered.get('replaced')}.")
    wings = view.get("wings", [])
    parts = []
    for s, wing in enumerate(wings):
        kinds = [v["kind"] for v in wing.values() if v]
        parts.append(f"{_name(names, s)} {len(kinds)} ({', '.join(kinds)})" if kinds else f"{_name(names, s)} 0")
    out.append("Dragons in the flight wing: " + "; ".join(parts) + ".")
    if view.get("tableau"):
        out.append("Tableau: " + ", ".join(view["tableau"]) + ".")
    out.append(f"Deck {view.get('deck_count', 0)}, discard {view.get('discard_count', 0)}.")
    return out


_GAMES: dict[str, Callable[[dict[str, Any], list[str]], list[str]]] = {
    "do_over": _do_over,
    "pedwar": _pedwar,
    "king_pedro": _king_pedro,
    "ogre_cheerleaders": _ogre,
    "pentawar": _pentawar,
}
#: The titles whose facts are told in the reader's language.
_SAID: dict[str, Callable[[dict[str, Any], list[str], str], list[str]]] = {"do_over": _do_over}
TITLES = {"do_over": "Do Over!", "pedwar": "Pedwar", "king_pedro": "King Pedro",
          "ogre_cheerleaders": "Ogre Cheerleaders", "pentawar": "Pentawar"}


def alt_text(game_id: str, view: dict[str, Any], names: list[str], last_action: str | None = None,
             placings: Sequence[int] | None = None, lang: str = DEFAULT) -> str:
    """Describe the public table view in a few sentences (≤ 1024 characters); with ``placings`` (each seat's
    place, 1 = first) the table is over however it ended, as the final picture shows it: nobody to act.

    ``last_action`` is the public label of the last move (e.g. "carol plays 7"), which the view
    does not hold; the host knows it from the action log. The words speak ``lang`` (the server's language);
    a title whose facts are not yet in the catalogues tells them in English.
    """
    view = finished(view, placings)
    parts = [i18n.t(lang, "{title} table.", title=TITLES.get(game_id, game_id))]
    turn = _turn(view, names, lang)
    if turn:
        parts.append(turn)
    if last_action:
        parts.append(i18n.t(lang, "Last action: {action}.", action=_fill(last_action, names, lang).rstrip(".")))
    if game_id in _SAID:
        parts += _SAID[game_id](view, names, lang)
    else:
        parts += _GAMES[game_id](view, names) if game_id in _GAMES else []
    places = _places(view, names, lang)
    if places:
        parts.insert(2, places)
    # the engine's status tells a game in progress ("Turn 7, carol: play phase"): not a finished one's
    status = (_fill(say_text(lang, view.get("status", "")), names, lang)  # type: ignore[arg-type]
              if view.get("placings") is None else "")
    if status:
        parts.append(status.rstrip(".") + ".")
    text = " ".join(parts)
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1].rstrip() + "…"
