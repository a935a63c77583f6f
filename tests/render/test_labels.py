"""Only names are ever shortened: a label that does not fit loses part of a player's name, never the
bid, the trump, a count or the action ("DEALER BIDDER…" once hid the bid)."""

from __future__ import annotations

import importlib
import json
import pickle

import pytest

from engines import get_engine
from engines.bots import RandomBot
from render import text as T
from tests.render.names import LONG_NAMES

GAMES = [("do_over", 6), ("pedwar", 4), ("king_pedro", 4), ("ogre_cheerleaders", 4), ("pentawar", 5)]


def cut_inside_a_name(drawn: str, names: list[str]) -> bool:
    """Whether every "…" in ``drawn`` ends a cut piece of a name: the text before it ends with at
    least four characters of a name (or a whole short prefix) that the name goes on after."""
    pieces = drawn.split(T.ELLIPSIS)[:-1]
    for before in pieces:
        before = before.rstrip()
        found = False
        for name in names:
            for i in range(len(name)):
                for j in range(len(name) - 1, i, -1):  # name[i:j] is cut before the name's end
                    piece = name[i:j].rstrip()
                    if piece and (len(piece) >= 4 or i == 0) and before.endswith(piece):
                        found = True
                        break
                if found:
                    break
            if found:
                break
        if not found:
            return False
    return True


def test_the_check_itself():
    names = ["Bob Zürich Überspieler of Cards~"]
    assert cut_inside_a_name("Bob Zürich Übersp… to act", names)
    assert cut_inside_a_name("Überspieler o…", names)  # the second line of a name
    assert not cut_inside_a_name("Bob Zürich Überspieler of Cards~: Hand of 3 c…", names)
    assert not cut_inside_a_name("Bid 62 by Bob · trump Hearts + 5 of…", names)
    assert not cut_inside_a_name("Sapp…", names)


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_only_names_are_shortened_in_table_and_hand_images(game, n):
    eng = get_engine(game)
    mod = importlib.import_module(f"render.{game}")
    names = LONG_NAMES[:n]
    s = eng.new_game(n, 1)
    bot = RandomBot(1)
    for step in range(400):
        if eng.is_over(s):
            break
        if step % 6 == 0:
            with T.recording() as drawn:
                mod.table_image(json.loads(json.dumps(eng.view(s, None))), names)
                for seat in range(n):
                    mod.hand_image(json.loads(json.dumps(eng.view(s, seat))), seat, names)
            for t in drawn:
                assert cut_inside_a_name(t.text, names), f"{game}: {t.text!r} is cut outside a name"
        seat = eng.to_act(s)[0]
        s = eng.apply(s, seat, bot.choose(eng, s, seat))


#: The titles drawn in French and Ukrainian whose words are checked whole here too (the longer French words).
IN_LANGUAGES = [("do_over", 6), ("king_pedro", 4), ("ogre_cheerleaders", 4), ("pedwar", 4), ("pentawar", 5)]


@pytest.mark.parametrize("lang", ["fr", "uk"])
@pytest.mark.parametrize(("game", "n"), IN_LANGUAGES)
def test_only_names_are_shortened_in_french_and_ukrainian(game, n, lang):
    eng = get_engine(game)
    mod = importlib.import_module(f"render.{game}")
    names = LONG_NAMES[:n]
    checked = 0
    for seed in (1, 2):
        s = eng.new_game(n, seed)
        bot = RandomBot(seed)
        for step in range(400):
            over = eng.is_over(s)
            if step % 5 == 0 or over:
                # as the render pool sends a view: pickled, the engine's said texts kept for translation
                with T.recording() as drawn:
                    mod.table_image(pickle.loads(pickle.dumps(eng.view(s, None))), names, lang=lang)
                    if over:
                        mod.table_image(eng.view(s, None), names, list(range(1, n + 1)), lang=lang)
                    for seat in range(n):
                        mod.hand_image(pickle.loads(pickle.dumps(eng.view(s, seat))), seat, names, lang=lang)
                for t in drawn:
                    assert cut_inside_a_name(t.text, names), f"{game} in {lang}: {t.text!r} is cut outside a name"
                checked += len(drawn)
            if over:
                break
            seat = eng.to_act(s)[0]
            s = eng.apply(s, seat, bot.choose(eng, s, seat))
    assert checked > 500


def test_a_translated_line_shortens_only_its_names_wherever_the_language_puts_them():
    from render.layout import fit_names, message_parts

    parts = message_parts("Atout {suit} + 5 de {other} · enchère de {bid} par {name}", {"name": LONG_NAMES[0]},
                          suit="carreau", other="cœur", bid=62)
    assert parts == [("Atout ", False), ("carreau", False), (" + 5 de ", False), ("cœur", False),
                     (" · enchère de ", False), ("62", False), (" par ", False), (LONG_NAMES[0], True)]
    line = fit_names(parts, 26, 700)
    assert line.startswith("Atout carreau + 5 de cœur · enchère de 62 par Bob") and line.endswith(T.ELLIPSIS)
    assert cut_inside_a_name(line, LONG_NAMES)
