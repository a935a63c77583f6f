"""A tournament's start on the calendar: reading ``starts_at``, and when its check-in opens.

Pure: the caller passes the current time and the server's time zone.
"""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from host.durations import parse_duration
from host.errors import Refusal

#: A start at most this far ahead (a year), and at least this soon (a minute).
LATEST_START = 366 * 86400
EARLIEST_START = 60
CHECKIN_MINUTES = (0, 7 * 24 * 60)
DEFAULT_CHECKIN_MINUTES = 30

_DISCORD_TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")
_LOCAL = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})")
FORMS = ("`2026-12-01 18:00` (the server's time zone), `in 2h`, or a Discord timestamp such as "
         "`<t:1764612000:F>`")


def parse_start(text: str, now: float, timezone: str = "UTC") -> float:
    """The instant ``text`` names, as a Unix time; refuses one that is unreadable, past, or over a year ahead."""
    raw = " ".join(text.split())
    low = raw.lower()
    if low.startswith("in "):
        seconds = parse_duration(low[3:], low=1, high=LATEST_START, what="starts_at", allow_off=False)
        assert seconds is not None
        when = now + seconds
    elif stamp := _DISCORD_TIMESTAMP.fullmatch(raw):
        when = float(stamp.group(1))
    elif local := _LOCAL.fullmatch(raw):
        year, month, day, hour, minute = (int(g) for g in local.groups())
        try:
            when = datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(timezone)).timestamp()
        except ValueError:
            raise Refusal(f"`{raw[:40]}` is not a date and time that exists.") from None
    else:
        raise Refusal(f"I can't read `{raw[:40]}` as a start time for `starts_at`. Use {FORMS}.")
    if when < now + EARLIEST_START:
        raise Refusal(f"`starts_at` must be in the future: <t:{int(when)}:f> has passed (or is under a minute away).")
    if when > now + LATEST_START:
        raise Refusal("`starts_at` must be within a year from now.")
    return when


def check_in_opens(starts_at: float, checkin_minutes: int) -> float:
    """When the check-in opens: ``checkin_minutes`` before the start."""
    return starts_at - 60 * checkin_minutes


def check_checkin_minutes(minutes: int | None) -> int:
    value = DEFAULT_CHECKIN_MINUTES if minutes is None else minutes
    if not CHECKIN_MINUTES[0] <= value <= CHECKIN_MINUTES[1]:
        raise Refusal(f"`checkin_minutes` is {CHECKIN_MINUTES[0]} to {CHECKIN_MINUTES[1]} (a week).")
    return value


def estimated_length(rounds: int, round_time: int | None) -> float:
    """How long the event is announced to last: its rounds at ``round_time`` each (an hour without one)."""
    return max(1, rounds) * float(round_time or 3600)
