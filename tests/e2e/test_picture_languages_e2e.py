"""The pictures of a game played in a French or a Ukrainian server are drawn in its language: every table
picture in the server's, every hand picture in its member's, with no English word on them.

The bot draws in render worker processes, where nothing can be recorded; the test notes each picture the
presenter asks for (renderer and arguments, the language among them) and draws a sample of them again here
while recording their words (render.text), so the words checked are those of the pictures the members got.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

import cogs.presenter
import render
from render import text as T
from tests.e2e.test_table_languages_e2e import TITLES, play_title, speak
from tests.languages import english_left
from tests.render.test_legibility import IN_LANGUAGES, WHOLE_WORDS, english_words

pytestmark = pytest.mark.asyncio

#: Each title whose pictures speak every language, played once in each (a game costs a few seconds).
GAMES = [(row, lang) for row in TITLES if row[0] in IN_LANGUAGES for lang in ("fr", "uk")]
#: Pictures drawn again here: every this many, and the last of each kind (the final table).
EVERY = 7


@pytest.mark.parametrize(("title", "lang"), GAMES, ids=[f"{row[0]}-{lang}" for row, lang in GAMES])
async def test_a_games_pictures_speak_the_servers_and_members_language(
        world: Any, member_locales: dict[int, str], monkeypatch: pytest.MonkeyPatch, title: tuple[Any, ...],
        lang: str) -> None:
    game, options, humans, bots = title
    asked: list[tuple[Any, tuple[Any, ...]]] = []
    drawn = cogs.presenter.drawn

    async def noted(key: int, fn: Any, /, *args: Any) -> bytes:
        asked.append((fn, args))
        return await drawn(key, fn, *args)

    monkeypatch.setattr(cogs.presenter, "drawn", noted)
    await speak(world, member_locales, lang)
    await play_title(world, lang, game, options, humans, bots)

    tables = [args for fn, args in asked if fn is render.table_png and args[0] == game]
    hands = [args for fn, args in asked if fn is render.hand_png and args[0] == game]
    assert tables and hands
    # table_png(game, view, names, last, placings, lang); hand_png(game, view, seat, names, lang)
    assert {args[5] for args in tables} == {lang} and {args[4] for args in hands} == {lang}
    said: set[str] = set()
    for fn, pictures in ((render.table_png, tables), (render.hand_png, hands)):
        for args in pictures[::EVERY] + pictures[-1:]:
            forget_card_faces()
            with T.recording() as texts:
                fn(*args)
            said.update(d.text for d in texts if d.text.strip())
    assert len(said) > 20
    assert english_left(sorted(said), lang) == []
    if game in WHOLE_WORDS:
        assert english_words(sorted(said), lang) == []


def forget_card_faces() -> None:
    """Empty the renderers' caches of card faces, so that the faces' words are drawn, and recorded, again."""
    for name, module in list(sys.modules.items()):
        if name.startswith("render.") and name != "render.text":
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", "") == name:
                    value.cache_clear()
