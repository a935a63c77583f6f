"""The pictures of a title drawn in the reader's language carry no English: each label of its table and hand
pictures in French or Ukrainian is compared with the labels of the same pictures drawn in English.

``english_left`` (tests/languages.py) finds only catalogue messages of twelve letters or more; this finds the
short ones too ("dealer", "won", "5th") and any word drawn from no catalogue at all: a label drawn the same in
English and in the language, once its names and card codes are set aside, is English left in the picture.
"""

from __future__ import annotations

import importlib
import pickle
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engines import get_engine
from engines.bots import RandomBot
from render import text as T
from tests.languages import english_left
from tests.render.names import LONG_NAMES

PLAIN = ["alice", "bob", "carol", "dave", "erin", "frank"]
#: The titles checked here (the others drawn in every language have test_legibility's whole-words check).
TITLES = ("king_pedro", "pedwar")
#: Labels drawn the same in every language, with why: game titles are not translated (docs/glossary.md).
SAME = {"King Pedro", "Pedwar", "Do Over!"}
#: Card codes stay as they are in every language (docs/glossary.md): King Pedro's (AS, 10H), Pedwar's (R5, YW,
#: 1+, OP), Do Over!'s (BOMB, DO, REV).
CODES = re.compile(r"\b(?:10|[2-9AKQJ])[SHDC]\b|\b[RBGY](?:[1-8]|W)\b|\bOP\b|\b(?:BOMB|DO|REV)\b")
#: Words a language writes as English does: French abbreviates points "pts" too (Pedwar's scores).
SAME_WORDS = re.compile(r"\bpts?\b")
WORD = re.compile(r"[A-Za-z]{2,}")


def _states(game: str, seed: int, every: int) -> Iterator[Any]:
    eng = get_engine(game)
    s = eng.new_game(eng.max_players, seed)
    bot = RandomBot(seed)
    for step in range(3000):
        if step % every == 0 or eng.is_over(s):
            yield s
        if eng.is_over(s):
            return
        seat = eng.to_act(s)[0]
        s = eng.apply(s, seat, bot.choose(eng, s, seat))


def _labels(game: str, view: Any, seat: int | None, names: list[str], lang: str) -> list[str]:
    """Every text a picture draws (card faces included), from the view as the render pool receives it
    (pickled: an engine's said lines keep their messages)."""
    mod = importlib.import_module(f"render.{game}")
    view = pickle.loads(pickle.dumps(view))
    words = {} if lang == "en" else {"lang": lang}
    with T.recording() as drawn:
        if seat is None:
            mod.table_image(view, names, **words)
        else:
            mod.hand_image(view, seat, names, **words)
    return [d.text for d in drawn if d.text.strip()]


def _english(label: str, names: list[str]) -> str | None:
    """What of a label is words, its names (whole or shortened, "Bob Zürich Über…") and card codes set aside
    (None when nothing is)."""
    for name in sorted(names, key=len, reverse=True):
        label = label.replace(name, " ")
        for end in range(len(name) - 1, 0, -1):
            label = label.replace(name[:end].rstrip() + T.ELLIPSIS, " ")
    label = SAME_WORDS.sub(" ", CODES.sub(" ", label))
    return label if WORD.search(label) else None


@pytest.mark.parametrize("names", [PLAIN, LONG_NAMES], ids=["plain", "long"])
@pytest.mark.parametrize("lang", ["fr", "uk"])
@pytest.mark.parametrize("game", TITLES)
def test_the_language_pictures_carry_no_english(game: str, lang: str, names: list[str]) -> None:
    eng = get_engine(game)
    names = (names * 2)[: eng.max_players]
    mod = importlib.import_module(f"render.{game}")
    for cached in vars(mod).values():  # card faces drawn before this test would not be recorded
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()
    english: set[str] = set()
    seen: list[str] = []
    for seed in (1, 2):
        for s in _states(game, seed, every=17 if names is PLAIN else 41):
            for seat in (None, *range(eng.max_players)):
                view = eng.view(s, seat)
                english.update(_labels(game, view, seat, names, "en"))
                seen += _labels(game, view, seat, names, lang)
    assert len(seen) > 500
    said = set(seen)
    assert sorted(label for label in said & english if label not in SAME and _english(label, names)) == []
    assert english_left(sorted(said), lang) == []
