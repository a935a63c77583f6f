"""Ogre Cheerleaders renderer: table and hand images along random games, from views only."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from engines.bots import RandomBot
from engines.ogre_cheerleaders import ENGINE as E
from render import hand_png, table_png
from render.ogre_cheerleaders import field_face, hand_image, table_image
from tests.render.layout_check import render_checked
from tests.render.names import LONG_NAMES

NAMES = LONG_NAMES[:4]
MAX_PNG = 200 * 1024


def states_along_a_game(n: int, seed: int, every: int = 7):
    s = E.new_game(n, seed)
    bot = RandomBot(seed)
    out = [s]
    step = 0
    while not E.is_over(s):
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, bot.choose(E, s, seat))
        step += 1
        if step % every == 0 or s.last_scoring or (s.pending and s.pending[0] in ("score", "place", "eight")):
            out.append(s)
    out.append(s)
    return out


def check(img: Image.Image, png: bytes) -> None:
    assert isinstance(img, Image.Image)
    assert img.width == 800 and 200 <= img.height <= 2400
    assert png.startswith(b"\x89PNG") and len(png) <= MAX_PNG


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_images_along_a_game(n, seed):
    names = NAMES[:n]
    for s in states_along_a_game(n, seed):
        pub = json.loads(json.dumps(E.view(s, None)))   # the renderer reads plain JSON
        img, _ = render_checked(lambda pub=pub: table_image(pub, names))
        check(img, table_png("ogre_cheerleaders", pub, names))
        for seat in range(n):
            v = json.loads(json.dumps(E.view(s, seat)))
            img, _ = render_checked(lambda v=v, seat=seat: hand_image(v, seat, names), max_ratio=2.6)
            check(img, hand_png("ogre_cheerleaders", v, seat, names))


def test_field_wraps_onto_more_lines():
    s = E.new_game(2, 4)
    short = table_image(E.view(s, None), NAMES[:2])
    s.field = ["O1", "S2", "C3", "U4", "O5", "S6", "C7", "U8", "O9", "S10", "C1", "U2", "O3", "S4",
               "C5", "U6", "O7", "S8", "C9", "U10", "O2", "S3"]
    tall, drawn = render_checked(lambda: table_image(E.view(s, None), NAMES[:2]))
    assert tall.width == short.width and tall.height > short.height
    texts = [t.text for t in drawn]
    # both ends are named, every card has its position, and each wrap says where the line goes on
    assert "◀ left end" in texts and "right end ▶" in texts
    assert all(str(i) in texts for i in range(1, 23))
    assert texts.count("next row ↓") == 3


def test_scored_cards_highlighted_in_the_field_before_they_left():
    s = E.new_game(2, 4)
    v = E.view(s, None)
    plain = table_image(v, NAMES[:2])
    v["last_scoring"] = {"seat": 1, "field": ["O3", "O4", "O5", "S9"], "highlight": [0, 1, 2]}
    lit, drawn = render_checked(lambda: table_image(v, NAMES[:2]))
    assert lit.height >= plain.height
    assert any(t.text.startswith("Just scored by") and t.text.endswith(": O3 O4 O5") for t in drawn)


def test_game_over_and_empty_views():
    s = E.new_game(3, 5, {"max_turns": 2})
    while not s.over:
        s = E.apply(s, s.seat, E.legal_actions(s, s.seat)[0])
    v = E.view(s, None)
    img, drawn = render_checked(lambda: table_image(v, NAMES[:3]))
    check(img, table_png("ogre_cheerleaders", v, NAMES[:3]))
    assert any(t.text.startswith("place 1") for t in drawn)
    v["field"], v["bench"], v["bench_top"], v["bench_count"] = [], [], None, 0
    check(table_image(v, NAMES[:3]), table_png("ogre_cheerleaders", v, NAMES[:3]))
    hv = E.view(s, 0)
    hv["hand"] = []
    check(hand_image(hv, 0, NAMES[:3]), hand_png("ogre_cheerleaders", hv, 0, NAMES[:3]))


def test_faces_are_cached():
    assert field_face("O7") is field_face("O7")


def _walk_until(pred, n: int = 3, seeds: range = range(1, 40)):
    for seed in seeds:
        s = E.new_game(n, seed)
        bot = RandomBot(seed)
        while not E.is_over(s):
            if pred(s):
                return s
            seat = E.to_act(s)[0]
            s = E.apply(s, seat, bot.choose(E, s, seat))
    raise AssertionError("state not reached")


def test_the_resolving_card_and_the_picked_card_are_marked():
    s = _walk_until(lambda s: s.pending and s.pending[0] in ("moveto", "swap2"))
    v = E.view(s, None)
    _, drawn = render_checked(lambda: table_image(v, NAMES[:3]))
    texts = [t.text for t in drawn]
    assert any(t.startswith(f"Resolving {v['pending']['card']}") for t in texts)
    assert any(t.startswith(f"Already picked: {v['pending']['chosen']}") for t in texts)


def test_scoring_options_are_numbered_from_1_with_field_positions():
    s = _walk_until(lambda s: s.pending and s.pending[0] == "score" and len(s.pending[2]) >= 2)
    v = E.view(s, None)
    _, drawn = render_checked(lambda: table_image(v, NAMES[:3]))
    texts = [t.text for t in drawn]
    options = v["pending"]["options"]
    assert any(t.startswith("Option 1: cards ") for t in texts)
    assert any(t.startswith(f"Option {len(options)}: cards ") for t in texts)
    assert not any("option 0" in t.lower() for t in texts)
    first = options[0][0]["cards"]
    start = next(i for i in range(len(v["field"])) if v["field"][i:i + len(first)] == first)
    assert any(t.startswith(f"Option 1: cards {start + 1}-{start + len(first)}") for t in texts)


def test_first_player_is_not_written_as_a_placing():
    v = E.view(E.new_game(3, 2), None)
    _, drawn = render_checked(lambda: table_image(v, NAMES[:3]))
    assert not any("(1st)" in t.text for t in drawn)
    assert any("first player" in t.text for t in drawn)
