"""A move's public line ("**alice** plays Bomb"), kept English in the log and said again in any language; and
the lines of a seat change (a resignation, a replacement), kept as messages beside its ``seat_events`` row.

The line is English in ``actions.label`` for operators and the log; beside it the log keeps the message it
was said from (``label_id``: the move's message id; ``label_params``: the line's params, the move's own among
them; ``event_ids``: each event's message), so that a table message, a replay or ``/game log`` can show an
old move in whatever language its reader speaks (migration 12).

The names in a stored line and its params are markdown-escaped (``escape_name``), and that stays so on
purpose, though escaping belongs to presentation: the line *is* the markdown a table message shows, and
every plain reader (the picture, its alt text, ``/game log``'s file, the web pages) undoes it with
``render.markup.plain_text``. Storing raw names would leave the rows already written escaped and the new
ones not, with nothing in a row to tell them apart. A migration could not fix them: in a label older than
migration 12 nothing says where a name ends and the line's own markdown (``**…**``) begins. So every reader
would need a marker column and two ways of reading, and a missed escape at one of the half-dozen presenters
would let a member's name format or spoof the table messages. The gain (a log column without backslashes)
is not worth that risk.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from i18n import Said, is_message, message_of, msg

#: The shape of a line: a note (a timeout's), the seat's name (markdown, escaped), the move. Structure, not
#: words: it reads the same in every language, so it is no catalogue entry.
LINE = "{note}**{player}** {move}"


def move_line(note: str, player: str, move: str) -> str:
    """The public line of ``player``'s move; English exactly ``f"{note}**{player}** {move}"``."""
    return Said(msg(LINE, note=message_of(note) if note else "", player=player, move=message_of(move)))


def stored(line: str, events: Sequence[str]) -> tuple[str | None, str | None, str | None]:
    """What the log keeps beside a line and its events: (label_id, label_params, event_ids), JSON text."""
    if not isinstance(line, Said) or line.message[0] != LINE:
        return None, None, None
    params = line.message[1]
    move = message_of(params["move"])  # type: ignore[arg-type]
    ident = move[0]
    label_id = ident if isinstance(ident, str) else str(ident[0])  # a counted message: its singular id
    return (label_id, json.dumps(params, ensure_ascii=False),
            json.dumps([message_of(e) for e in events], ensure_ascii=False))


def line_of(label: str, label_params: str | None) -> str:
    """A logged move's line, said again from its stored message when it has one (else its English)."""
    if not label_params:
        return label
    try:
        params: dict[str, Any] = json.loads(label_params)
        return Said(msg(LINE, **params))
    except (ValueError, TypeError, KeyError):
        return label


def stored_lines(lines: Sequence[str]) -> str:
    """What the log keeps of the lines that told a table about a seat change: each line's message (JSON)."""
    return json.dumps([message_of(line) for line in lines], ensure_ascii=False)


def lines_of(stored: str | None) -> list[str]:
    """A seat change's stored lines, said again from their messages (none when unreadable)."""
    try:
        messages = json.loads(stored or "[]")
    except ValueError:
        return []
    return [Said(m) for m in messages if is_message(m)] if isinstance(messages, list) else []


def events_of(events: Sequence[str], event_ids: str | None) -> list[str]:
    """A logged move's events, said again from their stored messages when they have them."""
    if not event_ids:
        return list(events)
    try:
        messages = json.loads(event_ids)
        if len(messages) == len(events) and all(is_message(m) for m in messages):
            return [Said(m) for m in messages]
    except (ValueError, TypeError):
        pass
    return list(events)
