"""Hand panels say whether it is your turn and show what the choice is about; the last-action strip."""

from __future__ import annotations

import importlib
import io
import json

import pytest
from PIL import Image

from engines import get_engine
from engines.bots import RandomBot
from render import table_png
from render import text as T
from tests.render.layout_check import render_checked
from tests.render.names import LONG_NAMES

GAMES = [("do_over", 4), ("pedwar", 4), ("king_pedro", 4), ("ogre_cheerleaders", 4), ("pentawar", 5)]
# A word each hand panel draws that comes from the table part the decision is about.
CONTEXT = {"do_over": "Pile: value", "pedwar": "Your Goal", "king_pedro": "The trick so far",
           "ogre_cheerleaders": "Field:", "pentawar": "The pentawar"}


def _states(game: str, n: int, seed: int = 4):
    eng = get_engine(game)
    s = eng.new_game(n, seed)
    bot = RandomBot(seed)
    out = []
    for _ in range(300):
        if eng.is_over(s):
            break
        out.append(s)
        seat = eng.to_act(s)[0]
        s = eng.apply(s, seat, bot.choose(eng, s, seat))
    return eng, out


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_hand_says_your_turn_exactly_when_it_is(game, n):
    eng, states = _states(game, n)
    mod = importlib.import_module(f"render.{game}")
    seen_context = False
    for s in states[5::23]:
        for seat in range(n):
            view = json.loads(json.dumps(eng.view(s, seat)))
            _, drawn = render_checked(lambda view=view, seat=seat: mod.hand_image(view, seat, LONG_NAMES[:n]),
                                      max_ratio=3)
            mine = seat in view["to_act"]
            says = any(t.text.startswith("Your turn") for t in drawn)
            assert says == mine, (game, seat, [t.text for t in drawn][:4])
            shows = any(t.text.startswith(CONTEXT[game]) for t in drawn)
            seen_context |= shows
            if mine and (game != "king_pedro" or view.get("trick")):
                # the player to act sees what the choice is about (a trick only once one is led)
                assert shows, (game, seat, CONTEXT[game])
    assert seen_context


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_last_action_strip_sits_above_the_table_and_keeps_its_width(game, n):
    eng = get_engine(game)
    view = eng.view(eng.new_game(n, 2), None)
    plain = Image.open(io.BytesIO(table_png(game, view, LONG_NAMES[:n])))
    with T.recording() as drawn:
        with_strip = Image.open(io.BytesIO(table_png(game, view, LONG_NAMES[:n], "Олег bids 2+,2+ on R7")))
    assert "Last: Олег bids 2+,2+ on R7" in [t.text for t in drawn]
    assert with_strip.width == plain.width and with_strip.height > plain.height
    # the table below the strip is unchanged, pixel for pixel
    dy = with_strip.height - plain.height
    assert with_strip.convert("RGB").crop((0, dy, plain.width, with_strip.height)).tobytes() == \
        plain.convert("RGB").tobytes()
