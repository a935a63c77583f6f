"""The README's French and Ukrainian table pictures (its Languages section) are remade by docs/make_pictures.py
from fixed seeds, are current, and are drawn with the language's words (their alt text too)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from tests.languages import english_left
from tests.render.test_pictures import _make_pictures

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_shows_a_french_and_a_ukrainian_table() -> None:
    pictures = _make_pictures()
    assert {lang for _, lang in pictures.IN_LANGUAGES} == {"fr", "uk"}
    languages = (ROOT / "README.md").read_text(encoding="utf-8").split("## Languages", 1)[1].split("\n## ", 1)[0]
    for game, lang in pictures.IN_LANGUAGES:
        assert f"(docs/images/{game}-{lang}.png)" in languages


@pytest.mark.parametrize("game, lang", _make_pictures().IN_LANGUAGES)
def test_each_language_picture_is_remade_the_same_in_its_language(game: str, lang: str) -> None:
    pictures = _make_pictures()
    png, alt = pictures.picture(game, lang)
    english, _ = pictures.picture(game)
    assert png != english  # drawn with the language's words, not the English picture again
    assert english_left([alt], lang) == [] and alt != pictures.picture(game)[1]
    committed = ROOT / "docs" / "images" / f"{game}-{lang}.png"
    fresh, stored = Image.open(io.BytesIO(png)).convert("RGB"), Image.open(committed).convert("RGB")
    assert fresh.size == stored.size and fresh.tobytes() == stored.tobytes(), \
        f"docs/images/{game}-{lang}.png is out of date: run .venv/bin/python docs/make_pictures.py"
    assert len(png) <= 120 * 1024
