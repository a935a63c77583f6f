"""Pentawar renderer: the pentagram, the tableau, the piles and every flight wing (from the view only), its words
in the reader's language."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import i18n
from data.editions import pentawar as edition
from i18n import DEFAULT, N_, say_text
from render import text
from render.common import (
    CARD_BACK,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    WHITE,
    card_back,
    draw_text,
    finished,
    fit_text,
    fixed_palette,
    paste_card,
    placings_line,
)
from render.layout import BODY, PAD, SMALL, TITLE, WIDTH, fit_names, label, name_label, panel
from render.named import around, name_and_rest
from render.strips import Strip, stack
from render.words import ordinal

Color = tuple[int, int, int]

WAR_W, WAR_H = 100, 130
WING_W, WING_H = 92, 104
WING_STEP = 104
TAB_W, TAB_H, TAB_STEP = 68, 92, 74   # ten kinds fit one row
SMALL_W, SMALL_H = 84, 110
HAND_W, HAND_H = 100, 130
PLACES = ("A", "B", "C", "D", "E")
HEAD_H = 96
HAND_HEAD_H = 150
HAND_ROW_H = HAND_H + 14
#: A framed hand card's outline reaches this far above the card: each row's strip starts that much above it.
FRAME_REACH = 3
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
    base = [FELT, FELT_DARK, INK, WHITE, GOLD, MUTED, HIGHLIGHT, CARD_BACK, BACK_INNER, PANEL_LINE, STAR_EDGE,
            SLOT, SHADOW, *kinds]
    pairs = [(bg, fg) for bg in (FELT, FELT_DARK) for fg in (WHITE, GOLD, MUTED, HIGHLIGHT, INK, SLOT)]
    pairs += [(c, _ink(c)) for c in kinds] + [(c, WHITE) for c in kinds]
    pairs += [(CARD_BACK, WHITE), (GOLD, INK), (FELT, CARD_BACK), (FELT_DARK, WHITE), (INK, HIGHLIGHT)]
    colours = list(dict.fromkeys(base + [_blend(bg, fg, s) for bg, fg in pairs for s in (0.25, 0.5, 0.75)]))
    assert len(colours) <= 256
    return fixed_palette(colours)


def _sub(text: str, names: list[str], lang: str = DEFAULT) -> str:
    return _PLACEHOLDER.sub(lambda m: _name(names, int(m.group(1)), lang), text)


def _name(names: list[str], seat: int, lang: str = DEFAULT) -> str:
    return names[seat] if seat < len(names) and names[seat] else i18n.t(lang, "Seat {number}", number=seat + 1)


def kind_name(kind: str, lang: str = DEFAULT) -> str:
    """A dragon kind's name in ``lang`` (the glossary's: Soleil, Сонце)."""
    return i18n.t(lang, edition.NAMES[kind]) if kind in edition.NAMES else kind


@lru_cache(maxsize=8)
def marks(lang: str = DEFAULT) -> dict[str, str]:
    """Each kind's two-letter mark, printed big on its card: the edition's in English ("Su" for Sun); in another
    language the first two letters of the kind's name there ("So" for Soleil, "Со" for Сонце), so a covered
    dragon reads as its name does. Should two kinds share them, the edition's marks, which are distinct."""
    if lang == DEFAULT:
        return dict(edition.ABBREVIATIONS)
    found = {kind: "".join(text.clusters(kind_name(kind, lang))[:2]).title() for kind in edition.KINDS}
    return found if len(set(found.values())) == len(found) else dict(edition.ABBREVIATIONS)


def _ordinal(lang: str, n: int) -> str:
    """A place: "1st", "2nd" in English; the language's own way elsewhere ("1er", "2e"; "1-е")."""
    if lang == DEFAULT:
        return ordinal(n)
    return i18n.t(lang, "1st") if n == 1 else i18n.t(lang, "{n}th", n=n)


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


@lru_cache(maxsize=8)
def name_width(lang: str = DEFAULT) -> int:
    """The narrowest card every kind's name in ``lang`` fits on whole at the smallest legible size."""
    return max(text.text_width(kind_name(kind, lang), SMALL) for kind in edition.KINDS) + 6


@lru_cache(maxsize=128)
def dragon_card(kind: str, w: int, h: int, lang: str = DEFAULT) -> Image.Image:
    """A dragon card: the kind's colour, its two-letter mark at the top (visible when covered), a big sigil,
    and on cards big enough for every kind's name (100 px wide), the name (in ``lang``: the cache keeps each
    language's card)."""
    bg = edition.COLOURS.get(kind, MUTED)
    ink = _ink(bg)
    img = Image.new("RGB", (w, h), FELT_DARK)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=max(4, w // 8), fill=bg, outline=WHITE, width=2)
    mark = marks(lang).get(kind, kind[:2].title())
    top = max(SMALL, h // 5)
    draw_text(img, (5, 3), mark, top, ink)
    _sigil(d, edition.SIGILS.get(kind, ""), w - 5 - top * 0.4, 3 + top * 0.55, top * 0.4, ink, bg)
    _sigil(d, edition.SIGILS.get(kind, ""), w / 2, h * 0.56, min(w, h) * 0.27, ink, bg)
    if h >= 110 and w >= name_width(lang):  # narrower, "Sapphire" would be cut: the mark and sigil say it
        name = kind_name(kind, lang)
        size = SMALL
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


STAR_W, STAR_H = 470, 440


def war_points(x0: int, y0: int) -> list[tuple[float, float]]:
    """The centres of the five pentawar cards, positions 0-4, in a star drawn at (x0, y0)."""
    r = 140
    return _star_points(x0 + STAR_W // 2, y0 + 48 + WAR_H // 2 + r, r)


def _draw_pentawar(img: Image.Image, d: ImageDraw.ImageDraw, war: list[str], x0: int, y0: int,
                   altered: int | None = None, lang: str = DEFAULT) -> None:
    """The five dragons on a pentagram, numbered 0-4 clockwise from the top as in the rules and the
    action labels ("puts Frost on position 2"). The position changed by the last Alter war gets a
    thick frame (dark, then bright, so it stands out from the gold star) and an inverted badge."""
    box = (x0, y0, x0 + STAR_W, y0 + STAR_H)
    pts = war_points(x0, y0)
    for p in range(5):  # the across-lines: the star
        d.line([pts[p], pts[(p + 2) % 5]], fill=GOLD, width=4)
    label(img, (x0 + PAD, y0), i18n.t(lang, "The pentawar"), SMALL, GOLD, box)  # not bold: clear of the 0 badge
    for p, (px, py) in enumerate(pts):
        x, y = int(px - WAR_W / 2), int(py - WAR_H / 2)
        if p == altered:
            d.rounded_rectangle((x - 9, y - 9, x + WAR_W + 8, y + WAR_H + 8), radius=16, outline=INK, width=4)
            d.rounded_rectangle((x - 6, y - 6, x + WAR_W + 5, y + WAR_H + 5), radius=14, outline=HIGHLIGHT, width=5)
        if p < len(war):
            paste_card(img, dragon_card(war[p], WAR_W, WAR_H, lang), (x, y))
        lx, ly = px - WAR_W / 2 - 4, py - WAR_H / 2 - 4
        if p == altered:
            d.ellipse((lx - 19, ly - 19, lx + 19, ly + 19), fill=INK, outline=HIGHLIGHT, width=3)
            draw_text(d, (int(lx), int(ly)), str(p), SMALL, HIGHLIGHT, "mm", bold=True)
        else:
            d.ellipse((lx - 17, ly - 17, lx + 17, ly + 17), fill=GOLD, outline=INK, width=2)
            draw_text(d, (int(lx), int(ly)), str(p), SMALL, INK, "mm", bold=True)


def _draw_side(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], x0: int, y0: int,
               h: int, lang: str = DEFAULT) -> None:
    """Deck, discard, reshuffle, and the Alter war: the dragon being placed, or what the last one changed."""
    box = panel(d, (x0, y0, WIDTH - PAD, y0 + h), FELT_DARK)
    x = x0 + 2 * PAD
    paste_card(img, card_back(SMALL_W, SMALL_H), (x, y0 + 2 * PAD))
    label(img, (x + SMALL_W // 2, y0 + 2 * PAD + SMALL_H // 2), str(view.get("deck_count", 0)), BODY, WHITE,
          box, "mm", bold=True)
    label(img, (x + SMALL_W // 2, y0 + 2 * PAD + SMALL_H + 6), i18n.t(lang, "deck"), SMALL, WHITE, box, "ma")
    dx = x + SMALL_W + 3 * PAD
    discard = view.get("discard") or []
    if discard:
        paste_card(img, dragon_card(discard[-1], SMALL_W, SMALL_H, lang), (dx, y0 + 2 * PAD))
    else:
        img.paste(_slot(SMALL_W, SMALL_H), (dx, y0 + 2 * PAD), _slot(SMALL_W, SMALL_H))
    label(img, (dx + SMALL_W // 2, y0 + 2 * PAD + SMALL_H + 6),
          i18n.t(lang, "discard {count}", count=view.get("discard_count", 0)), SMALL, WHITE,
          (dx - 40, y0, box[2], box[3]), "ma")
    resh = view.get("reshuffle") or {}
    # two short lines each, the side panel being narrow
    if not resh.get("allowed"):
        lines = [N_("No reshuffle"), N_("(2-3 players)")]
    else:
        lines = ([N_("Reshuffled once:"), N_("last deck")] if resh.get("done")
                 else [N_("One reshuffle"), N_("of the discards left")])
    ty = y0 + 2 * PAD + SMALL_H + 44
    for i, line in enumerate(lines):
        label(img, (x, ty + 30 * i), i18n.t(lang, line), SMALL, MUTED, box, inset=PAD)
    label(img, (x, ty + 70), i18n.t(lang, "Turn {turn}", turn=view.get("turn_number", 1)), SMALL, WHITE, box,
          inset=PAD)
    pending = view.get("pending")
    if pending:
        py = ty + 112
        label(img, (x, py), i18n.t(lang, "Alter war: placing"), SMALL, HIGHLIGHT, box, bold=True, inset=PAD)
        paste_card(img, dragon_card(pending["kind"], SMALL_W, SMALL_H, lang), (x + 4, py + 36), highlight=True)
        # "from hand" and "from the tableau", each on two lines beside the card
        where = ((N_("from"), N_("hand")) if pending.get("from") == "hand" else (N_("from the"), N_("tableau")))
        for i, line in enumerate(where):
            label(img, (x + SMALL_W + 16, py + 48 + 30 * i), i18n.t(lang, line), SMALL, HIGHLIGHT, box, inset=PAD)
    altered = view.get("altered")
    if altered and not pending:
        py = ty + 112
        pos = altered.get("position")
        kind = kind_name(altered.get("kind", ""), lang) if altered.get("kind") else "?"
        old = kind_name(altered.get("replaced", ""), lang) if altered.get("replaced") else "?"
        label(img, (x, py), i18n.t(lang, "War altered"), SMALL, HIGHLIGHT, box, bold=True, inset=PAD)
        by = _name(names, int(altered.get("seat", 0)), lang)
        label(img, (x, py + 32), fit_names(around(lang, N_("by {name}"), by), SMALL, box[2] - PAD - x), SMALL, WHITE,
              box, inset=PAD)
        label(img, (x, py + 64), i18n.t(lang, "position {position}: {kind}", position=pos, kind=kind), SMALL, WHITE,
              box, inset=PAD)
        label(img, (x, py + 96), i18n.t(lang, "replaced {kind}", kind=old), SMALL, MUTED, box, inset=PAD)


def _grouped(cards: list[str]) -> list[tuple[str, int]]:
    order = {k: i for i, k in enumerate(edition.KINDS)}
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return sorted(counts.items(), key=lambda kv: order.get(kv[0], 99))


def _tableau_height(view: dict[str, Any]) -> int:
    kinds = len(_grouped(view.get("tableau") or []))
    per_row = (WIDTH - 4 * PAD) // TAB_STEP
    return 50 + max(1, -(-kinds // per_row)) * (TAB_H + 40) if kinds else 90


def _draw_tableau(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, lang: str = DEFAULT) -> int:
    """The shared tableau: one card per kind, its count written under it (never over its name)."""
    tableau = view.get("tableau") or []
    h = _tableau_height(view)
    box = panel(d, (PAD, y, WIDTH - PAD, y + h - PAD), FELT_DARK)
    label(img, (3 * PAD, y + 6), i18n.tn(lang, "Shared tableau: {n} card", "Shared tableau: {n} cards", len(tableau)),
          SMALL, GOLD, box, bold=True)
    if not tableau:
        label(img, (3 * PAD, y + 44), i18n.t(lang, "empty"), SMALL, MUTED, box)
    per_row = (WIDTH - 4 * PAD) // TAB_STEP
    for i, (kind, many) in enumerate(_grouped(tableau)):
        x = 3 * PAD + (i % per_row) * TAB_STEP
        cy = y + 44 + (i // per_row) * (TAB_H + 40)
        paste_card(img, dragon_card(kind, TAB_W, TAB_H, lang), (x, cy))
        label(img, (x + TAB_W // 2, cy + TAB_H + 4), f"×{many}", SMALL, WHITE,
              (x - 3, cy, x + TAB_STEP - 3, cy + TAB_H + 36), "ma", bold=True)
    return box[3] + PAD


WING_ROW_H = WING_H + 36 + 24
NAME_COL = 250


@lru_cache(maxsize=32)
def _wing_card(kind: str, covered: bool, lang: str = DEFAULT) -> Image.Image:
    card = dragon_card(kind, WING_W, WING_H, lang)
    return Image.blend(card, Image.new("RGB", card.size, FELT_DARK), 0.5) if covered else card


def _two_lines(name: str, size: int, width: int) -> tuple[str, str]:
    """A long name split over two lines at a grapheme boundary, the second shortened if need be."""
    if text.text_width(name, size, True) <= width:
        return name, ""
    cl = text.clusters(name)
    k = len(cl)
    while k > 1 and text.text_width("".join(cl[:k]), size, True) > width:
        k -= 1
    # prefer breaking after a space
    space = max((i + 1 for i in range(k) if cl[i] == " "), default=k)
    k = space if space > k // 2 else k
    return "".join(cl[:k]).rstrip(), text.fit("".join(cl[k:]).lstrip(), size, width, True)


def _draw_wing_row(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, names: list[str],
                   y: int, lang: str = DEFAULT) -> int:
    """A player's flight wing as five places A-E side by side at full size; a covered dragon is dimmed
    and says which place covers it, instead of cards piled over one another."""
    acting = seat in view.get("to_act", [])
    box = panel(d, (PAD, y, WIDTH - PAD, y + WING_ROW_H - PAD), FELT_DARK, HIGHLIGHT if acting else None, 4)
    wings = view.get("wings", [])
    wing = wings[seat] if seat < len(wings) else {}
    counts = view.get("hand_counts", [])
    n_wing = sum(1 for p in PLACES if wing.get(p))
    left = (box[0], box[1], box[0] + NAME_COL, box[3])
    line1, line2 = _two_lines(_name(names, seat, lang), BODY, NAME_COL - 3 * PAD)
    colour = HIGHLIGHT if acting else WHITE
    label(img, (box[0] + 2 * PAD, y + 6), line1, BODY, colour, left, bold=True, inset=PAD)
    if line2:
        label(img, (box[0] + 2 * PAD, y + 40), line2, BODY, colour, left, bold=True, inset=PAD)
    tags = []
    outcome = view.get("outcome") or view.get("placings")
    if outcome and seat < len(outcome):
        tags.append(_ordinal(lang, outcome[seat]))
    if acting:
        tags.append(i18n.t(lang, "to act"))
    label(img, (box[0] + 2 * PAD, y + 80), " · ".join(tags), SMALL, HIGHLIGHT if acting else GOLD, left, inset=PAD)
    label(img, (box[0] + 2 * PAD, y + 112), i18n.t(lang, "wing {wing}/5 · hand {hand}", wing=n_wing,
                                                   hand=counts[seat] if seat < len(counts) else 0),
          SMALL, MUTED, left, inset=PAD)
    covers = {"A": "C", "B": "D", "C": "E", "D": "E"}
    for i, place in enumerate(PLACES):
        x = box[0] + NAME_COL + i * WING_STEP
        cy = y + 8
        cell = wing.get(place)
        spot = (x - 4, y, x + WING_STEP - 4, box[3])
        if cell:
            img.paste(_wing_card(cell["kind"], bool(cell.get("covered")), lang), (x, cy))
            if cell.get("covered"):
                tag = i18n.t(lang, "under {place}", place=covers[place])
                # On a plate of its own: the dimmed card's light colours behind white text fell to 2.8:1.
                ascent, descent = text.line_metrics(SMALL)
                half = min(text.text_width(tag, SMALL) // 2 + 6, (spot[2] - spot[0]) // 2)
                bottom = cy + WING_H - 8
                ImageDraw.Draw(img).rectangle((x + WING_W // 2 - half, bottom - ascent - descent - 4,
                                               x + WING_W // 2 + half, bottom + 3), fill=FELT_DARK)
                label(img, (x + WING_W // 2, bottom), tag, SMALL, WHITE, spot, "md")
        else:
            img.paste(_slot(WING_W, WING_H), (x, cy), _slot(WING_W, WING_H))
        label(img, (x + WING_W // 2, cy + WING_H + 4), place, SMALL, WHITE if cell else MUTED, spot, "ma", bold=True)
    return box[3] + PAD


#: How the engine ends a game when a player starts a turn with a full flight wing (its ``end_reason``), as English
#: text: a state loaded from its snapshot keeps it plain, without its message.
_FULL_WING = re.compile(r"^\{p(\d)\} starts a turn with 5 dragons in the flight wing$")


def full_wing_seat(reason: object) -> int | None:
    """The seat whose full flight wing ended the game, when that is why it ended."""
    found = _FULL_WING.match(str(reason or ""))
    return int(found.group(1)) if found else None


def _game_over(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> str:
    """The heading of a finished game: why it ended, in ``lang``, seats named. A full flight wing is told in a
    few words around the player's name, which alone is shortened (the engine's sentence is longer than the
    heading)."""
    reason = view.get("end_reason") or ""
    seat = full_wing_seat(reason)
    if seat is not None:
        return fit_names(around(lang, N_("Game over: {name}'s flight wing is full"), _name(names, seat, lang)), BODY,
                         WIDTH - 4 * PAD, bold=True)
    return i18n.t(lang, "Game over: {reason}", reason=_sub(say_text(lang, reason), names, lang))


def _header_texts(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> tuple[str, str, str]:
    """What the header's second line says: (game-over line, or "" and who acts, what they do)."""
    if view.get("placings") is not None and not view.get("over"):
        return placings_line(view["placings"], names, lang), "", ""
    if view.get("over"):
        return _game_over(view, names, lang), "", ""
    acting = view.get("to_act", [])
    who = ", ".join(_name(names, s, lang) for s in acting)
    doing = (N_("{name} to alter the war") if view.get("pending") else
             N_("{name} may kill, or end the turn") if view.get("phase") == "alter_kill" else N_("{name} to act"))
    first = name_and_rest(lang, doing, who)
    if first:
        return "", *first
    # a language that names the player later in the line: one line, only the names shortened
    return fit_names(around(lang, doing, who), BODY, WIDTH - 4 * PAD, bold=True), "", ""


def _header(img: Image.Image, texts: tuple[str, str, str]) -> None:
    head = (0, 0, WIDTH, HEAD_H)
    label(img, (2 * PAD, PAD), "Pentawar", TITLE, GOLD, head, bold=True)
    over, who, what = texts
    if over:
        label(img, (2 * PAD, 52), over, BODY, HIGHLIGHT, head, bold=True, inset=2 * PAD)
        return
    name_label(img, (2 * PAD, 52), who, what, BODY, HIGHLIGHT, head, bold=True, inset=2 * PAD)


def _altered_position(view: dict[str, Any]) -> int | None:
    altered = view.get("altered")  # None, or absent from views made before it existed
    return int(altered["position"]) if altered else None


def _war_key(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> Hashable:
    """Everything the pentawar and the side panel beside it read (the two share rows, so one strip)."""
    discard = view.get("discard") or []
    resh = view.get("reshuffle") or {}
    altered = view.get("altered")
    return ("war", json.dumps({
        "war": list(view.get("pentawar", [])),
        "altered": altered,
        # the side panel names whoever altered the war
        "altered_by": _name(names, int(altered.get("seat", 0)), lang) if altered else None,
        "deck": view.get("deck_count", 0),
        "discard_top": discard[-1] if discard else None,
        "discard_count": view.get("discard_count", 0),
        "reshuffle": [bool(resh.get("allowed")), bool(resh.get("done"))],
        "turn": view.get("turn_number", 1),
        "pending": view.get("pending"),
    }, sort_keys=True), lang)


def _wing_key(view: dict[str, Any], seat: int, names: list[str], lang: str = DEFAULT) -> Hashable:
    """Everything ``_draw_wing_row`` reads for ``seat``: its wing rarely changes, so most rows are pasted."""
    wings = view.get("wings", [])
    counts = view.get("hand_counts", [])
    outcome = view.get("outcome")
    return ("wing", _name(names, seat, lang), seat in view.get("to_act", []),
            json.dumps(wings[seat] if seat < len(wings) else {}, sort_keys=True),
            counts[seat] if seat < len(counts) else 0,
            outcome[seat] if outcome and seat < len(outcome) else None, lang)


def _war_strip(view: dict[str, Any], names: list[str], lang: str = DEFAULT) -> Strip:
    """The pentawar with the side panel beside it (they share rows, so one strip); table and hand share it."""

    def war(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
        _draw_pentawar(img, d, list(view.get("pentawar", [])), 0, 0, _altered_position(view), lang)
        _draw_side(img, d, view, names, STAR_W + PAD, 0, STAR_H, lang)

    return Strip(STAR_H + PAD, war, _war_key(view, names, lang))


def _wing_strip(view: dict[str, Any], seat: int, names: list[str], lang: str = DEFAULT) -> Strip:
    """``seat``'s flight wing row; table and hand share it."""
    return Strip(WING_ROW_H, lambda img, d: _draw_wing_row(img, d, view, seat, names, 0, lang),
                 _wing_key(view, seat, names, lang))


def table_image(view: dict[str, Any], names: list[str], placings: Sequence[int] | None = None,
                lang: str = DEFAULT) -> Image.Image:
    """The table; with ``placings`` (each seat's place, 1 = first) the table is over: the final picture.
    Its words speak ``lang``."""
    view = finished(view, placings)
    n = int(view.get("num_players", len(names)))
    texts = _header_texts(view, names, lang)
    strips = [Strip(HEAD_H, lambda img, d: _header(img, texts), ("head", texts, lang)),
              _war_strip(view, names, lang),
              Strip(_tableau_height(view), lambda img, d: _draw_tableau(img, d, view, 0, lang),
                    ("tableau", tuple(_grouped(view.get("tableau") or [])), lang))]
    strips += [_wing_strip(view, seat, names, lang) for seat in range(n)]
    strips.append(Strip(PAD, lambda img, d: None, "end"))
    return stack(WIDTH, strips, _palette())


def hand_image(view: dict[str, Any], seat: int, names: list[str], lang: str = DEFAULT) -> Image.Image:
    """The hand, and what a choice is about: the pentawar and every flight wing (a kill's targets).

    Drawn as strips (``render.strips``): the heading, each row of the hand, then the table picture's
    own pentawar and wing strips (same drawing, same keys), which a move rarely changes."""
    hand = list(view.get("hand") or [])
    war = set(view.get("pentawar") or [])
    per_row = 7
    rows = max(1, math.ceil(len(hand) / per_row))
    n = int(view.get("num_players", 0)) or len(view.get("wings", []))
    held = i18n.tn(lang, "Your hand: {n} card", "Your hand: {n} cards", len(hand))
    mine = seat in view.get("to_act", [])

    def head(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
        box = (0, 0, WIDTH, HAND_HEAD_H - 4)
        label(img, (2 * PAD, PAD), held, TITLE, GOLD, box, bold=True)
        label(img, (2 * PAD, 54), i18n.t(lang, "Your turn") if mine else i18n.t(lang, "Not your turn"), BODY,
              HIGHLIGHT if mine else MUTED, box, bold=mine)
        label(img, (2 * PAD, 96), i18n.t(lang, "Framed: in the pentawar (can strengthen or kill)"), SMALL, MUTED, box,
              inset=2 * PAD)

    # The heading gives the first row the pixels its cards' frames reach into.
    strips = [Strip(HAND_HEAD_H - FRAME_REACH, head, ("hand head", held, mine, lang))]
    step = (WIDTH - 2 * PAD) // per_row
    for r in range(rows):
        # Each card with whether it is framed: all that a row's strip shows.
        cards = tuple((kind, kind in war) for kind in hand[r * per_row:(r + 1) * per_row])

        def hand_row(img: Image.Image, d: ImageDraw.ImageDraw, cards: tuple[tuple[str, bool], ...] = cards) -> None:
            y = FRAME_REACH
            if not cards:
                label(img, (2 * PAD, y + 30), i18n.t(lang, "No cards in hand"), BODY, MUTED, (0, y, WIDTH, y + HAND_H))
            for i, (kind, framed) in enumerate(cards):
                x = PAD + i * step + (step - HAND_W) // 2
                paste_card(img, dragon_card(kind, HAND_W, HAND_H, lang), (x, y), highlight=framed)

        # The last row's strip also takes the rows its start moved up: the strips still end where the hand does.
        height = HAND_ROW_H + (FRAME_REACH if r == rows - 1 else 0)
        strips.append(Strip(height, hand_row, ("hand row", cards, lang)))

    strips.append(_war_strip(view, names, lang))
    strips += [_wing_strip(view, s, names, lang) for s in range(n)]
    strips.append(Strip(PAD, lambda img, d: None, "end"))
    return stack(WIDTH, strips, _palette())
