"""Every title's alt text in the server's language: French and Ukrainian with no English left, English unchanged."""

from __future__ import annotations

import random

import pytest

import render
from engines import GAME_IDS, get_engine
from tests.languages import english_left


def alt_texts(game: str, lang: str, seeds: int = 1, every: int = 6) -> list[str]:
    engine = get_engine(game)
    texts = []
    for players in (engine.min_players, engine.max_players):
        names = [f"seat{s}" for s in range(players)]
        for seed in range(seeds):
            rng = random.Random(seed)
            state = engine.new_game(players, seed)
            for step in range(400):
                if engine.is_over(state):
                    break
                if step % every == 0:
                    texts.append(render.alt_text(game, engine.view(state, None), names, "seat0 did x", None, lang))
                seat = rng.choice(engine.to_act(state))
                state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            view = engine.view(state, None)
            texts.append(render.alt_text(game, view, names, None, None, lang))
            texts.append(render.alt_text(game, view, names, None, list(range(1, players + 1)), lang))
    return texts


@pytest.mark.parametrize("lang", ["fr", "uk"])
@pytest.mark.parametrize("game", GAME_IDS)
def test_every_titles_alt_text_speaks_the_language(game: str, lang: str) -> None:
    texts = alt_texts(game, lang)
    assert english_left(texts, lang) == []
    assert all(len(text) <= 1024 for text in texts)
    assert texts != alt_texts(game, "en")
