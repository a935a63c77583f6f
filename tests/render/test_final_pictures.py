"""A finished table looks finished, however it ended: drawn with ``placings``, a mid-game view (a resignation,
a forfeit, a timeout, an abandon leave one) shows the placings and nobody to act, in the picture and its alt
text alike; and the words in pictures agree with their counts."""

from __future__ import annotations

import importlib
import io
import json
import re

import pytest
from PIL import Image

from engines import GAME_IDS, get_engine
from engines.bots import RandomBot
from render import alt_text, table_png
from render import text as T
from render.words import count, ordinal, plural
from tests.render.layout_check import render_checked

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def _mid_game(game: str, n: int, moves: int = 12) -> dict:
    eng = get_engine(game)
    s = eng.new_game(n, 5)
    bot = RandomBot(5)
    done = 0
    while done < moves or eng.view(s, None).get("phase") == "swap":  # Do Over! past its swap step
        seat = eng.to_act(s)[0]
        s = eng.apply(s, seat, bot.choose(eng, s, seat))
        done += 1
    assert not eng.is_over(s) and eng.to_act(s)
    return json.loads(json.dumps(eng.view(s, None)))


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_table_drawn_with_placings_is_over_nobody_acts_and_the_placings_show(game):
    eng = get_engine(game)
    n = 4 if eng.min_players <= 4 <= eng.max_players else eng.min_players
    view = _mid_game(game, n)
    names = NAMES[:n]
    placings = [2, 1, *range(3, n + 1)]  # bob first, then alice, carol…
    mod = importlib.import_module(f"render.{game}")
    _, live = render_checked(lambda: mod.table_image(view, names))
    assert any(" to " in t.text for t in live)  # the check below can fail
    _, drawn = render_checked(lambda: mod.table_image(view, names, placings))
    texts = [t.text for t in drawn]
    acting = re.compile(r" to (act|play|bid|alter|name|pass|discard)\b| may kill|swapping|\bactive\b")
    for t in texts:
        assert not acting.search(t), (game, t)
    assert any(t.startswith("Final: 1st bob · 2nd alice") for t in texts), (game, texts[:6])
    for seat in range(n):  # every seat's place is drawn in its row
        assert any(ordinal(placings[seat]) in t.split(" · ") or f"#{placings[seat]}" == t
                   or f"place {placings[seat]}" in t for t in texts), (game, seat, texts)
    alt = alt_text(game, view, names, "bob resigns", placings)
    assert "To act" not in alt and "Game over." in alt and "Placings: 1st bob, 2nd alice" in alt, alt
    assert "To act" in alt_text(game, view, names, "bob resigns")
    # the PNG the host posts is the same final picture
    with T.recording() as posted:
        Image.open(io.BytesIO(table_png(game, view, names, "bob resigns", placings))).load()
    assert any(t.text.startswith("Final: 1st bob") for t in posted)
    assert not any("to act" in t.text for t in posted)


@pytest.mark.parametrize("game", GAME_IDS)
def test_an_abandoned_table_drawn_with_no_placings_is_over_without_a_result(game):
    eng = get_engine(game)
    n = 4 if eng.min_players <= 4 <= eng.max_players else eng.min_players
    view = _mid_game(game, n)
    mod = importlib.import_module(f"render.{game}")
    _, drawn = render_checked(lambda: mod.table_image(view, NAMES[:n], []))
    texts = [t.text for t in drawn]
    assert "Game over: no result" in texts and not any(" to act" in t for t in texts), texts[:6]
    alt = alt_text(game, view, NAMES[:n], None, [])
    assert "Game over." in alt and "To act" not in alt and "Placings" not in alt


def test_counts_agree_with_their_nouns():
    assert [count(n, "card") for n in (0, 1, 2, 5)] == ["0 cards", "1 card", "2 cards", "5 cards"]
    assert [count(n, "pt") for n in (0, 1, 2, 5)] == ["0 pts", "1 pt", "2 pts", "5 pts"]
    assert [count(n, "pass") for n in (0, 1, 2, 5)] == ["0 passes", "1 pass", "2 passes", "5 passes"]
    assert plural("trick", 1) == "trick" and plural("trick", 0) == "tricks"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]
