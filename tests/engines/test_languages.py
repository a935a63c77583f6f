"""Every word an engine writes comes from the catalogues: move labels (the menu's and autocomplete's), public
labels, events and status lines are said from message ids, read English exactly as before, and read French and
Ukrainian with no English left."""

from __future__ import annotations

import random

import pytest

from engines import get_engine
from i18n import Said, say_text
from tests.languages import english_left

#: The titles whose engines say every line from a message id (the others still write English only).
CONVERTED = ("do_over", "king_pedro", "pedwar", "ogre_cheerleaders", "pentawar")


def said_texts(game: str, seeds: int = 3, steps: int = 250) -> list[str]:
    """Every label, event and status line of a few random games at each player count."""
    engine = get_engine(game)
    texts: list[str] = []
    for players in range(engine.min_players, engine.max_players + 1):
        for seed in range(seeds):
            rng = random.Random(seed)
            state = engine.new_game(players, seed)
            for _ in range(steps):
                if engine.is_over(state):
                    break
                seat = rng.choice(engine.to_act(state))
                actions = engine.legal_actions(state, seat)
                describe_for = getattr(engine, "describe_for", None)
                for action in actions:
                    texts.append(engine.describe(state, action))
                    texts.append(engine.public_label(state, seat, action))
                    if describe_for:
                        texts.append(describe_for(state, seat, action))
                texts.append(engine.view(state, seat)["status"])
                state = engine.apply(state, seat, rng.choice(actions))
                texts.extend(engine.events(state))
            texts.append(engine.view(state, None)["status"])
    return texts


@pytest.mark.parametrize("game", CONVERTED)
def test_every_line_is_said_from_a_message_and_reads_the_same_english(game: str) -> None:
    texts = said_texts(game)
    plain = sorted({text for text in texts if not isinstance(text, Said)})
    assert not plain, plain[:5]
    assert all(say_text("en", text) == text for text in texts)


@pytest.mark.parametrize("lang", ["fr", "uk"])
@pytest.mark.parametrize("game", CONVERTED)
def test_no_english_is_left_in_any_line(game: str, lang: str) -> None:
    said = sorted({say_text(lang, text) for text in said_texts(game)})
    assert said
    assert english_left(said, lang) == []
