"""Shared drawing helpers: fonts, card faces, PNG encoding.

All text goes through ``render.text``: bundled Noto fonts with glyph fallback, so names in
any script and emoji are drawn as glyphs, and truncation never cuts a grapheme.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import i18n
from render import png, text
from render.words import ordinal

Color = tuple[int, int, int]

FELT: Color = (24, 92, 58)
FELT_DARK: Color = (16, 66, 42)
INK: Color = (20, 20, 24)
PAPER: Color = (250, 248, 240)
WHITE: Color = (255, 255, 255)
GOLD: Color = (246, 196, 69)
GREY: Color = (150, 150, 150)
#: secondary labels on the felt: 4.5:1 or more on FELT and FELT_DARK (WCAG AA), which GREY is not
MUTED: Color = (200, 200, 200)
MUTED_ON_PAPER: Color = (90, 90, 90)   # the same on a paper card: 6.5:1
HIGHLIGHT: Color = (255, 221, 0)
CARD_BACK: Color = (52, 73, 140)

CARD_W = 64
CARD_H = 90


def font(size: int) -> ImageFont.FreeTypeFont:
    """The main (Latin, Greek, Cyrillic) font; draw with ``draw_text`` to get fallback for other scripts."""
    return text.pil_font(text.REGULAR[0], size)


def text_width(s: str, size: int, bold: bool = False) -> int:
    return text.text_width(s, size, bold)


def draw_text(draw: ImageDraw.ImageDraw | Image.Image, xy: tuple[float, float], s: str, size: int = 16,
              fill: Color = WHITE, anchor: str = "la", bold: bool = False) -> tuple[int, int, int, int]:
    return text.draw(draw, xy, s, size, fill, anchor, bold)


def fit_text(s: str, size: int, max_width: int, bold: bool = False) -> str:
    """Shorten ``s`` with an ellipsis at a grapheme boundary so it fits ``max_width`` pixels."""
    return text.fit(s, size, max_width, bold)


@lru_cache(maxsize=512)
def card_face(label: str, color: Color = INK, sub: str = "", bg: Color = PAPER,
              w: int = CARD_W, h: int = CARD_H) -> Image.Image:
    """A cached card face: a big centred label, an optional small line below.

    Cached because a table image draws the same faces again and again.
    """
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=bg, outline=INK, width=2)
    size = 30 if len(label) <= 2 else (22 if len(label) <= 4 else 16)
    draw_text(img, (w // 2, h // 2 - (8 if sub else 0)), label, size, color, "mm")
    if sub:
        draw_text(img, (w // 2, h - 14), fit_text(sub, 12, w - 6), 12, color, "mm")
    return img


@lru_cache(maxsize=8)
def card_back(w: int = CARD_W, h: int = CARD_H) -> Image.Image:
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=CARD_BACK, outline=WHITE, width=2)
    d.rounded_rectangle((6, 6, w - 7, h - 7), radius=6, outline=(120, 140, 210), width=2)
    return img


def paste_card(canvas: Image.Image, card: Image.Image, xy: tuple[int, int],
               highlight: bool = False) -> None:
    canvas.paste(card, xy)
    if highlight:
        x, y = xy
        ImageDraw.Draw(canvas).rounded_rectangle(
            (x - 3, y - 3, x + card.width + 2, y + card.height + 2), radius=10,
            outline=HIGHLIGHT, width=4)


def new_canvas(w: int, h: int, bg: Color = FELT) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (w, h), bg)
    return img, ImageDraw.Draw(img)


def fixed_palette(colours: list[Color]) -> Image.Image:
    """A palette image holding ``colours`` (deduplicated, at most 256) for ``to_palette``.

    Entries left over hold an even colour cube, so emoji in names keep recognisable colours."""
    unique = list(dict.fromkeys(colours))[:256]
    levels = (0, 64, 128, 192, 255)
    for c in ((r, g, b) for r in levels for g in levels for b in levels):
        if len(unique) >= 256:
            break
        if c not in unique:
            unique.append(c)
    flat = [v for c in unique for v in c]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + flat[:3] * (256 - len(unique)))
    return pal


def make_palette(inks: list[Color], grounds: list[Color], steps: tuple[float, ...] = (0.25, 0.5, 0.75),
                 room: int = 131) -> Image.Image:
    """Flat colours, anti-aliasing steps between each ink and the grounds it is drawn on, at most
    ``room`` entries; the rest of the 256 is a colour cube (see ``fixed_palette``)."""
    colours: list[Color] = list(dict.fromkeys([*inks, *grounds]))
    for a in inks:
        for b in grounds:
            for t in steps:
                c = (round(b[0] + (a[0] - b[0]) * t), round(b[1] + (a[1] - b[1]) * t),
                     round(b[2] + (a[2] - b[2]) * t))
                if a != b and c not in colours and len(colours) < room:
                    colours.append(c)
    return fixed_palette(colours)


def to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    """Map to a fixed palette: flat card art loses nothing visible, and a palette PNG
    encodes several times faster than RGB (about 2 ms instead of 18 ms at 1000 px)."""
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def to_png(img: Image.Image) -> bytes:
    """Encode as PNG: a picture stacked from strips joins their compressed rows (``render.strips``); other
    palette pictures go through ``render.png``, which reuses the compressed bands of rows that have not
    changed since an earlier picture; anything else through Pillow.

    For Pillow, compress_level 3 is the measured sweet spot: flat card art stays far under
    the 200 KB budget while encoding takes about half the time of level 6.
    """
    blocks = img.info.get(png.ROWS_INFO)
    if blocks is not None:
        return png.from_rows(img, blocks)
    if png.encodable(img):
        return png.encode(img)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def finished(view: dict[str, Any], placings: Sequence[int] | None) -> dict[str, Any]:
    """The view as the final picture draws it. With ``placings`` (each seat's place, 1 = first) the table is
    over however it ended (last move, resignation, forfeit, timeout, abandon), whatever the engine's view
    says: nobody is to act and the placings are drawn; an empty list is a table over without a result (an
    abandoned one). Without (None), the view as it is."""
    if placings is None:
        return view
    return {**view, "to_act": [], "placings": list(placings)}


def placings_line(placings: Sequence[int], names: list[str], lang: str = i18n.DEFAULT) -> str:
    """ "Final: 1st alice · 2nd bob · 2nd carol" in order of place (seats as their names); no placings (an
    abandoned table) is "Game over: no result". In ``lang``: "Final" and the places the language's way."""
    if not placings:
        return i18n.t(lang, "Game over: no result")
    order = sorted(range(len(placings)), key=lambda s: (placings[s], s))
    def name(s: int) -> str:
        return names[s] if s < len(names) and names[s] else i18n.t(lang, "Seat {number}", number=s + 1)

    return i18n.t(lang, "Final: {places}", places=" · ".join(f"{place(lang, placings[s])} {name(s)}" for s in order))


def place(lang: str, n: int) -> str:
    """A finishing place the language's way: "1st", "2nd" in English; "1er", "2e" in French; "1-е" in Ukrainian."""
    if lang == i18n.DEFAULT:
        return ordinal(n)
    return i18n.t(lang, "1st") if n == 1 else i18n.t(lang, "{n}th", n=n)
