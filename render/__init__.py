"""Pillow renderers: table and hand images drawn from engine views.

Each game has ``render/<game_id>.py`` with::

    table_image(view: dict, names: list[str]) -> PIL.Image.Image
    hand_image(view: dict, seat: int, names: list[str]) -> PIL.Image.Image

``view`` is exactly ``engine.view(state, None)`` (table) or
``engine.view(state, seat)`` (hand); ``names`` are the seat names.

``alt_text(game_id, view, names, last_action=None)`` describes the public view in words for the
attachment's description (screen readers, failed loads).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from render.alt import alt_text
from render.common import to_png

__all__ = ["alt_text", "hand_png", "table_png"]


def _module(game_id: str) -> ModuleType:
    return importlib.import_module(f"render.{game_id}")


def table_png(game_id: str, view: dict[str, Any], names: list[str]) -> bytes:
    return to_png(_module(game_id).table_image(view, names))


def hand_png(game_id: str, view: dict[str, Any], seat: int, names: list[str]) -> bytes:
    return to_png(_module(game_id).hand_image(view, seat, names))
