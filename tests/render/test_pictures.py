"""The README's table pictures are remade by docs/make_pictures.py from fixed seeds, and are current."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


def _make_pictures():
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs" / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["do_over", "pedwar", "king_pedro", "ogre_cheerleaders", "pentawar"])
def test_each_game_s_picture_is_in_the_readme_and_remade_the_same(game):
    pictures = _make_pictures()
    png, alt = pictures.picture(game)
    assert pictures.picture(game)[0] == png  # fixed seeds: the same picture every time
    committed = ROOT / "docs" / "images" / f"{game}.png"
    assert f"(docs/images/{game}.png)" in (ROOT / "README.md").read_text(encoding="utf-8")
    fresh, stored = Image.open(io.BytesIO(png)).convert("RGB"), Image.open(committed).convert("RGB")
    assert fresh.size == stored.size and fresh.tobytes() == stored.tobytes(), \
        f"docs/images/{game}.png is out of date: run .venv/bin/python docs/make_pictures.py"
    assert len(png) <= 120 * 1024 and alt
