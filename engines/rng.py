"""A small seeded random generator whose whole state is one integer.

Python's ``random.Random`` state is a 625-int tuple; dumping it into every
snapshot would bloat the store and make snapshots hard to diff. SplitMix64
is tiny, fast in pure Python and good enough for shuffling cards.

``below`` inlines the SplitMix64 step: random playouts draw tens of
thousands of times a second, and a method call per draw was a third of
the cost of a draw. ``tests/engines/test_rng.py`` pins its output to the
plain definition, because stored games replay through them.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_SPAN = 1 << 64
# Rejection limits for the small ranges cards need: computing 2**64 % n each draw was a tenth of a draw's cost.
_LIMITS = (0, *(_SPAN - _SPAN % n for n in range(1, 257)))
T = TypeVar("T")


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        # Rejecting draws at or above the largest multiple of n keeps every residue equally likely.
        limit = _LIMITS[n] if n < 257 else _SPAN - _SPAN % n
        z = self.state
        while True:
            z = (z + _GOLDEN) & _MASK
            x = ((z ^ (z >> 30)) * _MIX1) & _MASK
            x = ((x ^ (x >> 27)) * _MIX2) & _MASK
            x ^= x >> 31
            if x < limit:
                self.state = z
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates from the end, one ``below(i + 1)`` per position."""
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]


def seed_state(seed: int) -> int:
    """Spread a user seed (any int) into a 64-bit starting state."""
    return Rng(seed ^ 0x5DEECE66D).next64()
