"""Phone-first layout: sizes, panels and labels that fit where they are put.

Discord shows an image in a phone's channel column 310 px wide on a 412 px phone. Table images are
drawn 800 px wide (sharp on 2x screens) and everything scales with them, so a text of SMALL = 26 px
shows as 10 px there, the legible minimum (tests/render/test_legibility.py measures it, and contrast).
Every label is fitted to the panel it is drawn in (an ellipsis at a grapheme boundary, never a clip),
and the panel is recorded with it so tests can check that nothing escapes its panel or overlaps another
text.
"""

from __future__ import annotations

import string

from PIL import Image, ImageDraw

from render import text
from render.common import Color

WIDTH = 800
PHONE = 400
SCALE = WIDTH // PHONE
SMALL = 26          # the smallest text a player needs: 10 px on a 412 px phone, which shows 800 px as 310
BODY = 13 * SCALE
TITLE = 16 * SCALE
BIG = 22 * SCALE
PAD = 6 * SCALE

Box = tuple[int, int, int, int]


def panel(d: ImageDraw.ImageDraw, box: Box, fill: Color, outline: Color | None = None, width: int = 4,
          radius: int = 14) -> Box:
    d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width if outline else 0)
    return box


def label(img: Image.Image | ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill: Color,
          within: Box, anchor: str = "la", bold: bool = False, inset: int = 0) -> Box:
    """Draw ``s`` anchored at ``xy``, shortened with "…" so it stays inside ``within`` (less ``inset``).

    Returns the ink box. The panel is recorded with the text for the layout tests.
    """
    x0, x1 = within[0] + inset, within[2] - inset
    h = anchor[0]
    room = {"l": x1 - xy[0], "r": xy[0] - x0, "m": 2 * min(xy[0] - x0, x1 - xy[0])}[h]
    return text.draw(img, xy, text.fit(s, size, max(0, int(room)), bold), size, fill, anchor, bold, within=within)


def width_of(s: str, size: int, bold: bool = False) -> int:
    return text.text_width(s, size, bold)


def fit_name(name: str, rest: str, size: int, room: int, bold: bool = False) -> str:
    """``name + rest`` where only the name is shortened so the whole fits ``room`` pixels
    ("Bob Zürich Übersp… to play", never "Bob Zürich Überspieler of Ca…")."""
    if text.text_width(name + rest, size, bold) <= room:
        return name + rest
    keep = max(room - text.text_width(rest, size, bold), room // 5)
    return text.fit(name, size, keep, bold) + rest


def name_label(img: Image.Image | ImageDraw.ImageDraw, xy: tuple[float, float], name: str, rest: str, size: int,
               fill: Color, within: Box, bold: bool = False, inset: int = 0, smaller: int | None = None) -> Box:
    """A left-anchored label that says something about a player, shortening the name first.

    With ``smaller``, a ``rest`` too long to fit beside the shortened name at ``size`` is drawn at
    ``smaller`` instead of being cut."""
    room = int(within[2] - inset - xy[0])
    line = fit_name(name, rest, size, room, bold)
    if smaller is not None and text.text_width(line, size, bold) > room:
        size = smaller
        line = fit_name(name, rest, size, room, bold)
    return label(img, xy, line, size, fill, within, "la", bold, inset)


def fit_names(parts: list[tuple[str, bool]], size: int, room: int, bold: bool = False) -> str:
    """Join ``parts`` (text, is_a_name) into one line of at most ``room`` pixels by shortening only the
    names, which share what the other words leave ("Bid 62 by 王小明 張… · trump Hearts + 5 of
    Diamonds", never "Bid 62 by 王小明 張偉 山田さくら · trump Hearts + 5 of…")."""
    whole = "".join(s for s, _ in parts)
    if text.text_width(whole, size, bold) <= room:
        return whole
    names = [i for i, (_, is_name) in enumerate(parts) if is_name]
    fixed = sum(text.text_width(s, size, bold) for s, is_name in parts if not is_name)
    left = max(room - fixed, room * 3 // 10) - 2 * len(names)
    share: dict[int, int] = {}
    # the shortest names keep what they need; the longer ones split the rest evenly
    for k, i in enumerate(sorted(names, key=lambda i: text.text_width(parts[i][0], size, bold))):
        share[i] = min(text.text_width(parts[i][0], size, bold), left // (len(names) - k))
        left -= share[i]
    return "".join(text.fit(s, size, share[i], bold) if is_name else s for i, (s, is_name) in enumerate(parts))


def message_parts(template: str, names: dict[str, str], **params: object) -> list[tuple[str, bool]]:
    """A translated message as ``fit_names`` parts: its ``names`` placeholders are names (shortened if need
    be), the rest is text kept whole, in whatever order the language puts them ("Bid 62 by {name}",
    "Заявка 62: {name}"). ``template`` is the message in the reader's language, placeholders unfilled."""
    parts: list[tuple[str, bool]] = []
    for literal, field, spec, _ in string.Formatter().parse(template):
        if literal:
            parts.append((literal, False))
        if field is not None:
            parts.append((names[field], True) if field in names else (format(params[field], spec or ""), False))
    return parts
