"""The synced slash commands speak French and Ukrainian: every command, group, option and choice carries
``name_localizations`` and ``description_localizations`` for ``fr`` and ``uk``, each valid under Discord's
rules. SimCord stores localisations without checking them, so this test checks what Discord would refuse."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import regex

import i18n
from cogs.translator import command_messages

#: Discord's rule for command and option names (its API docs); it also wants them lowercase.
NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
LANGS = ("fr", "uk")


def synced(env: Any) -> list[dict[str, Any]]:
    puts = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert puts, "the bot synced no commands"
    return list(puts[-1].json)


def items(payloads: list[dict[str, Any]]) -> Iterator[tuple[str, str, dict[str, Any], list[dict[str, Any]]]]:
    """(kind, path, item, siblings) for every command, subcommand, option and choice of the payload."""
    def walk(item: dict[str, Any], path: str, kind: str, siblings: list[dict[str, Any]]) -> Iterator[Any]:
        yield kind, path, item, siblings
        for choice in item.get("choices") or ():
            yield "choice", f"{path} choice {choice['name']!r}", choice, item["choices"]
        for option in item.get("options") or ():
            sub = "command" if option.get("type") in (1, 2) else "option"
            yield from walk(option, f"{path} {option['name']}", sub, item["options"])

    for payload in payloads:
        yield from walk(payload, "/" + payload["name"], "command", payloads)


def problems(payloads: list[dict[str, Any]]) -> list[str]:
    found = []
    for kind, path, item, siblings in items(payloads):
        names = item.get("name_localizations") or {}
        for lang in LANGS:
            name = names.get(lang)
            if not isinstance(name, str):
                found.append(f"{path}: no {lang} name")
            elif kind == "choice":
                if not 1 <= len(name) <= 100:
                    found.append(f"{path}: {lang} choice name {name!r} is not 1-100 characters")
            else:
                if not NAME.match(name) or name != name.lower():
                    found.append(f"{path}: {lang} name {name!r} breaks Discord's rules (lowercase, 1-32, "
                                 "letters, digits, - and _)")
                # Discord refuses two siblings with one name in any language.
                same = [s for s in siblings if (s.get("name_localizations") or {}).get(lang) == name]
                if len(same) > 1:
                    found.append(f"{path}: {lang} name {name!r} is shared by {len(same)} siblings")
            if kind != "choice":
                text = (item.get("description_localizations") or {}).get(lang)
                if not isinstance(text, str) or not 1 <= len(text) <= 100:
                    found.append(f"{path}: {lang} description {text!r} is missing or not 1-100 characters")
        extra = set(names) - set(LANGS)
        if extra:
            found.append(f"{path}: localised for {sorted(extra)}, which Deckhand has no catalogue for")
    return found


async def test_every_command_option_and_choice_is_named_and_described_in_french_and_ukrainian(world: Any) -> None:
    payloads = synced(world.env)
    found = problems(payloads)
    assert not found, ("a new command, option or choice needs its French and Ukrainian words: run python -m "
                       "tests.catalogues, translate the new entries of i18n/locales/*/LC_MESSAGES/deckhand.po with "
                       "docs/glossary.md\n" + "\n".join(found[:40]))
    kinds = Counter(kind for kind, *_ in items(payloads))
    # The whole tree is there: the groups, their subcommands, their options and choices.
    assert kinds["command"] > 40 and kinds["option"] > 30 and kinds["choice"] > 30


async def test_the_localisations_are_the_catalogues_words(world: Any) -> None:
    payloads = synced(world.env)
    game = next(p for p in payloads if p["name"] == "game")
    assert game["name_localizations"] == {"fr": "partie", "uk": "гра"}
    new = next(o for o in game["options"] if o["name"] == "new")
    option = next(o for o in new["options"] if o["name"] == "game")
    assert option["name_localizations"] == {"fr": "jeu", "uk": "гра"}
    assert option["description_localizations"] == {"fr": "Quel jeu", "uk": "Яка гра"}
    for context, msgid in command_messages(payloads):
        for lang in LANGS:
            assert i18n.lookup(lang, msgid, context) is not None, (lang, context, msgid)


def test_the_checker_finds_what_discord_would_refuse() -> None:
    good = {"fr": "jeu", "uk": "гра"}
    payload = [{"name": "game", "description": "d", "name_localizations": {"fr": "Partie", "uk": "гра гра"},
                "description_localizations": {"fr": "x" * 101},
                "options": [
                    {"name": "a", "type": 3, "description": "d", "name_localizations": good,
                     "description_localizations": good,
                     "choices": [{"name": "c", "value": "c", "name_localizations": {"fr": "", "uk": "y" * 101}}]},
                    {"name": "b", "type": 3, "description": "d", "name_localizations": good,
                     "description_localizations": good}]}]
    found = "\n".join(problems(payload))
    for expected in ("fr name 'Partie'", "uk name 'гра гра'", "fr description", "uk description",
                     "/game a choice 'c': fr choice name", "/game a choice 'c': uk choice name",
                     "fr name 'jeu' is shared by 2 siblings"):
        assert expected in found, expected
