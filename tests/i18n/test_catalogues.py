"""Every catalogue is complete: each message of the template has a French and a Ukrainian translation, none
is fuzzy, each keeps the English text's placeholders, and plurals have the forms of the language's rules.
The checker itself is tested on small made-up catalogues."""

from __future__ import annotations

import subprocess

from babel.messages.catalog import Catalog

import i18n
from i18n.check import all_problems, problems


def test_every_catalogue_translates_every_message_of_the_template() -> None:
    found = all_problems()
    assert not found, "\n".join(found[:40])


def test_the_template_holds_the_slash_commands_and_each_catalogue_has_the_plural_rules() -> None:
    from i18n.check import read

    template = read(i18n.LOCALES / f"{i18n.DOMAIN}.pot")
    assert template.get("game", context="command") is not None and len(template) > 100
    for lang, forms in (("fr", 2), ("uk", 3)):
        assert read(i18n.po_path(lang), lang).num_plurals == forms


def test_compiled_catalogues_are_not_committed() -> None:
    root = i18n.LOCALES.parent.parent
    tracked = subprocess.run(["git", "ls-files", "i18n"], capture_output=True, text=True, cwd=root,
                             check=False).stdout.split()
    assert not [f for f in tracked if f.endswith(".mo")]
    ignored = subprocess.run(["git", "check-ignore", "-q", str(i18n.po_path("fr").with_suffix(".mo"))],
                             cwd=root, check=False)
    assert ignored.returncode == 0, ".mo files must be ignored by git"


def _catalogs(entries: dict[object, object], lang: str = "uk", **header: object) -> tuple[Catalog, Catalog]:
    template = Catalog(fuzzy=False)
    catalog = Catalog(locale=lang, fuzzy=False, **header)  # type: ignore[arg-type]
    for msgid, text in entries.items():
        template.add(msgid)
        if text is not None:
            catalog.add(msgid, text)
    return template, catalog


def test_the_checker_finds_a_missing_or_empty_translation() -> None:
    template, catalog = _catalogs({"Take the pile": None, "Pass": ""})
    found = problems(template, catalog, "uk")
    assert any("'Take the pile' is missing" in line for line in found)
    assert any("'Pass' has no translation" in line for line in found)


def test_the_checker_finds_a_fuzzy_entry_and_a_fuzzy_header() -> None:
    template, catalog = _catalogs({"Pass": "Пас"})
    catalog.get("Pass").flags.add("fuzzy")
    catalog.fuzzy = True
    found = problems(template, catalog, "uk")
    assert any("'Pass' is fuzzy" in line for line in found) and any("header" in line for line in found)


def test_the_checker_finds_a_lost_or_invented_placeholder() -> None:
    template, catalog = _catalogs({"{player} bids {bid}": "{player} робить заявку", "Pass": "Пас {who}"})
    found = problems(template, catalog, "uk")
    assert any("'{player} bids {bid}'" in line and "placeholders" in line for line in found)
    assert any("'Pass'" in line and "placeholders" in line for line in found)


def test_the_checker_counts_plural_forms_by_the_languages_rules() -> None:
    template, catalog = _catalogs({("{n} trick", "{n} tricks"): ("{n} взятка", "{n} взятки")})
    assert any("has 2 plural forms, uk has 3" in line for line in problems(template, catalog, "uk"))
    template, catalog = _catalogs({("{n} trick", "{n} tricks"): ("{n} взятка", "{n} взятки", "{n} взяток")})
    assert problems(template, catalog, "uk") == []
    template, catalog = _catalogs({("{n} trick", "{n} tricks"): ("une levée", "{n} levées")}, lang="fr")
    assert problems(template, catalog, "fr") == []


def test_the_checker_finds_wrong_plural_rules_and_messages_the_template_lacks() -> None:
    template, catalog = _catalogs({"Pass": "Passe"}, lang="fr")
    catalog.add("Gone", "Parti")
    found = problems(template, catalog, "fr")
    assert any("'Gone' is not in the template" in line for line in found)
    wrong = Catalog(locale="uk", fuzzy=False)
    wrong._num_plurals, wrong._plural_expr = 2, "(n != 1)"  # as a .po with a copied English header would say
    assert any("Plural-Forms" in line for line in problems(Catalog(fuzzy=False), wrong, "uk"))


def test_every_message_the_code_marks_is_in_the_template() -> None:
    """A string newly marked with t, tp, tn or N_ must reach the template (and so the catalogues)."""
    from i18n.check import read
    from tests.catalogues import marked

    template = read(i18n.LOCALES / f"{i18n.DOMAIN}.pot")
    found = marked()
    missing = [f"{file}:{line}: {msgid!r}" for (file, line), msgid, context in found
               if template.get(msgid, context=context) is None]
    assert not missing, ("not in i18n/locales/deckhand.pot: run python -m tests.catalogues, then translate them:\n"
                         + "\n".join(missing))
    assert any(file == "bot.py" for (file, _), _, _ in found) and any(f.startswith("host/") for (f, _), _, _ in found)
