"""Words: counts with the right plural ("1 card", "2 cards"), placings ("1st", "2nd") and "a"/"an".

The one helper for every sentence the bot writes: the engines' labels and status lines, the
pictures (``render.words`` is this module, seen from the render layer) and the messages. Every count
goes through ``count``, so "1 cards" cannot come back. The languages issue will move these into
catalogues. Text only: nothing here decides a move.
"""

from __future__ import annotations

import re

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


def article(word: str) -> str:
    """The indefinite article before ``word`` as it sounds: "an Ogre Cheerleaders", "a Pedwar"."""
    if word[:1].isdigit():  # numbers as they are said: "an 8", "an 11", "an 18", "a 1", "a 10"
        return "an" if word[:1] == "8" or re.match(r"1[18](?!\d)", word) else "a"
    return "an" if word[:1].lower() in "aeio" or word[:2].lower() == "un" else "a"
