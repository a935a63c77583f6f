"""Pentawar renderer: the pentagram, the tableau, the piles and every flight wing (from the view only)."""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from data.editions import pentawar as edition
from render.common import (
    CARD_BACK,
    FELT,
    FELT_DARK,
    GOLD,
    GREY,
    HIGHLIGHT,
    INK,
    WHITE,
    card_back,
    draw_text,
    fit_text,
    fixed_palette,
    new_canvas,
    paste_card,
    to_palette,
)

Color = tuple[int, int, int]

WIDTH = 1000
WAR_W, WAR_H = 62, 86
WING_W, WING_H = 56, 78
WING_DY = 30          # how far a covering row sits below the row it lies on
SMALL_W, SMALL_H = 50, 70
HAND_W, HAND_H = 76, 106
PLACES = ("A", "B", "C", "D", "E")
_PLACEHOLDER = re.compile(r"\{p(\d)\}")


PANEL_LINE: Color = (60, 110, 80)
STAR_EDGE: Color = (60, 120, 85)
SLOT: Color = (90, 150, 115)
SHADOW: Color = (10, 40, 25)
BACK_INNER: Color = (120, 140, 210)


def _blend(a: Color, b: Color, t: float) -> Color:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed palette: every colour drawn plus antialiasing blends of text over its backgrounds.

    Mapping the finished RGB image onto it takes about a millisecond, and a palette PNG encodes
    several times faster (and smaller) than an RGB one.
    """
    kinds = [edition.COLOURS[k] for k in edition.KINDS]
    base = [FELT, FELT_DARK, INK, WHITE, GOLD, GREY, HIGHLIGHT, CARD_BACK, BACK_INNER, PANEL_LINE, STAR_EDGE,
            SLOT, SHADOW, *kinds]
    pairs = [(bg, fg) for bg in (FELT, FELT_DARK) for fg in (WHITE, GOLD, GREY, HIGHLIGHT, INK, SLOT)]
    pairs += [(c, _ink(c)) for c in kinds] + [(c, WHITE) for c in kinds]
    pairs += [(CARD_BACK, WHITE), (GOLD, INK), (FELT, CARD_BACK), (FELT_DARK, WHITE)]
    colours = list(dict.fromkeys(base + [_blend(bg, fg, s) for bg, fg in pairs for s in (0.25, 0.5, 0.75)]))
    assert len(colours) <= 256
    return fixed_palette(colours)


def _sub(text: str, names: list[str]) -> str:
    return _PLACEHOLDER.sub(lambda m: _name(names, int(m.group(1))), text)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if seat < len(names) and names[seat] else f"Seat {seat + 1}"


def _ink(bg: Color) -> Color:
    """Dark ink on light colours, white ink on dark ones."""
    r, g, b = bg
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


def _sigil(d: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, ink: Color, bg: Color) -> None:
    """Draw a kind's sigil centred on (cx, cy), about 2r across."""
    if shape == "diamond":
        d.polygon([(cx, cy - r), (cx + r * 0.7, cy), (cx, cy + r), (cx - r * 0.7, cy)], fill=ink)
    elif shape == "sunburst":
        for k in range(8):
            a = k * math.pi / 4
            d.line([(cx + math.cos(a) * r * 0.5, cy + math.sin(a) * r * 0.5),
                    (cx + math.cos(a) * r, cy + math.sin(a) * r)], fill=ink, width=max(2, int(r / 6)))
        d.ellipse((cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5), fill=ink)
    elif shape == "triangle":
        d.polygon([(cx, cy - r), (cx + r * 0.9, cy + r * 0.75), (cx - r * 0.9, cy + r * 0.75)], fill=ink)
    elif shape == "square":
        q = r * 0.75
        d.rectangle((cx - q, cy - q, cx + q, cy + q), fill=ink)
    elif shape == "heart":
        q = r * 0.5
        d.ellipse((cx - 2 * q, cy - 1.5 * q, cx, cy + 0.5 * q), fill=ink)
        d.ellipse((cx, cy - 1.5 * q, cx + 2 * q, cy + 0.5 * q), fill=ink)
        d.polygon([(cx - 1.93 * q, cy - 0.2 * q), (cx + 1.93 * q, cy - 0.2 * q), (cx, cy + r)], fill=ink)
    elif shape == "drop":
        q = r * 0.6
        d.ellipse((cx - q, cy + r - 2 * q, cx + q, cy + r), fill=ink)
        d.polygon([(cx, cy - r), (cx + q * 0.97, cy + r - q * 1.2), (cx - q * 0.97, cy + r - q * 1.2)], fill=ink)
    elif shape == "bolt":
        d.polygon([(cx + r * 0.2, cy - r), (cx - r * 0.6, cy + r * 0.15), (cx - r * 0.05, cy + r * 0.15),
                   (cx - r * 0.25, cy + r), (cx + r * 0.6, cy - r * 0.2), (cx + r * 0.05, cy - r * 0.2)], fill=ink)
    elif shape == "snowflake":
        w = max(2, int(r / 5))
        for k in range(3):
            a = k * math.pi / 3 + math.pi / 2
            dx, dy = math.cos(a) * r, math.sin(a) * r
            d.line([(cx - dx, cy - dy), (cx + dx, cy + dy)], fill=ink, width=w)
        d.ellipse((cx - r * 0.2, cy - r * 0.2, cx + r * 0.2, cy + r * 0.2), fill=bg, outline=ink, width=w)
    elif shape == "flame":
        d.polygon([(cx, cy - r), (cx + r * 0.35, cy - r * 0.2), (cx + r * 0.55, cy - r * 0.55),
                   (cx + r * 0.8, cy + r * 0.3), (cx + r * 0.45, cy + r), (cx - r * 0.45, cy + r),
                   (cx - r * 0.8, cy + r * 0.3), (cx - r * 0.5, cy - r * 0.45), (cx - r * 0.25, cy - r * 0.1)],
                  fill=ink)
    elif shape == "crescent":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
        d.ellipse((cx - r * 0.45, cy - r * 1.05, cx + r * 1.25, cy + r * 0.75), fill=bg)
    else:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=3)


@lru_cache(maxsize=128)
def dragon_card(kind: str, w: int, h: int) -> Image.Image:
    """A dragon card: the kind's colour, its two-letter mark at the top (visible when covered), a big sigil."""
    bg = edition.COLOURS.get(kind, GREY)
    ink = _ink(bg)
    img = Image.new("RGB", (w, h), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(4, w // 8), fill=bg, outline=WHITE, width=2)
    mark = edition.ABBREVIATIONS.get(kind, kind[:2].title())
    top = max(14, h // 5)
    draw_text(img, (5, 3), mark, top, ink)
    _sigil(d, edition.SIGILS.get(kind, ""), w - 5 - top * 0.4, 3 + top * 0.55, top * 0.4, ink, bg)
    _sigil(d, edition.SIGILS.get(kind, ""), w / 2, h * 0.56, min(w, h) * 0.27, ink, bg)
    if h >= 70:
        name = edition.NAMES.get(kind, kind)
        size = max(10, h // 8)
        draw_text(img, (w // 2, h - 4), fit_text(name, size, w - 6), size, ink, "md")
    return img


@lru_cache(maxsize=8)
def _slot(w: int, h: int) -> Image.Image:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, w - 1, h - 1), radius=max(4, w // 8), outline=SLOT, width=2)
    return img


def _star_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Pentagram points: position 0 at the top, then clockwise."""
    return [(cx + r * math.cos(-math.pi / 2 + 2 * math.pi * p / 5),
             cy + r * math.sin(-math.pi / 2 + 2 * math.pi * p / 5)) for p in range(5)]


def _draw_pentawar(img: Image.Image, d: ImageDraw.ImageDraw, war: list[str], x0: int, y0: int) -> None:
    cx, cy, r = x0 + 190, y0 + 178, 128
    pts = _star_points(cx, cy, r)
    d.polygon(pts, outline=STAR_EDGE)
    for p in range(5):  # the across-lines: the star
        d.line([pts[p], pts[(p + 2) % 5]], fill=GOLD, width=4)
    for p, (px, py) in enumerate(pts):
        paste_card(img, dragon_card(war[p], WAR_W, WAR_H), (int(px - WAR_W / 2), int(py - WAR_H / 2)))
        lx, ly = px - WAR_W / 2 - 14, py - WAR_H / 2 + 12
        d.ellipse((lx - 11, ly - 11, lx + 11, ly + 11), fill=GOLD)
        draw_text(d, (int(lx), int(ly)), str(p), 16, INK, "mm")
    draw_text(d, (x0 + 8, y0 + 2), "The pentawar", 18, GOLD)


def _wing_height() -> int:
    return WING_H + 2 * WING_DY


def _draw_wing(img: Image.Image, d: ImageDraw.ImageDraw, wing: dict[str, Any], x0: int, y0: int) -> None:
    gap = 8
    spots = {
        "A": (x0, y0), "B": (x0 + WING_W + gap, y0),
        "C": (x0, y0 + WING_DY), "D": (x0 + WING_W + gap, y0 + WING_DY),
        "E": (x0 + (WING_W + gap) // 2, y0 + 2 * WING_DY),
    }
    supports = {"A": (), "B": (), "C": ("A",), "D": ("B",), "E": ("C", "D")}
    for place in PLACES:
        x, y = spots[place]
        cell = wing.get(place)
        if cell:
            if supports[place]:  # a shadow so the card it lies on reads as underneath
                d.rounded_rectangle((x + 3, y - 3, x + WING_W + 2, y + 4), radius=4, fill=SHADOW)
            paste_card(img, dragon_card(cell["kind"], WING_W, WING_H), (x, y))
        elif place in "AB":  # empty places of row 1; higher rows would be drawn over the cards they lie on
            img.paste(_slot(WING_W, WING_H), (x, y), _slot(WING_W, WING_H))
            draw_text(d, (x + WING_W // 2, y + WING_H // 2), place, 18, SLOT, "mm")


def _draw_player(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, names: list[str],
                 box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, _ = box
    acting = seat in view.get("to_act", [])
    d.rounded_rectangle(box, radius=10, fill=FELT_DARK, outline=HIGHLIGHT if acting else PANEL_LINE,
                        width=4 if acting else 2)
    tx = x0 + 10
    if acting:  # a play marker before the name of the seat to act
        d.polygon([(tx, y0 + 10), (tx + 13, y0 + 18), (tx, y0 + 26)], fill=HIGHLIGHT)
        tx += 19
    draw_text(d, (tx, y0 + 8), fit_text(_name(names, seat), 20, x1 - tx - 50), 20, HIGHLIGHT if acting else WHITE)
    counts = view.get("hand_counts", [])
    wings = view.get("wings", [])
    wing = wings[seat] if seat < len(wings) else {}
    n_wing = sum(1 for p in PLACES if wing.get(p))
    hand = counts[seat] if seat < len(counts) else 0
    draw_text(d, (x0 + 10, y0 + 34), f"wing {n_wing}/5 · hand {hand}", 16, WHITE)
    outcome = view.get("outcome")
    if outcome and seat < len(outcome):
        place = outcome[seat]
        label = {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
        draw_text(d, (x1 - 10, y0 + 8), label, 20, GOLD if place == 1 else WHITE, "ra")
    wing_w = 2 * WING_W + 8
    _draw_wing(img, d, wing, x0 + (x1 - x0 - wing_w) // 2, y0 + 60)


def _grouped(cards: list[str]) -> list[tuple[str, int]]:
    order = {k: i for i, k in enumerate(edition.KINDS)}
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return sorted(counts.items(), key=lambda kv: order.get(kv[0], 99))


def _draw_count_badge(d: ImageDraw.ImageDraw, x: int, y: int, count: int) -> None:
    d.ellipse((x - 13, y - 13, x + 13, y + 13), fill=GOLD, outline=INK, width=2)
    draw_text(d, (x, y), f"{count}", 15, INK, "mm")


def _draw_side(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    # piles
    draw_text(d, (x0, y0 + 2), "Deck", 18, GOLD)
    paste_card(img, card_back(SMALL_W, SMALL_H), (x0, y0 + 26))
    draw_text(d, (x0 + SMALL_W // 2, y0 + 26 + SMALL_H // 2), str(view.get("deck_count", 0)), 22, WHITE, "mm")
    draw_text(d, (x0 + 80, y0 + 2), "Discard", 18, GOLD)
    discard = view.get("discard") or []
    if discard:
        paste_card(img, dragon_card(discard[-1], SMALL_W, SMALL_H), (x0 + 80, y0 + 26))
    else:
        img.paste(_slot(SMALL_W, SMALL_H), (x0 + 80, y0 + 26), _slot(SMALL_W, SMALL_H))
    _draw_count_badge(d, x0 + 80 + SMALL_W, y0 + 26 + SMALL_H - 6, int(view.get("discard_count", 0)))
    resh = view.get("reshuffle") or {}
    if not resh.get("allowed"):
        text = "No reshuffle (2-3 players)"
    else:
        text = "Discards reshuffled once: last deck" if resh.get("done") else "One reshuffle of the discards left"
    draw_text(d, (x0 + 160, y0 + 30), text, 16, WHITE)
    draw_text(d, (x0 + 160, y0 + 54), f"Turn {view.get('turn_number', 1)}", 16, WHITE)
    pending = view.get("pending")
    if pending:
        where = "hand" if pending.get("from") == "hand" else "the tableau"
        draw_text(d, (x0 + 480, y0 + 2), "Alter war", 18, HIGHLIGHT, "ma")
        paste_card(img, dragon_card(pending["kind"], SMALL_W, SMALL_H), (x0 + 455, y0 + 26), highlight=True)
        draw_text(d, (x0 + 480, y0 + 30 + SMALL_H), f"from {where}", 14, HIGHLIGHT, "ma")
    # tableau
    ty = y0 + 112
    tableau = view.get("tableau") or []
    draw_text(d, (x0, ty), f"Shared tableau ({len(tableau)})", 18, GOLD)
    if not tableau:
        draw_text(d, (x0, ty + 30), "empty", 16, GREY)
    per_row = 8
    for i, (kind, count) in enumerate(_grouped(tableau)):
        x = x0 + (i % per_row) * (SMALL_W + 20)
        y = ty + 28 + (i // per_row) * (SMALL_H + 14)
        paste_card(img, dragon_card(kind, SMALL_W, SMALL_H), (x, y))
        if count > 1:
            _draw_count_badge(d, x + SMALL_W, y + 4, count)


def table_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    n = int(view.get("num_players", len(names)))
    panel_h = 60 + _wing_height() + 14
    top_h = 372
    height = 48 + top_h + panel_h + 16
    img, d = new_canvas(WIDTH, height)
    status = _sub(str(view.get("status", "")), names)
    if view.get("over"):
        head = f"Pentawar · Game over: {_sub(str(view.get('end_reason') or ''), names)}"
    else:
        actors = ", ".join(_name(names, s) for s in view.get("to_act", []))
        head = f"Pentawar · {actors} to act · {status}"
    d.rectangle((0, 0, WIDTH, 40), fill=FELT_DARK)
    draw_text(d, (14, 20), fit_text(head, 20, WIDTH - 28), 20, WHITE, "lm")
    _draw_pentawar(img, d, list(view.get("pentawar", [])), 10, 48)
    _draw_side(img, d, view, 420, 56)
    gap = 8
    pw = (WIDTH - 16 - gap * (n - 1)) // max(n, 1)
    py = 48 + top_h
    for seat in range(n):
        x = 8 + seat * (pw + gap)
        _draw_player(img, d, view, seat, names, (x, py, x + pw, py + panel_h))
    return to_palette(img, _palette())


def hand_image(view: dict[str, Any], seat: int, names: list[str]) -> Image.Image:
    hand = list(view.get("hand") or [])
    war = set(view.get("pentawar") or [])
    per_row = 10
    rows = max(1, math.ceil(len(hand) / per_row))
    height = 52 + rows * (HAND_H + 14) + 6 + 26 + SMALL_H + 12
    img, d = new_canvas(WIDTH, height)
    draw_text(d, (16, 14), fit_text(f"{_name(names, seat)} · your hand ({len(hand)})", 22, WIDTH - 32), 22, WHITE)
    if not hand:
        draw_text(d, (16, 70), "No cards in hand", 20, GREY)
    for i, kind in enumerate(hand):
        x = 16 + (i % per_row) * (HAND_W + 20)
        y = 52 + (i // per_row) * (HAND_H + 14)
        paste_card(img, dragon_card(kind, HAND_W, HAND_H), (x, y), highlight=kind in war)
    y = 52 + rows * (HAND_H + 14) + 6
    draw_text(d, (16, y), "Highlighted: in the pentawar (can strengthen or kill).  The pentawar now:", 16, GOLD)
    for p, kind in enumerate(view.get("pentawar") or []):
        x = 16 + p * (SMALL_W + 34)
        paste_card(img, dragon_card(kind, SMALL_W, SMALL_H), (x + 22, y + 26))
        draw_text(d, (x + 8, y + 26 + SMALL_H // 2), str(p), 16, GOLD, "mm")
    return to_palette(img, _palette())
