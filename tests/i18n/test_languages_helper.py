"""The helper that end-to-end tests in French and Ukrainian use to find English left in a payload."""

from __future__ import annotations

from tests.languages import english_left


def test_english_messages_are_found_with_their_placeholders_filled() -> None:
    texts = ["`language` is one of `en`, `fr`.", "Sorry, something went wrong on my side. The table is safe; "
             "please try again."]
    found = english_left(texts, "fr")
    assert any("`{name}` is one of {allowed}." in line for line in found)
    assert any("Sorry, something went wrong" in line for line in found)


def test_translated_text_names_and_short_words_are_not_leaks() -> None:
    texts = ["`language` prend l'une de ces valeurs : `en`, `fr`.", "alice", "Pentawar", "on", "game",
             "Відтоді, як це було показано, гра за столом пішла далі. Ось поточний стан."]
    assert english_left(texts, "fr") == [] and english_left(texts[1:], "uk") == []
