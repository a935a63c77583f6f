"""The bracket image, single or double elimination, from plain data (names and winners, no host objects).

Phones first: Discord shows an image about 400 px wide in a phone's column, scaling it down, so
every label is drawn at least ``MIN_PHONE_PX * width / PHONE_WIDTH`` pixels tall. A full bracket
of 64 players would need seven columns, far too small when scaled; the image shows at most
``MAX_COLUMNS`` rounds, starting from the round being played (or the last three once the later
rounds are all that matter), and says which rounds it shows.

A double-elimination bracket is three such sections stacked: the winners' bracket, the losers'
bracket (whose drop rounds have as many matches as the round before them) and the grand final,
with its reset once needed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image, ImageDraw

from i18n import DEFAULT, N_, t, tn
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


#: The name a host row gives an empty place of a double-elimination bracket (host.tournaments.bracket_view.BYE).
BYE = "bye"


def place_name(lang: str, name: str | None, bye: bool) -> str:
    """A place as drawn and described: the entrant's name, else "bye" or "TBD" (not known yet) in ``lang``."""
    if name is None:
        return t(lang, N_("bye")) if bye else t(lang, "TBD")
    return t(lang, N_("bye")) if name == BYE else name


def layout(rounds: Sequence[Sequence[MatchView]], title: str = "Bracket",
           column_names: Sequence[str] | None = None, first_byes: bool = True, columns: int | None = None,
           lang: str = DEFAULT) -> Layout:
    """Where everything goes for ``rounds`` (round 1 first; each round has half the matches of the
    last, or as many). ``column_names``: one per round (default "Round n", the last "Final");
    ``first_byes``: an unknown name in round 1 is a bye (else it is "TBD" everywhere); ``columns``:
    the width in columns to lay out (at least the rounds shown), so stacked sections line up."""
    if not rounds:
        raise ValueError("a bracket has at least one round")
    start = first_shown_round(rounds)
    shown = list(rounds[start:start + MAX_COLUMNS])
    cols = len(shown)
    span_cols = max(cols, columns or 0)
    width = 2 * MARGIN + span_cols * COL_W + (span_cols - 1) * GAP_X
    px = text_px(width)
    box_h = 2 * ROW_H
    unit = box_h + 18  # vertical space per match of the first shown column
    body = len(shown[0]) * unit
    height = HEADER_H + body + MARGIN

    def centre(c: int, i: int) -> int:
        return HEADER_H + int((i + 0.5) * body / len(shown[c]))

    total = len(rounds)
    span = (t(lang, "rounds {first}-{last} of {total}", first=start + 1, last=start + cols, total=total)
            if cols < total else tn(lang, "{n} round", "{n} rounds", total))
    headers = [Label(fit_text(f"{title} · {span}", px, width - 2 * MARGIN), px,
                     (MARGIN, 4, width - MARGIN, 4 + px + 10))]
    names: list[NameLabel] = []
    boxes: list[tuple[int, int, int, int]] = []
    lines: list[tuple[int, int, int, int]] = []
    for c, matches in enumerate(shown):
        x0 = MARGIN + c * (COL_W + GAP_X)
        if column_names is not None:
            col_head = column_names[start + c]
        else:
            col_head = t(lang, "Final") if start + c == total - 1 else t(lang, "Round {number}", number=start + c + 1)
        headers.append(Label(fit_text(col_head, px, COL_W), px, (x0, HEADER_H - px - 12, x0 + COL_W, HEADER_H - 4)))
        for i, m in enumerate(matches):
            cy = centre(c, i)
            y0 = cy - box_h // 2
            boxes.append((x0, y0, x0 + COL_W, y0 + box_h))
            for row, name in enumerate((m.top, m.bottom)):
                text = place_name(lang, name, start + c == 0 and first_byes)
                ry = y0 + row * ROW_H
                area = (x0 + BOX_PAD, ry, x0 + COL_W - BOX_PAD - MARK_W, ry + ROW_H)
                state = "open" if m.winner is None or name is None else ("won" if m.winner == row else "lost")
                if name is None:
                    state = "lost"
                names.append(NameLabel(Label(fit_text(text, px, area[2] - area[0]), px, area), state))
            if c + 1 < cols:
                # A connector from this match to its place in the next column (the same row when the
                # next round has as many matches: a losers' bracket's drop round).
                mid = x0 + COL_W + GAP_X // 2
                ny = centre(c + 1, i * len(shown[c + 1]) // len(matches))
                lines += [(x0 + COL_W, cy, mid, cy), (mid, cy, mid, ny), (mid, ny, x0 + COL_W + GAP_X, ny)]
    return Layout((width, height), headers, names, boxes, lines)


class DoubleView(NamedTuple):
    """A double-elimination bracket: each section's rounds, as ``MatchView`` rows."""

    winners: Sequence[Sequence[MatchView]]
    losers: Sequence[Sequence[MatchView]]
    finals: Sequence[Sequence[MatchView]]


def double_layouts(view: DoubleView, title: str = "Bracket", lang: str = DEFAULT) -> list[tuple[Layout, int]]:
    """The sections of a double-elimination image, each with its top edge: the winners' bracket, the
    losers' bracket (when it has rounds) and the grand final, stacked at one width."""
    sections: list[tuple[Sequence[Sequence[MatchView]], str, list[str]]] = [
        (view.winners, t(lang, "Winners' bracket · {title}", title=title),
         [t(lang, "Winners {number}", number=i + 1) if i + 1 < len(view.winners) else t(lang, "Winners' final")
          for i in range(len(view.winners))])]
    if view.losers:
        sections.append((view.losers, t(lang, "Losers' bracket"),
                         [t(lang, "Losers {number}", number=i + 1) if i + 1 < len(view.losers)
                          else t(lang, "Losers' final") for i in range(len(view.losers))]))
    sections.append((view.finals, t(lang, "Grand final"),
                     [t(lang, "Grand final"), t(lang, "Reset")][:len(view.finals)]))
    # At least two columns wide, so each section's heading and its span of rounds fit.
    widest = max(2, *(min(MAX_COLUMNS, len(rounds)) for rounds, _, _ in sections))
    out: list[tuple[Layout, int]] = []
    top = 0
    for rounds, heading, names in sections:
        lay = layout(rounds, heading, names, first_byes=False, columns=widest, lang=lang)
        out.append((lay, top))
        top += lay.size[1]
    return out


def double_size(view: DoubleView, title: str = "Bracket", lang: str = DEFAULT) -> tuple[int, int]:
    parts = double_layouts(view, title, lang)
    return parts[0][0].size[0], sum(lay.size[1] for lay, _ in parts)


def bracket_image(rounds: Sequence[Sequence[MatchView]] | DoubleView, title: str = "Bracket",
                  lang: str = DEFAULT) -> Image.Image:
    """The picture, its words in ``lang`` (the server's: the whole channel reads it)."""
    if isinstance(rounds, DoubleView):
        parts = double_layouts(rounds, title, lang)
        img, d = new_canvas(*double_size(rounds, title, lang), FELT)
        for lay, top in parts:
            _draw_layout(d, lay, top)
            if top:
                d.line((MARGIN, top + 2, lay.size[0] - MARGIN, top + 2), fill=FELT_DARK, width=3)
        return img
    lay = layout(rounds, title, lang=lang)
    img, d = new_canvas(*lay.size, FELT)
    _draw_layout(d, lay, 0)
    return img


def _shift(box: tuple[int, int, int, int], dy: int) -> tuple[int, int, int, int]:
    return box[0], box[1] + dy, box[2], box[3] + dy


def _draw_layout(d: ImageDraw.ImageDraw, lay: Layout, dy: int) -> None:
    for line in lay.lines:
        d.line(_shift(line, dy), fill=FELT_DARK, width=4)
    for box in lay.boxes:
        d.rounded_rectangle(_shift(box, dy), radius=8, fill=PAPER, outline=INK, width=2)
        d.line((box[0] + 2, box[1] + dy + ROW_H, box[2] - 2, box[1] + dy + ROW_H), fill=GREY, width=1)
    title, *columns = lay.headers
    _draw_header(d, title, WHITE, dy)
    for lb in columns:
        _draw_header(d, lb, GOLD, dy)
    for name in lay.names:
        x0, y0, x1, y1 = _shift(name.label.box, dy)
        if name.state == "won":
            d.rectangle((x0 - BOX_PAD + 2, y0 + 2, x1 + MARK_W + BOX_PAD - 3, y1 - 2), fill=GOLD)
            # A filled triangle marks the winner (no font glyph needed).
            mx, my = x1 + MARK_W // 2, (y0 + y1) // 2
            d.polygon([(mx - 6, my - 8), (mx + 7, my), (mx - 6, my + 8)], fill=INK)
        ink = GREY if name.state == "lost" else INK
        d.text((x0, (y0 + y1) // 2), name.label.text, font=font(name.label.size), fill=ink, anchor="lm")


def _draw_header(d: ImageDraw.ImageDraw, lb: Label, fill: tuple[int, int, int], dy: int = 0) -> None:
    d.text((lb.box[0], lb.box[3] + dy), lb.text, font=font(lb.size), fill=fill, anchor="ld")


def bracket_png(rounds: Sequence[Sequence[MatchView]] | DoubleView, title: str = "Bracket",
                lang: str = DEFAULT) -> bytes:
    return to_png(bracket_image(rounds, title, lang))


Rows = Sequence[Sequence[tuple[str | None, str | None, int | None]]]


def views(rows: Rows | tuple[Rows, Rows, Rows]) -> list[list[MatchView]] | DoubleView:
    """Plain rows (``host.tournaments.bracket_view``'s, a list of rounds or the three sections of a
    double-elimination bracket) as the views this module draws."""
    def section(rounds: Rows) -> list[list[MatchView]]:
        return [[MatchView(*m) for m in r] for r in rounds]
    if hasattr(rows, "winners"):
        winners, losers, finals = rows  # type: ignore[misc]
        return DoubleView(section(winners), section(losers), section(finals))
    return section(rows)  # type: ignore[arg-type]


def alt_text(view: Sequence[Sequence[MatchView]] | DoubleView, title: str, lang: str = DEFAULT) -> str:
    """The image's description for screen readers: every match with its winner, in ``lang``."""
    def describe(rounds: Sequence[Sequence[MatchView]]) -> list[str]:
        out = []
        for r in rounds:
            for m in r:
                if not (m.top or m.bottom):
                    continue
                top, bottom = place_name(lang, m.top, True), place_name(lang, m.bottom, True)
                if m.winner is None:
                    out.append(t(lang, "{top} against {bottom}", top=top, bottom=bottom))
                else:
                    out.append(t(lang, "{top} against {bottom}, {winner} won", top=top, bottom=bottom,
                                 winner=top if m.winner == 0 else bottom))
        return out
    if isinstance(view, DoubleView):
        parts = [(t(lang, "winners' bracket"), view.winners), (t(lang, "losers' bracket"), view.losers),
                 (t(lang, "grand final"), view.finals)]
        return f"{title}: " + " · ".join(f"{name}: " + "; ".join(describe(rounds)) for name, rounds in parts if rounds)
    return f"{title}: " + "; ".join(describe(view))


def fits(label: Label) -> bool:
    """The label's text is no wider than its area and no taller."""
    _, top, _, bottom = font(label.size).getbbox(label.text)
    return (text_width(label.text, label.size) <= label.box[2] - label.box[0]
            and bottom - top <= label.box[3] - label.box[1])
