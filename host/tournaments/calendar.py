"""A tournament's start on the calendar: reading ``starts_at``, and when its check-in opens.

Pure: the caller passes the current time and the server's time zone.
"""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from host.durations import parse_duration
from host.errors import Refusal
from host.tournaments.refusals import Phrase
from i18n import N_

#: A start at most this far ahead (a year), and at least this soon (a minute).
LATEST_START = 366 * 86400
EARLIEST_START = 60
CHECKIN_MINUTES = (0, 7 * 24 * 60)
DEFAULT_CHECKIN_MINUTES = 30

_DISCORD_TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")
_LOCAL = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})")
FORMS = N_("`2026-12-01 18:00` (the server's time zone), `in 2h`, or a Discord timestamp such as "
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
            raise Refusal(N_("`{raw}` is not a date and time that exists."), raw=raw[:40]) from None
    else:
        raise Refusal(N_("I can't read `{raw}` as a start time for `{:starts_at}`. Use {forms}."), raw=raw[:40],
                      forms=Phrase(FORMS))
    if when < now + EARLIEST_START:
        raise Refusal(N_("`{:starts_at}` must be in the future: <t:{when}:f> has passed (or is under a minute away)."),
                      when=int(when))
    if when > now + LATEST_START:
        raise Refusal(N_("`{:starts_at}` must be within a year from now."))
    return when


def check_in_opens(starts_at: float, checkin_minutes: int) -> float:
    """When the check-in opens: ``checkin_minutes`` before the start."""
    return starts_at - 60 * checkin_minutes


def check_checkin_minutes(minutes: int | None) -> int:
    value = DEFAULT_CHECKIN_MINUTES if minutes is None else minutes
    if not CHECKIN_MINUTES[0] <= value <= CHECKIN_MINUTES[1]:
        raise Refusal(N_("`{:checkin_minutes}` is {low} to {high} (a week)."), low=CHECKIN_MINUTES[0],
                      high=CHECKIN_MINUTES[1])
    return value


def estimated_length(rounds: int, round_time: int | None) -> float:
    """How long the event is announced to last: its rounds at ``round_time`` each (an hour without one)."""
    return max(1, rounds) * float(round_time or 3600)
