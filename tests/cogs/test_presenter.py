"""Table message text: repeated public lines collapse, deadlines read as Discord timestamps."""

from __future__ import annotations

from cogs.presenter import collapse, deadline_note


def test_a_run_of_one_line_collapses_into_one_with_its_count() -> None:
    lines = ["**carol** discards a card face down"] * 7 + ["**carol** is done discarding",
                                                         "**dave** bids 40", "**dave** bids 40"]
    assert collapse(lines) == ["**carol** discards 7 cards face down", "**carol** is done discarding",
                               "**dave** bids 40 (×2)"]


def test_lines_that_differ_or_are_apart_stay_apart() -> None:
    lines = ["a", "b", "a"]
    assert collapse(lines) == lines
    assert collapse([]) == []


def test_a_deadline_is_a_relative_discord_timestamp() -> None:
    assert deadline_note(1767225660.7) == " ⏰ <t:1767225660:R>"
    assert deadline_note(None) == ""
