"""Strict parsing of what members type: whole numbers and table options.

Every number a member can send (an option value, a table id or a version in a
custom_id) is read the same way: ASCII digits only, within a stated range.
``str.isdigit`` is not enough: it accepts ``²`` and other digits that ``int``
refuses or reads as something else.
"""

from __future__ import annotations

import re
from typing import Any

from host.errors import Refusal
from i18n import N_
from render.markup import in_code

_DIGITS = re.compile(r"[0-9]{1,19}")
#: No table option needs more: the longest games cap at a few thousand turns.
MAX_OPTION = 100_000
_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


def whole_number(text: str, low: int, high: int) -> int | None:
    """``text`` as an int in ``[low, high]``, or None if it is anything else."""
    if not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None


def parse_options(text: str | None) -> dict[str, Any]:
    """``"max_turns=300 allow_voluntary_take=false"`` → a dict; anything malformed raises Refusal.

    Whether a key belongs to the game, and whether its value is one the option takes, is checked later, against
    the game's options (``host.table_options``).
    """
    options: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, raw = part.partition("=")
        if not sep or not key or not raw or "=" in raw:
            raise Refusal(N_("Options look like `name=value`, e.g. `max_turns=300`; I couldn't read `{part}`."),
                          part=in_code(part[:40]))
        if not _KEY.fullmatch(key):
            raise Refusal(N_("`{key}` isn't an option name; see `{/game rules}` for the game's options."),
                          key=in_code(key[:40]))
        low = raw.lower()
        if low in ("true", "yes", "on"):
            options[key] = True
        elif low in ("false", "no", "off"):
            options[key] = False
        else:
            # Neither a flag nor a whole number in range: kept as written, for the game's own check to refuse
            # with what that option takes ("`max_turns` is a whole number from 1 to 5,000"), or as an option the
            # game does not have; a range of our own here contradicted the game's.
            number = whole_number(raw, 1, MAX_OPTION)
            options[key] = raw[:40] if number is None else number
    return options
