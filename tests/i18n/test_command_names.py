"""Slash commands named inside messages read as the reader's command list shows them: ``/partie nouvelle`` in
French, ``/гра нова`` in Ukrainian, ``/game new`` in English, from the words cogs/translator.py gives Discord.

(tests/e2e/test_command_locales_e2e.py checks that ``i18n.command`` agrees with the synced payload for every
command, option and choice, and that every ``{/…}`` placeholder names a real command.)
"""

from __future__ import annotations

import pytest

import i18n
from host.errors import Phrase, Refusal
from host.limits import NEW_TABLE, Cooldowns
from host.tournaments.refusals import TournamentRefusal
from i18n.check import read
from tests.languages import english_commands, english_left

LANGS = ("fr", "uk")


def test_a_command_is_named_with_the_translators_words() -> None:
    assert i18n.command("game new", "en") == "/game new"
    assert i18n.command("game new", "fr") == "/partie nouvelle"
    assert i18n.command("game new", "uk") == "/гра нова"
    assert i18n.command("play", "fr") == "/jouer"
    # "game" is a command in one place and an option in another: each under its own context.
    assert i18n.command("game rules", "fr", game="") == "/partie règles jeu:"
    assert i18n.command("game notify", "fr", dm="on") == "/partie notifications mp:activé"
    assert i18n.command("game notify", "uk", dm="off") == "/гра сповіщення особисті:вимкнено"
    assert i18n.command("game notify", "en", dm="on") == "/game notify dm:on"
    # A Python keyword option, and free text that is no choice, kept as written.
    assert i18n.command("game replace", "fr", with_="bob") == "/partie remplacer remplaçant:bob"
    # A language without a catalogue, and a word no catalogue has, stay English.
    assert i18n.command("game new", "de") == "/game new"
    assert i18n.command("sandbox go", "fr") == "/sandbox go"


def test_a_subcommand_agrees_with_its_own_commands_noun() -> None:
    # The same English word under two groups: French "partie" and Ukrainian "гра" are feminine, "tournoi" and
    # "турнір" masculine. The translator and i18n.command both ask by the whole path.
    assert i18n.command("tournament new", "fr") == "/tournoi nouveau"
    assert i18n.command("tournament new", "uk") == "/турнір новий"
    assert i18n.command("game new", "fr") == "/partie nouvelle"


def test_a_message_fills_its_command_placeholders_in_its_own_language() -> None:
    assert i18n.t("en", "Start one with `{/game new}`.") == "Start one with `/game new`."
    assert i18n.t("fr", "There is no table in this channel. Start one with `{/game new}`.") == (
        "Il n'y a pas de table dans ce salon. Créez-en une avec `/partie nouvelle`.")
    assert "`/гра продовжити`" in i18n.t("uk", "This table is already paused. `{/game resume}` restarts its clocks.")
    assert "`/partie nouvelle options:`" in i18n.t("fr", "Set them with `{/game new options:}`, e.g. `{example}`.",
                                                  example="max_turns=300")
    said = i18n.said("Paused: no clock runs until `{/game resume}`.")
    assert said == "Paused: no clock runs until `/game resume`."  # the English text, as stored
    assert "/partie reprendre" in i18n.say_text("fr", said) and "/гра продовжити" in i18n.say_text("uk", said)
    # A placeholder keeps its options whole: a translation must keep the same command, options and values.
    assert i18n.placeholders("`{/game notify dm:on}` for {member}") == {"/game notify dm:on", "member"}


def test_refusals_read_english_with_the_english_command_names() -> None:
    assert str(Refusal(i18n.N_("This game is over. Start a new one with `{/game new}`."))) == (
        "This game is over. Start a new one with `/game new`.")
    assert str(TournamentRefusal("{n} more (or use {/tournament addbot}).", n=2)) == (
        "2 more (or use /tournament addbot).")
    assert str(Phrase("before `{/game new}` {x}", x=1)) == "before `/game new` 1"


def test_the_cooldown_names_its_command_in_the_members_language() -> None:
    from cogs.guard import refusal_text

    cooldowns = Cooldowns(lambda: 100.0)
    cooldowns.take(1, 7, NEW_TABLE, 30)
    with pytest.raises(Refusal) as caught:
        cooldowns.take(1, 7, NEW_TABLE, 30)
    assert "`/game new`" in str(caught.value)
    assert "`/partie nouvelle`" in refusal_text(caught.value, "fr")
    assert "`/гра нова`" in refusal_text(caught.value, "uk")


def test_the_helper_finds_english_command_names_only() -> None:
    assert english_commands("Créez-en une avec `/game new`.", "fr") == ["/game new"]
    assert english_commands("utilisez `/tournament advance` ou /game", "fr") == ["/tournament advance", "/game"]
    assert english_commands("`/config show` affiche", "uk") == ["/config show"]
    for fine in ("Créez-en une avec `/partie nouvelle`.", "`/config` et", "https://x.test/s/1/leaderboard/do_over",
                 "4/5 · main 3", "/sandbox go"):
        assert english_commands(fine, "fr") == [], fine
    assert english_commands("Start one with `/game new`.", "en") == []
    assert english_left(["Il n'y a rien. Créez-en une avec `/game new`."], "fr") == [
        "command '/game new' in \"Il n'y a rien. Créez-en une avec `/game new`.\""]


@pytest.mark.parametrize("lang", LANGS)
def test_no_translation_names_a_command_in_english(lang: str) -> None:
    """Every French and Ukrainian text, messages and slash command descriptions alike: a command it names is a
    ``{/…}`` placeholder (filled in the language) or already the language's name."""
    found = []
    for message in read(i18n.po_path(lang), lang):
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        for text in strings:
            left = english_commands(i18n.COMMAND_PLACEHOLDER.sub("", text or ""), lang)
            found += [f"{name} in {text!r}" for name in left]
    assert found == []


def test_a_reason_stored_in_english_is_said_in_the_readers_language() -> None:
    """A table's ``end_reason`` is stored in English, its command written out (operators read the database, and
    rows written before commands became placeholders say the same): it still reads in every language."""
    from host.outcomes import ABANDONED_BY_COMMAND

    assert ABANDONED_BY_COMMAND == "closed with /game abandon"
    assert i18n.t("fr", ABANDONED_BY_COMMAND) == "fermée avec /partie fermer"
    assert "/гра закрити" in i18n.t("uk", ABANDONED_BY_COMMAND)
    assert i18n.t("en", ABANDONED_BY_COMMAND) == ABANDONED_BY_COMMAND


def test_every_message_names_its_commands_as_placeholders() -> None:
    """A message id that writes a command out (``/game new``) would read English in every language: it takes a
    ``{/game new}`` placeholder. Only a slash command's own description cannot (Discord shows its English text
    as written), so its translations write the language's names (checked above)."""
    found = []
    for message in read(i18n.LOCALES / f"{i18n.DOMAIN}.pot"):
        descriptions = any("slash command's description" in note for note in message.auto_comments)
        for msgid in message.id if isinstance(message.id, (list, tuple)) else (message.id,):
            left = english_commands(i18n.COMMAND_PLACEHOLDER.sub("", msgid or ""), "fr")
            if left and not descriptions:
                found.append(f"{left} in {msgid!r}")
    assert found == []


def test_an_option_named_alone_reads_as_the_members_option_list_shows_it() -> None:
    assert i18n.option("round_time", "fr") == "durée_ronde" and i18n.option("round_time", "en") == "round_time"
    assert i18n.option("thread", "uk", "false") == "гілка:false"
    assert i18n.option("dm", "fr", "on") == "mp:activé" and i18n.option("table", "uk", "") == "стіл:"
    assert i18n.t("en", "try `{:thread:false}`") == "try `thread:false`"
    assert i18n.t("fr", "This tournament has no `{:round_time}`, so a round ends when its last table does.") == (
        "Ce tournoi n'a pas de `durée_ronde` : une ronde se termine avec sa dernière table.")
    assert "`стіл:`" in i18n.t("uk", "This channel has had no table yet. Give a `{:table:}` number to reach another "
                                     "one.")
    assert i18n.placeholders("`{:checkin_minutes}` goes with `{:starts_at}` {x}") == {
        ":checkin_minutes", ":starts_at", "x"}
    refusal = Refusal(i18n.N_("`{:count}` is 1 to {high}."), high=8)
    assert str(refusal) == "`count` is 1 to 8."


def test_a_quoted_value_is_free_text_kept_as_written() -> None:
    """``/config set value:`` takes text, not a choice: ``on`` stays ``on`` though a choice "on" reads "activé"."""
    assert i18n.option("value", "fr", '"on"') == "valeur:on" and i18n.option("dm", "fr", "on") == "mp:activé"
    assert i18n.t("en", 'with {/config set setting:web_pages value:"on"}.') == (
        "with /config set setting:web_pages value:on.")
    assert i18n.t("uk", 'with {/config set setting:web_pages value:"on"}.').endswith("значення:on.")
