"""Standings as embed-sized pages of plain text (the cog wraps each in an embed with page buttons).

No discord import: a page is a title, a description (≤ 4096 characters, Discord's embed limit)
and no fields, so the 25-field limit can never be hit. One line per entrant, short enough for a
phone column: ``3. Name — 4½ pts · OPP 58.3% · OOPP 51.0% · 5 games``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import regex

from host.read_models import Percent, Points, StandingRow
from render.markup import escape_name

DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 25
#: Rows per page: 20 lines fit a phone screen and stay far below the character limit.
ROWS_PER_PAGE = 20
NAME_LIMIT = 32  # Discord's display-name limit; longer names are cut by grapheme


@dataclass(frozen=True)
class StandingsPage:
    title: str
    description: str
    #: (name, value) pairs, always empty today; kept so a cog can build embeds from the page as is.
    fields: tuple[tuple[str, str], ...] = field(default=())
    page: int = 1
    pages: int = 1


def format_points(points: Fraction) -> str:
    """4 → ``4``, 4½ → ``4½``, thirds and others to two decimals (``2.67``)."""
    return str(Points(points))


def format_percent(value: Fraction) -> str:
    return str(Percent(value))


def safe_name(name: str) -> str:
    """A display name made safe for an embed: markdown and mentions escaped (render.markup), cut by
    grapheme clusters (never inside an emoji) to ``NAME_LIMIT``."""
    name = " ".join(name.split())
    if len(name) > NAME_LIMIT:  # fewer code points than the limit means fewer clusters too
        clusters = regex.findall(r"\X", name)
        if len(clusters) > NAME_LIMIT:
            name = "".join(clusters[:NAME_LIMIT - 1]) + "…"
    return escape_name(name)


def standing_line(row: StandingRow, name: str) -> str:
    games = f"{row.games} game" + ("" if row.games == 1 else "s")
    byes = f" + {row.byes} bye" + ("" if row.byes == 1 else "s") if row.byes else ""
    dropped = " (dropped)" if row.dropped else ""
    pts = "pt" if row.points == 1 else "pts"  # ½ pts, 1 pt, 1½ pts
    return (f"{row.place}. **{safe_name(name)}**{dropped} — {format_points(row.points)} {pts} · "
            f"OPP {format_percent(row.opp)} · OOPP {format_percent(row.oopp)} · {games}{byes}")


def standings_pages(rows: Sequence[StandingRow], names: Mapping[int, str], title: str = "Standings",
                    per_page: int = ROWS_PER_PAGE) -> list[StandingsPage]:
    """The standings in pages of at most ``per_page`` rows and ``DESCRIPTION_LIMIT`` characters."""
    header = "Place, points, then tie-breakers: OPP (opponents' points %), OOPP (their opponents'), games played."
    chunks: list[list[str]] = []
    current: list[str] = []
    size = len(header) + 1
    for row in rows:
        line = standing_line(row, names.get(row.entrant, f"Entrant {row.entrant}"))
        if current and (len(current) >= per_page or size + len(line) + 1 > DESCRIPTION_LIMIT):
            chunks.append(current)
            current, size = [], len(header) + 1
        current.append(line)
        size += len(line) + 1
    if current or not chunks:
        chunks.append(current)
    total = len(chunks)
    return [StandingsPage(title=f"{title} ({i}/{total})" if total > 1 else title,
                          description="\n".join([header, *lines]) if lines else header + "\nNo entrants yet.",
                          page=i, pages=total)
            for i, lines in enumerate(chunks, start=1)]
