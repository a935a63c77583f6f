"""Ogre Cheerleaders renderer: table and hand images along random games, from views only."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from engines.bots import RandomBot
from engines.ogre_cheerleaders import ENGINE as E
from render import hand_png, table_png
from render.ogre_cheerleaders import field_face, hand_image, table_image

NAMES = ["Alice", "Bob", "Carol with a very long display name indeed", "Dave"]
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
    assert 900 <= img.width <= 1100 and 200 <= img.height <= 2400
    assert png.startswith(b"\x89PNG") and len(png) <= MAX_PNG


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_images_along_a_game(n, seed):
    names = NAMES[:n]
    for s in states_along_a_game(n, seed):
        pub = json.loads(json.dumps(E.view(s, None)))   # the renderer reads plain JSON
        check(table_image(pub, names), table_png("ogre_cheerleaders", pub, names))
        for seat in range(n):
            v = json.loads(json.dumps(E.view(s, seat)))
            check(hand_image(v, seat, names), hand_png("ogre_cheerleaders", v, seat, names))


def test_field_wraps_onto_more_lines():
    s = E.new_game(2, 4)
    short = table_image(E.view(s, None), NAMES[:2])
    s.field = ["O1", "S2", "C3", "U4", "O5", "S6", "C7", "U8", "O9", "S10", "C1", "U2", "O3", "S4",
               "C5", "U6", "O7", "S8", "C9", "U10", "O2", "S3"]
    tall = table_image(E.view(s, None), NAMES[:2])
    assert tall.width == short.width and tall.height > short.height


def test_scored_cards_highlighted_in_the_field_before_they_left():
    s = E.new_game(2, 4)
    v = E.view(s, None)
    plain = table_image(v, NAMES[:2])
    v["last_scoring"] = {"seat": 1, "field": ["O3", "O4", "O5", "S9"], "highlight": [0, 1, 2]}
    lit = table_image(v, NAMES[:2]).convert("RGB")
    assert lit.height >= plain.height
    assert (255, 221, 0) in {c for _, c in lit.getcolors(1 << 16)}     # the highlight colour is drawn


def test_game_over_and_empty_views():
    s = E.new_game(3, 5, {"max_turns": 2})
    while not s.over:
        s = E.apply(s, s.seat, E.legal_actions(s, s.seat)[0])
    v = E.view(s, None)
    check(table_image(v, NAMES[:3]), table_png("ogre_cheerleaders", v, NAMES[:3]))
    v["field"], v["bench"], v["bench_top"], v["bench_count"] = [], [], None, 0
    check(table_image(v, NAMES[:3]), table_png("ogre_cheerleaders", v, NAMES[:3]))
    hv = E.view(s, 0)
    hv["hand"] = []
    check(hand_image(hv, 0, NAMES[:3]), hand_png("ogre_cheerleaders", hv, 0, NAMES[:3]))


def test_faces_are_cached():
    assert field_face("O7") is field_face("O7")
