"""The language machinery: which language a locale speaks, a server's language, translation with named
placeholders and each language's plural forms, numbers written each language's way."""

from __future__ import annotations

import io
from datetime import UTC
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import i18n


@pytest.mark.parametrize("locale, lang", [
    ("fr", "fr"), ("fr-CA", "fr"), ("fr_FR", "fr"), ("FR-ca", "fr"), ("uk", "uk"), ("uk-UA", "uk"),
    ("en-US", "en"), ("en-GB", "en"), ("de", "en"), ("ru", "en"), ("pt-BR", "en"), ("", "en"), (None, "en"),
    ("français", "en"),
])
def test_a_locale_speaks_its_language_part_and_anything_else_is_english(locale: str | None, lang: str) -> None:
    assert i18n.resolve(locale) == lang


def test_the_languages_are_english_and_one_per_catalogue() -> None:
    assert i18n.languages() == ("en", "fr", "uk")


@pytest.mark.parametrize("setting, preferred, lang", [
    ("auto", "fr", "fr"), ("auto", "uk", "uk"), ("auto", "en-US", "en"), ("auto", "de", "en"), ("auto", None, "en"),
    ("en", "fr", "en"), ("fr", "uk", "fr"), ("uk", "en-US", "uk"),
])
def test_a_servers_language_is_its_setting_or_with_auto_its_discord_language(setting: str, preferred: str | None,
                                                                            lang: str) -> None:
    assert i18n.server_language(setting, preferred) == lang


def test_command_names_come_from_the_catalogues_by_context() -> None:
    assert i18n.tp("fr", "command", "game") == "partie" and i18n.tp("fr", "option", "game") == "jeu"
    assert i18n.tp("uk", "command", "tournament") == "турнір"
    assert i18n.tp("en", "command", "game") == "game"
    assert i18n.lookup("fr", "game", "command") == "partie"
    assert i18n.lookup("fr", "not a message of ours") is None and i18n.lookup("en", "game", "command") is None


def test_numbers_are_written_each_languages_way() -> None:
    assert i18n.number("en", 1234567.5) == "1,234,567.5"
    assert i18n.number("fr", 1234) == "1\u202f234"
    assert i18n.number("uk", 1234.5) == "1\u00a0234,5"


def test_placeholders_are_the_named_fields() -> None:
    assert i18n.placeholders("{player} plays {card} on {pile}") == {"player", "card", "pile"}
    assert i18n.placeholders("no {{braces}} here") == set()


@pytest.fixture
def made_up_catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """French and Ukrainian catalogues of a few messages, one a plural, in a folder of their own."""
    messages = {
        "fr": {"{player} takes the pile": "{player} ramasse la pile",
               ("{n} card", "{n} cards"): ("{n} carte", "{n} cartes")},
        "uk": {"{player} takes the pile": "{player} забирає стос",
               ("{n} card", "{n} cards"): ("{n} карта", "{n} карти", "{n} карт")},
    }
    for lang, entries in messages.items():
        catalog = Catalog(locale=lang, domain=i18n.DOMAIN, fuzzy=False)
        for msgid, text in entries.items():
            catalog.add(msgid, text)
        folder = tmp_path / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        buffer = io.BytesIO()
        write_po(buffer, catalog)
        (folder / f"{i18n.DOMAIN}.po").write_bytes(buffer.getvalue())
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    for cached in (i18n.languages, i18n.translations):
        cached.cache_clear()
    yield tmp_path
    for cached in (i18n.languages, i18n.translations):
        cached.cache_clear()


def test_placeholders_are_filled_by_name_in_every_language(made_up_catalogues: Path) -> None:
    assert i18n.t("en", "{player} takes the pile", player="alice") == "alice takes the pile"
    assert i18n.t("fr", "{player} takes the pile", player="alice") == "alice ramasse la pile"
    assert i18n.t("uk", "{player} takes the pile", player="Олена") == "Олена забирає стос"


@pytest.mark.parametrize("lang, n, text", [
    ("en", 1, "1 card"), ("en", 0, "0 cards"), ("en", 2, "2 cards"),
    ("fr", 0, "0 carte"), ("fr", 1, "1 carte"), ("fr", 2, "2 cartes"), ("fr", 1500, "1\u202f500 cartes"),
    ("uk", 1, "1 карта"), ("uk", 21, "21 карта"), ("uk", 2, "2 карти"), ("uk", 24, "24 карти"),
    ("uk", 5, "5 карт"), ("uk", 11, "11 карт"), ("uk", 12, "12 карт"), ("uk", 111, "111 карт"),
])
def test_plurals_follow_each_languages_rules(made_up_catalogues: Path, lang: str, n: int, text: str) -> None:
    assert i18n.tn(lang, "{n} card", "{n} cards", n) == text


def test_the_compiled_catalogue_is_built_from_the_po_and_rebuilt_when_it_changes(made_up_catalogues: Path) -> None:
    compiled = made_up_catalogues / "fr" / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
    assert not compiled.exists()
    assert i18n.t("fr", "{player} takes the pile", player="a") == "a ramasse la pile"
    assert compiled.exists()
    source = compiled.with_suffix(".po")
    source.write_text(source.read_text(encoding="utf-8").replace("ramasse la pile", "prend la pile"), encoding="utf-8")
    import os
    os.utime(source, (compiled.stat().st_mtime + 10,) * 2)
    i18n.translations.cache_clear()
    assert i18n.t("fr", "{player} takes the pile", player="a") == "a prend la pile"


def test_a_new_language_is_a_new_catalogue_and_no_code(made_up_catalogues: Path) -> None:
    folder = made_up_catalogues / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog = Catalog(locale="de", domain=i18n.DOMAIN, fuzzy=False)
    catalog.add("{player} takes the pile", "{player} nimmt den Stapel")
    buffer = io.BytesIO()
    write_po(buffer, catalog)
    (folder / f"{i18n.DOMAIN}.po").write_bytes(buffer.getvalue())
    i18n.languages.cache_clear()
    assert i18n.languages() == ("en", "de", "fr", "uk")
    assert i18n.resolve("de") == "de"
    assert i18n.t("de", "{player} takes the pile", player="bob") == "bob nimmt den Stapel"


def test_a_refusal_carries_its_message_id_and_params_and_reads_english() -> None:
    from host.errors import Refusal, StaleClick

    refusal = Refusal("`{name}` is one of {allowed}.", name="language", allowed="`en`, `fr`")
    assert str(refusal) == "`language` is one of `en`, `fr`."
    assert refusal.msgid == "`{name}` is one of {allowed}." and refusal.params == {"name": "language",
                                                                                   "allowed": "`en`, `fr`"}
    plain = Refusal("A finished {sentence} with braces.")
    assert str(plain) == plain.msgid == "A finished {sentence} with braces." and plain.params == {}
    assert str(StaleClick(3)).startswith("That table has moved on")


def test_the_guard_shows_a_refusal_in_the_members_language() -> None:
    from cogs.guard import refusal_text
    from host.errors import Refusal, StaleClick

    refusal = Refusal("`{name}` is one of {allowed}.", name="language", allowed="`en`, `fr`")
    assert refusal_text(refusal, "fr") == "`language` prend l'une de ces valeurs : `en`, `fr`."
    assert refusal_text(refusal, "uk") == "`language` має одне зі значень: `en`, `fr`."
    assert refusal_text(refusal, "en") == str(refusal)
    assert refusal_text(StaleClick(1), "uk").startswith("Відтоді")
    unknown = Refusal("Not a message id of ours: {x}", x="y")
    assert refusal_text(unknown, "fr") == "Not a message id of ours: y"


@pytest.mark.parametrize("lang, seconds, text", [
    ("en", 93900, "1 day, 2 hours, 5 minutes"), ("fr", 93900, "1 jour, 2 heures et 5 minutes"),
    ("uk", 93900, "1 день, 2 години і 5 хвилин"), ("uk", 5 * 3600, "5 годин"), ("uk", 21 * 3600, "21 година"),
    ("fr", 90, "1 minute et 30 secondes"), ("en", 0, "0 seconds"),
])
def test_durations_are_written_in_words_with_each_languages_plurals(lang: str, seconds: int, text: str) -> None:
    # (French and Ukrainian keep a number with its unit by a no-break space, as they should.)
    assert spaced(i18n.duration(lang, seconds)) == text


def test_a_moment_is_written_the_languages_way_in_a_time_zone() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    when = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    assert spaced(i18n.moment("fr", when, ZoneInfo("Europe/Paris"))) == "1 décembre 2026, 19:00"
    assert spaced(i18n.moment("uk", when, ZoneInfo("Europe/Kyiv"))) == "1 грудня 2026 р., 20:00"
    assert spaced(i18n.moment("en", when, UTC)) == "December 1, 2026, 6:00 PM"


def spaced(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def test_a_read_only_catalogue_folder_compiles_in_memory(made_up_catalogues: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Path, data: bytes) -> int:
        raise PermissionError(str(self))

    monkeypatch.setattr(Path, "write_bytes", refuse)
    assert i18n.t("uk", "{player} takes the pile", player="Олена") == "Олена забирає стос"
    assert not list(made_up_catalogues.rglob("*.mo")) and not list(made_up_catalogues.rglob("*.tmp"))
