"""Pillow renderers: table and hand images drawn from engine views.

Each game has ``render/<game_id>.py`` with::

    table_image(view: dict, names: list[str]) -> PIL.Image.Image
    hand_image(view: dict, seat: int, names: list[str]) -> PIL.Image.Image

``table_image`` also takes ``placings`` (each seat's place, 1 = first): the table is over, however it
ended, and the picture is the final one (nobody to act, the placings drawn); ``alt_text`` takes the same.

``view`` is exactly ``engine.view(state, None)`` (table) or
``engine.view(state, seat)`` (hand); ``names`` are the seat names.

``alt_text(game_id, view, names, last_action=None)`` describes the public view in words for the
attachment's description (screen readers, failed loads). ``table_png(..., last_action=...)`` adds
the last public move as a strip above the table, since views do not keep it.
"""

from __future__ import annotations

import importlib
import inspect
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from PIL import Image

from engines import GAME_IDS
from i18n import DEFAULT, t
from render import strips
from render.alt import alt_text
from render.common import FELT_DARK, GOLD, to_png
from render.layout import PAD, SMALL, label
from render.png import ROWS_INFO, compress_rows

__all__ = ["alt_text", "hand_png", "table_png", "warm"]

#: Drawing and encoding share module state between images (FreeType faces, the strip and band caches of
#: render.strips and render.png), so one thread of a process draws at a time. The bot draws in worker
#: processes of one thread each (render/pool.py); the lock keeps any other threaded caller safe.
_DRAWING = threading.Lock()


def _module(game_id: str) -> ModuleType:
    return importlib.import_module(f"render.{game_id}")


def _in(lang: str, draw: Any) -> dict[str, str]:
    """``lang`` for a renderer that draws its words in the reader's language (the others draw English)."""
    return {"lang": lang} if lang != DEFAULT and "lang" in inspect.signature(draw).parameters else {}


def table_png(game_id: str, view: dict[str, Any], names: list[str], last_action: str | None = None,
              placings: Sequence[int] | None = None, lang: str = DEFAULT) -> bytes:
    """The table image as PNG; with ``last_action`` (the public label of the last move, names
    filled in), a one-line strip above it says what just happened. With ``placings`` (each seat's place,
    1 = first) the table is over, however it ended: the final picture, nobody to act, the placings drawn.
    Its words speak ``lang``, the server's language."""
    with _DRAWING, strips.rows_only():
        draw = _module(game_id).table_image
        img = draw(view, names, placings, **_in(lang, draw))
        if last_action:
            img = with_last_action(img, last_action, lang)
        return to_png(img)


def with_last_action(img: Image.Image, last_action: str, lang: str = DEFAULT) -> Image.Image:
    """``img`` with a strip on top: "Last: <action>", shortened to the width if need be.

    The strip is drawn in RGB, mapped to the table's own palette and pasted above it, so the
    table itself is not quantised twice."""
    strip_h = SMALL + 3 * PAD
    strip = Image.new("RGB", (img.width, strip_h), FELT_DARK)
    label(strip, (2 * PAD, PAD + 2), t(lang, "Last: {action}", action=last_action.rstrip(".")), SMALL, GOLD,
          (0, 0, img.width, strip_h), inset=2 * PAD)
    out = Image.new(img.mode, (img.width, img.height + strip_h))
    if img.mode == "P":
        palette = Image.new("P", (1, 1))
        palette.putpalette(img.getpalette() or [])
        out.putpalette(img.getpalette() or [])
        strip = strip.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        strip = strip.convert(img.mode)
    below = img.info.get(ROWS_INFO)
    if below is not None and strip.mode == "P":
        # The table's rows are compressed already (render.strips): compress only the strip's.
        out.info[ROWS_INFO] = [compress_rows(strip), *below]
        if not strips.painting():
            return out  # its PNG is joined from the rows alone (strips.rows_only): no pixel is read
    out.paste(strip, (0, 0))
    out.paste(img, (0, strip_h))
    return out


def hand_png(game_id: str, view: dict[str, Any], seat: int, names: list[str], lang: str = DEFAULT) -> bytes:
    """A seat's hand image as PNG, its words in ``lang`` (the member's language: a hand is private)."""
    with _DRAWING, strips.rows_only():
        draw = _module(game_id).hand_image
        return to_png(draw(view, seat, names, **_in(lang, draw)))


def warm() -> None:
    """Import every renderer and load every font once (a render worker does this when it starts)."""
    for game_id in GAME_IDS:
        _module(game_id)
    strip = Image.new("RGB", (400, 40), FELT_DARK)
    for bold in (False, True):
        label(strip, (PAD, PAD), "Deckhand 王 한 🃏", SMALL, GOLD, (0, 0, 400, 40), bold=bold)
