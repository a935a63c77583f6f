"""Pictures stacked from cached strips: the same pixels as drawn whole, and never a stale strip."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable

import pytest
from PIL import Image, ImageDraw

from engines import GAME_IDS, get_engine
from engines.simulate import RandomBot
from render import strips, text
from render.common import FELT, GOLD, WHITE, fixed_palette, new_canvas, to_palette
from render.layout import PAD, SMALL, label, panel
from render.strips import Strip, stack

Draw = Callable[[Image.Image, ImageDraw.ImageDraw], None]
PALETTE = fixed_palette([FELT, GOLD, WHITE, (40, 40, 40)])
NAMES = ["Ada", "Олена", "王芳", "Kofi", "Νίκος"]


def row(img: Image.Image, d: ImageDraw.ImageDraw, y: int, name: str, score: int) -> None:
    box = panel(d, (PAD, y, 400 - PAD, y + 50), (40, 40, 40), GOLD if score > 5 else None, 3)
    label(img, (box[0] + PAD, y + 8), name, SMALL, WHITE, box)
    label(img, (box[2] - PAD, y + 8), f"{score} pts", SMALL, GOLD, box, "ra")


def test_a_stack_has_the_pixels_of_the_same_drawing_on_one_canvas() -> None:
    rows = [("Ada", 3), ("Kofi", 9), ("Олена", 12)]
    whole, d = new_canvas(400, 3 * (50 + PAD) + PAD)
    for i, (name, score) in enumerate(rows):
        row(whole, d, PAD + i * (50 + PAD), name, score)
    expected = to_palette(whole, PALETTE)

    def drawer(name: str, score: int) -> Draw:
        return lambda img, d: row(img, d, 0, name, score)

    parts = [Strip(PAD, lambda img, d: None, "top")]
    parts += [Strip(50 + PAD, drawer(name, score), ("row", name, score)) for name, score in rows]
    strips.clear_cache()
    for _ in range(2):  # drawn, then from the cache
        got = stack(400, parts, PALETTE)
        assert got.size == expected.size and got.tobytes() == expected.tobytes()
        assert got.getpalette() == expected.getpalette()


def test_a_keyed_strip_is_drawn_once_and_a_new_key_draws_again() -> None:
    calls: list[str] = []

    def drawer(tag: str) -> Draw:
        return lambda img, d: calls.append(tag)  # type: ignore[func-returns-value]

    strips.clear_cache()
    stack(100, [Strip(10, drawer("a"), "a"), Strip(10, drawer("none"))], PALETTE)
    stack(100, [Strip(10, drawer("a"), "a"), Strip(10, drawer("none"))], PALETTE)
    stack(100, [Strip(10, drawer("b"), "b")], PALETTE)
    assert calls == ["a", "none", "none", "b"], "a key drawn before is pasted; no key is always drawn"
    stack(100, [Strip(12, drawer("a12"), "a")], PALETTE)
    assert calls[-1] == "a12", "the height belongs to the key"


def test_the_cache_stays_within_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strips, "CACHE_BYTES", 5000)
    strips.clear_cache()
    for i in range(20):
        stack(100, [Strip(10, lambda img, d: None, i)], PALETTE)
    each = strips._size(next(iter(strips._strips.values())))  # its pixels and its compressed rows
    assert strips._cached_bytes <= 5000 and len(strips._strips) == 5000 // each
    assert strips._cached_bytes == sum(strips._size(part) for part in strips._strips.values())
    strips.clear_cache()


def test_while_recording_every_strip_is_drawn_and_its_texts_sit_where_the_picture_shows_them() -> None:
    parts = [Strip(50 + PAD, lambda img, d: row(img, d, 0, "Ada", 3), ("row", "Ada", 3)),
             Strip(50 + PAD, lambda img, d: row(img, d, 0, "Kofi", 9), ("row", "Kofi", 9))]
    strips.clear_cache()
    stack(400, parts, PALETTE)  # both now cached
    with text.recording() as drawn:
        picture = stack(400, parts, PALETTE)
    assert [t.text for t in drawn] == ["Ada", "3 pts", "Kofi", "9 pts"]
    assert all(t.canvas == picture.size for t in drawn)
    kofi = next(t for t in drawn if t.text == "Kofi")
    assert kofi.box[1] >= 50 + PAD and kofi.within is not None and kofi.within[1] == 50 + PAD


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_table_drawn_from_a_warm_cache_is_the_table_drawn_from_nothing(game: str) -> None:
    """Random games, each table and hand drawn after the ones before (the cache holds the earlier
    strips) and again from an empty cache: a strip key that missed something its drawing reads would
    show a stale strip here."""
    eng = get_engine(game)
    mod = importlib.import_module(f"render.{game}")
    players = {"pentawar": 5, "ogre_cheerleaders": 3}.get(game, 4)
    names = NAMES[:players]
    rnd = random.Random(7)
    for seed in (1, 2):
        state = eng.new_game(players, seed)
        bot = RandomBot(seed)
        for step in range(400):
            if eng.is_over(state) or step % 3 == 0:
                view = json.loads(json.dumps(eng.view(state, None)))
                warm = mod.table_image(view, names)
                strips.clear_cache()
                cold = mod.table_image(view, names)
                assert warm.size == cold.size and warm.tobytes() == cold.tobytes(), f"{game} seed {seed} step {step}"
                # Hands share some strips with the table (the field, the wings): the same rule holds.
                for seat in {0, *eng.to_act(state)} if not eng.is_over(state) else {0}:
                    hand_view = json.loads(json.dumps(eng.view(state, seat)))
                    warm = mod.hand_image(hand_view, seat, names)
                    strips.clear_cache()
                    mod.table_image(view, names)
                    cold = mod.hand_image(hand_view, seat, names)
                    assert warm.tobytes() == cold.tobytes(), f"{game} hand {seat} seed {seed} step {step}"
            if eng.is_over(state):
                break
            seat = rnd.choice(eng.to_act(state))
            state = eng.apply(state, seat, bot.choose(eng, state, seat))


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_png_joined_from_rows_alone_shows_the_painted_picture(game: str) -> None:
    """``render.table_png`` and ``hand_png`` stack their strips without pasting pixels (``strips.rows_only``):
    the PNG is joined from the strips' compressed rows. Decoded, it is the picture painted in full."""
    import io

    import render
    from render import with_last_action

    eng = get_engine(game)
    mod = importlib.import_module(f"render.{game}")
    players = {"pentawar": 5, "ogre_cheerleaders": 3}.get(game, 4)
    names = NAMES[:players]
    state = eng.new_game(players, 3)
    bot = RandomBot(3)
    for _ in range(12):
        if eng.is_over(state):
            break
        seat = eng.to_act(state)[0]
        state = eng.apply(state, seat, bot.choose(eng, state, seat))
    view = json.loads(json.dumps(eng.view(state, None)))
    painted = with_last_action(mod.table_image(view, names), "Ada plays 7")
    joined = Image.open(io.BytesIO(render.table_png(game, view, names, "Ada plays 7")))
    assert joined.size == painted.size and joined.tobytes() == painted.tobytes()
    hand_view = json.loads(json.dumps(eng.view(state, 0)))
    joined_hand = Image.open(io.BytesIO(render.hand_png(game, hand_view, 0, names)))
    assert joined_hand.tobytes() == mod.hand_image(hand_view, 0, names).tobytes()
    with strips.rows_only():
        blank = mod.table_image(view, names)
    assert blank.getextrema() == (0, 0), "every table is stacked from strips: no pixel is painted in rows_only"


def test_a_strip_drawn_for_its_rows_alone_is_kept_small_and_drawn_again_when_its_pixels_are_wanted() -> None:
    """Inside ``rows_only`` a strip is kept without its pixels (a tenth of the size: the cache then holds every
    table of a busy evening); a picture painted later draws that strip again, with its pixels, and keeps those."""
    calls: list[str] = []

    def drawer(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
        calls.append("drawn")
        row(img, d, 0, "Ada", 9)

    parts = [Strip(50 + PAD, drawer, ("row", "Ada", 9))]
    strips.clear_cache()
    with strips.rows_only():
        stack(400, parts, PALETTE)
        stack(400, parts, PALETTE)
    assert calls == ["drawn"], "kept for its rows"
    kept = next(iter(strips._strips.values()))
    assert kept[0] is None and strips._cached_bytes == len(kept[1].deflate)
    painted = stack(400, parts, PALETTE)
    assert calls == ["drawn", "drawn"] and painted.getextrema() != (0, 0)
    assert len(strips._strips) == 1 and strips._cached_bytes == strips._size(next(iter(strips._strips.values())))
    stack(400, parts, PALETTE)
    assert calls == ["drawn", "drawn"], "now kept with its pixels"
    strips.clear_cache()


def test_rows_only_in_one_thread_never_blanks_a_picture_painted_in_another() -> None:
    """The web server on its own draws its PNGs in threads (``host.web.draw_in_thread``): a ``rows_only`` there
    must not leave another thread's painted picture blank."""
    import threading

    parts = [Strip(50 + PAD, lambda img, d: row(img, d, 0, "Ada", 9), ("row", "Ada", 9))]
    inside, done = threading.Event(), threading.Event()

    def blank_rows() -> None:
        with strips.rows_only():
            inside.set()
            done.wait(10)

    other = threading.Thread(target=blank_rows)
    other.start()
    try:
        assert inside.wait(10)
        assert strips.painting()
        assert stack(400, parts, PALETTE).getextrema() != (0, 0)
    finally:
        done.set()
        other.join(10)
