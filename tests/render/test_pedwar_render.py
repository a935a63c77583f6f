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


def _first_view(want, seeds=range(1, 8)):
    """The public view of the first state of a random 4-player game for which ``want(view)`` holds."""
    for seed in seeds:
        s = E.new_game(4, seed)
        bot = RandomBot(seed)
        while not E.is_over(s):
            v = json.loads(json.dumps(E.view(s, None)))
            if want(v):
                return v
            seat = E.to_act(s)[0]
            s = E.apply(s, seat, bot.choose(E, s, seat))
    raise AssertionError("no such state")


def test_discards_actions_and_overpowered_cards_are_written_in_full() -> None:
    # Once hidden under the player panels: now full-width lines of their own, never cut.
    for want, start in ((lambda v: bool(v["discarded"]), "Discarded this turn: "),
                        (lambda v: bool(v["spent"]), "Taken by Overpower: "),
                        (lambda v: v["phase"] == "action" and bool(v["actions"]), "Actions used: ")):
        v = _first_view(want)
        _, drawn = render_checked(lambda v=v: table_image(v, NAMES))
        line = next((t for t in drawn if t.text.startswith(start)), None)
        assert line is not None, start
        assert "…" not in line.text
        if start.startswith("Taken"):
            assert line.text == start + " ".join(v["spent"])


def test_the_active_player_and_the_player_to_act_are_marked_differently() -> None:
    # In the trump phase another player acts on the active player's turn: a yellow frame and
    # "to act" for the one, an "active" tag for the other, never one mark for both.
    v = _first_view(lambda v: v["active"] is not None and bool(v["to_act"]) and v["active"] not in v["to_act"])
    _, drawn = render_checked(lambda: table_image(v, NAMES))
    tags = [t.text for t in drawn if t.text.endswith(tuple(f"hand {p['hand_count']}" for p in v["players"]))]
    assert len(tags) == 4
    by_seat = dict(zip([p["seat"] for p in v["players"]], tags, strict=True))
    assert "active" in by_seat[v["active"]] and "to act" not in by_seat[v["active"]]
    for seat in v["to_act"]:
        assert "to act" in by_seat[seat] and "active" not in by_seat[seat]
    assert "▶" not in "".join(t.text for t in drawn)


def test_red_and_green_cards_differ_by_more_than_hue() -> None:
    # Seen without colour, the ink drawn on a Red and a Green card of the same number still differs
    # (a circle against a triangle, and the colour's name).
    from render.pedwar import COLOURS, mini_face, object_face

    def ink(img: Image.Image, colour: str) -> bytes:
        from PIL import ImageChops

        rgb = img.convert("RGB")
        off = ImageChops.difference(rgb, Image.new("RGB", rgb.size, COLOURS[colour][1])).convert("L")
        return off.point(lambda p: 255 if p == 0 else 0).tobytes()  # where the ink colour is drawn

    for number in ("1", "5", "8", "W"):
        for face in (lambda c, n=number: object_face(c + n, 100, 140), lambda c, n=number: mini_face(c + n)):
            same = ink(face("R"), "R") == ink(face("G"), "G")
            assert not same, f"Red and Green {number} differ only by hue"


def _said_in(draw, *args, **kwargs) -> set[str]:
    from render import pedwar
    from render import text as T

    for cached in (pedwar.object_face, pedwar.maneuver_face, pedwar.empty_slot, pedwar._words_fit):
        cached.cache_clear()  # a face drawn before would not be recorded
    with T.recording() as drawn:
        draw(*args, **kwargs)
    return {d.text for d in drawn}


def test_a_finished_games_scoring_is_said_in_the_language_even_read_back_from_the_store() -> None:
    # A state read back from the store keeps its final breakdown as English text only (JSON): the picture says
    # the lines again from the collection and the Goal, in the reader's language.
    import i18n
    from engines.pedwar import score_breakdown

    s = states_along_a_game(4, 5)[-1]
    live = E.view(s, None)
    stored = json.loads(json.dumps(live))
    player = next(p for p in stored["players"] if p["breakdown"])
    french = {i18n.say_text("fr", line) for line in score_breakdown(player["collection"], player["goal"])}
    assert french and not french & set(player["breakdown"])  # the French lines differ from the English ones
    for view in (live, stored):
        assert french <= _said_in(table_image, view, NAMES, lang="fr")
        assert set(player["breakdown"]) <= _said_in(table_image, view, NAMES)  # English as ever


def test_card_words_fit_their_card_in_every_language_or_are_left_off() -> None:
    from render.pedwar import maneuver_face, object_face

    words = {lang: _said_in(lambda lang=lang: [object_face(c, 100, 140, lang) for c in ("R1", "B2", "G3", "Y4", "RW")])
             for lang in ("en", "fr", "uk")}
    assert {"Red", "Blue", "Green", "Yellow", "Wild"} <= words["en"]
    assert {"Rouge", "Bleu", "Vert", "Jaune", "Joker"} <= words["fr"]
    # "Червоний" is wider than the card at the smallest legible size: no card carries its name in Ukrainian
    assert not words["uk"] & {"Червоний", "Синій", "Зелений", "Жовтий", "Джокер"}
    # "Overpower" is wider than the card in every language: the big "OP" says it; "pairs" fits
    for lang, pairs in (("en", "pairs"), ("fr", "paires"), ("uk", "пари")):
        said = _said_in(lambda lang=lang: [maneuver_face(k, 100, 140, lang) for k in ("OP", "1+")])
        assert pairs in said and not said & {"Overpower", "Écrasement", "Перевага"}
