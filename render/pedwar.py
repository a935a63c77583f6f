"""Pedwar table and hand images, drawn from engine views only.

Table: the row of 6 Object cards with the bids stacked under each (who holds the highest),
deck counts, each player's collection grouped by colour with the running score, whose turn and
the phase; at the end every Goal and the scoring breakdown. Hand: Maneuver cards with their pips,
and the hidden Goal.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import i18n
from engines.pedwar.scoring import score_breakdown
from i18n import DEFAULT, N_, say_text
from render.common import (
    CARD_BACK,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    MUTED_ON_PAPER,
    PAPER,
    WHITE,
    Color,
    draw_text,
    finished,
    fixed_palette,
    new_canvas,
    paste_card,
    place,
    placings_line,
    text_width,
    to_palette,
)
from render.layout import BODY, PAD, SMALL, TITLE, WIDTH, fit_names, label, message_parts, panel
from render.strips import Strip, stack

CW, CH = 100, 140
HEAD_H = 100
#: Card colours: background, label colour.
COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "R": ((206, 52, 52), WHITE),
    "B": ((48, 92, 204), WHITE),
    "G": ((25, 115, 55), WHITE),
    "Y": ((247, 205, 52), INK),
}
COLOUR_NAMES = {"R": N_("Red"), "B": N_("Blue"), "G": N_("Green"), "Y": N_("Yellow")}
WILD = N_("Wild")

SEAT_COLOURS = [(255, 170, 80), (120, 210, 255), (200, 150, 255), (150, 240, 150)]
PIPS = {"1+": 3, "2+": 2, "3": 2, "4": 1, "5": 1, "OP": 1}
MANEUVER_BG = {"1+": (236, 236, 226), "2+": (236, 236, 226), "3": (226, 232, 242), "4": (226, 232, 242),
               "5": (226, 232, 242), "OP": (40, 40, 48)}


def _phase(lang: str, phase: str) -> str:
    """The view's phase as the header names it, in ``lang`` (in context: a language may need another form of
    the word after "phase", or another word than a trump suit's)."""
    said = {"discard": i18n.tp(lang, "Pedwar phase", "discard"), "action": i18n.tp(lang, "Pedwar phase", "action"),
            "trump": i18n.tp(lang, "Pedwar phase", "trump")}
    return said.get(phase, phase)


def _name(names: list[str], seat: int, lang: str = DEFAULT) -> str:
    return (names[seat] if 0 <= seat < len(names) and names[seat]
            else i18n.t(lang, "Seat {number}", number=seat + 1))


@lru_cache(maxsize=16)
def _words_fit(lang: str, w: int) -> bool:
    """Whether every colour's name (and Wild) fits a ``w``-pixel Object card at the smallest legible size. In a
    language where one does not, no card carries its name (its colour and shape say it): a card never shows a
    word cut off, and every card reads alike."""
    words = [i18n.t(lang, word) for word in (*COLOUR_NAMES.values(), WILD)]
    return all(text_width(word, SMALL) <= w - 8 for word in words)


@lru_cache(maxsize=256)
def object_face(code: str, w: int, h: int, lang: str = DEFAULT) -> Image.Image:
    """An Object card: colour, its shape (a cue that survives colour-blindness), number and colour name
    (in ``lang``, where the names fit)."""
    bg, fg = COLOURS[code[0]]
    img = Image.new("RGB", (w, h), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=bg, outline=INK, width=2)
    value = "W" if code[1] == "W" else code[1:]
    big = max(SMALL, int(h * 0.34))
    draw_text(img, (w // 2, int(h * 0.42)), value, big, fg, "mm", bold=True)
    _shape(d, code[0], 16, 16, 9 if w < 90 else 11, fg)
    if h >= 120 and _words_fit(lang, w):
        word = WILD if value == "W" else COLOUR_NAMES[code[0]]
        word = i18n.t(lang, word)
        draw_text(img, (w // 2, h - 22), word, SMALL, fg, "mm")
    return img


@lru_cache(maxsize=64)
def mini_face(code: str, w: int = 50, h: int = 64) -> Image.Image:
    """A small collection card: colour, shape and the number."""
    bg, fg = COLOURS[code[0]]
    img = Image.new("RGB", (w, h), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, fill=bg, outline=INK, width=1)
    _shape(d, code[0], 11, 11, 7, fg)
    draw_text(img, (w // 2, h // 2 + 6), code[1:], SMALL + 4, fg, "mm", bold=True)
    return img


@lru_cache(maxsize=32)
def maneuver_face(kind: str, w: int = 100, h: int = 140, lang: str = DEFAULT) -> Image.Image:
    """A Maneuver card: its kind large, what it is for (in ``lang``, when it fits the card) and its pips as red
    dots."""
    bg = MANEUVER_BG[kind]
    fg = GOLD if kind == "OP" else INK
    sub = i18n.t(lang, N_("Overpower")) if kind == "OP" else (i18n.t(lang, N_("pairs")) if kind.endswith("+") else "")
    if text_width(sub, SMALL) > w - 8:
        sub = ""  # "Overpower" is wider than the card: the big "OP" says it, rather than a word cut at both ends
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=bg, outline=INK, width=2)
    draw_text(img, (w // 2, h // 2), kind, int(h * 0.3), fg, "mm", bold=True)
    if sub:
        draw_text(img, (w // 2, h - 20), sub, SMALL, fg, "mm")
    for i in range(PIPS[kind]):
        x = 10 + i * 18
        d.ellipse((x, 10, x + 13, 23), fill=(214, 40, 40), outline=INK)
    return img


@lru_cache(maxsize=8)
def empty_slot(w: int, h: int, lang: str = DEFAULT) -> Image.Image:
    img = Image.new("RGB", (w, h), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, outline=MUTED, width=2)
    # the word fits the card in every language (its own entry: the alt text's "taken" may be longer)
    draw_text(img, (w // 2, h // 2), i18n.tp(lang, "row slot", "taken"), SMALL, MUTED, "mm")
    return img


def _bid_text(bid: dict[str, Any]) -> str:
    cards = ",".join(bid["cards"])
    return cards if bid["value"] is None or len(bid["cards"]) == 1 else f"{cards}={bid['value']}"


def _grouped(collection: list[str]) -> list[list[str]]:
    groups: dict[str, list[str]] = {}
    for card in collection:
        groups.setdefault(card[0], []).append(card)
    return [groups[c] for c in "RBGY" if c in groups]


def _shape(d: ImageDraw.ImageDraw, colour: str, cx: float, cy: float, r: float, fill: Color) -> None:
    """A second cue beside the hue, for colour-blind players: Red ●, Blue ■, Green ▲, Yellow ◆."""
    if colour == "R":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif colour == "B":
        d.rectangle((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=fill)
    elif colour == "G":
        d.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill)
    else:
        d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill)


def _seat_colour(seat: int) -> Color:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _row_block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, lang: str = DEFAULT) -> int:
    """The row of six Object cards (a frame marks the one in play). Returns the block's bottom."""
    col = (WIDTH - 2 * PAD) // 6
    box = panel(d, (PAD, y, WIDTH - PAD, y + CH + 60), FELT_DARK)
    for slot in view["row"]:
        x = PAD + slot["slot"] * col + (col - CW) // 2
        code = slot["card"]
        face = object_face(code, CW, CH, lang) if code else empty_slot(CW, CH, lang)
        paste_card(img, face, (x, y + PAD), highlight=slot["in_play"])
        cell = (PAD + slot["slot"] * col, y, PAD + (slot["slot"] + 1) * col, box[3])
        under = (slot["ref"] if slot["ref"] and slot["ref"] != code
                 else (i18n.t(lang, "in play") if slot["in_play"] else ""))
        if under:
            label(img, (cell[0] + col // 2, y + CH + 20), under, SMALL, HIGHLIGHT, cell, "ma", bold=True)
    return box[3] + PAD


def _bids_block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], y: int,
                lang: str = DEFAULT) -> int:
    """One line per card with bids: the high bid and who holds it. Names are shortened, bids never."""
    lines = [(slot, slot["bids"]) for slot in view["row"] if slot["bids"]]
    if not lines:
        return y
    h = 44 + 36 * len(lines)
    box = panel(d, (PAD, y, WIDTH - PAD, y + h), FELT_DARK)
    label(img, (3 * PAD, y + 6), i18n.t(lang, "Bids (highest shown)"), SMALL, WHITE, box, bold=True)
    for i, (slot, bids) in enumerate(lines):
        ly = y + 42 + 36 * i
        cell = (box[0] + 2 * PAD, ly, box[2] - 2 * PAD, ly + 34)
        top = bids[-1]
        card = slot["card"] or slot["ref"] or "?"
        label(img, (cell[0], ly), card, SMALL, WHITE, cell, bold=True)
        more = " · " + i18n.tn(lang, "{n} bid", "{n} bids", len(bids)) if len(bids) > 1 else ""
        right = label(img, (cell[2], ly), _bid_text(top) + more, SMALL, HIGHLIGHT, cell, "ra", bold=True)
        label(img, (cell[0] + 70, ly), _name(names, top["seat"], lang), SMALL, _seat_colour(top["seat"]),
              (cell[0] + 70, ly, right[0] - PAD, ly + 34))
    return box[3] + PAD


def _info_block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, lang: str = DEFAULT) -> int:
    """Decks, and the turn's discards, actions and cards taken by Overpower: full width, never hidden."""
    info = [i18n.t(lang, "Object deck {objects} · Maneuver deck {maneuvers} · discards {discards}",
                   objects=view["object_deck"], maneuvers=view["maneuver_deck"], discards=view["maneuver_discard"])]
    if view["discarded"]:
        info.append(i18n.t(lang, "Discarded this turn: {cards} ({pips})", cards=" ".join(view["discarded"]),
                           pips=i18n.tn(lang, "{n} pip", "{n} pips", view["pips"])))
    if view["phase"] in ("action", "trump") and view["actions"]:
        info.append(i18n.t(lang, "Actions used: {used} of {actions}", used=view["actions_used"],
                           actions=view["actions"]))
    if view["spent"]:
        info.append(i18n.t(lang, "Taken by Overpower: {cards}", cards=" ".join(view["spent"])))
    box = panel(d, (PAD, y, WIDTH - PAD, y + 12 + 34 * len(info)), FELT_DARK)
    for i, line in enumerate(info):
        label(img, (3 * PAD, y + 6 + 34 * i), line, SMALL, WHITE if i else MUTED, box, inset=2 * PAD)
    return box[3] + PAD


MINI_W, MINI_H, MINI_STEP = 50, 64, 54


def _player_height(p: dict[str, Any], over: bool) -> int:
    per_line = (WIDTH - 6 * PAD) // MINI_STEP
    cards = len(p["collection"]) + len(_grouped(p["collection"]))
    lines = max(1, -(-cards // per_line)) if p["collection"] else 1
    h = 52 + lines * (MINI_H + 8) + 8
    if over:
        h += 34 * (len(p.get("breakdown", [])) + 1)
    return h


def _breakdown(p: dict[str, Any], lang: str) -> list[str]:
    """A finished player's scoring lines in ``lang``. The view's lines are said from messages while the game is
    live; a game read back from the store has them as English text only, so they are said again from the
    collection and the Goal, the same lines (the English ones are compared, and kept if they ever differ)."""
    lines = p.get("breakdown", [])
    again = score_breakdown(list(p["collection"]), p.get("goal"))
    if [str(line) for line in again] == [str(line) for line in lines]:
        lines = again
    return [say_text(lang, line) for line in lines]


def _player_row(img: Image.Image, d: ImageDraw.ImageDraw, p: dict[str, Any], name: str, over: bool,
                acting: bool, active: bool, lang: str = DEFAULT) -> None:
    """A player's panel, at the top of its strip: score, tags, name, collection (and Goal once over)."""
    seat = p["seat"]
    y = 0
    h = _player_height(p, over)
    # Two different marks in two different forms: a yellow frame and the words "to act" for
    # whoever must act now; an "active" chip for the player whose turn it is.
    box = panel(d, (PAD, y, WIDTH - PAD, y + h), FELT_DARK, HIGHLIGHT if acting else None, 4)
    score = i18n.tn(lang, "{n} pt", "{n} pts", p["score"] if not over else p["final_score"])
    right = (box[2] - 220, box[1], box[2], box[1] + 52)
    sbox = label(img, (box[2] - 2 * PAD, y + 4), score, BODY, GOLD, right, "ra", bold=True)
    tags = []
    if over:
        tags.append(i18n.t(lang, "place {place}", place=p["place"]))
    if "place_now" in p:
        tags.append(place(lang, p["place_now"]))
    if active and not over:
        tags.append(i18n.t(lang, "active"))
    if acting:
        tags.append(i18n.t(lang, "to act"))
    tags.append(i18n.t(lang, "hand {count}", count=p["hand_count"]))
    tag_box = label(img, (sbox[0] - 2 * PAD, y + 10), " · ".join(tags), SMALL, HIGHLIGHT if acting else MUTED,
                    (box[0] + 200, box[1], sbox[0] - PAD, box[1] + 52), "ra")
    label(img, (box[0] + 2 * PAD, y + 6), name, BODY, _seat_colour(seat),
          (box[0], box[1], tag_box[0] - PAD, box[1] + 52), bold=True, inset=PAD)
    cx, cy = box[0] + 2 * PAD, y + 52
    if not p["collection"]:
        label(img, (cx, cy + 12), i18n.t(lang, "no cards yet"), SMALL, MUTED, box)
    for group in _grouped(p["collection"]):
        for card in group:
            if cx + MINI_W > box[2] - 2 * PAD:
                cx, cy = box[0] + 2 * PAD, cy + MINI_H + 8
            img.paste(mini_face(card, MINI_W, MINI_H), (cx, cy))
            cx += MINI_STEP
        cx += MINI_STEP // 2
    if over:
        by = y + 52 + max(1, -(-(len(p["collection"]) + len(_grouped(p["collection"])))
                                // ((WIDTH - 6 * PAD) // MINI_STEP))) * (MINI_H + 8) + 4
        goal = i18n.t(lang, "Goal {goal}: {cards}", goal=p["goal"], cards=" ".join(p["goal_cards"]))
        label(img, (box[0] + 2 * PAD, by), goal, SMALL, HIGHLIGHT, box, inset=2 * PAD)
        for line in _breakdown(p, lang):
            by += 34
            label(img, (box[0] + 2 * PAD, by), line, SMALL, WHITE, box, inset=2 * PAD)


def table_image(view: dict[str, Any], names: list[str], placings: Sequence[int] | None = None,
                lang: str = DEFAULT) -> Image.Image:
    """The table; with ``placings`` (each seat's place, 1 = first) the table is over: the final picture.
    Its words speak ``lang``."""
    view = finished(view, placings)
    over = view["over"]
    to_act = set(view["to_act"])
    placings = view.get("placings")
    if placings is not None and not over:
        line = placings_line(placings, names, lang)
    elif over:
        line = i18n.t(lang, "Game over: every Goal revealed")
    else:
        who = ", ".join(_name(names, s, lang) for s in view["to_act"])
        phase = _phase(lang, view["phase"])
        line = fit_names(message_parts(i18n.t(lang, "{names} to act · {phase}"), {"names": who}, phase=phase), BODY,
                         WIDTH - 4 * PAD, bold=True)
    title = i18n.t(lang, "Pedwar · turn {turn}", turn=view["turn"])

    def head(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
        box = (0, 0, WIDTH, HEAD_H)
        label(img, (2 * PAD, PAD), title, TITLE, GOLD, box, bold=True)
        label(img, (2 * PAD, 52), line, BODY, HIGHLIGHT, box, bold=True, inset=2 * PAD)

    n_bids = sum(1 for slot in view["row"] if slot["bids"])
    n_info = 1 + bool(view["discarded"]) + bool(view["phase"] in ("action", "trump") and view["actions"]) + bool(
        view["spent"])
    row = tuple((slot["slot"], slot["card"], slot["in_play"], slot["ref"]) for slot in view["row"])
    strips = [Strip(HEAD_H, head, ("head", view["turn"], line, lang)),
              Strip(CH + 60 + PAD, lambda img, d: _row_block(img, d, view, 0, lang), ("row", row, lang))]
    if n_bids:
        bids = json.dumps([(slot["card"], slot["ref"], slot["bids"]) for slot in view["row"] if slot["bids"]])
        strips.append(Strip(44 + 36 * n_bids + PAD, lambda img, d: _bids_block(img, d, view, names, 0, lang),
                            ("bids", bids, tuple(names), lang)))
    info = tuple(json.dumps(view[k]) for k in ("object_deck", "maneuver_deck", "maneuver_discard", "discarded",
                                                "pips", "phase", "actions", "actions_used", "spent"))
    strips.append(Strip(12 + 34 * n_info + PAD, lambda img, d: _info_block(img, d, view, 0, lang),
                        ("info", info, lang)))
    for p in view["players"]:
        seat = p["seat"]
        name, acting, active = _name(names, seat, lang), seat in to_act, seat == view["active"] and placings is None
        if placings is not None and not over and seat < len(placings):
            p = {**p, "place_now": placings[seat]}

        def player(img: Image.Image, d: ImageDraw.ImageDraw, p: dict[str, Any] = p, name: str = name,
                   acting: bool = acting, active: bool = active) -> None:
            _player_row(img, d, p, name, over, acting, active, lang)

        key = ("player", json.dumps(p, sort_keys=True), name, over, acting, active, lang)
        strips.append(Strip(_player_height(p, over) + PAD, player, key))
    strips.append(Strip(PAD, lambda img, d: None, "end"))
    return stack(WIDTH, strips, _palette())


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed palette: every colour drawn here plus the anti-aliasing shades between text and ground."""
    chip = (60, 60, 30)
    pip = (214, 40, 40)
    back_inner = (120, 140, 210)
    felts = (FELT, FELT_DARK)
    pairs: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    for ground in felts:
        pairs += [(fg, ground) for fg in (WHITE, GOLD, HIGHLIGHT, MUTED, INK, *SEAT_COLOURS)]
    for bg, fg in COLOURS.values():
        pairs += [(fg, bg), (INK, bg), (INK, FELT), (INK, FELT_DARK)]
    pairs += [(fg, PAPER) for fg in (INK, MUTED_ON_PAPER, GOLD)]
    for bg in MANEUVER_BG.values():
        pairs += [(INK, bg), (pip, bg), (GOLD, bg)]
    pairs += [(fg, chip) for fg in (HIGHLIGHT, WHITE, *SEAT_COLOURS)]
    pairs += [(WHITE, CARD_BACK), (back_inner, CARD_BACK), (WHITE, FELT), (HIGHLIGHT, FELT), (HIGHLIGHT, FELT_DARK)]
    colours: list[tuple[int, int, int]] = []
    for fg, bg in pairs:
        for t in (0.0, 0.25, 0.5, 0.75, 1.0):
            c = _mix(bg, fg, t)
            if c not in colours:
                colours.append(c)
    return fixed_palette(colours)


def hand_image(view: dict[str, Any], seat: int, names: list[str], lang: str = DEFAULT) -> Image.Image:
    """Maneuver cards with their pips, the Goal, and the row the bids are about. Its words speak ``lang`` (the
    member's language)."""
    hand = view.get("hand", [])
    hw, hh = 100, 140
    per_row = 7
    rows = max(1, -(-len(hand) // per_row))
    goal_h = 250
    height = 150 + rows * (hh + 16) + CH + 70 + goal_h
    img, d = new_canvas(WIDTH, height)
    pips = sum(PIPS[k] for k in hand)
    head = (0, 0, WIDTH, 146)
    title = i18n.t(lang, "Your hand: {cards}, {pips}",
                   cards=i18n.tn(lang, "{n} Maneuver card", "{n} Maneuver cards", len(hand)),
                   pips=i18n.tn(lang, "{n} pip", "{n} pips", pips))
    label(img, (2 * PAD, PAD), title, TITLE, GOLD, head, bold=True, inset=2 * PAD)
    mine = seat in view.get("to_act", [])
    label(img, (2 * PAD, 54), i18n.t(lang, "Your turn") if mine else i18n.t(lang, "Not your turn"), BODY,
          HIGHLIGHT if mine else MUTED, head, bold=mine)
    # the engine's status is said from a message: in the reader's language
    label(img, (2 * PAD, 96), say_text(lang, view.get("status", "")), SMALL, WHITE, head, inset=2 * PAD)
    y = 150
    if not hand:
        label(img, (2 * PAD, y + 30), i18n.t(lang, "No Maneuver cards"), BODY, MUTED, (0, y, WIDTH, y + hh))
    step = (WIDTH - 2 * PAD) // per_row
    for i, kind in enumerate(hand):
        r, c = divmod(i, per_row)
        paste_card(img, maneuver_face(kind, hw, hh, lang), (PAD + c * step + (step - hw) // 2, y + r * (hh + 16)))
    y += rows * (hh + 16)
    y = _row_block(img, d, view, y, lang)
    # the Goal card
    box = panel(d, (PAD, y, WIDTH - PAD, y + goal_h - 2 * PAD), PAPER, GOLD, 3)
    goal = view.get("goal")
    label(img, (3 * PAD, y + 8), i18n.t(lang, "Your Goal: {goal}", goal=goal) if goal else i18n.t(lang, "Your Goal"),
          BODY, INK, box, bold=True)
    secret = i18n.t(lang, "revealed: the game is over") if view.get("over") else i18n.t(lang, "secret until the end")
    label(img, (box[2] - 2 * PAD, y + 14), secret, SMALL, MUTED_ON_PAPER, (box[0] + 300, box[1], box[2], box[3]), "ra")
    held = set()
    for p in view.get("players", []):
        if p["seat"] == seat:
            held = set(p["collection"])
    for i, card in enumerate(view.get("goal_cards", [])):
        cx = 3 * PAD + i * 150
        cy = y + 60
        paste_card(img, object_face(card, 70, 98, lang), (cx, cy), highlight=card in held)
        if card in held:
            label(img, (cx + 80, cy + 36), i18n.t(lang, "held"), SMALL, INK, (cx + 76, cy, cx + 148, cy + 98),
                  bold=True)
    if "score_with_goal" in view:
        label(img, (box[2] - 2 * PAD, box[3] - 40), i18n.t(lang, "Score with Goal: {score}",
                                                           score=view["score_with_goal"]), SMALL, INK, box, "ra")
    return to_palette(img, _palette())
