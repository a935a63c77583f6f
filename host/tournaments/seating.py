"""Turning a group of entrants into a seated Table, with partnerships where the game has them."""

from __future__ import annotations

from collections.abc import Sequence

from host.tournaments.models import EntrantId, Table

Teams = tuple[tuple[int, ...], ...]


def seat_table(ranked: Sequence[EntrantId], teams: Teams | None = None, rotate: int = 0) -> Table:
    """Seat ``ranked`` (best first) at one table.

    Without teams every player is a side, seated in rank order rotated by ``rotate`` (the round
    number), so the same player does not always sit in seat 0 and move first. With teams the
    players are dealt to the sides in a snake (1st and 4th against 2nd and 3rd), which balances
    partnerships, then each side takes its seats from ``teams``.
    """
    players = list(ranked)
    if not teams or len(players) != sum(len(t) for t in teams):
        k = rotate % len(players) if players else 0
        seats = tuple(players[k:] + players[:k])
        return Table(seats=seats, sides=tuple((p,) for p in seats))
    sides: list[list[EntrantId]] = [[] for _ in teams]
    forward = True
    idx = 0
    for player in players:
        sides[idx].append(player)
        nxt = idx + (1 if forward else -1)
        if 0 <= nxt < len(teams):
            idx = nxt
        else:
            forward = not forward  # stay on the end side for one more pick: the snake
    seat_of: dict[int, EntrantId] = {}
    for team, members in zip(teams, sides, strict=True):
        for seat, player in zip(team, members, strict=True):
            seat_of[seat] = player
    seats = tuple(seat_of[i] for i in range(len(players)))
    return Table(seats=seats, sides=tuple(tuple(seat_of[s] for s in team) for team in teams))
