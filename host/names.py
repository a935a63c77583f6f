"""Seat-name substitution for engine texts that say ``{p0}``..``{p5}``."""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"\{p(\d)\}")


def fill_names(text: str, names: list[str]) -> str:
    def name(match: re.Match[str]) -> str:
        i = int(match.group(1))
        return names[i] if i < len(names) else match.group(0)

    return _PLACEHOLDER.sub(name, text)
