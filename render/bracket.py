"""The single-elimination bracket image, from plain data (names and winners, no host objects).

Phones first: Discord shows an image about 400 px wide in a phone's column, scaling it down, so
every label is drawn at least ``MIN_PHONE_PX * width / PHONE_WIDTH`` pixels tall. A full bracket
of 64 players would need seven columns, far too small when scaled; the image shows at most
``MAX_COLUMNS`` rounds, starting from the round being played (or the last three once the later
rounds are all that matter), and says which rounds it shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image, ImageDraw

from render.common import FELT, FELT_DARK, GOLD, GREY, INK, PAPER, WHITE, fit_text, font, new_canvas, text_width, to_png

PHONE_WIDTH = 400
MIN_PHONE_PX = 11
MAX_COLUMNS = 3

COL_W = 270
GAP_X = 34
MARGIN = 18
ROW_H = 38
BOX_PAD = 8
HEADER_H = 86
MARK_W = 22


class MatchView(NamedTuple):
    """One match: the two names (``None``: a bye in round 1, not known yet later), and the winner
    (0 = top, 1 = bottom, ``None`` = not played)."""

    top: str | None
    bottom: str | None
    winner: int | None = None


@dataclass(frozen=True)
class Label:
    """A piece of text as laid out: what the tests check for size and fit."""

    text: str
    size: int
    box: tuple[int, int, int, int]  # the area it must fit in: x0, y0, x1, y1


@dataclass(frozen=True)
class NameLabel:
    label: Label
    #: Drawn in gold with a marker (the winner), in grey (the loser, a bye, not known yet) or in ink.
    state: str  # "won" | "lost" | "open"


@dataclass(frozen=True)
class Layout:
    size: tuple[int, int]
    headers: list[Label]
    names: list[NameLabel]
    boxes: list[tuple[int, int, int, int]]
    lines: list[tuple[int, int, int, int]]

    @property
    def labels(self) -> list[Label]:
        return [*self.headers, *(n.label for n in self.names)]


def first_shown_round(rounds: Sequence[Sequence[MatchView]]) -> int:
    """Index of the first round drawn: the earliest undecided round, but never so late that fewer
    than ``MAX_COLUMNS`` rounds show when the bracket has them."""
    current = next((i for i, r in enumerate(rounds) if any(m.winner is None for m in r)), len(rounds) - 1)
    return max(0, min(current, len(rounds) - MAX_COLUMNS))


def text_px(width: int) -> int:
    """The text size for an image ``width`` wide: readable once scaled to a phone column."""
    return max(22, math.ceil(MIN_PHONE_PX * width / PHONE_WIDTH))


def layout(rounds: Sequence[Sequence[MatchView]], title: str = "Bracket") -> Layout:
    """Where everything goes for ``rounds`` (round 1 first; each round half the matches of the last)."""
    if not rounds:
        raise ValueError("a bracket has at least one round")
    start = first_shown_round(rounds)
    shown = list(rounds[start:start + MAX_COLUMNS])
    cols = len(shown)
    width = 2 * MARGIN + cols * COL_W + (cols - 1) * GAP_X
    px = text_px(width)
    box_h = 2 * ROW_H
    unit = box_h + 18  # vertical space per match of the first shown column
    height = HEADER_H + len(shown[0]) * unit + MARGIN
    total = len(rounds)
    span = f"rounds {start + 1}-{start + cols} of {total}" if cols < total else f"{total} rounds"
    headers = [Label(fit_text(f"{title} · {span}", px, width - 2 * MARGIN), px,
                     (MARGIN, 4, width - MARGIN, 4 + px + 10))]
    names: list[NameLabel] = []
    boxes: list[tuple[int, int, int, int]] = []
    lines: list[tuple[int, int, int, int]] = []
    for c, matches in enumerate(shown):
        x0 = MARGIN + c * (COL_W + GAP_X)
        step = unit * (2 ** c)
        col_head = "Final" if start + c == total - 1 else f"Round {start + c + 1}"
        headers.append(Label(col_head, px, (x0, HEADER_H - px - 12, x0 + COL_W, HEADER_H - 4)))
        for i, m in enumerate(matches):
            cy = HEADER_H + int((i + 0.5) * step)
            y0 = cy - box_h // 2
            boxes.append((x0, y0, x0 + COL_W, y0 + box_h))
            for row, name in enumerate((m.top, m.bottom)):
                text = name if name is not None else ("bye" if start + c == 0 else "TBD")
                ry = y0 + row * ROW_H
                area = (x0 + BOX_PAD, ry, x0 + COL_W - BOX_PAD - MARK_W, ry + ROW_H)
                state = "open" if m.winner is None or name is None else ("won" if m.winner == row else "lost")
                if name is None:
                    state = "lost"
                names.append(NameLabel(Label(fit_text(text, px, area[2] - area[0]), px, area), state))
            if c + 1 < cols:
                # A connector from this match to its place in the next column.
                mid = x0 + COL_W + GAP_X // 2
                ny = HEADER_H + int((i // 2 + 0.5) * step * 2)
                lines += [(x0 + COL_W, cy, mid, cy), (mid, cy, mid, ny), (mid, ny, x0 + COL_W + GAP_X, ny)]
    return Layout((width, height), headers, names, boxes, lines)


def bracket_image(rounds: Sequence[Sequence[MatchView]], title: str = "Bracket") -> Image.Image:
    lay = layout(rounds, title)
    img, d = new_canvas(*lay.size, FELT)
    for line in lay.lines:
        d.line(line, fill=FELT_DARK, width=4)
    for box in lay.boxes:
        d.rounded_rectangle(box, radius=8, fill=PAPER, outline=INK, width=2)
        d.line((box[0] + 2, box[1] + ROW_H, box[2] - 2, box[1] + ROW_H), fill=GREY, width=1)
    title, *columns = lay.headers
    _draw_header(d, title, WHITE)
    for lb in columns:
        _draw_header(d, lb, GOLD)
    for name in lay.names:
        x0, y0, x1, y1 = name.label.box
        if name.state == "won":
            d.rectangle((x0 - BOX_PAD + 2, y0 + 2, x1 + MARK_W + BOX_PAD - 3, y1 - 2), fill=GOLD)
            # A filled triangle marks the winner (no font glyph needed).
            mx, my = x1 + MARK_W // 2, (y0 + y1) // 2
            d.polygon([(mx - 6, my - 8), (mx + 7, my), (mx - 6, my + 8)], fill=INK)
        ink = GREY if name.state == "lost" else INK
        d.text((x0, (y0 + y1) // 2), name.label.text, font=font(name.label.size), fill=ink, anchor="lm")
    return img


def _draw_header(d: ImageDraw.ImageDraw, lb: Label, fill: tuple[int, int, int]) -> None:
    d.text((lb.box[0], lb.box[3]), lb.text, font=font(lb.size), fill=fill, anchor="ld")


def bracket_png(rounds: Sequence[Sequence[MatchView]], title: str = "Bracket") -> bytes:
    return to_png(bracket_image(rounds, title))


def fits(label: Label) -> bool:
    """The label's text is no wider than its area and no taller."""
    _, top, _, bottom = font(label.size).getbbox(label.text)
    return (text_width(label.text, label.size) <= label.box[2] - label.box[0]
            and bottom - top <= label.box[3] - label.box[1])
