"""How many tables of which size a round needs, and how many byes."""

from __future__ import annotations


def table_sizes(entrants: int, size: int, minimum: int) -> tuple[list[int], int]:
    """Table sizes (largest first) and the number of byes for ``entrants`` players.

    Tables hold ``size`` or ``size - 1`` players, never fewer than ``minimum``. Byes are as few
    as possible, then tables as few as possible (as many full tables as will go). When
    ``size - 1`` is below the minimum (2-player games, King Pedro's fixed four) the remainder
    ``entrants % size`` sits out with byes.
    """
    if size < 2 or minimum < 2 or size < minimum:
        raise ValueError("table size must be at least 2 and at least the game's minimum")
    smaller = size - 1
    if smaller < minimum:
        return [size] * (entrants // size), entrants % size
    for byes in range(entrants + 1):
        seated = entrants - byes
        for full in range(seated // size, -1, -1):
            rest = seated - full * size
            if rest % smaller == 0:
                return [size] * full + [smaller] * (rest // smaller), byes
    raise AssertionError("unreachable: zero seated players always divide")
