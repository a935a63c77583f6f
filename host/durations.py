"""Durations as members type them: ``90s``, ``10m``, ``12h``, ``3d``, ``1d12h``, or ``off``."""

from __future__ import annotations

import re

from host.errors import Refusal
from host.read_models import Duration
from i18n import N_
from render.markup import in_code

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"(?:[0-9]{1,6}[smhd])+")
_GROUP = re.compile(r"([0-9]{1,6})([smhd])")
# Refusals carry message ids: the guard shows them in the member's language. "Shorter" and "longer" are two
# whole sentences, since a language may need to agree other words with them.
UNREADABLE = N_("`{text}` isn't a duration I can read for `{what}`. Use `off`, or a whole number with s, m, h or d, "
                "such as `90s`, `10m`, `12h`, `3d` or `1d12h`.")
TOO_SHORT = N_("`{what}` must be between {low} and {high}; `{text}` is shorter than that.")
TOO_LONG = N_("`{what}` must be between {low} and {high}; `{text}` is longer than that.")


def parse_duration(text: str, *, low: int, high: int, what: str = "turn_time", allow_off: bool = True) -> int | None:
    """Seconds, or None for ``off``; anything else, or out of ``[low, high]``, raises Refusal naming the forms."""
    raw = text.strip().lower()
    if allow_off and raw == "off":
        return None
    if not _DURATION.fullmatch(raw):
        raise Refusal(UNREADABLE, text=in_code(text[:40]), what=what)
    seconds = sum(int(n) * UNITS[unit] for n, unit in _GROUP.findall(raw))
    if not low <= seconds <= high:
        raise Refusal(TOO_SHORT if seconds < low else TOO_LONG, what=what, low=describe(low), high=describe(high),
                      text=in_code(text[:40]))
    return seconds


def describe(seconds: int | float | None) -> str:
    """``93784`` → ``1d 2h 3m 4s``; None → ``off``."""
    return str(Duration(None if seconds is None else int(seconds)))


TURN_TIME_BOUNDS = (30, 14 * 86400)
