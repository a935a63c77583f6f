"""Alt text: whose turn, scores, trump or pile, last action, in words; no hidden card."""

from __future__ import annotations

import json
import re

import pytest

from engines import get_engine
from engines.bots import RandomBot
from render import alt_text

NAMES = ["Ann", "Ґалина", "王小明", "Olha 🇺🇦", "Eve", "Zoë"]
GAMES = [("do_over", 4), ("pedwar", 4), ("king_pedro", 4), ("ogre_cheerleaders", 4), ("pentawar", 5)]


def _states(game: str, n: int, seed: int = 2):
    eng = get_engine(game)
    s = eng.new_game(n, seed)
    bot = RandomBot(seed)
    out = [s]
    while not eng.is_over(s) and len(out) < 300:
        seat = eng.to_act(s)[0]
        s = eng.apply(s, seat, bot.choose(eng, s, seat))
        out.append(s)
    return eng, out


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_alt_text_says_whose_turn_and_the_scores(game, n):
    eng, states = _states(game, n)
    names = NAMES[:n]
    for s in [*states[::9], states[-1]]:
        view = json.loads(json.dumps(eng.view(s, None)))
        text = alt_text(game, view, names, last_action="{p1} plays a card")
        assert text == alt_text(game, view, names, last_action="{p1} plays a card")  # pure
        assert len(text) <= 1024
        assert f"Last action: {names[1]} plays a card." in text
        if view["to_act"] and not view.get("over"):
            assert "To act: " + ", ".join(names[s] for s in view["to_act"]) in text
        if view.get("over"):
            assert "Game over" in text and "Placings: " in text
        scores = view.get("scores") or [p.get("score") for p in view.get("players", [])]
        for score in scores:
            if score is not None:
                assert re.search(rf"(?<![\d-]){re.escape(str(score))}(?!\d)", text), (score, text)


def test_do_over_alt_text_names_the_pile_and_direction():
    eng, states = _states("do_over", 4)
    view = next(eng.view(s, None) for s in states[30:] if eng.view(s, None)["pile"])
    text = alt_text("do_over", view, NAMES[:4])
    assert f"Pile value {view['pile_value']}" in text and view["direction"] in text


def test_king_pedro_alt_text_names_trump_and_progress_against_the_bid():
    eng, states = _states("king_pedro", 4)
    playing = [eng.view(s, None) for s in states if eng.view(s, None)["phase"] == "playing"]
    view = next(v for v in playing if v["trick"])
    text = alt_text("king_pedro", view, NAMES[:4])
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[view["trump"]]
    assert f"Trump {suit}, bid {view['bid']}" in text and f"of {view['bid']} made so far" in text
    assert "Trick so far:" in text


def test_ogre_alt_text_reads_the_field_left_to_right():
    eng, states = _states("ogre_cheerleaders", 4)
    view = next(eng.view(s, None) for s in states if len(eng.view(s, None)["field"]) >= 3)
    assert ", ".join(view["field"]) in alt_text("ogre_cheerleaders", view, NAMES[:4])


def test_pentawar_alt_text_lists_the_pentawar():
    eng, states = _states("pentawar", 5)
    view = eng.view(states[20], None)
    assert ", ".join(view["pentawar"]) in alt_text("pentawar", view, NAMES[:5])


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_alt_text_holds_no_hidden_card(game, n):
    # Every card-like token in the alt text must also be somewhere in the public view.
    eng, states = _states(game, n)
    for s in states[::11]:
        view = eng.view(s, None)
        public = json.dumps(view)
        hidden = set()
        for seat in range(n):
            hidden |= set(eng.view(s, seat).get("hand", []) or [])
        text = alt_text(game, view, NAMES[:n])
        for card in hidden:
            if isinstance(card, str) and len(card) >= 2 and f'"{card}"' not in public:
                assert not re.search(rf"\b{re.escape(card)}\b", text), card


def test_pentawar_alt_text_says_which_position_was_altered():
    eng = get_engine("pentawar")
    s = eng.new_game(3, 6)
    seat = eng.to_act(s)[0]
    kind = s.tableau[0]
    s = eng.apply(s, seat, f"alter:tableau:{kind}")
    assert "altered" not in alt_text("pentawar", eng.view(s, None), NAMES[:3])  # placing, not placed yet
    old = s.war[3]
    s = eng.apply(s, seat, "replace:3")
    view = json.loads(json.dumps(eng.view(s, None)))
    text = alt_text("pentawar", view, NAMES[:3])
    assert "positions 0 to 4" in text  # numbered as in the rules and the action labels
    assert f"War altered by {NAMES[seat]}: position 3 is now {kind}, replacing {old}." in text
    # an older view, without the field, still reads
    assert "War altered" not in alt_text("pentawar", {k: v for k, v in view.items() if k != "altered"}, NAMES[:3])
