"""Standings as embed-sized pages of plain text (the cog wraps each in an embed with page buttons).

No discord import: a page is a title, a description (≤ 4096 characters, Discord's embed limit)
and no fields, so the 25-field limit can never be hit. One line per entrant, short enough for a
phone column: ``3. Name — 4½ pts · OPP 58.3% · OOPP 51.0% · 5 games``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from host.read_models import Percent, Points, StandingRow
from i18n import DEFAULT, N_, number, plural_n, t, tn
from render.markup import escape_name, graphemes, shorten

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


def format_percent(value: Fraction, lang: str = DEFAULT) -> str:
    """58.3% in English; the language's way elsewhere (58,3 % in French)."""
    if lang == DEFAULT:
        return str(Percent(value))
    return t(lang, "{value}%", value=number(lang, round(float(value) * 100, 1)))


def safe_name(name: str) -> str:
    """A display name made safe for an embed: markdown and mentions escaped, cut between grapheme clusters
    (never inside an emoji) to ``NAME_LIMIT`` of them (render.markup)."""
    return escape_name(shorten(" ".join(name.split()), NAME_LIMIT, graphemes))


def format_points_in(lang: str, points: Fraction) -> str:
    """Points as the language writes them: 4½ everywhere, decimals with the language's separator."""
    text = format_points(points)
    return text if lang == DEFAULT else text.replace(".", number(lang, 1.5)[1])


def standing_line(row: StandingRow, name: str, lang: str = DEFAULT) -> str:
    games = tn(lang, "{n} game", "{n} games", row.games)
    byes = " + " + tn(lang, "{n} bye", "{n} byes", row.byes) if row.byes else ""
    dropped = t(lang, " (dropped)") if row.dropped else ""
    shown = format_points_in(lang, row.points)
    # Each language's plural for the amount, fractions too: "½ pts, 1 pt, 1½ pts" in English, "0 pt, 1,5 pt,
    # 2 pts" in French (under 2 is singular).
    pts = tn(lang, "{points} pt", "{points} pts", plural_n(lang, row.points), points=shown)
    return (f"{row.place}. **{safe_name(name)}**{dropped} — {pts} · "
            f"OPP {format_percent(row.opp, lang)} · OOPP {format_percent(row.oopp, lang)}"
            f" · {games}{byes}")


def standings_pages(rows: Sequence[StandingRow], names: Mapping[int, str], title: str = N_("Standings"),
                    per_page: int = ROWS_PER_PAGE, lang: str = DEFAULT) -> list[StandingsPage]:
    """The standings in pages of at most ``per_page`` rows and ``DESCRIPTION_LIMIT`` characters; ``title`` is
    shown as it is (the caller writes it in ``lang``)."""
    header = t(lang, "Place, points, then tie-breakers: OPP (opponents' points %), OOPP (their opponents'), "
                     "games played.")
    chunks: list[list[str]] = []
    current: list[str] = []
    size = len(header) + 1
    for row in rows:
        line = standing_line(row, names.get(row.entrant, t(lang, "Entrant {number}", number=row.entrant)), lang)
        if current and (len(current) >= per_page or size + len(line) + 1 > DESCRIPTION_LIMIT):
            chunks.append(current)
            current, size = [], len(header) + 1
        current.append(line)
        size += len(line) + 1
    if current or not chunks:
        chunks.append(current)
    total = len(chunks)
    return [StandingsPage(title=f"{title} ({i}/{total})" if total > 1 else title,
                          description="\n".join([header, *lines] if lines else [header, t(lang, "No entrants yet.")]),
                          page=i, pages=total)
            for i, lines in enumerate(chunks, start=1)]
