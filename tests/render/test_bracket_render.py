"""The bracket image renders, and every label fits its place and stays readable on a phone."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from host.tournaments import TableResult, bracket_view, next_elimination_round
from render.bracket import MAX_COLUMNS, MIN_PHONE_PX, PHONE_WIDTH, MatchView, bracket_png, fits, layout

NAMES = ["Alice", "Bob the Builder", "Carol with a very long display name indeed", "Dmitri", "Eve", "Frank",
         "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"]


def _views(n: int, played_rounds: int, seed: int = 1) -> list[list[MatchView]]:
    seeds = list(range(1, n + 1))
    names = {i: NAMES[(i - 1) % len(NAMES)] for i in seeds}
    rng = random.Random(seed)
    results: list[TableResult] = []
    for _ in range(played_rounds):
        rnd = next_elimination_round(seeds, results)
        if rnd is None:
            break
        results += [TableResult(t.sides, rng.choice([(1, 2), (2, 1), (1, 1)])) for t in rnd.tables]
    return [[MatchView(*m) for m in r] for r in bracket_view(seeds, results, names)]


@pytest.mark.parametrize(("n", "played"), [(2, 0), (2, 1), (6, 0), (6, 1), (6, 3), (8, 2), (16, 1), (64, 3), (64, 6)])
def test_renders_and_every_label_fits_and_reads_on_a_phone(n, played):
    views = _views(n, played)
    lay = layout(views, "Pedwar cup")
    width, height = lay.size
    for label in lay.labels:
        assert fits(label), label
        # Scaled to a phone column, text stays at least 11 px tall.
        assert label.size * PHONE_WIDTH / width >= MIN_PHONE_PX, (label, width)
    png = bracket_png(views, "Pedwar cup")
    img = Image.open(io.BytesIO(png))
    assert img.size == (width, height)
    columns = [lb.text for lb in lay.headers[1:]]
    assert len(columns) == min(MAX_COLUMNS, len(views))
    assert columns[-1] == "Final" or len(views) > MAX_COLUMNS


def test_names_byes_and_winners_are_laid_out():
    views = _views(6, 1)
    lay = layout(views)
    texts = [n.label.text for n in lay.names]
    assert texts.count("bye") == 2
    assert "Carol with a very long display name indeed" not in texts
    assert any(t.startswith("Carol") and t.endswith("…") for t in texts)
    # Round 1 has two real matches and two byes: four winners, four others drawn grey.
    first_round = lay.names[:8]
    assert sum(n.state == "won" for n in first_round) == 4
    assert sum(n.state == "lost" for n in first_round) == 4
    # The final is not known yet.
    assert [n.label.text for n in lay.names[-2:]] == ["TBD", "TBD"]


def test_a_big_bracket_shows_three_rounds_from_the_current_one():
    views = _views(64, 2)
    lay = layout(views)
    assert [lb.text for lb in lay.headers[1:]] == ["Round 3", "Round 4", "Round 5"]
    assert "rounds 3-5 of 6" in lay.headers[0].text
    done = _views(64, 6)
    assert [lb.text for lb in layout(done).headers[1:]] == ["Round 4", "Round 5", "Final"]
