"""Messages made below the presenters (engines, renderers): said in English as before, in any language later."""

from __future__ import annotations

import json
import pickle

import pytest

import i18n
from i18n import Said, message_of, msg, msg_n, said, said_n, say, say_text


def test_a_said_text_is_its_english_and_keeps_its_message() -> None:
    text = said("{player} draws a {card}", player="{p0}", card=msg("Bomb"))
    assert text == "{p0} draws a Bomb" and isinstance(text, str)
    assert message_of(text) == ("{player} draws a {card}", {"player": "{p0}", "card": ("Bomb", {})})
    assert json.dumps([text]) == '["{p0} draws a Bomb"]'
    assert pickle.loads(pickle.dumps(text)).message == text.message


def test_a_counted_message_reads_english_as_python_writes_numbers() -> None:
    assert said_n("{n} card", "{n} cards", 1) == "1 card"
    assert said_n("{n} card", "{n} cards", 1000) == "1000 cards"
    assert say("en", msg_n("{n} card", "{n} cards", 0)) == "0 cards"


@pytest.mark.parametrize(("lang", "n", "text"), [("fr", 1, "ramasse la Pile (1 carte)"),
                                                 ("fr", 2, "ramasse la Pile (2 cartes)"),
                                                 ("uk", 1, "забирає Стос (1 карта)"),
                                                 ("uk", 3, "забирає Стос (3 карти)"),
                                                 ("uk", 5, "забирає Стос (5 карт)")])
def test_a_counted_message_takes_each_languages_plural(lang: str, n: int, text: str) -> None:
    assert say_text(lang, said_n("takes the pile ({n} card)", "takes the pile ({n} cards)", n)) == text


def test_nested_messages_are_translated_and_survive_a_json_round_trip() -> None:
    message = msg("plays {card}", card=msg("Bomb"))
    assert say("fr", message) == "joue Bombe"
    assert say("uk", json.loads(json.dumps(message))) == "грає Бомба"
    assert Said(json.loads(json.dumps(message))) == "plays Bomb"


def test_plain_english_is_its_own_message_id() -> None:
    assert say_text("fr", "Reverse") == "Inversion"
    assert say_text("fr", "alice") == "alice"
    assert i18n.is_message(["x", {}]) and not i18n.is_message(["x", "y"])
