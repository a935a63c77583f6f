"""Do Over! renderer: table and hand images along random games, from JSON views only."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest
from PIL import Image

from engines.bots import RandomBot
from engines.do_over import ENGINE as E
from render import hand_png, table_png
from render.common import to_png
from render.do_over import face, hand_image, play_order, table_image
from tests.render.layout_check import render_checked
from tests.render.names import LONG_NAMES as NAMES

MAX_PNG = 200 * 1024


def states_along_a_game(n: int, seed: int, every: int = 25):
    s = E.new_game(n, seed, {"max_turns": 300})
    bot = RandomBot(seed)
    out = [s]
    step = 0
    while not E.is_over(s):
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, bot.choose(E, s, seat))
        step += 1
        if step % every == 0 or E.view(s, None)["phase"] != E.view(out[-1], None)["phase"]:
            out.append(s)
    out.append(s)
    return out


def check(img: Image.Image, png: bytes) -> None:
    assert isinstance(img, Image.Image)
    assert img.width == 800 and 200 <= img.height <= 1600
    assert png.startswith(b"\x89PNG") and len(png) <= MAX_PNG


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_images_along_a_game(n, seed):
    names = NAMES[:n]
    states = states_along_a_game(n, seed)
    assert E.is_over(states[-1])
    for s in states:
        pub = json.loads(json.dumps(E.view(s, None)))   # the renderer reads plain JSON
        img, _ = render_checked(lambda pub=pub: table_image(pub, names))
        check(img, table_png("do_over", pub, names))
        for seat in range(n):
            v = json.loads(json.dumps(E.view(s, seat)))
            img, _ = render_checked(lambda v=v, seat=seat: hand_image(v, seat, names))
            check(img, hand_png("do_over", v, seat, names))


def test_seats_are_listed_in_play_order_starting_with_the_player_to_act():
    s = E.new_game(4, 7)
    for seat in range(4):
        s = E.apply(s, seat, "ready")
    v = E.view(s, None)
    cur = v["current"]
    assert play_order(v) == [(cur + i) % 4 for i in range(4)]
    _, drawn = render_checked(lambda: table_image(v, NAMES[:4]))
    texts = [t.text for t in drawn]
    assert "now" in texts and "next" in texts
    now_y = next(t.box[1] for t in drawn if t.text == "now")
    next_y = next(t.box[1] for t in drawn if t.text == "next")
    assert now_y < next_y
    reversed_view = {**v, "direction": "counterclockwise"}
    assert play_order(reversed_view) == [(cur - i) % 4 for i in range(4)]


def test_table_image_grows_with_the_number_of_players():
    small = table_image(E.view(E.new_game(2, 1), None), NAMES[:2])
    large = table_image(E.view(E.new_game(6, 1), None), NAMES)
    assert small.width == large.width and large.height > small.height


def test_hand_image_with_a_huge_hand_and_every_card_face():
    s = E.new_game(2, 3)
    d = E.dump(s)
    d["hands"][0] = [c for c in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "BOMB", "DO", "REV")
                     for _ in range(3)]
    big = E.load(d)
    img, _ = render_checked(lambda: hand_image(E.view(big, 0), 0, NAMES[:2]), max_ratio=4)
    check(img, to_png(img))
    for code in ("1", "11", "BOMB", "DO", "REV"):
        assert face(code).size == (120, 168)


def test_missing_names_fall_back_to_seat_numbers():
    s = E.new_game(3, 3)
    check(table_image(E.view(s, None), []), table_png("do_over", E.view(s, None), []))


def test_one_card_is_singular_and_a_reversed_direction_is_written_out():
    s = E.new_game(4, 7)
    for seat in range(4):
        s = E.apply(s, seat, "ready")
    v = json.loads(json.dumps(E.view(s, None)))
    one = {**v, "pile": v["pile"][-1:] or ["5"], "pile_count": 1}
    _, drawn = render_checked(lambda: table_image(one, NAMES[:4]))
    texts = [t.text for t in drawn]
    assert "1 card" in texts and "1 cards" not in " ".join(texts)
    assert "clockwise" in texts and "Order of play ↓" in texts
    _, drawn = render_checked(lambda: table_image({**v, "direction": "counterclockwise"}, NAMES[:4]))
    assert "reversed: counterclockwise" in [t.text for t in drawn]


def test_the_hand_numbers_the_reserve_piles_as_the_swap_menu_does():
    import re

    from engines import get_engine
    from render import text as T
    from render.do_over import hand_image

    eng = get_engine("do_over")
    s = eng.new_game(4, 7)
    menu = {int(m.group(1)) for a in eng.legal_actions(s, 0) if a.startswith("swap:")
            for m in [re.search(r"Reserve pile (\d)", eng.describe(s, a))] if m}
    assert menu == {1, 2, 3}
    with T.recording() as drawn:
        hand_image(eng.view(s, 0), 0, ["alice", "bob", "carol", "dave"])
    piles = sorted((t.box[0], t.text) for t in drawn if re.fullmatch(r"pile \d", t.text))
    assert [text for _, text in piles] == [f"pile {n}" for n in sorted(menu)]  # left to right, 1 to 3


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
def test_every_card_s_words_sit_whole_inside_it_at_the_smallest_legible_size(lang):
    """Each special card's and the 11's small line, in each language, on every size of card that shows it: whole
    (on two lines if need be, never cut with "…" nor drawn smaller), inside the card's border, clear of the big
    label; a French or Ukrainian card shows its translation, not the English words."""
    import i18n
    from render import text as T
    from render.do_over import BIG_H, BIG_W, MINI_H, MINI_W, SOFT_HYPHEN, SPECIAL_STYLE
    from render.layout import SMALL

    subs = {code: style[1] for code, style in SPECIAL_STYLE.items()} | {"11": "highest"}
    for code, sub in subs.items():
        said = i18n.t(lang, sub)
        if lang != "en":
            assert said != sub, f"{sub!r} is not translated in {lang}"
        for w, h in ((BIG_W, BIG_H), (100, 140), (MINI_W, MINI_H)):
            with T.recording() as drawn:
                face.__wrapped__(code, w, h, lang)  # drawn afresh (the cache would draw nothing to record)
            lines = [t for t in drawn if t.size == SMALL and t.text not in (code, "💣")]
            for t in drawn:
                assert t.size >= SMALL and t.canvas == (w, h)
                assert t.box[0] >= 2 and t.box[2] <= w - 2 and t.box[1] >= 2 and t.box[3] <= h - 2, \
                    f"{t.text!r} leaves the {w}x{h} {code} card in {lang}: {t.box}"
            for a, b in pairwise(drawn):
                assert a.box[3] <= b.box[1], f"{a.text!r} and {b.text!r} overlap on the {w}x{h} {code} card"
            if h < 120:  # a reserve's mini card in a seat row shows the big label only
                assert lines == []
                continue
            assert 1 <= len(lines) <= 2
            joined = " ".join(t.text for t in lines).replace("- ", "")
            assert joined == said.replace(SOFT_HYPHEN, ""), f"{code} in {lang} on {w}x{h}: {joined!r}"


def test_a_small_line_too_wide_breaks_at_the_space_or_soft_hyphen_that_balances_it():
    from render.do_over import sub_lines

    assert sub_lines("value 0", 92) == ["value 0"]
    assert sub_lines("clears pile", 92) == ["clears", "pile"]
    assert sub_lines("vide la Pile", 112) == ["vide", "la Pile"]  # not "vide la / Pile"
    assert sub_lines("roz\u00advorot", 80) == ["roz-", "vorot"]
    assert sub_lines("roz\u00advorot", 400) == ["rozvorot"]  # whole, without its soft hyphen, when it fits
