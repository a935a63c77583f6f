"""Legibility on a phone: every label of a picture shown 310 px wide (a 412 px phone's channel column) is
at least 10 px high and meets WCAG AA contrast (4.5:1) against the pixels it is actually drawn on.

A label's height is its font size as shown (the em, as CSS measures text); ``render.text`` records with each
draw the ink colour and the colours under the glyphs before they were drawn, so contrast is measured against
the real background (a panel, a highlighted seat, a card face), not an assumed one.
"""

from __future__ import annotations

from render import text as T

DISPLAY = 310      # px: the width a 412 px phone shows a table or hand picture at
MIN_PX = 10        # the smallest label, as shown
MIN_CONTRAST = 4.5  # WCAG 2 AA for normal-sized text
#: colours under less than this share of a label's ink are anti-aliased edges or a panel's border it touches
MIN_SHARE = 0.1


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def luminance(colour: tuple[int, int, int]) -> float:
    r, g, b = (_linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def shown_px(t: T.Drawn, width: int) -> float:
    """The label's font size in px when a ``width``-pixel picture is shown DISPLAY px wide."""
    return t.size * DISPLAY / width


def worst_contrast(t: T.Drawn) -> float | None:
    """The lowest contrast between the label's ink and a colour under a real share of its glyphs."""
    if t.fill is None or not t.ground:
        return None
    total = sum(n for _, n in t.ground)
    grounds = [c for c, n in t.ground if n >= MIN_SHARE * total]
    return min(contrast(t.fill, c) for c in grounds)


def problems(drawn: list[T.Drawn], width: int) -> list[str]:
    """Every label of a ``width``-pixel picture that is too small or too faint on a phone."""
    out = []
    for t in drawn:
        if not t.text.strip():
            continue
        px = shown_px(t, width)
        if px < MIN_PX - 0.01:
            out.append(f"{t.text!r} is {px:.1f} px high at {DISPLAY} px")
        c = worst_contrast(t)
        if c is not None and c < MIN_CONTRAST:
            out.append(f"{t.text!r} has contrast {c:.2f}:1 ({t.fill} on {t.ground[0][0]})")
    return out
