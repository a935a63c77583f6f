"""The bracket as plain names and winners, ready for ``render.bracket`` (which knows no entrants)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from host.tournaments.elimination import bracket
from host.tournaments.models import EntrantId, TableResult

#: (top name, bottom name, winner: 0 top / 1 bottom / None); a ``None`` name is a bye in round 1
#: and a place not known yet (drawn "TBD") later. The same shape as ``render.bracket.MatchView``.
MatchRow = tuple[str | None, str | None, int | None]


def bracket_view(seeds: Sequence[EntrantId], results: Sequence[TableResult],
                 names: Mapping[EntrantId, str]) -> list[list[MatchRow]]:
    """Every round of the bracket with names, the higher seed on top."""
    out: list[list[MatchRow]] = []
    for matches in bracket(seeds, results):
        rows: list[MatchRow] = []
        for m in matches:
            winner = None if m.winner is None else (0 if m.winner == m.high else 1)
            rows.append((None if m.high is None else names.get(m.high, f"Entrant {m.high}"),
                         None if m.low is None else names.get(m.low, f"Entrant {m.low}"), winner))
        out.append(rows)
    return out
