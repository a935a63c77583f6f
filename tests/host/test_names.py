"""Labels keep their whole action text; only the names are shortened, at grapheme boundaries."""

from __future__ import annotations

import regex

from host.names import BUTTON_LABEL, SELECT_LABEL, fill_names, fill_names_fitted
from render.markup import ELLIPSIS, graphemes, label_length, shorten

LONG = "Bob Zürich Überspieler of Cards~"  # 32 characters, Discord's longest nickname
EMOJI = "👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧 Olha 🇺🇦🇺🇦🇺🇦 Ґалина Єрмак"
PENTAWAR = "Kill {p1}'s Sapphire (row 1) with Ruby from the table"


def _clusters(s: str) -> list[str]:
    return regex.findall(r"\X", s)


def test_fill_names_is_unchanged():
    assert fill_names("{p0} passes to {p1}", ["Ann", "Bo"]) == "Ann passes to Bo"
    assert fill_names("{p3} waits", ["Ann"]) == "{p3} waits"


def test_short_labels_are_left_alone():
    assert fill_names_fitted(PENTAWAR, ["Ann", "Bo"]) == "Kill Bo's Sapphire (row 1) with Ruby from the table"


def test_the_issue_example_keeps_the_whole_action():
    label = fill_names_fitted(PENTAWAR, ["Ann", LONG + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"], BUTTON_LABEL)
    assert len(label) <= 80 and label_length(label) <= 80
    assert label.endswith("'s Sapphire (row 1) with Ruby from the table") and label.startswith("Kill Bob")
    assert ELLIPSIS in label


def test_two_long_names_share_the_room_and_the_action_survives():
    text = "{p0} swaps {p1}'s Ruby for {p2}'s Sapphire, then {p3} draws two cards from the deck"
    names = [LONG, LONG.upper(), EMOJI, "Al"]
    for limit in (BUTTON_LABEL, SELECT_LABEL):
        label = fill_names_fitted(text, names, limit)
        assert label_length(label) <= limit
        for part in (" swaps ", "'s Ruby for ", "'s Sapphire, then ", " draws two cards from the deck"):
            assert part in label
        assert "Al draws" in label  # a short name is not cut


def test_names_are_cut_only_between_grapheme_clusters():
    for limit in range(2, 40):
        out = shorten(EMOJI, limit)
        assert label_length(out) <= limit
        kept = out.removesuffix(ELLIPSIS)
        assert EMOJI.startswith(kept)
        assert _clusters(kept) == _clusters(EMOJI)[: len(_clusters(kept))]


def test_emoji_names_count_utf16_units():
    label = fill_names_fitted("{p0} plays 7", [EMOJI * 3], BUTTON_LABEL)
    assert label.endswith(" plays 7") and label_length(label) <= 80


def test_an_impossibly_long_action_is_still_cut_to_the_limit():
    label = fill_names_fitted("{p0} " + "x" * 120, ["Ann"], 80)
    assert label_length(label) <= 80 and label.endswith(ELLIPSIS)


def test_a_name_cut_by_graphemes_counts_what_a_reader_sees():
    # The standings' cut (cogs/standings_pages.safe_name): clusters, not UTF-16 units.
    assert shorten(EMOJI, 25, graphemes) == EMOJI  # 25 clusters: nothing cut, though 55 UTF-16 units
    out = shorten("👨‍👩‍👧" * 40, 32, graphemes)
    assert out == "👨‍👩‍👧" * 31 + ELLIPSIS and graphemes(out) == 32
    assert shorten("ab cd", 4, graphemes) == "ab…", "no space left before the ellipsis"
