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
from i18n.check import read

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


def commands_of(payloads: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    """(English path, the command's payload, its path of payloads) for every command a member can run."""
    def walk(item: dict[str, Any], path: str, trail: list[dict[str, Any]]) -> Iterator[Any]:
        subs = [o for o in item.get("options") or () if o.get("type") in (1, 2)]
        if not subs:
            yield path, item, trail
        for sub in subs:
            yield from walk(sub, f"{path} {sub['name']}", [*trail, sub])

    for payload in payloads:
        yield from walk(payload, payload["name"], [payload])


async def test_messages_name_commands_as_the_synced_payload_does(world: Any) -> None:
    """``i18n.command`` (which fills the ``{/…}`` placeholders of messages) gives every command, option and choice
    the very name the translator synced, in every language: a message never names a command otherwise."""
    payloads = synced(world.env)
    checked = 0
    for path, item, trail in commands_of(payloads):
        for lang in LANGS:
            shown = "/" + " ".join(part["name_localizations"][lang] for part in trail)
            assert i18n.command(path, lang) == shown, (path, lang)
            for option in item.get("options") or ():
                name = option["name_localizations"][lang]
                assert i18n.command(path, lang, **{option["name"]: ""}) == f"{shown} {name}:", (path, option["name"])
                for choice in option.get("choices") or ():
                    assert i18n.command(path, lang, **{option["name"]: choice["name"]}) == (
                        f"{shown} {name}:{choice['name_localizations'][lang]}"), (path, choice["name"])
                    checked += 1
        assert i18n.command(path, "en") == "/" + path
    assert checked > 30


async def test_every_command_a_message_names_exists(world: Any) -> None:
    """Each ``{/…}`` placeholder of the catalogues names a command of the synced payload, with its options and
    (where it has choices) one of their names, and each ``{:…}`` an option some command has: a renamed command or
    option cannot leave a message naming the old one."""
    commands = {path: item for path, item, _ in commands_of(synced(world.env))}
    named = {placeholder for message in read(i18n.LOCALES / f"{i18n.DOMAIN}.pot")
             for msgid in (message.id if isinstance(message.id, (list, tuple)) else (message.id,)) if msgid
             for placeholder in i18n.COMMAND_PLACEHOLDER.findall(msgid)}
    assert {"/game new", "/game notify dm:on", "/tournament advance", "/play", ":thread:false", ":round_time"} <= named
    option_names = {o["name"] for item in commands.values() for o in item.get("options") or ()}
    for placeholder in named:
        if placeholder.startswith(":"):  # an option named alone: some command has it
            assert placeholder[1:].partition(":")[0] in option_names, placeholder
            continue
        words = placeholder.lstrip("/").split()
        path = " ".join(word for word in words if ":" not in word)
        if path == "config":  # a group named alone ("try /config"): its subcommands exist
            assert any(p.startswith("config ") for p in commands)
            continue
        assert path in commands, placeholder
        options = {o["name"]: o for o in commands[path].get("options") or ()}
        for word in words:
            if ":" in word:
                name, value = word.split(":", 1)
                assert name in options, placeholder
                choices = [c["name"] for c in options[name].get("choices") or ()]
                assert not value or not choices or value in choices, placeholder
                if value and not choices:  # free text: the member types it as written, in every language
                    for lang in LANGS:
                        assert i18n.option(name, lang, value).partition(":")[2] == value.strip('"'), (placeholder, lang)
