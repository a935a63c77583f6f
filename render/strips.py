"""A picture stacked from full-width strips, each drawn once for what it shows and kept, already in the palette.

Every table picture is a column of panels: the heading, the trick or the pile, a row per player. Between
two moves most rows show exactly what they showed before, yet drawing a row (its texts, its cards) and
mapping it to the palette were most of a picture's cost. Here a renderer describes its picture as
strips, each with the key of what it shows (the inputs its drawing reads, nothing else); a strip whose
key was drawn before is pasted from the cache, already mapped to the palette, and only the strips that
changed are drawn.

Each strip also keeps its rows compressed (``render.png.Rows``): the PNG of a picture is its strips'
compressed rows joined, so an unchanged strip is not compressed again either.

A strip draws on a canvas of its own, at y = 0, with the felt as background; what it draws must stay
inside its height (a row's highlight frame included). Mapping each strip to the palette on its own gives
the same indices as mapping the whole picture, since the palette is fixed and nothing is dithered.

While texts are being recorded (``render.text.recording``, the layout tests), every strip is drawn, and
its texts are recorded at their place in the whole picture.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import text
from render.common import FELT, Color, new_canvas, to_palette
from render.png import ROWS_INFO, Rows, compress_rows

#: Strips kept, by their size in the palette (a byte a pixel); each render worker has its own.
CACHE_BYTES = 48 * 1024 * 1024

#: Each strip's pixels (None when drawn inside ``rows_only``: only its rows were wanted) and compressed rows.
_strips: OrderedDict[Hashable, tuple[Image.Image | None, Rows]] = OrderedDict()
_cached_bytes = 0
#: Whether ``stack`` fills in its picture's pixels (see ``rows_only``): a context variable, so that a thread
#: drawing a PNG (the web server's, on its own) never blanks a picture another thread paints.
_PAINTING: ContextVar[bool] = ContextVar("deckhand_painting", default=True)


@contextmanager
def rows_only() -> Iterator[None]:
    """Inside this block ``stack`` returns a picture of the right size and palette whose pixels are left blank:
    only its compressed rows (``render.png.ROWS_INFO``) are joined into the PNG, and pasting every strip into
    the picture was a tenth of a table picture's cost for pixels nobody read. ``render.table_png`` and
    ``hand_png`` draw in it; whoever reads the pixels (the layout and legibility tests) draws outside it."""
    token = _PAINTING.set(False)
    try:
        yield
    finally:
        _PAINTING.reset(token)


def painting() -> bool:
    """False inside ``rows_only``: pictures are made for their compressed rows alone."""
    return _PAINTING.get()


@dataclass(frozen=True)
class Strip:
    #: Its height in pixels.
    height: int
    #: Draws the strip on a canvas of the picture's width and the strip's height, at y = 0.
    draw: Callable[[Image.Image, ImageDraw.ImageDraw], None]
    #: What the strip shows: strips with equal keys (within one renderer) draw equal pixels. None: no reuse.
    key: Hashable | None = None


def _size(part: tuple[Image.Image | None, Rows]) -> int:
    pixels = part[0].width * part[0].height if part[0] is not None else 0
    return pixels + len(part[1].deflate)


def _remember(key: Hashable, part: tuple[Image.Image | None, Rows]) -> None:
    global _cached_bytes
    earlier = _strips.pop(key, None)  # kept without its pixels, now drawn with them
    if earlier is not None:
        _cached_bytes -= _size(earlier)
    _strips[key] = part
    _cached_bytes += _size(part)
    while _cached_bytes > CACHE_BYTES and _strips:
        _, old = _strips.popitem(last=False)
        _cached_bytes -= _size(old)


def _drawn(width: int, strip: Strip, palette: Image.Image, background: Color) -> tuple[Image.Image, Rows]:
    canvas, d = new_canvas(width, strip.height, background)
    strip.draw(canvas, d)
    mapped = to_palette(canvas, palette)
    return mapped, compress_rows(mapped)


def stack(width: int, strips: Sequence[Strip], palette: Image.Image, background: Color = FELT) -> Image.Image:
    """The picture: ``strips`` top to bottom, in ``palette`` (a palette image, as for ``to_palette``)."""
    height = sum(s.height for s in strips)
    out = Image.new("P", (width, height))
    out.putpalette(palette.getpalette() or [])
    recording = bool(text._recorder)
    painted = painting()
    blocks: list[Rows] = []
    y = 0
    for strip in strips:
        if recording:
            with text.recording(exclusive=True) as drawn:
                part = _drawn(width, strip, palette, background)
            text.replay(drawn, (width, strip.height), y, (width, height))
        elif strip.key is None:
            part = _drawn(width, strip, palette, background)
        else:
            # The palette and the size belong to the key: two renderers' strips never meet.
            key = (id(palette), width, strip.height, background, strip.key)
            found = _strips.get(key)
            if found is None or (found[0] is None and painted):
                part = _drawn(width, strip, palette, background)
                # Drawn for its rows alone, a strip is kept without its pixels: a tenth of the size, so the cache
                # holds every table of a busy evening (with the pixels, 56 tables' strips overflowed it and a
                # sixth of the strips drawn in a burst were drawn again).
                _remember(key, part if painted else (None, part[1]))
            else:
                part = found
                _strips.move_to_end(key)
        pixels = part[0]
        if (painted or recording) and pixels is not None:  # painting: never a strip kept without pixels
            out.paste(pixels, (0, y))
        blocks.append(part[1])
        y += strip.height
    out.info[ROWS_INFO] = blocks  # the PNG is joined from these (render.png.from_rows)
    return out


def clear_cache() -> None:
    global _cached_bytes
    _strips.clear()
    _cached_bytes = 0
