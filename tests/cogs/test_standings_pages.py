"""Standings pages: embed-sized, every row once, names made safe."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from babel import Locale

from cogs.standings_pages import (
    DESCRIPTION_LIMIT,
    FIELD_LIMIT,
    format_points,
    safe_name,
    standing_line,
    standings_pages,
)
from host.tournaments import Standing, make_settings, pair_swiss, standings
from i18n import plural_n
from tests.host.tournaments.helpers import entrants, random_results


def test_points_are_short():
    assert format_points(Fraction(4)) == "4"
    assert format_points(Fraction(9, 2)) == "4½"
    assert format_points(Fraction(1, 2)) == "½"
    assert format_points(Fraction(8, 3)) == "2.67"


def test_a_line_holds_place_name_points_tiebreakers_games():
    row = Standing(place=3, entrant=9, points=Fraction(7, 2), opp=Fraction(7, 12), oopp=Fraction(1, 2), lot=4,
                   games=4, byes=1)
    assert standing_line(row, "Zoë") == "3. **Zoë** — 3½ pts · OPP 58.3% · OOPP 50.0% · 4 games + 1 bye"


def test_names_are_escaped_and_cut_by_grapheme():
    assert safe_name("*bold* _x_") == r"\*bold\* \_x\_"
    long = "👨‍👩‍👧" * 40
    cut = safe_name(long)
    assert cut.endswith("…") and "👨‍👩‍👧" in cut and len(cut) < len(long)
    assert cut.count("👨‍👩‍👧") == 31  # whole family emoji, never split


def test_a_thousand_entrants_page_within_embed_limits():
    field = entrants(1000)
    cfg = make_settings("do_over", "swiss", table_size=4)
    rng = random.Random(2)
    history = []
    for _ in range(3):
        history.append(random_results(pair_swiss(cfg, field, history), rng))
    rows = standings(field, history)
    names = {e.id: "W" * 32 + f" {e.id}" for e in field}  # the longest names Discord allows
    pages = standings_pages(rows, names)
    assert len(pages) == 50
    for page in pages:
        assert len(page.description) <= DESCRIPTION_LIMIT
        assert len(page.fields) <= FIELD_LIMIT
        assert page.title.startswith("Standings (")
    lines = [ln for p in pages for ln in p.description.splitlines()[1:]]
    assert [int(ln.split(".")[0]) for ln in lines] == list(range(1, 1001))


def test_pages_respect_the_character_limit_with_long_lines():
    row = Standing(place=1, entrant=1, points=Fraction(1), opp=Fraction(1), oopp=Fraction(1), lot=1, games=1)
    rows = [Standing(**{**row.__dict__, "place": i, "entrant": i}) for i in range(1, 200)]
    names = {i: "*" * 32 for i in range(1, 200)}  # escaping doubles them
    pages = standings_pages(rows, names, per_page=100)
    assert all(len(p.description) <= DESCRIPTION_LIMIT for p in pages)
    assert sum(len(p.description.splitlines()) - 1 for p in pages) == 199


def test_empty_standings_have_one_page():
    pages = standings_pages([], {})
    assert len(pages) == 1 and "No entrants" in pages[0].description


@pytest.mark.parametrize(("points", "en", "fr", "uk"), [
    (Fraction(0), "0 pts", "0 pt", "0 оч."), (Fraction(1, 2), "½ pts", "½ pt", "½ оч."),
    (Fraction(1), "1 pt", "1 pt", "1 оч."), (Fraction(3, 2), "1½ pts", "1½ pt", "1½ оч."),
    (Fraction(2), "2 pts", "2 pts", "2 оч."), (Fraction(5, 2), "2½ pts", "2½ pts", "2½ оч."),
    (Fraction(8, 3), "2.67 pts", "2,67 pts", "2,67 оч."), (Fraction(21), "21 pts", "21 pts", "21 оч.")])
def test_points_take_each_languages_plural_fractions_too(points: Fraction, en: str, fr: str, uk: str) -> None:
    """French is singular under 2 (0 pt, 1,5 pt), English only at 1; Ukrainian's abbreviation never changes."""
    row = Standing(place=1, entrant=1, points=points, opp=Fraction(0), oopp=Fraction(0), lot=1, games=1, byes=0)
    for lang, expected in (("en", en), ("fr", fr), ("uk", uk)):
        assert f"— {expected} ·" in standing_line(row, "Zoë", lang), (lang, standing_line(row, "Zoë", lang))


@pytest.mark.parametrize(("lang", "amount", "form"), [
    ("en", 0, "other"), ("en", 1.5, "other"), ("fr", 0, "one"), ("fr", 1.5, "one"), ("fr", 2.5, "other"),
    ("uk", 1, "one"), ("uk", 3, "few"), ("uk", 11, "many"), ("uk", 2.5, "many")])
def test_plural_n_gives_a_whole_number_of_the_amounts_plural_form(lang: str, amount: float, form: str) -> None:
    n = plural_n(lang, amount)
    assert n == int(n)
    assert Locale.parse(lang).plural_form(n) == form
