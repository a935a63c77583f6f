"""Slash commands in every language: discord.py asks this translator for each command, group, option and
choice name and description when it syncs, and Discord shows members the ones of their client language.

The English text is the message id. Names are looked up under a context (``command``, ``option``,
``choice``), since a name follows Discord's rules (lowercase, no spaces) that a description does not, and
the same English word may be a command in one place and an option in another.
"""

from __future__ import annotations

from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

import i18n

#: The catalogue context of each kind of name; descriptions have none.
CONTEXTS: dict[Where, str | None] = {
    Where.command_name: "command",
    Where.group_name: "command",
    Where.parameter_name: "option",
    Where.choice_name: "choice",
    Where.command_description: None,
    Where.group_description: None,
    Where.parameter_description: None,
}


class CatalogueTranslator(app_commands.Translator):
    """Names and descriptions from the gettext catalogues; English (and any locale without one) is left as
    written, and a string missing from a catalogue stays unlocalised rather than guessed."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = i18n.resolve(locale.value)
        if lang == i18n.DEFAULT or context.location not in CONTEXTS:
            return None
        message = string.message
        if context.location in (Where.command_name, Where.group_name) and getattr(context.data, "parent", None):
            # A subcommand's name is asked for by its whole path ("tournament new"): the word may agree with
            # its group's noun (French "partie nouvelle" but "tournoi nouveau").
            message = context.data.qualified_name
        return i18n.lookup(lang, message, CONTEXTS[context.location])


def command_messages(payloads: list[dict[str, Any]]) -> list[tuple[str | None, str]]:
    """Every (context, English text) a synced command payload asks the catalogues for, in payload order:
    command and group names, subcommand names by their path (``tournament new``), option names, choice names,
    and every description."""
    found: dict[tuple[str | None, str], None] = {}

    def walk(item: dict[str, Any], context: str, path: str) -> None:
        found[(context, path)] = None
        if item.get("description"):
            found[(None, item["description"])] = None
        for choice in item.get("choices") or ():
            found[("choice", choice["name"])] = None
        for option in item.get("options") or ():
            # Option types 1 and 2 are a subcommand and a subcommand group: names of commands, asked for by
            # their whole path (see CatalogueTranslator.translate).
            if option.get("type") in (1, 2):
                walk(option, "command", f"{path} {option['name']}")
            else:
                walk(option, "option", option["name"])

    for payload in payloads:
        walk(payload, "command", payload["name"])
    return list(found)
