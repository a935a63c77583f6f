"""Pedwar renderer: table and hand images along random games, from JSON views only."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from data.editions import pedwar as edition
from engines.bots import RandomBot
from engines.pedwar import ENGINE as E
from engines.pedwar import rules as R
from render import hand_png, table_png
from render.pedwar import hand_image, table_image
from tests.render.layout_check import render_checked
from tests.render.names import LONG_NAMES

NAMES = LONG_NAMES[:4]
MAX_PNG = 200 * 1024


def states_along_a_game(n: int, seed: int, every: int = 20) -> list:
    s = E.new_game(n, seed)
    bot = RandomBot(seed)
    out = [s]
    step = 0
    while not E.is_over(s):
        seat = E.to_act(s)[0]
        before = s.phase
        s = E.apply(s, seat, bot.choose(E, s, seat))
        step += 1
        if step % every == 0 or s.phase != before:
            out.append(s)
    out.append(s)
    return out


def check(img: Image.Image, png: bytes) -> None:
    assert isinstance(img, Image.Image)
    assert img.width == 800 and 200 <= img.height <= 2000
    assert png.startswith(b"\x89PNG") and len(png) <= MAX_PNG


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_images_along_a_game(n: int, seed: int) -> None:
    names = NAMES[:n]
    states = states_along_a_game(n, seed)
    assert E.is_over(states[-1])
    assert {s.phase for s in states} >= {"discard", "action", "trump", "over"}
    for s in [*states[::max(1, len(states) // 25)], states[-1]]:
        pub = json.loads(json.dumps(E.view(s, None)))  # the renderer reads plain JSON
        img, _ = render_checked(lambda pub=pub: table_image(pub, names))
        check(img, table_png("pedwar", pub, names))
        for seat in range(n):
            v = json.loads(json.dumps(E.view(s, seat)))
            img, _ = render_checked(lambda v=v, seat=seat: hand_image(v, seat, names))
            check(img, hand_png("pedwar", v, seat, names))


def test_crowded_table_stays_in_bounds() -> None:
    """Long bid stacks and a huge collection still fit the size limits."""
    s = E.new_game(4, 9).clone()
    s.colls = [list(edition.OBJECT_CARDS[:30]), list(edition.OBJECT_CARDS[30:]), [], []]
    s.odeck = []
    s.bids[0] = [[i % 4, "2+,5" if i % 2 else "OP"] for i in range(12)]
    s.inplay = [0]
    s.phase = "trump"
    s.tseat = 1
    pub = E.view(s, None)
    img, drawn = render_checked(lambda: table_image(pub, NAMES), max_ratio=2.5)
    check(img, table_png("pedwar", pub, NAMES))
    assert any(t.text.startswith("OP · 12 bids") or "12 bids" in t.text for t in drawn)
    R.finish(s, "test")
    pub = E.view(s, None)
    img, drawn = render_checked(lambda: table_image(pub, NAMES), max_ratio=2.5)
    check(img, table_png("pedwar", pub, NAMES))
    assert not any("hidden" in t.text or "secret" in t.text for t in drawn)
    _, drawn = render_checked(lambda: hand_image(E.view(s, 0), 0, NAMES))
    assert any("revealed" in t.text for t in drawn)


def test_missing_names_and_empty_hand() -> None:
    s = E.new_game(3, 4).clone()
    s.hands[1] = []
    v = E.view(s, 1)
    check(hand_image(v, 1, []), hand_png("pedwar", v, 1, []))
    check(table_image(E.view(s, None), ["Solo"]), table_png("pedwar", E.view(s, None), ["Solo"]))
