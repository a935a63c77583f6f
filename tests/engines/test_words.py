"""Every sentence the engines write reads right: counts agree with their nouns, "a"/"an" follow the
sound, and nothing public speaks to a seat as "you" (the seat may be a bot, and everyone reads it).

Random playouts of every title at every player count reach the counts 0, 1, 2 and more of each
thing counted; every label (``describe`` of every legal move, ``public_label``), every event and
every string of the public view is checked on the way.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engines import get_engine

GAMES = ("do_over", "pedwar", "king_pedro", "ogre_cheerleaders", "pentawar")
NOUNS = ("card", "point", "pt", "pip", "turn", "round", "player", "trick", "action", "choice", "seat", "game",
         "dragon", "bid", "discard", "ogre", "table", "entrant", "minute", "move", "bye", "member")
#: "1 cards", "1 points", "1 passes"
_NOUNS = "|".join(NOUNS)
ONE_PLURAL = re.compile(rf"(?<![\d.,])\b1 (?:{_NOUNS})s\b|(?<![\d.,])\b1 passes\b")
#: "0 card", "2 card", "11 point" (a count other than one before a singular noun)
MANY_SINGULAR = re.compile(rf"(?<![\d.,:#])\b(?:0|[2-9]|\d{{2,}}) (?:{_NOUNS}|pass)\b(?!s|es)")
#: "a Ogre", "a 8" ("a U…"/"a one" sound a consonant; "an 8", "an 11" a vowel)
A_BEFORE_VOWEL = re.compile(r"\b[Aa] (?:[AEIOaeio]\w*|8\w*|11\b|18\b)")
AN_BEFORE_CONSONANT = re.compile(r"\b[Aa]n (?:[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]\w*|[2-79]\w*|1\b|10\b)")
SECOND_PERSON = re.compile(r"\b(?:you|your|yours)\b", re.IGNORECASE)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def wording_faults(text: str, *, public: bool) -> list[str]:
    faults = [f"{kind}: {m.group(0)!r} in {text!r}" for kind, pattern in (
        ("plural", ONE_PLURAL), ("singular", MANY_SINGULAR), ("a/an", A_BEFORE_VOWEL),
        ("a/an", AN_BEFORE_CONSONANT)) for m in pattern.finditer(text)]
    if public:
        faults += [f"second person in public: {text!r}" for _ in SECOND_PERSON.finditer(text)][:1]
    return faults


def playout_texts(game: str, players: int, seed: int) -> Iterator[tuple[str, bool]]:
    """(text, public) for every text of one random game."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    for _ in range(4000):
        yield from ((s, True) for s in strings(engine.view(state, None)))
        seats = engine.to_act(state)
        if not seats:
            return
        seat = rng.choice(seats)
        actions = engine.legal_actions(state, seat)
        yield from ((s, False) for s in strings(engine.view(state, seat)))
        yield from ((engine.describe(state, a), False) for a in actions)
        menu = getattr(engine, "describe_for", None)  # the seat's own menu, where a game labels it so
        if menu is not None:
            yield from ((menu(state, seat, a), False) for a in actions)
        action = rng.choice(actions)
        yield engine.public_label(state, seat, action), True
        state = engine.apply(state, seat, action)
        yield from ((e, True) for e in engine.events(state))


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_text_reads_right(game: str) -> None:
    engine = get_engine(game)
    faults: dict[str, None] = {}
    seen = 0
    for players in range(engine.min_players, engine.max_players + 1):
        for seed in range(6):
            for text, public in playout_texts(game, players, seed):
                seen += 1
                faults.update(dict.fromkeys(wording_faults(text, public=public)))
    assert seen > 1000
    assert not faults, "\n".join(list(faults)[:40])


def test_the_do_over_swap_menu_names_the_face_up_card_given_up_and_numbers_its_pile() -> None:
    engine = get_engine("do_over")
    state = engine.new_game(2, 7)
    swap = next(a for a in engine.legal_actions(state, 0) if a.startswith("swap:"))
    card, pile = swap.split(":")[1:]
    up = engine.view(state, 0)["seats"][0]["up"][int(pile)]
    label = engine.describe_for(state, 0, swap)
    assert label.startswith(f"Swap {card} from your Hand for the face-up ") and f"of Reserve pile {int(pile) + 1}" \
        in label, label
    assert f"face-up {up} of" in label or up in label, (label, up)


def test_the_checks_catch_what_they_are_for() -> None:
    assert wording_faults("Take the pile (1 cards) into your Hand", public=False)
    assert wording_faults("0 card on the pile", public=False)
    assert wording_faults("opened a Ogre Cheerleaders table", public=False)
    assert wording_faults("Robo Ada (normal): choose the end for the card you must play", public=True)
    assert not wording_faults("Take the pile (1 card) into your Hand", public=False)
    assert not wording_faults("2 cards on the pile, 1 pass in a row, an 8 and a 10", public=True)
