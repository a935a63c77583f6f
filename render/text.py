"""Text in any script: bundled Noto fonts with per-grapheme fallback, emoji, safe truncation.

Pillow draws with one font at a time and has no fallback, so a name in Cyrillic, Chinese or
with an emoji came out as boxes. Here a text is NFC-normalised, split into grapheme clusters
(``regex``'s ``\\X``, so 👨‍👩‍👧, 🇺🇦 and combining marks stay whole), each cluster gets the
first bundled font whose cmap covers it, and runs of one font are drawn one after the other on
a shared baseline. A cluster no font covers is drawn as a visible replacement (U+FFFD, �),
never as an empty box. Shaping (joining ZWJ sequences, flags, marks) is done by libraqm, which
Pillow's wheel bundles and which needs the system's libfribidi0.

Every draw can be recorded (``recording()``), so tests can check that texts stay inside their
panels, do not overlap and are large enough at phone width.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import regex
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
#: The emoji font is bitmap-only; its strike was rebuilt at this ppem (render/fonts/build.py),
#: which is the only size FreeType accepts for it. It is drawn there and scaled.
EMOJI_PPEM = 48
EMOJI = "NotoColorEmoji.ttf"
REGULAR = ("NotoSans-Regular.ttf", "NotoSansSymbols2-Subset.ttf", "NotoSansCJK-Subset.otf", EMOJI)
BOLD = ("NotoSans-Bold.ttf", "NotoSansSymbols2-Subset.ttf", "NotoSansCJK-Subset.otf", EMOJI)
REPLACEMENT = "\ufffd"
ELLIPSIS = "…"

Color = tuple[int, int, int]
_GRAPHEME = regex.compile(r"\X")
# Clusters that want the emoji font even where a text font has the code point (♥️ with VS16, flags,
# ZWJ sequences, skin tones, keycaps) or that are emoji by default (😀).
_EMOJI_CLUSTER = regex.compile(r"^\p{Emoji_Presentation}|\ufe0f|\u200d|\u20e3|[\U0001F1E6-\U0001F1FF]|"
                               r"[\U0001F3FB-\U0001F3FF]")
# Code points that need no glyph of their own: joiners, variation selectors, tag characters.
_INVISIBLE = {0x200C, 0x200D, 0xFE0E, 0xFE0F, *range(0xE0020, 0xE0080)}


@cache
def cmap(name: str) -> frozenset[int]:
    """The code points a bundled font has a glyph for, read once with fontTools."""
    font = TTFont(str(FONT_DIR / name), lazy=True)
    try:
        return frozenset(font.getBestCmap())
    finally:
        font.close()


@lru_cache(maxsize=128)
def pil_font(name: str, size: int) -> ImageFont.FreeTypeFont:
    if name == EMOJI:
        size = EMOJI_PPEM
    return ImageFont.truetype(str(FONT_DIR / name), size, layout_engine=ImageFont.Layout.RAQM)


def clusters(text: str) -> list[str]:
    """Grapheme clusters of the NFC form of ``text``."""
    return _GRAPHEME.findall(unicodedata.normalize("NFC", text))


def font_for(cluster: str, bold: bool = False) -> str | None:
    """The first bundled font that has every visible code point of ``cluster``, or None."""
    chain = BOLD if bold else REGULAR
    if _EMOJI_CLUSTER.search(cluster):
        chain = (EMOJI, *chain[:-1])
    needed = {ord(c) for c in cluster} - _INVISIBLE
    if not needed:
        return chain[0]
    for name in chain:
        if needed <= cmap(name):
            return name
    return None


@lru_cache(maxsize=8192)
def runs(text: str, bold: bool = False) -> tuple[tuple[str, str], ...]:
    """``text`` as (font name, text) runs; uncovered clusters become REPLACEMENT in the main font."""
    out: list[tuple[str, str]] = []
    for cl in clusters(text):
        name = font_for(cl, bold)
        if name is None:
            name, cl = (BOLD if bold else REGULAR)[0], REPLACEMENT
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1] + cl)
        else:
            out.append((name, cl))
    return tuple(out)


def _emoji_scale(size: int) -> float:
    return size / EMOJI_PPEM


def _run_width(name: str, run: str, size: int) -> float:
    if name == EMOJI:
        return pil_font(name, size).getlength(run) * _emoji_scale(size)
    return pil_font(name, size).getlength(run)


#: Bidi classes of right-to-left text: a line holding any is laid out whole, never word by word.
_RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...] | None:
    """``text`` split at its spaces, when it is drawn word by word; None when it is drawn whole.

    Most labels are new combinations of words a table has drawn before ("Last: alice plays C3 at the
    right end", "hand 4 · to act"), and rasterising a line was the largest part of drawing a table.
    Words are drawn once, cached, and set side by side. A line with right-to-left text is laid out
    whole (word order is the shaper's business there), and so is a line without a space."""
    if " " not in text or not text.strip(" ") or any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text):
        return None
    return tuple(text.split(" "))


@lru_cache(maxsize=8192)
def _advance(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text``: its words' and spaces' when it is drawn word by word (see ``words``)."""
    split = words(text)
    if split is not None:
        return sum(_advance(w, size, bold) for w in split if w) + (len(split) - 1) * _advance(" ", size, bold)
    return sum(_run_width(name, run, size) for name, run in runs(text, bold))


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Advance width in pixels of ``text`` at ``size``."""
    return round(_advance(text, size, bold))


def line_metrics(size: int, bold: bool = False) -> tuple[int, int]:
    """(ascent, descent) of the main font: the line box every run is aligned in."""
    ascent, descent = pil_font((BOLD if bold else REGULAR)[0], size).getmetrics()
    return ascent, descent


@lru_cache(maxsize=64)
def _stamp(text: str, size: int, bold: bool, fill: Color) -> tuple[Image.Image, int]:
    """The whole line drawn once in RGBA (cached: tables redraw the same labels), and the
    y of its baseline inside the image. The image has room above and below the line box for
    scripts and emoji that reach past the main font's ascent or descent."""
    ascent, descent = line_metrics(size, bold)
    pad = size // 2
    width = text_width(text, size, bold) + 2 * pad
    img = Image.new("RGBA", (max(1, width), ascent + descent + 2 * pad), (0, 0, 0, 0))
    x = float(pad)
    base = pad + ascent
    split = words(text)
    if split is not None:
        space = _advance(" ", size, bold)
        for word in split:
            if word:
                # Every stamp of one size has the same padding and baseline: they line up as drawn.
                stamp, _ = _word_stamp(word, size, bold, fill)
                img.alpha_composite(stamp, (round(x) - pad, 0))
                x += _advance(word, size, bold)
            x += space
        return img, base
    d = ImageDraw.Draw(img)
    for name, run in runs(text, bold):
        font = pil_font(name, size)
        if name == EMOJI:
            k = _emoji_scale(size)
            w = font.getlength(run)
            eascent, edescent = font.getmetrics()
            glyphs = Image.new("RGBA", (max(1, round(w)), eascent + edescent), (0, 0, 0, 0))
            ImageDraw.Draw(glyphs).text((0, eascent), run, font=font, anchor="ls", embedded_color=True)
            small = glyphs.resize((max(1, round(w * k)), max(1, round((eascent + edescent) * k))),
                                  Image.Resampling.LANCZOS)
            img.alpha_composite(small, (round(x), max(0, base - round(eascent * k))))
            x += w * k
        else:
            d.text((x, base), run, font=font, fill=fill, anchor="ls")
            x += font.getlength(run)
    return img, base


@lru_cache(maxsize=4096)
def _word_stamp(word: str, size: int, bold: bool, fill: Color) -> tuple[Image.Image, int]:
    return _stamp(word, size, bold, fill)


@dataclass(frozen=True)
class Drawn:
    """One recorded draw: the text as drawn, its size in px, its ink box on the canvas, the canvas
    size and the panel it was meant to stay in (None: the whole canvas)."""

    text: str
    size: int
    box: tuple[int, int, int, int]
    canvas: tuple[int, int]
    within: tuple[int, int, int, int] | None = None
    #: the ink colour, and the colours of the pixels the glyphs cover with how many each (most first),
    #: read before drawing: the legibility tests compute contrast against the text's actual background
    fill: Color | None = None
    ground: tuple[tuple[Color, int], ...] = ()


_recorder: list[list[Drawn]] = []


@contextmanager
def recording(exclusive: bool = False) -> Iterator[list[Drawn]]:
    """Collect every text drawn inside the block (tests use it to check layout); ``exclusive``: only
    here, not in the recordings around it (a part drawn on a canvas of its own, see ``replay``)."""
    out: list[Drawn] = []
    outer = _recorder[:]
    if exclusive:
        _recorder.clear()
    _recorder.append(out)
    try:
        yield out
    finally:
        _recorder.remove(out)
        if exclusive:
            _recorder[:] = outer


def replay(drawn: list[Drawn], part: tuple[int, int], dy: int, canvas: tuple[int, int]) -> None:
    """Record ``drawn``, texts drawn on a ``part``-sized canvas later pasted ``dy`` down a ``canvas``-sized
    picture, at their place in that picture (texts drawn on other images, card faces, as they were)."""
    def moved(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        return (box[0], box[1] + dy, box[2], box[3] + dy)

    for t in drawn:
        if t.canvas == part:
            t = Drawn(t.text, t.size, moved(t.box), canvas, None if t.within is None else moved(t.within), t.fill,
                      t.ground)
        for rec in _recorder:
            rec.append(t)


def draw(target: Image.Image | ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int = 16,
         fill: Color = (255, 255, 255), anchor: str = "la", bold: bool = False,
         within: tuple[int, int, int, int] | None = None) -> tuple[int, int, int, int]:
    """Draw ``text`` at ``xy`` like ``ImageDraw.text`` with an anchor of Pillow's kind:
    horizontal l/m/r, vertical a (ascender), m (middle), s (baseline), d (descender).
    Returns the ink box on the canvas."""
    img: Image.Image = target._image if isinstance(target, ImageDraw.ImageDraw) else target  # type: ignore[attr-defined]
    if not text:
        return (int(xy[0]), int(xy[1]), int(xy[0]), int(xy[1]))
    ink, ix, iy = _ink_stamp(text, size, bold, fill)
    ascent, descent = line_metrics(size, bold)
    pad = size // 2
    width = text_width(text, size, bold)
    h, v = anchor[0], anchor[1] if len(anchor) > 1 else "a"
    x = xy[0] - {"l": 0, "m": width / 2, "r": width}[h] - pad
    y = xy[1] - {"a": 0, "t": 0, "m": (ascent + descent) / 2, "s": ascent, "d": ascent + descent}[v] - pad
    x, y = round(x) + ix, round(y) + iy
    box = (x, y, x + ink.width, y + ink.height)
    ground = _ground(img, ink, box) if _recorder else ()
    # Only the ink's box is pasted: a tenth of the padded line's area, and pasting is most of a label's cost.
    img.paste(ink, (x, y), ink)
    for rec in _recorder:
        rec.append(Drawn(text, size, box, img.size, within, fill, ground))
    return box


def _ground(img: Image.Image, ink: Image.Image, box: tuple[int, int, int, int]) -> tuple[tuple[Color, int], ...]:
    """The colours under the glyphs' solid ink (alpha at least half) before they are drawn, most first:
    only while recording, for the contrast checks."""
    behind = img.crop(box).convert("RGB").tobytes()
    alpha = ink.getchannel("A").tobytes()
    counts: dict[Color, int] = {}
    for i, a in enumerate(alpha):
        if a >= 128:
            colour = (behind[3 * i], behind[3 * i + 1], behind[3 * i + 2])
            counts[colour] = counts.get(colour, 0) + 1
    return tuple(sorted(counts.items(), key=lambda kv: -kv[1]))


@lru_cache(maxsize=4096)
def _ink_stamp(text: str, size: int, bold: bool, fill: Color) -> tuple[Image.Image, int, int]:
    """The stamp cropped to its ink, and the crop's offset inside the padded stamp."""
    stamp, _ = _stamp(text, size, bold, fill)
    box = stamp.getchannel("A").getbbox() or (0, 0, 1, 1)
    return stamp.crop(box), box[0], box[1]


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text``, or its longest prefix of whole grapheme clusters plus "…" that fits ``max_width``.

    Cutting between clusters never splits an emoji, a flag or a letter from its combining mark.
    """
    text = unicodedata.normalize("NFC", text)
    if text_width(text, size, bold) <= max_width:
        return text
    cl = clusters(text)
    lo, hi = 0, len(cl)  # the answer keeps lo clusters; binary search the largest that fits
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width("".join(cl[:mid]).rstrip() + ELLIPSIS, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return "".join(cl[:lo]).rstrip() + ELLIPSIS


def truncate_graphemes(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters (code points, as Discord counts), at a grapheme
    boundary, with "…" when cut."""
    text = unicodedata.normalize("NFC", text)
    if len(text) <= limit:
        return text
    out = ""
    for cl in clusters(text):
        if len(out) + len(cl) + 1 > limit:
            break
        out += cl
    return out.rstrip() + ELLIPSIS if limit >= 1 else ""
