"""Words in pictures: counts with the right plural ("1 card", "2 cards") and placings ("1st", "2nd").

Every count a picture draws goes through ``count``, so "1 cards" cannot come back. (``host`` has its
own helper for messages; the languages issue will move both into catalogues.)
"""

from __future__ import annotations

#: nouns whose plural is not the noun plus "s"
_PLURALS = {"pass": "passes", "ogre": "ogres", "discard": "discards"}


def plural(noun: str, n: int) -> str:
    """``noun`` as ``n`` of it needs: "card" for 1, "cards" otherwise (0 cards, 2 cards)."""
    if n == 1:
        return noun
    return _PLURALS.get(noun, noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s")


def count(n: int, noun: str) -> str:
    """``n`` and the noun in agreement: "0 cards", "1 card", "2 cards", "1 pt", "5 pts"."""
    return f"{n} {plural(noun, n)}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return str(n) + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
