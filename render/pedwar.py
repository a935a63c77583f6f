"""Pedwar table and hand images, drawn from engine views only.

Table: the row of 6 Object cards with the bids stacked under each (who holds the highest),
deck counts, each player's collection grouped by colour with the running score, whose turn and
the phase; at the end every Goal and the scoring breakdown. Hand: Maneuver cards with their pips,
and the hidden Goal.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    CARD_BACK,
    FELT,
    FELT_DARK,
    GOLD,
    GREY,
    HIGHLIGHT,
    INK,
    PAPER,
    WHITE,
    card_back,
    card_face,
    draw_text,
    fit_text,
    fixed_palette,
    new_canvas,
    paste_card,
    to_palette,
)

W = 1000
#: Card colours: background, label colour.
COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "R": ((206, 52, 52), WHITE),
    "B": ((48, 92, 204), WHITE),
    "G": ((34, 139, 70), WHITE),
    "Y": ((247, 205, 52), INK),
}
COLOUR_NAMES = {"R": "Red", "B": "Blue", "G": "Green", "Y": "Yellow"}
SEAT_COLOURS = [(255, 170, 80), (120, 210, 255), (200, 150, 255), (150, 240, 150)]
PIPS = {"1+": 3, "2+": 2, "3": 2, "4": 1, "5": 1, "OP": 1}
MANEUVER_BG = {"1+": (236, 236, 226), "2+": (236, 236, 226), "3": (226, 232, 242), "4": (226, 232, 242),
               "5": (226, 232, 242), "OP": (40, 40, 48)}


def _ascii(text: str) -> str:
    """The built-in font lacks the en dash."""
    return text.replace("–", "-").replace("—", "-")


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"Seat {seat + 1}"


@lru_cache(maxsize=256)
def object_face(code: str, w: int, h: int) -> Image.Image:
    bg, fg = COLOURS[code[0]]
    if code[1] == "W":
        return card_face(f"{code[0]}W", fg, "Wild", bg, w, h)
    return card_face(code, fg, COLOUR_NAMES[code[0]] if w >= 60 else "", bg, w, h)


@lru_cache(maxsize=64)
def mini_face(code: str, w: int = 32, h: int = 44) -> Image.Image:
    """A small collection card: colour background, the code in a font that fits."""
    bg, fg = COLOURS[code[0]]
    img = Image.new("RGB", (w, h), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=5, fill=bg, outline=INK, width=1)
    draw_text(img, (w // 2, h // 2), code, 15, fg, "mm")
    return img


@lru_cache(maxsize=32)
def maneuver_face(kind: str, w: int = 96, h: int = 134) -> Image.Image:
    bg = MANEUVER_BG[kind]
    fg = GOLD if kind == "OP" else INK
    sub = "Overpower" if kind == "OP" else ("pairs" if kind.endswith("+") else "")
    img = card_face(kind, fg, sub, bg, w, h).copy()
    d = ImageDraw.Draw(img)
    for i in range(PIPS[kind]):
        x = 10 + i * 14
        d.ellipse((x, 8, x + 10, 18), fill=(214, 40, 40), outline=INK)
    return img


@lru_cache(maxsize=8)
def empty_slot(w: int, h: int) -> Image.Image:
    img = Image.new("RGB", (w, h), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, outline=GREY, width=2)
    draw_text(img, (w // 2, h // 2), "taken", 11, GREY, "mm")
    return img


def _bid_text(bid: dict[str, Any]) -> str:
    cards = ",".join(bid["cards"])
    return cards if bid["value"] is None or len(bid["cards"]) == 1 else f"{cards}={bid['value']}"


def _grouped(collection: list[str]) -> list[list[str]]:
    groups: dict[str, list[str]] = {}
    for card in collection:
        groups.setdefault(card[0], []).append(card)
    return [groups[c] for c in "RBGY" if c in groups]


def table_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    players = view["players"]
    over = view["over"]
    to_act = set(view["to_act"])
    mini_w, mini_h, step = 32, 44, 34
    coll_x = 250
    per_line = (W - coll_x - 20) // step
    heights = []
    for p in players:
        cards = len(p["collection"]) + 2 * len(_grouped(p["collection"]))
        lines = max(1, -(-cards // per_line))
        h = max(64, 14 + lines * (mini_h + 6))
        if over:
            h += 20 * (len(p.get("breakdown", [])) + 1)
        heights.append(h)
    most = max((min(len(slot["bids"]), 8) for slot in view["row"]), default=0)
    cw, ch = 96, 134
    row_h = max(150, ch + 16 + (26 + 22 * most if most else 0))
    height = 62 + row_h + sum(heights) + 8 * len(players) + 6
    img, d = new_canvas(W, height)

    # header: phase and whose turn
    d.rectangle((0, 0, W, 54), fill=FELT_DARK)
    active = view["active"]
    draw_text(d, (16, 8), f"Pedwar  ·  Turn {view['turn']}", 22, GOLD)
    draw_text(d, (16, 32), fit_text(view["status"], 16, 600), 16, WHITE)
    if over:
        right = "Game over"
    else:
        acting = ", ".join(_name(names, s) for s in view["to_act"])
        right = f"Active: {_name(names, active)}   To act: {acting}"
    draw_text(d, (W - 16, 18), fit_text(right, 18, 460), 18, HIGHLIGHT, anchor="ra")

    # the row
    col = 132
    x0, y0 = 16, 64
    for slot in view["row"]:
        x = x0 + slot["slot"] * col
        code = slot["card"]
        face = object_face(code, cw, ch) if code else empty_slot(cw, ch)
        paste_card(img, face, (x + (col - cw) // 2 - 8, y0), highlight=slot["in_play"])
        if slot["ref"] and slot["ref"] != code:
            draw_text(d, (x + col // 2 - 8, y0 + ch + 4), slot["ref"], 14, HIGHLIGHT, anchor="ma")
        bids = slot["bids"]
        by = y0 + ch + 24
        shown = bids[-7:]
        if len(bids) > len(shown):
            draw_text(d, (x, by), f"+{len(bids) - len(shown)} earlier", 13, GREY)
            by += 22
        for i, bid in enumerate(shown):
            top = i == len(shown) - 1
            colour = SEAT_COLOURS[bid["seat"] % len(SEAT_COLOURS)]
            who = fit_text(_name(names, bid["seat"]), 14, 66)
            if top:
                d.rounded_rectangle((x - 2, by - 2, x + col - 10, by + 19), radius=4, fill=(60, 60, 30),
                                    outline=HIGHLIGHT)
            draw_text(d, (x + 2, by), who, 14, colour)
            draw_text(d, (x + col - 14, by), _bid_text(bid), 15, HIGHLIGHT if top else WHITE, anchor="ra")
            by += 22
    # decks
    dx = x0 + 6 * col + 4
    for i, (label, count) in enumerate((("Object deck", view["object_deck"]),
                                        ("Maneuver deck", view["maneuver_deck"]),
                                        ("Discards", view["maneuver_discard"]))):
        y = y0 + i * 46
        paste_card(img, card_back(28, 40), (dx, y))
        draw_text(d, (dx + 36, y + 2), label, 13, WHITE)
        draw_text(d, (dx + 36, y + 18), str(count), 18, GOLD)
    info = []
    if view["discarded"]:
        info.append(f"Discarded: {' '.join(view['discarded'])} ({view['pips']} pips)")
    if view["phase"] in ("action", "trump") and view["actions"]:
        info.append(f"Actions: {view['actions_used']}/{view['actions']}")
    if view["spent"]:
        info.append(f"On cards taken by OP: {' '.join(view['spent'])}")
    for i, line in enumerate(info):
        draw_text(d, (dx, y0 + 142 + i * 18), fit_text(line, 13, W - dx - 6), 13, WHITE)

    # players
    y = 62 + row_h
    for p, h in zip(players, heights, strict=True):
        seat = p["seat"]
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        box_outline = HIGHLIGHT if seat in to_act else (colour if seat == active and not over else FELT_DARK)
        d.rounded_rectangle((8, y, W - 8, y + h), radius=8, fill=FELT_DARK, outline=box_outline,
                            width=3 if seat in to_act else 2)
        if seat == active and not over:
            d.polygon([(16, y + 12), (16, y + 30), (28, y + 21)], fill=HIGHLIGHT)
        draw_text(d, (34, y + 10), fit_text(_name(names, seat), 20, 200), 20, colour)
        score = f"Score {p['score']}" if not over else f"Final {p['final_score']}  (place {p['place']})"
        draw_text(d, (16, y + 36), score, 16, GOLD)
        status = f"Hand {p['hand_count']}"
        if seat in to_act:
            status += "  - to act"
        draw_text(d, (140 if not over else 16, y + 36 if not over else y + 56), status, 14, WHITE)
        cx, cy = coll_x, y + 8
        if not p["collection"]:
            draw_text(d, (cx, cy + 12), "no cards yet", 14, GREY)
        for group in _grouped(p["collection"]):
            if cx + step * len(group) > W - 16 and cx > coll_x:
                cx, cy = coll_x, cy + mini_h + 6
            for card in group:
                if cx + step > W - 16:
                    cx, cy = coll_x, cy + mini_h + 6
                img.paste(mini_face(card, mini_w, mini_h), (cx, cy))
                cx += step
            cx += 12
        if over:
            by = y + h - 20 * (len(p.get("breakdown", [])) + 1) - 4
            goal = f"Goal {p['goal']}: {' '.join(p['goal_cards'])}"
            draw_text(d, (coll_x, by), goal, 15, HIGHLIGHT)
            for line in p.get("breakdown", []):
                by += 20
                draw_text(d, (coll_x, by), fit_text(_ascii(line), 15, W - coll_x - 20), 15, WHITE)
        y += h + 8
    return to_palette(img, _palette())


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
        pairs += [(fg, ground) for fg in (WHITE, GOLD, HIGHLIGHT, GREY, INK, *SEAT_COLOURS)]
    for bg, fg in COLOURS.values():
        pairs += [(fg, bg), (INK, bg), (INK, FELT), (INK, FELT_DARK)]
    pairs += [(fg, PAPER) for fg in (INK, GREY, GOLD)]
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


def hand_image(view: dict[str, Any], seat: int, names: list[str]) -> Image.Image:
    hand = view.get("hand", [])
    cw, ch, gap = 96, 134, 10
    height = 250
    img, d = new_canvas(W, height)
    if view.get("over"):
        draw_text(d, (16, height - 28), "Game over: every Goal is now shown on the table", 15, HIGHLIGHT)
    pips = sum(PIPS[k] for k in hand)
    title = f"{_name(names, seat)}: {len(hand)} Maneuver card{'' if len(hand) == 1 else 's'}, {pips} pips"
    draw_text(d, (16, 10), fit_text(title, 20, 620), 20, GOLD)
    draw_text(d, (16, 36), fit_text(_ascii(view.get("status", "")), 15, 620), 15, WHITE)
    x = 16
    if not hand:
        draw_text(d, (x, 110), "No Maneuver cards", 18, GREY)
    for kind in hand:
        paste_card(img, maneuver_face(kind, cw, ch), (x, 66))
        x += cw + gap
    # the Goal card
    gx = W - 250
    d.rounded_rectangle((gx, 12, W - 12, height - 12), radius=10, fill=PAPER, outline=GOLD, width=3)
    goal = view.get("goal")
    draw_text(d, (gx + 14, 22), f"Goal {goal}" if goal else "Goal", 20, INK)
    draw_text(d, (gx + 14, 46), "hidden until the end", 12, GREY)
    held = set()
    for p in view.get("players", []):
        if p["seat"] == seat:
            held = set(p["collection"])
    for i, card in enumerate(view.get("goal_cards", [])):
        cx = gx + 16 + (i % 2) * 112
        cy = 68 + (i // 2) * 74
        paste_card(img, object_face(card, 46, 62), (cx, cy), highlight=card in held)
        if card in held:
            draw_text(d, (cx + 54, cy + 22), "held", 14, INK)
    if "score_with_goal" in view:
        draw_text(d, (gx + 14, height - 36), f"Score with Goal: {view['score_with_goal']}", 15, INK)
    return to_palette(img, _palette())
