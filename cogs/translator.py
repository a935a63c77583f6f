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
        return i18n.lookup(lang, string.message, CONTEXTS[context.location])


def command_messages(payloads: list[dict[str, Any]]) -> list[tuple[str | None, str]]:
    """Every (context, English text) a synced command payload asks the catalogues for, in payload order:
    command, group and subcommand names, option names, choice names, and every description."""
    found: dict[tuple[str | None, str], None] = {}

    def walk(item: dict[str, Any], context: str) -> None:
        found[(context, item["name"])] = None
        if item.get("description"):
            found[(None, item["description"])] = None
        for choice in item.get("choices") or ():
            found[("choice", choice["name"])] = None
        for option in item.get("options") or ():
            # Option types 1 and 2 are a subcommand and a subcommand group: names of commands.
            walk(option, "command" if option.get("type") in (1, 2) else "option")

    for payload in payloads:
        walk(payload, "command")
    return list(found)
