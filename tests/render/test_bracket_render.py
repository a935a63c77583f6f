"""The bracket image renders, and every label fits its place and stays readable on a phone."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from host.tournaments import TableResult, bracket_view, next_elimination_round
from host.tournaments.bracket_view import double_bracket_view
from host.tournaments.double_elimination import next_double_round
from render.bracket import (
    MAX_COLUMNS,
    MIN_PHONE_PX,
    PHONE_WIDTH,
    DoubleView,
    MatchView,
    alt_text,
    bracket_png,
    double_layouts,
    double_size,
    fits,
    layout,
    views,
)

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


def _double(n: int, played_rounds: int, seed: int = 1) -> DoubleView:
    seeds = list(range(1, n + 1))
    names = {i: NAMES[(i - 1) % len(NAMES)] for i in seeds}
    rng = random.Random(seed)
    results: list[TableResult] = []
    for _ in range(played_rounds):
        rnd = next_double_round(seeds, results)
        if rnd is None:
            break
        results += [TableResult(t.sides, rng.choice([(1, 2), (2, 1)])) for t in rnd.tables]
    view = views(double_bracket_view(seeds, results, names))
    assert isinstance(view, DoubleView)
    return view


@pytest.mark.parametrize(("n", "played"), [(2, 0), (2, 3), (4, 2), (5, 0), (8, 3), (13, 4), (16, 20), (64, 5)])
def test_a_double_elimination_bracket_shows_both_brackets_and_the_final(n, played):
    view = _double(n, played)
    parts = double_layouts(view, "Pedwar cup")
    titles = [lay.headers[0].text for lay, _ in parts]
    assert titles[0].startswith("Winners' bracket") and titles[-1].startswith("Grand final")
    assert any(t.startswith("Losers' bracket") for t in titles) == (n > 2), "2 entrants have no losers' bracket"
    widths = {lay.size[0] for lay, _ in parts}
    assert len(widths) == 1, "the sections line up"
    tops = [top for _, top in parts]
    assert tops == sorted(tops) and tops[0] == 0
    for lay, _ in parts:
        for label in lay.labels:
            assert fits(label), label
            assert label.size * PHONE_WIDTH / lay.size[0] >= MIN_PHONE_PX
    png = bracket_png(view, "Pedwar cup")
    image = Image.open(io.BytesIO(png))
    assert image.size == double_size(view, "Pedwar cup")
    alt = alt_text(view, "Pedwar cup")
    assert "winners' bracket" in alt and "grand final" in alt


def test_the_losers_bracket_draws_a_drop_round_beside_its_feeder():
    # 8 entrants after winners' round 1: losers' round 1 (2 matches), then its drop round (2 matches):
    # each connector goes straight across to the same row, not to half as many matches.
    view = _double(8, 1)
    losers = next(lay for lay, _ in double_layouts(view) if lay.headers[0].text.startswith("Losers'"))
    assert [lb.text for lb in losers.headers[1:]] == ["Losers 1", "Losers 2", "Losers 3"]
    first, second = losers.boxes[0], losers.boxes[2]
    assert first[1] == second[1], "a drop round's match sits level with the match feeding it"
    # Losers' round 1 holds winners' round 1's four losers; its drop round waits for winners' round 2.
    assert not {n.label.text for n in losers.names[:4]} & {"TBD", "bye"}
    assert [n.label.text for n in losers.names[4:8]] == ["TBD"] * 4


def test_empty_places_show_as_byes_in_both_brackets():
    view = _double(5, 1)
    winners_first = [name for m in view.winners[0] for name in (m.top, m.bottom)]
    assert winners_first.count("bye") == 3
    losers_first = [name for m in view.losers[0] for name in (m.top, m.bottom)]
    assert losers_first.count("bye") == 3, "three of round 1's four matches were byes: no loser"


@pytest.mark.parametrize("lang", ["fr", "uk"])
@pytest.mark.parametrize(("n", "played"), [(2, 1), (6, 1), (64, 3), (8, 3)])
def test_the_bracket_in_french_and_ukrainian_keeps_phone_sizes_and_no_english(lang, n, played):
    """The channel's language draws the bracket: its words (headings, columns, bye, TBD) and alt text are the
    language's, every label fits uncut and stays at least MIN_PHONE_PX tall in a phone column."""
    from i18n import t
    from tests.languages import english_left

    single = _views(n, played)
    double = _double(n, played)
    layouts = [(layout(single, "Pedwar cup", lang=lang), 0), *double_layouts(double, "Pedwar cup", lang)]
    for lay, _ in layouts:
        for label in lay.labels:
            assert fits(label), label
            assert label.size * PHONE_WIDTH / lay.size[0] >= MIN_PHONE_PX, (label, lay.size)
        # The headings are whole: the longer French and Ukrainian words are not cut to fit.
        assert not any(h.text.endswith("…") for h in lay.headers[1:]), lay.headers
        words = [h.text for h in lay.headers] + [n.label.text for n in lay.names if n.state != "won"]
        assert english_left(words, lang) == [], words
    columns = [h.text for h in layouts[0][0].headers[1:]]
    assert columns[-1] == t(lang, "Final") or len(single) > MAX_COLUMNS
    assert layouts[1][0].headers[0].text.startswith(t(lang, "Winners' bracket · {title}", title=""))
    for view in (single, double):
        assert english_left([alt_text(view, "Pedwar cup", lang)], lang) == []
        Image.open(io.BytesIO(bracket_png(view, "Pedwar cup", lang))).verify()
    alt = alt_text(double, "Pedwar cup", lang)
    assert t(lang, "winners' bracket") in alt and t(lang, "grand final") in alt
    assert "against" not in alt and "won" not in alt


def test_a_bye_in_the_french_bracket_is_an_exemption():
    lay = layout([[MatchView("Alice", None, 0), MatchView("Bob", "Carol", None)], [MatchView("Alice", None)]],
                 "Coupe", lang="fr")
    names = [n.label.text for n in lay.names]
    assert names == ["Alice", "exemption", "Bob", "Carol", "Alice", "à venir"]
    assert [h.text for h in lay.headers] == ["Coupe · 2 rondes", "Ronde 1", "Finale"]
    assert alt_text([[MatchView("Alice", None, 0)]], "Coupe", "fr") == \
        "Coupe: Alice contre exemption, Alice l’emporte"
