"""Do Over! table and hand images, drawn from engine views only."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from data.editions import do_over as edition
from render.common import (
    CARD_BACK,
    FELT,
    FELT_DARK,
    GOLD,
    GREY,
    HIGHLIGHT,
    INK,
    WHITE,
    Color,
    card_back,
    fit_text,
    fixed_palette,
    new_canvas,
    paste_card,
    to_palette,
)
from render.common import (
    draw_text as common_draw_text,
)

WIDTH = 1000
MARGIN = 20
BIG_W, BIG_H = 80, 112        # pile and hand cards
MINI_W, MINI_H = 50, 70       # reserve cards in the seat panels
PANEL_W = (WIDTH - 3 * MARGIN) // 2
PANEL_H = 168
TOP_H = 250

# The seed's colours: pink numbers, black Bomb, green Do Over!, blue Reverse.
NUMBER_BG: Color = (248, 206, 222)
NUMBER_INK: Color = (150, 18, 82)
SPECIAL_STYLE: dict[str, tuple[str, str, Color, Color]] = {
    # code: (big label, small line, ink, background)
    edition.BOMB: ("BOMB", "removes pile", WHITE, (28, 28, 32)),
    edition.DO_OVER: ("DO", "Do Over! = 0", WHITE, (46, 150, 76)),
    edition.REVERSE: ("REV", "Reverse", WHITE, (40, 92, 190)),
}


def draw_text(img: Image.Image, xy: tuple[int, int], text: str, size: int = 16,
              fill: Color = WHITE, anchor: str = "la") -> None:
    common_draw_text(img, xy, text, size, fill, anchor)


def _blend(a: Color, b: Color, t: float) -> tuple[int, int, int]:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed palette: every flat colour we draw plus anti-aliasing steps between the pairs that meet.

    Returning palette ("P") images keeps the PNG small and makes encoding several times faster
    than for RGB (no per-row filter search on three channels).
    """
    inks = [WHITE, GOLD, GREY, HIGHLIGHT, INK, NUMBER_INK, CARD_BACK, (120, 140, 210)]
    grounds = [FELT, FELT_DARK, NUMBER_BG, CARD_BACK, WHITE] + [st[3] for st in SPECIAL_STYLE.values()]
    colors: list[tuple[int, int, int]] = []
    for c in inks + grounds:
        if c not in colors:
            colors.append(c)
    for a in inks:
        for b in grounds:
            if a == b:
                continue
            for t in (0.2, 0.4, 0.6, 0.8):
                c = _blend(b, a, t)
                if c not in colors and len(colors) < 256:
                    colors.append(c)
    return fixed_palette(colors)


@lru_cache(maxsize=64)
def face(code: str, w: int = BIG_W, h: int = BIG_H) -> Image.Image:
    """A cached Do Over! card face."""
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    label, sub, ink, bg = SPECIAL_STYLE.get(code, (code, "highest" if code == "11" else "", NUMBER_INK, NUMBER_BG))
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(6, w // 9), fill=bg, outline=INK, width=2)
    big = int(h * (0.42 if len(label) <= 2 else 0.21))
    draw_text(img, (w // 2, h // 2 - (h // 12 if sub else 0)), label, big, ink, "mm")
    if sub and w >= 60:
        small = max(10, h // 9)
        draw_text(img, (w // 2, h - small), fit_text(sub, small, w - 6), small, ink, "mm")
    if len(label) <= 2 and w >= 60:
        corner = max(10, h // 7)
        draw_text(img, (6, 4), label, corner, ink)
    return img


@lru_cache(maxsize=8)
def empty_slot(w: int, h: int) -> Image.Image:
    img = Image.new("RGB", (w, h), FELT)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, w - 1, h - 1), radius=6, outline=FELT_DARK, width=2)
    return img


def _direction_arrow(d: ImageDraw.ImageDraw, cx: int, cy: int, r: int, clockwise: bool) -> None:
    """A circular arrow showing the direction of play."""
    d.arc((cx - r, cy - r, cx + r, cy + r), start=200, end=520, fill=GOLD, width=5)
    ang = math.radians(520 if clockwise else 200)
    ex, ey = cx + r * math.cos(ang), cy + r * math.sin(ang)
    # tangent direction at the arrow end
    t = 1 if clockwise else -1
    tx, ty = -math.sin(ang) * t, math.cos(ang) * t
    nx, ny = -ty, tx
    tip = (ex + tx * 12, ey + ty * 12)
    d.polygon([tip, (ex + nx * 9, ey + ny * 9), (ex - nx * 9, ey - ny * 9)], fill=GOLD)


def _turn_marker(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A gold triangle pointing right, at (x, y) = left middle."""
    d.polygon([(x, y - 10), (x + 16, y), (x, y + 10)], fill=HIGHLIGHT)


def _cards(k: int) -> str:
    return f"{k} card" if k == 1 else f"{k} cards"


def _name(names: list[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


def table_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    n = view["num_players"]
    rows = (n + 1) // 2
    height = TOP_H + rows * (PANEL_H + MARGIN) + MARGIN
    img, d = new_canvas(WIDTH, height)
    to_act = set(view.get("to_act", []))
    swap = view.get("phase") == "swap"

    # ---- header
    draw_text(img, (MARGIN, 12), "Do Over!", 30, GOLD)
    draw_text(img, (MARGIN + 150, 20), fit_text(view.get("status", ""), 18, WIDTH - 2 * MARGIN - 150), 18, WHITE)

    # ---- the discard pile: its top cards fanned, value, count
    pile = view.get("pile", [])
    px, py = MARGIN, 60
    d.rounded_rectangle((px - 6, py - 6, px + 430, py + BIG_H + 50), radius=12, fill=FELT_DARK)
    top = pile[-5:]
    if not top:
        paste_card(img, empty_slot(BIG_W, BIG_H), (px + 4, py + 4))
        draw_text(img, (px + 4 + BIG_W // 2, py + 4 + BIG_H // 2), "empty", 16, GREY, "mm")
    for i, code in enumerate(top):
        paste_card(img, face(code), (px + 4 + i * 52, py + 4), highlight=(i == len(top) - 1))
    info_x = px + 4 + max(len(top) - 1, 0) * 52 + BIG_W + 18
    draw_text(img, (info_x, py + 8), "Pile value", 18, WHITE)
    draw_text(img, (info_x, py + 30), str(view.get("pile_value", 0)), 52, GOLD)
    draw_text(img, (px + 4, py + BIG_H + 14), f"Discard Pile: {_cards(view.get('pile_count', len(pile)))}"
              + ("  (top 5 shown)" if len(pile) > 5 else ""), 18, WHITE)

    # ---- draw pile, removed cards, direction
    dx = 470
    d.rounded_rectangle((dx - 6, py - 6, WIDTH - MARGIN, py + BIG_H + 50), radius=12, fill=FELT_DARK)
    draw_count = view.get("draw_count", 0)
    if draw_count:
        paste_card(img, card_back(BIG_W, BIG_H), (dx + 4, py + 4))
        draw_text(img, (dx + 4 + BIG_W // 2, py + 4 + BIG_H // 2), str(draw_count), 30, WHITE, "mm")
    else:
        paste_card(img, empty_slot(BIG_W, BIG_H), (dx + 4, py + 4))
    draw_text(img, (dx + 4, py + BIG_H + 14), f"Draw Pile: {draw_count}", 18, WHITE)
    rx = dx + 120
    draw_text(img, (rx, py + 8), f"Out of the game: {view.get('removed_count', 0)}", 18, WHITE)
    turns = f"Turns played: {view.get('turns', 0)} (limit {view.get('max_turns', '?')})"
    draw_text(img, (rx, py + 32), turns, 16, GREY)
    clockwise = view.get("direction", "clockwise") == "clockwise"
    _direction_arrow(d, rx + 36, py + 92, 26, clockwise)
    draw_text(img, (rx + 78, py + 80), "Play goes", 16, WHITE)
    draw_text(img, (rx + 78, py + 98), "clockwise" if clockwise else "counterclockwise", 20, GOLD)
    if view.get("over"):
        winner = view.get("winner")
        text = f"{_name(names, winner)} wins!" if winner is not None else "Turn limit reached"
        draw_text(img, (rx, py + BIG_H + 14), fit_text(text, 20, WIDTH - MARGIN - rx - 10), 20, GOLD)

    # ---- seats
    outcome = view.get("outcome") if view.get("over") else None
    for s, seat in enumerate(view["seats"]):
        col, row = s % 2, s // 2
        x = MARGIN + col * (PANEL_W + MARGIN)
        y = TOP_H + row * (PANEL_H + MARGIN)
        acting = s in to_act
        d.rounded_rectangle((x, y, x + PANEL_W, y + PANEL_H), radius=12, fill=FELT_DARK,
                            outline=HIGHLIGHT if acting else FELT_DARK, width=4)
        nx = x + 14
        if acting:
            _turn_marker(d, x + 12, y + 22)
            nx = x + 36
        label = _name(names, s)
        if outcome:
            label = f"#{outcome[s]}  {label}"
        draw_text(img, (nx, y + 10), fit_text(label, 22, PANEL_W - (nx - x) - 150), 22, GOLD if acting else WHITE)
        badge = ("ready" if seat.get("ready") else "swapping") if swap else (
            {"hand": "plays Hand", "up": "plays face-up", "down": "flips blind"}.get(seat.get("source") or "", ""))
        draw_text(img, (x + PANEL_W - 12, y + 14), badge, 16, GOLD if acting else GREY, "ra")
        # hand: a card back with the count
        hy = y + 46
        paste_card(img, card_back(MINI_W, MINI_H), (x + 14, hy))
        draw_text(img, (x + 14 + MINI_W // 2, hy + MINI_H // 2), str(seat["hand_count"]), 22, WHITE, "mm")
        draw_text(img, (x + 14 + MINI_W // 2, hy + MINI_H + 12), "Hand", 14, WHITE, "mm")
        # reserve: per pile a face-down back (if any) with the face-up card slightly lower on top
        for j in range(3):
            rx0 = x + 100 + j * (MINI_W + 22)
            down = seat["down"][j]
            up = seat["up"][j]
            if down:
                paste_card(img, card_back(MINI_W, MINI_H), (rx0, hy - 6))
            else:
                paste_card(img, empty_slot(MINI_W, MINI_H), (rx0, hy - 6))
            if up is not None:
                paste_card(img, face(up, MINI_W, MINI_H), (rx0 + 6, hy + 4))
        draw_text(img, (x + 100, hy + MINI_H + 12), f"Reserve: {sum(1 for u in seat['up'] if u is not None)} up, "
                  f"{seat.get('down_count', sum(seat['down']))} down"
                  + ("  (as dealt)" if seat.get("up_as_dealt") else ""), 14, WHITE)
        draw_text(img, (x + PANEL_W - 14, y + 62), str(seat["cards_left"]), 40, GOLD, "ra")
        draw_text(img, (x + PANEL_W - 14, y + 108), "cards left", 14, WHITE, "ra")
    return to_palette(img, _palette())


def hand_image(view: dict[str, Any], seat: int, names: list[str]) -> Image.Image:
    hand: list[str] = view.get("hand", [])
    groups: list[tuple[str, int]] = []
    for code in hand:
        if groups and groups[-1][0] == code:
            groups[-1] = (code, groups[-1][1] + 1)
        else:
            groups.append((code, 1))
    per_row = 10
    rows = max(1, (len(groups) + per_row - 1) // per_row)
    step = (WIDTH - 2 * MARGIN) // per_row
    hand_h = rows * (BIG_H + 34)
    height = 90 + hand_h + 40 + BIG_H + 70
    img, d = new_canvas(WIDTH, height)
    me = view["seats"][seat]
    acting = seat in view.get("to_act", [])
    title = f"{_name(names, seat)}: Hand of {_cards(len(hand))}"
    draw_text(img, (MARGIN, 14), fit_text(title, 26, 560), 26, GOLD)
    if view.get("phase") == "swap":
        note = ("Swap step: swap Hand cards with your face-up Reserve cards, then say Ready" if acting
                else "Ready: waiting for the other players")
    elif view.get("over"):
        note = "Game over"
    elif acting:
        note = f"Your turn: beat {view.get('pile_value', 0)}"
    else:
        note = f"Pile value {view.get('pile_value', 0)}"
    if acting:
        _turn_marker(d, MARGIN, 58)
    draw_text(img, (MARGIN + (26 if acting else 0), 48), fit_text(note, 20, WIDTH - 2 * MARGIN - 30), 20,
              HIGHLIGHT if acting else WHITE)

    y0 = 80
    pv = view.get("pile_value", 0)
    if not groups:
        draw_text(img, (MARGIN, y0 + 40), "Your Hand is empty: you play from your Reserve.", 20, WHITE)
    for k, (code, count) in enumerate(groups):
        x = MARGIN + (k % per_row) * step
        y = y0 + (k // per_row) * (BIG_H + 34)
        playable = view.get("phase") == "play" and acting and me.get("source") == "hand" and (
            not code.isdigit() or int(code) >= pv)
        paste_card(img, face(code), (x + 4, y + 4), highlight=playable)
        if count > 1:
            draw_text(img, (x + 4 + BIG_W // 2, y + BIG_H + 8), f"x{count}", 20, GOLD, "ma")

    ry = y0 + hand_h + 12
    draw_text(img, (MARGIN, ry), "Your Reserve", 18, WHITE)
    for j in range(3):
        x = MARGIN + j * (BIG_W + 30)
        y = ry + 28
        if me["down"][j]:
            paste_card(img, card_back(BIG_W, BIG_H), (x, y))
            draw_text(img, (x + BIG_W // 2, y + BIG_H // 2), "?", 34, WHITE, "mm")
        else:
            paste_card(img, empty_slot(BIG_W, BIG_H), (x, y))
        if me["up"][j] is not None:
            paste_card(img, face(me["up"][j]), (x + 8, y + 10))
        draw_text(img, (x + BIG_W // 2 + 4, y + BIG_H + 16), f"pile {j + 1}", 14, GREY, "ma")
    draw_text(img, (MARGIN, ry + 28 + BIG_H + 34), "Face-down cards (?) are hidden from you too", 14, GREY)
    pile = view.get("pile", [])
    px = MARGIN + 3 * (BIG_W + 30) + 40
    draw_text(img, (px, ry), f"Discard Pile ({len(pile)}), value {pv}", 18, WHITE)
    for i, code in enumerate(pile[-5:]):
        paste_card(img, face(code), (px + i * 48, ry + 28))
    draw_text(img, (WIDTH - MARGIN, ry + 28 + BIG_H + 14), f"Draw Pile: {view.get('draw_count', 0)}   "
              f"Play goes {view.get('direction', 'clockwise')}", 16, WHITE, "ra")
    return to_palette(img, _palette())
