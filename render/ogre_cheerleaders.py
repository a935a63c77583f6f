"""Ogre Cheerleaders table and hand images, drawn from engine views only."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from data.editions import ogre_cheerleaders as edition
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
    Color,
    card_back,
    draw_text,
    fit_text,
    fixed_palette,
    new_canvas,
    paste_card,
    text_width,
    to_palette,
)

WIDTH = 1000
MARGIN = 20
TEAM_COLORS: dict[str, Color] = {
    "O": (232, 118, 24),   # orange
    "S": (52, 140, 64),    # swamp green
    "C": (128, 78, 190),   # club purple
    "U": (36, 120, 206),   # unicorn blue
}
FIELD_W, FIELD_H, FIELD_GAP = 88, 126, 8
MINI_W, MINI_H, MINI_GAP = 46, 64, 5
HAND_W, HAND_H, HAND_GAP = 178, 236, 14
DEALT: Color = (170, 170, 170)


def _wrap(text: str, size: int, width: int, max_lines: int) -> list[str]:
    lines: list[str] = []
    cur = ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if text_width(trial, size) <= width:
            cur = trial
            continue
        if cur:
            lines.append(cur)
        cur = word
    if cur:
        lines.append(cur)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit_text(lines[-1] + " …", size, width)
    return [fit_text(line, size, width) for line in lines]


@lru_cache(maxsize=128)
def field_face(card: str) -> Image.Image:
    """A field card: team band and name, big number, the effect in short."""
    team, num = card[0], int(card[1:])
    col = TEAM_COLORS[team]
    w, h = FIELD_W, FIELD_H
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=9, fill=PAPER, outline=INK, width=2)
    d.rounded_rectangle((2, 2, w - 3, 28), radius=7, fill=col)
    name = edition.TEAM_SHORT[team]
    size = next((z for z in (13, 12, 11, 10) if text_width(name, z) <= w - 8), 10)
    draw_text(img, (w // 2, 15), fit_text(name, size, w - 8), size, WHITE, "mm")
    draw_text(img, (w // 2, 56), str(num), 38, col, "mm")
    draw_text(img, (6, 32), card, 11, INK)
    for i, line in enumerate(_wrap(edition.EFFECTS_SHORT[num], 11, w - 8, 3)):
        draw_text(img, (w // 2, 86 + 12 * i), line, 11, INK, "mt")
    return img


@lru_cache(maxsize=128)
def mini_face(card: str) -> Image.Image:
    team, num = card[0], int(card[1:])
    col = TEAM_COLORS[team]
    img = Image.new("RGB", (MINI_W, MINI_H), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, MINI_W - 1, MINI_H - 1), radius=6, fill=PAPER, outline=INK, width=1)
    d.rounded_rectangle((2, 2, MINI_W - 3, 14), radius=4, fill=col)
    draw_text(img, (MINI_W // 2, 8), team, 11, WHITE, "mm")
    draw_text(img, (MINI_W // 2, 40), str(num), 24, col, "mm")
    return img


@lru_cache(maxsize=64)
def hand_face(card: str) -> Image.Image:
    """A hand card: full team name, big number, the full effect text."""
    team, num = card[0], int(card[1:])
    col = TEAM_COLORS[team]
    w, h = HAND_W, HAND_H
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=12, fill=PAPER, outline=INK, width=2)
    d.rounded_rectangle((3, 3, w - 4, 44), radius=10, fill=col)
    for i, line in enumerate(_wrap(edition.TEAM_NAMES[team], 15, w - 14, 2)):
        draw_text(img, (w // 2, 14 + 17 * i), line, 15, WHITE, "mm")
    draw_text(img, (w // 2, 84), str(num), 54, col, "mm")
    draw_text(img, (8, 48), card, 14, INK)
    for i, line in enumerate(_wrap(edition.EFFECTS[num], 14, w - 16, 7)):
        draw_text(img, (w // 2, 124 + 17 * i), line, 14, INK, "mt")
    return img


_PLACEHOLDER = re.compile(r"\{p(\d)\}")


def _fill(text: str, names: list[str]) -> str:
    """Engine texts name seats as {p0}..{p5}."""
    return _PLACEHOLDER.sub(lambda m: _name(names, int(m.group(1))), text)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _rows(count: int, per_row: int) -> int:
    return max(1, -(-count // per_row))


def _text_lines(view: dict[str, Any], names: list[str]) -> list[tuple[str, Color]]:
    """Below-the-field lines: the pending choice, the final round, the result."""
    out: list[tuple[str, Color]] = []
    pend = view.get("pending")
    if pend:
        who = _name(names, pend["seat"])
        out.append((f"{who}: {pend['prompt']}" + (" (bonus play)" if view.get("bonus") else ""), GOLD))
        for i, option in enumerate(pend.get("options") or []):
            out.append((f"  option {i}: " + " + ".join(f["label"] for f in option), WHITE))
    if view.get("final_round") and not view.get("over"):
        out.append((f"Final round: the deck is empty; the game ends after {_name(names, view['last_seat'])}'s turn",
                    WHITE))
    if view.get("over"):
        places = view.get("outcome") or []
        order = sorted(range(len(places)), key=lambda q: places[q])
        out.append(("Final: " + ", ".join(f"{places[q]}. {_name(names, q)}" for q in order), GOLD))
    return out[:8]


def table_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    field = view.get("field", [])
    per_row = (WIDTH - 2 * MARGIN + FIELD_GAP) // (FIELD_W + FIELD_GAP)
    field_rows = _rows(len(field), per_row)
    ls = view.get("last_scoring")
    ls_x = MARGIN + 400
    mini_per_row = (WIDTH - ls_x - MARGIN + MINI_GAP) // (MINI_W + MINI_GAP)
    ls_h = (24 + _rows(len(ls["field"]), mini_per_row) * (MINI_H + 8)) if ls else 0
    lines = _text_lines(view, names)
    n = view.get("num_players", len(names))
    header_h, seats_h = 40, 62
    field_h = 28 + field_rows * (FIELD_H + 14)
    piles_h = max(FIELD_H + 10, ls_h)
    height = header_h + seats_h + field_h + piles_h + 22 * len(lines) + 10
    img, d = new_canvas(WIDTH, height)

    # header: title, status
    d.rectangle((0, 0, WIDTH, header_h), fill=FELT_DARK)
    draw_text(d, (MARGIN, 9), edition.TITLE, 22, GOLD)
    status = _fill(view.get("status", ""), names)
    draw_text(d, (MARGIN + 210, 12), fit_text(status, 15, WIDTH - 230 - MARGIN), 15, WHITE)

    # players: score, scored cards, hand size; the seat to act outlined in gold
    y = header_h + 6
    box_w = (WIDTH - 2 * MARGIN - 10 * (n - 1)) // n
    to_act = set(view.get("to_act", []))
    outcome = view.get("outcome")
    for q in range(n):
        x = MARGIN + q * (box_w + 10)
        active = q in to_act
        d.rounded_rectangle((x, y, x + box_w, y + seats_h - 10), radius=8, fill=FELT_DARK,
                            outline=GOLD if active else GREY, width=4 if active else 1)
        tag = "  TO ACT" if active else ""
        if q == view.get("first"):
            tag += "  (1st)"
        draw_text(d, (x + 10, y + 5), fit_text(_name(names, q) + tag, 16, box_w - 20), 16, GOLD if active else WHITE)
        score = f"{view['scores'][q]} pts, {view['scored_counts'][q]} scored, {view['hand_counts'][q]} in hand"
        if outcome:
            score = f"#{outcome[q]}  " + score
        draw_text(d, (x + 10, y + 28), fit_text(score, 14, box_w - 20), 14, WHITE)

    # field, one row wrapping onto more lines; dealt formations underlined in grey
    y = header_h + seats_h
    dealt = {c for rec in view.get("dealt_formations", []) for c in rec}
    draw_text(d, (MARGIN, y + 2), f"Field: {len(field)} cards, left to right"
              + ("  (grey bar: dealt formation, does not score yet)" if dealt else ""), 15, WHITE)
    y += 26
    for i, card in enumerate(field):
        r, c = divmod(i, per_row)
        x = MARGIN + c * (FIELD_W + FIELD_GAP)
        cy = y + r * (FIELD_H + 14)
        paste_card(img, field_face(card), (x, cy))
        if card in dealt:
            d.rectangle((x + 4, cy + FIELD_H + 3, x + FIELD_W - 4, cy + FIELD_H + 8), fill=DEALT)
    if not field:
        draw_text(d, (MARGIN, y + 10), "(empty)", 16, GREY)

    # deck and bench (top card and count); cards in play face down
    y = header_h + seats_h + field_h
    paste_card(img, card_back(), (MARGIN, y + 4))
    draw_text(d, (MARGIN + 8, y + 100), f"Deck {view.get('deck_count', 0)}", 16, WHITE)
    bx = MARGIN + 90
    top = view.get("bench_top")
    if top:
        paste_card(img, field_face(top), (bx, y))
    else:
        d.rounded_rectangle((bx, y, bx + FIELD_W, y + FIELD_H), radius=9, outline=GREY, width=2)
    draw_text(d, (bx + FIELD_W + 10, y + 10), f"Bench: {view.get('bench_count', 0)}", 16, WHITE)
    draw_text(d, (bx + FIELD_W + 10, y + 32), "top card shown" if top else "empty", 13, GREY)
    if view.get("transit_count"):
        draw_text(d, (bx + FIELD_W + 10, y + 60), f"{view['transit_count']} card(s) in play,", 14, GOLD)
        draw_text(d, (bx + FIELD_W + 10, y + 78), "not yet shown", 14, GOLD)

    # last scoring: the field before the cards left, the scored cards highlighted
    if ls:
        draw_text(d, (ls_x, y), f"Just scored by {_name(names, ls['seat'])} (highlighted):", 15, GOLD)
        hl = set(ls["highlight"])
        for i, card in enumerate(ls["field"]):
            r, c = divmod(i, mini_per_row)
            paste_card(img, mini_face(card), (ls_x + c * (MINI_W + MINI_GAP), y + 24 + r * (MINI_H + 8)),
                       highlight=i in hl)
    y += piles_h
    for text, colour in lines:
        draw_text(d, (MARGIN, y), fit_text(text, 15, WIDTH - 2 * MARGIN), 15, colour)
        y += 22
    return to_palette(img, _PALETTE)


def _mix(a: Color, b: Color, t: float) -> Color:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _palette_image() -> Image.Image:
    """A fixed palette: the colours this renderer draws, blends for anti-aliased edges, a 6x6x6 cube."""
    keys = [FELT, FELT_DARK, GOLD, GREY, HIGHLIGHT, INK, PAPER, WHITE, CARD_BACK, DEALT, (120, 140, 210),
            *TEAM_COLORS.values()]
    cols: list[Color] = list(keys)
    for bg, fg in [(FELT, WHITE), (FELT_DARK, WHITE), (FELT_DARK, GOLD), (FELT, GOLD), (PAPER, INK)]:
        cols += [_mix(bg, fg, t) for t in (0.25, 0.5, 0.75)]
    for team in TEAM_COLORS.values():
        cols += [_mix(PAPER, team, 0.5), _mix(team, WHITE, 0.5)]
    steps = (0, 51, 102, 153, 204, 255)
    cols += [(r, g, b) for r in steps for g in steps for b in steps]
    assert len(dict.fromkeys(cols)) <= 256
    return fixed_palette(cols)


_PALETTE = _palette_image()


def hand_image(view: dict[str, Any], seat: int, names: list[str]) -> Image.Image:
    hand = view.get("hand", [])
    pend = view.get("pending") or {}
    acting = seat in view.get("to_act", [])
    transit = pend.get("transit") if acting else None
    options = pend.get("options") if acting else None
    per_row = (WIDTH - 2 * MARGIN + HAND_GAP) // (HAND_W + HAND_GAP)
    rows = _rows(len(hand), per_row)
    t_rows = _rows(len(transit), per_row) if transit else 0
    height = 60 + rows * (HAND_H + HAND_GAP) + (t_rows * (HAND_H + HAND_GAP) + 40 if transit else 0) \
        + (30 + 24 * len(options) if options else 0) + 20
    img, d = new_canvas(WIDTH, height)
    draw_text(d, (MARGIN, 14), f"{_name(names, seat)}: your hand ({len(hand)} cards)", 22, GOLD)
    sub = pend.get("prompt", "") if acting and pend else ("Game over" if view.get("over") else "Not your turn")
    draw_text(d, (MARGIN + 480, 18), fit_text(sub[:1].upper() + sub[1:], 16, WIDTH - 500 - MARGIN), 16,
              GOLD if acting else WHITE)
    y = 56
    for i, card in enumerate(hand):
        r, c = divmod(i, per_row)
        paste_card(img, hand_face(card), (MARGIN + c * (HAND_W + HAND_GAP), y + r * (HAND_H + HAND_GAP)))
    if not hand:
        draw_text(d, (MARGIN, y + 10), "(no cards)", 18, GREY)
    y += rows * (HAND_H + HAND_GAP)
    if transit:
        kind = pend.get("kind", "")
        if kind == "place" and "from_seat" in pend:
            label = f"You must play this card, taken from {_name(names, pend['from_seat'])}'s hand:"
        else:
            label = {"place": "You must play this card from the deck:", "join": "This card joins the field:",
                     "eight": "The 8's cards: keep one"}.get(kind, "In play:")
        draw_text(d, (MARGIN, y + 6), label, 18, GOLD)
        y += 36
        for i, card in enumerate(transit):
            r, c = divmod(i, per_row)
            paste_card(img, hand_face(card), (MARGIN + c * (HAND_W + HAND_GAP), y + r * (HAND_H + HAND_GAP)),
                       highlight=True)
        y += t_rows * (HAND_H + HAND_GAP)
    if options:
        draw_text(d, (MARGIN, y + 4), "Formations you may score (choose one option):", 18, GOLD)
        y += 30
        for i, option in enumerate(options):
            text = f"option {i}: " + " + ".join(f["label"] for f in option)
            draw_text(d, (MARGIN, y), fit_text(text, 16, WIDTH - 2 * MARGIN), 16, WHITE)
            y += 24
    return img
