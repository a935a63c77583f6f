"""The bracket as plain names and winners, ready for ``render.bracket`` (which knows no entrants)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from host.tournaments.double_elimination import LOSERS, WINNERS, DoubleMatch, double_bracket
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


class DoubleRows(NamedTuple):
    """A double-elimination bracket with names: the winners' and the losers' brackets round by round,
    and the grand final (with its reset as a second column once it is needed). An empty place the
    bracket passes through is named ``BYE``; ``None`` is a place not known yet."""

    winners: list[list[MatchRow]]
    losers: list[list[MatchRow]]
    finals: list[list[MatchRow]]


#: The name shown for an empty place of the double-elimination bracket.
BYE = "bye"


def double_bracket_view(seeds: Sequence[EntrantId], results: Sequence[TableResult],
                        names: Mapping[EntrantId, str]) -> DoubleRows:
    """Both brackets and the grand final with names, the higher seed on top."""
    winners: dict[int, list[MatchRow]] = {}
    losers: dict[int, list[MatchRow]] = {}
    finals: list[list[MatchRow]] = []

    def name(m: DoubleMatch, who: EntrantId | None) -> str | None:
        if who is not None:
            return names.get(who, f"Entrant {who}")
        return BYE if m.known else None

    for m in double_bracket(seeds, results):
        winner = None if not m.decided or m.winner is None else (0 if m.winner == m.high else 1)
        row: MatchRow = (name(m, m.high), name(m, m.low), winner)
        if m.bracket == WINNERS:
            winners.setdefault(m.round, []).append(row)
        elif m.bracket == LOSERS:
            losers.setdefault(m.round, []).append(row)
        elif m.needed and (m.round == 1 or m.known):
            finals.append([row])
    return DoubleRows([winners[r] for r in sorted(winners)], [losers[r] for r in sorted(losers)], finals)
