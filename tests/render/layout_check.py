"""Layout checks shared by the render tests: legible at phone width, nothing clipped or overlapping.

``render.text`` records every text it draws with its ink box and the panel it was fitted to.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from PIL import Image

from render import text as T

PHONE = 400
MIN_PX = 11


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int], slack: int = 1) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int], slack: int = 1) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) > slack) and (min(a[3], b[3]) - max(a[1], b[1]) > slack)


def render_checked(draw: Callable[[], Image.Image], *, phone: bool = True,
                   max_ratio: float = 2.0) -> tuple[Image.Image, list[T.Drawn]]:
    """Render with recording and assert the layout rules; returns the image and the texts drawn on it."""
    # Card faces are cached; clear them so their texts are drawn, recorded and checked here too.
    for name, module in list(sys.modules.items()):
        if name.startswith("render.") and name != "render.text":
            for obj in vars(module).values():
                if callable(getattr(obj, "cache_clear", None)) and getattr(obj, "__module__", "") == name:
                    obj.cache_clear()
    with T.recording() as drawn:
        img = draw()
    w, h = img.size
    main = [t for t in drawn if t.canvas == img.size and t.text]
    assert main, "nothing was drawn through render.text"
    scale = PHONE / w if phone else 1.0
    if phone:
        assert 400 <= w <= 1000, w
        assert h / w <= max_ratio, f"{w}x{h} is too tall for a phone column"
    for t in drawn:
        # every text (card faces included) is at least 11 px at phone width
        assert t.size * scale >= MIN_PX - 0.01, f"{t.text!r} is {t.size * scale:.1f} px at phone width"
        assert T.REPLACEMENT not in t.text, f"{t.text!r} has a glyph no bundled font covers"
    for t in main:
        assert _inside(t.box, (0, 0, w, h)), f"{t.text!r} leaves the image: {t.box}"
        if t.within is not None:
            assert _inside(t.box, t.within), f"{t.text!r} leaves its panel {t.within}: {t.box}"
    for i, a in enumerate(main):
        for b in main[i + 1:]:
            assert not _overlap(a.box, b.box), f"{a.text!r} {a.box} overlaps {b.text!r} {b.box}"
    return img, main
