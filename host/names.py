"""Seat-name substitution for engine texts that say ``{p0}``..``{p5}``, and fitting the result
into Discord's label limits by shortening the names, never the action."""

from __future__ import annotations

import re
import unicodedata

from i18n import Message, Said, is_message, message_of
from render.markup import ELLIPSIS, label_length, shorten  # the one cut of a name, the presenters' too

_PLACEHOLDER = re.compile(r"\{p(\d)\}")
BUTTON_LABEL = 80    # Discord's limit for a button label
SELECT_LABEL = 100   # and for a select option's label


def fill_names(text: str, names: list[str]) -> str:
    def name(match: re.Match[str]) -> str:
        i = int(match.group(1))
        return names[i] if i < len(names) else match.group(0)

    return _PLACEHOLDER.sub(name, text)


def fill_message(message: Message, names: list[str]) -> Message:
    """``message`` with the seat names put into its plain-text params (a name is never translated)."""
    ident, params = message
    return (ident, {key: fill_message(value, names) if is_message(value)  # type: ignore[arg-type]
                    else fill_names(value, names) if isinstance(value, str) else value
                    for key, value in params.items()})


def fill_said(text: str, names: list[str]) -> str:
    """As :func:`fill_names`, keeping the message a text was said from (so a presenter can still translate it);
    the English reads exactly as ``fill_names`` gives it."""
    if not isinstance(text, Said):
        return fill_names(text, names)
    return Said(fill_message(message_of(text), names))


def fill_names_fitted(text: str, names: list[str], limit: int = BUTTON_LABEL) -> str:
    """``fill_names`` whose result is at most ``limit`` long (see ``label_length``).

    When the names make the label too long, the longest names are shortened first, each to the
    same cap, so "Kill {p1}'s Sapphire (row 1) with Ruby from the table" keeps its whole action
    text and every name keeps as much as fits. Only if the action text alone is too long is its
    end cut (engine labels are far shorter than 80, so this is a safety net).
    """
    full = fill_names(text, names)
    if label_length(full) <= limit:
        return full
    used = [int(m.group(1)) for m in _PLACEHOLDER.finditer(text) if int(m.group(1)) < len(names)]
    fixed = label_length(_PLACEHOLDER.sub(lambda m: "" if int(m.group(1)) < len(names) else m.group(0), text))
    budget = limit - fixed
    lengths = {i: label_length(unicodedata.normalize("NFC", names[i])) for i in set(used)}
    # The largest cap such that every occurrence, cut to the cap, fits the budget.
    cap = max(lengths.values(), default=0)
    while cap > 0 and sum(min(lengths[i], cap) for i in used) > budget:
        cap -= 1
    if cap >= 2:
        short = [shorten(n, cap) if i in lengths else n for i, n in enumerate(names)]
        filled = fill_names(text, short)
        if label_length(filled) <= limit:
            return filled
    # Not even two characters per name: keep a bare ellipsis for each and cut the action's end.
    filled = fill_names(text, [ELLIPSIS] * len(names))
    return shorten(filled, limit)
