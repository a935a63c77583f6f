"""Tournament refusals keep their message id and params, words inside them included, so the guard shows each
in the member's language; their English text is unchanged."""

from __future__ import annotations

import pytest

from cogs.guard import refusal_text
from host.errors import Refusal
from host.limits import check_bot_entrants
from host.tournaments import TournamentRefusal
from host.tournaments.refusals import Phrase
from host.tournaments.settings import make_settings
from tests.languages import english_left


def test_a_settings_refusal_with_words_inside_reads_in_each_language() -> None:
    with pytest.raises(TournamentRefusal) as caught:
        make_settings("pedwar", "swiss", table_size=9)
    refusal = Refusal(caught.value.msgid, **caught.value.params)
    assert str(refusal) == "Pedwar seats 2 to 4 players at a table, so table_size 9 cannot be used."
    assert refusal_text(refusal, "fr") == "Pedwar accueille de 2 à 4 joueurs par table : table_size 9 est impossible."
    assert refusal_text(refusal, "uk") == ("Pedwar: кількість гравців за столом — від 2 до 4, тож table_size 9 не "
                                           "підходить.")


def test_a_status_inside_a_refusal_is_translated_and_english_stays_as_it_was() -> None:
    refusal = Refusal("**{name}** is {status}.", name="Cup", status=Phrase("finished"))
    assert str(refusal) == "**Cup** is finished."
    assert refusal_text(refusal, "fr") == "**Cup** : terminé."
    assert refusal_text(refusal, "uk") == "**Cup**: завершено."


@pytest.mark.parametrize("lang", ["fr", "uk"])
def test_the_bot_entrant_limit_reads_in_each_language(lang: str) -> None:
    with pytest.raises(Refusal) as caught:
        check_bot_entrants(4, 2, 3, "Cup")
    assert str(caught.value) == ("**Cup** can take 2 more bot entrants: this server allows 4 (the `max_bot_entrants` "
                                 "setting).")
    shown = refusal_text(caught.value, lang)
    assert "2" in shown and "`max_bot_entrants`" in shown and english_left([shown], lang) == []
    assert shown != str(caught.value)


@pytest.mark.parametrize(("present", "fr", "uk"), [
    (4, "peut accueillir 0 bot inscrit de plus", "ще 0 ботів-учасників"),
    (3, "peut accueillir 1 bot inscrit de plus", "ще 1 бота-учасника"),
    (1, "peut accueillir 3 bots inscrits de plus", "ще 3 боти-учасники")])
def test_the_bot_entrant_limit_counts_with_each_languages_plural(present: int, fr: str, uk: str) -> None:
    """French is singular for 0 and 1, Ukrainian has three forms: one counted message, not English's two."""
    with pytest.raises(Refusal) as caught:
        check_bot_entrants(4, present, 9, "Cup")
    assert fr in refusal_text(caught.value, "fr") and uk in refusal_text(caught.value, "uk")
