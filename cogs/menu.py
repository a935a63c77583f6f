"""Lay a seat's legal actions out as Discord controls, with no discord import.

Actions are grouped by their first ``:`` segment (``play:7`` → ``play``).
A group of one becomes a button, a larger group a select menu (25 options
at most). When a group or the whole panel does not fit Discord's limits
(5 rows, 25 options) the panel nests: a select whose options are prefixes
(values starting with ``>``) opens that part of the tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import i18n
from i18n import t, tn

MAX_OPTIONS = 25
MAX_ROWS = 5
BUTTONS_PER_ROW = 5
NAV = ">"


@dataclass
class SelectSpec:
    placeholder: str
    options: list[tuple[str, str]]  # (value, label); a value starting with ">" opens a prefix


@dataclass
class Menu:
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (action, label)
    selects: list[SelectSpec] = field(default_factory=list)
    back: bool = False

    def rows(self) -> int:
        buttons = len(self.buttons) + (1 if self.back else 0)
        return -(-buttons // BUTTONS_PER_ROW) + len(self.selects)


def _groups(choices: list[tuple[str, str]], prefix: str) -> dict[str, list[tuple[str, str]]]:
    """Choices under ``prefix``, keyed by the prefix extended by one segment."""
    depth = prefix.count(":") + 1 if prefix else 0
    groups: dict[str, list[tuple[str, str]]] = {}
    for action, label in choices:
        if prefix and not (action == prefix or action.startswith(prefix + ":")):
            continue
        parts = action.split(":")
        key = ":".join(parts[: depth + 1])
        groups.setdefault(key, []).append((action, label))
    return groups


def _title(key: str, lang: str) -> str:
    # An action's verb is an English word of the engine's action ids: other languages say "Choose…", and the
    # select's options (the engines' labels, translated) say what is chosen.
    if lang != i18n.DEFAULT:
        return t(lang, "Choose…")
    verb = key.split(":")[-1]
    return verb[:1].upper() + verb[1:] + "…"


def _chunks(options: list[tuple[str, str]], placeholder: str) -> list[SelectSpec]:
    # Even halves read better than 25 + 8: "Bid 30 – Bid 46" / "Bid 47 – Bid 62".
    count = -(-len(options) // MAX_OPTIONS)
    size = -(-len(options) // count) if options else MAX_OPTIONS
    parts = [options[i: i + size] for i in range(0, len(options), size)]
    if len(parts) == 1:
        return [SelectSpec(placeholder, parts[0])]
    return [SelectSpec(f"{placeholder} {part[0][1]} – {part[-1][1]}"[:150], part) for part in parts]


def _nav_option(key: str, items: list[tuple[str, str]], lang: str) -> tuple[str, str]:
    if len(items) == 1:
        return items[0]
    if lang != i18n.DEFAULT:  # the action id's words are English: name the group by its first and last labels
        return NAV + key, tn(lang, "{first} – {last} ({n} choice)", "{first} – {last} ({n} choices)", len(items),
                             first=items[0][1][:40], last=items[-1][1][:40])
    return NAV + key, f"{key.replace(':', ' ')} ({len(items)} choices)"


def build_menu(choices: list[tuple[str, str]], prefix: str = "", lang: str = i18n.DEFAULT) -> Menu:
    """The controls for ``choices`` (action, label) under ``prefix`` ("" = all), their chrome in ``lang``."""
    groups = _groups(choices, prefix)
    menu = Menu(back=bool(prefix))
    for key, items in groups.items():
        if len(items) == 1 and len(menu.buttons) < 2 * BUTTONS_PER_ROW:
            menu.buttons.append(items[0])
        elif len(items) <= 2 * MAX_OPTIONS or not _can_nest(items, key):
            menu.selects.extend(_chunks(items, _title(key, lang)))
        else:
            sub = _groups(items, key)
            menu.selects.extend(_chunks([_nav_option(k, v, lang) for k, v in sub.items()], _title(key, lang)))
    if menu.rows() <= MAX_ROWS:
        return menu
    # Too much for one panel: one select of the groups, each opening its own panel.
    nav = [_nav_option(key, items, lang) for key, items in groups.items()]
    return Menu(selects=_chunks(nav, t(lang, "Choose…"))[:MAX_ROWS - 1], back=bool(prefix))


def _can_nest(items: list[tuple[str, str]], key: str) -> bool:
    """Whether splitting by one more segment makes progress."""
    return len(_groups(items, key)) > 1
