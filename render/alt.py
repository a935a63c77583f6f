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
from data.editions.king_pedro import SUIT_NAMES
from data.editions.king_pedro import SUIT_SYMBOLS as SIGNS
from data.editions.pentawar import NAMES as PENTAWAR_NAMES
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


def _cards(k: int, lang: str = DEFAULT) -> str:
    return count(k, "card") if lang == DEFAULT else tn(lang, "{n} card", "{n} cards", k)


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


def _pedwar(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> list[str]:
    out = []
    if view.get("active") is not None and not view.get("over") and view.get("placings") is None:
        active = _name(names, view["active"], lang)
        out.append(i18n.t(lang, "Turn {turn}, {name} is the active player.", turn=view.get("turn", "?"), name=active))
    scores = ", ".join(i18n.t(lang, "{name} {score} ({cards} collected)", name=_name(names, p["seat"], lang),
                              score=p.get("score", 0),
                         cards=_cards(len(p.get("collection", [])), lang)) for p in view.get("players", []))
    out.append(i18n.t(lang, "Scores: {scores}.", scores=scores))
    row = []
    for slot in view.get("row", []):
        card = slot.get("card") or i18n.t(lang, "taken")
        if slot.get("bids"):
            b = slot["bids"][-1]
            row.append(i18n.t(lang, "{card}, high bid {value} by {name}", card=card, value=b.get("value"),
                         name=_name(names, b.get("seat"), lang)))
        else:
            row.append(card)
    if row:
        out.append(i18n.t(lang, "Row: {slots}.", slots="; ".join(row)))
    return out


def _kp_card_in(lang: str, code: str) -> str:
    # English names a card in words ("ace of spades"); the other languages write its code with the suit's sign
    # ("A♠"), as the glossary asks of buttons.
    if lang == DEFAULT:
        return _kp_card(code)
    return code[:-1] + SIGNS.get(code[-1], code[-1])


def _king_pedro(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> list[str]:
    out = []
    teams = view.get("teams", [])
    scores = view.get("scores", [])
    for team, members in enumerate(teams):
        who = i18n.t(lang, "{first} and {second}", first=_name(names, members[0], lang),
                     second=_name(names, members[1], lang)) \
            if len(members) == 2 else ", ".join(_name(names, s, lang) for s in members)
        points = scores[team] if team < len(scores) else 0
        out.append(i18n.t(lang, "{team}: {points}.", team=who, points=count(points, "point") if lang == DEFAULT
                     else i18n.tn(lang, "{n} point", "{n} points", points)))
    if out and view.get("target"):
        out[-1] = i18n.t(lang, "{scores} Target {target}.", scores=out[-1], target=view["target"])
    if view.get("trump"):
        bidder = view.get("bidder")
        suit = (SUITS.get(view["trump"], view["trump"]) if lang == DEFAULT
                else i18n.t(lang, SUIT_NAMES.get(view["trump"], "")))
        line = i18n.t(lang, "Trump {suit}, bid {bid} by {name}", suit=suit, bid=view.get("bid"),
                      name=_name(names, bidder, lang))
        if view.get("phase") == "playing" and bidder is not None and teams:
            team = next((i for i, m in enumerate(teams) if bidder in m), 0)
            got = view.get("round_points", [0, 0])[team]
            line = i18n.t(lang, "{line}, {got} of {bid} made so far", line=line, got=got, bid=view.get("bid"))
        out.append(line + ".")
    elif view.get("auction"):
        last = view["auction"][-1]
        out.append(i18n.t(lang, "Bidding: {name} passes.", name=_name(names, last[0], lang)) if last[1] == "pass"
                   else i18n.t(lang, "Bidding: {name} bids {bid}.", name=_name(names, last[0], lang), bid=last[1]))
    trick = view.get("trick", [])
    if trick:
        plays = ", ".join(f"{_name(names, seat, lang)} {_kp_card_in(lang, card)}" for seat, card in trick)
        out.append(i18n.t(lang, "Trick so far: {plays}.", plays=plays))
    elif view.get("last_trick") and view.get("last_trick_winner") is not None:
        out.append(i18n.t(lang, "Last trick won by {name}.", name=_name(names, view["last_trick_winner"], lang)))
    return out


def _ogre(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> list[str]:
    field = view.get("field", [])
    out = [i18n.t(lang, "Field, left to right, {cards}: {field}.", cards=_cards(len(field), lang),
             field=", ".join(field) if field else i18n.t(lang, "empty"))]
    scores = view.get("scores", [])
    shown = ", ".join(f"{_name(names, s, lang)} {p}" for s, p in enumerate(scores))
    out.append(i18n.t(lang, "Scores: {scores}.", scores=shown))
    deck, bench = view.get("deck_count", 0), view.get("bench_count", 0)
    out.append(i18n.t(lang, "Deck {deck}, bench {bench}, bench top {top}.", deck=deck, bench=bench,
                      top=view["bench_top"])
               if view.get("bench_top") else i18n.t(lang, "Deck {deck}, bench {bench}.", deck=deck, bench=bench))
    ls = view.get("last_scoring")
    if ls and ls.get("seat") is not None:
        out.append(i18n.t(lang, "Last scored by {name}.", name=_name(names, ls["seat"], lang)))
    return out


def _pentawar(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> list[str]:

    def kind(code: object) -> str:
        # English names a dragon by its code ("sun"), as ever; another language by the glossary's name.
        return str(code) if lang == DEFAULT else i18n.t(lang, PENTAWAR_NAMES.get(str(code), str(code)))

    war = ", ".join(kind(k) for k in view.get("pentawar", []))
    out = [i18n.t(lang, "Pentawar, positions 0 to 4: {kinds}.", kinds=war)]
    altered = view.get("altered")  # the last Alter war, until the next turn's first action
    if altered:
        out.append(i18n.t(lang, "War altered by {name}: position {position} is now {kind}, replacing {replaced}.",
                     name=_name(names, altered.get("seat"), lang), position=altered.get("position"),
                     kind=kind(altered.get("kind")), replaced=kind(altered.get("replaced"))))
    wings = view.get("wings", [])
    parts = []
    for s, wing in enumerate(wings):
        kinds = [kind(v["kind"]) for v in wing.values() if v]
        name = _name(names, s, lang)
        parts.append(f"{name} {len(kinds)} ({', '.join(kinds)})" if kinds else f"{name} 0")
    out.append(i18n.t(lang, "Dragons in the flight wing: {wings}.", wings="; ".join(parts)))
    if view.get("tableau"):
        tableau = ", ".join(kind(k) for k in view["tableau"])
        out.append(i18n.t(lang, "Tableau: {kinds}.", kinds=tableau))
    out.append(i18n.t(lang, "Deck {deck}, discard {discard}.", deck=view.get("deck_count", 0),
                      discard=view.get("discard_count", 0)))
    return out


_GAMES: dict[str, Callable[[dict[str, Any], list[str]], list[str]]] = {
    "do_over": _do_over,
    "pedwar": _pedwar,
    "king_pedro": _king_pedro,
    "ogre_cheerleaders": _ogre,
    "pentawar": _pentawar,
}
#: The titles whose facts are told in the reader's language.
_SAID: dict[str, Callable[[dict[str, Any], list[str], str], list[str]]] = {
    "do_over": _do_over, "pedwar": _pedwar, "king_pedro": _king_pedro, "ogre_cheerleaders": _ogre,
    "pentawar": _pentawar}
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
