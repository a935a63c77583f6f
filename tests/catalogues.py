"""Keep the catalogues up to date: ``python -m tests.catalogues``.

It collects every message id the bot asks for: the slash commands' names and descriptions from the payload
the bot syncs (the bot is started in SimCord, as the tests start it), and the strings the code marks with
``t``, ``tp``, ``tn`` or ``N_`` (Babel's extractor). It writes the template ``i18n/locales/deckhand.pot`` and
merges it into each language's ``.po`` (Babel's update: a new id comes in untranslated, a changed one
fuzzy), so that tests/test_catalogues.py names what is left to translate.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

import i18n

ROOT = Path(__file__).resolve().parents[1]
CODE = ("cogs", "host", "render", "engines", "web", "i18n", "data")
#: Modules of code at the top of the repository.
MODULES = ("bot.py", "sandbox.py")
#: The web pages' templates, and their translating functions (web/app.py's ``words``: no language argument).
TEMPLATES = "web/templates"
TEMPLATE_KEYWORDS: dict[str, Any] = {"_": None, "_n": (1, 2)}
#: The translating functions and where their message ids stand (the language comes first).
KEYWORDS: dict[str, Any] = {"t": (2,), "tp": ((2, "c"), 3), "tn": (2, 3), "N_": None, "said": None, "msg": None,
                            "said_n": (1, 2), "msg_n": (1, 2)}
#: What a translator must know of each kind of slash command text (Discord refuses the sync otherwise).
NOTES = {
    "command": "a slash command's name: lowercase, 1-32 letters, digits, - or _, no spaces",
    "option": "an option's name: lowercase, 1-32 letters, digits, - or _, no spaces; unique in its command",
    "choice": "a choice's name: 1-100 characters",
}
SUBCOMMAND = ("a subcommand's name, given with its command's for context: translate the last word only (it may "
              "agree with the command's noun); lowercase, 1-32 letters, digits, - or _, no spaces")
HEADER = {"project": "Deckhand", "version": "0.1.0", "copyright_holder": "Deckhand's contributors"}


async def synced_commands() -> list[dict[str, Any]]:
    """The command payload the bot syncs (PUT …/commands), from a bot started in a fresh SimCord world."""
    import simcord

    from bot import DeckhandBot, create_bot

    with tempfile.TemporaryDirectory() as folder:
        os.environ["DATABASE_PATH"] = str(Path(folder) / "catalogues.sqlite3")
        try:
            async with simcord.run(create_bot()) as env:
                put = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")][-1]
                await env.bot.close()
        finally:
            await DeckhandBot.close_all()
    return list(put.json)


def template(commands: list[dict[str, Any]]) -> Catalog:
    from cogs.translator import command_messages

    pot = Catalog(domain=i18n.DOMAIN, fuzzy=False, **HEADER)
    for context, msgid in command_messages(commands):
        note = NOTES.get(context, "a slash command's description: 1-100 characters")
        if context == "command" and " " in msgid:
            note = SUBCOMMAND
        pot.add(msgid, context=context, auto_comments=[note])
    for location, message, context in marked():
        pot.add(message, context=context, locations=[location])
    return pot


def marked() -> list[tuple[tuple[str, int], str | tuple[str, str], str | None]]:
    """Every message id the code marks (``t``, ``tp``, ``tn``, ``N_``): (file, line), the id, its context."""
    found = []
    for folder in CODE:
        for filename, lineno, message, _, context in extract_from_dir(
                str(ROOT / folder), method_map=[("**.py", "python")], keywords=KEYWORDS):
            found.append(((f"{folder}/{filename}", lineno), message, context))
    for module in MODULES:
        for lineno, message, _, context in extract_from_file("python", str(ROOT / module), keywords=KEYWORDS):
            found.append(((module, lineno), message, context))
    for filename, lineno, message, _, context in extract_from_dir(
            str(ROOT / TEMPLATES), method_map=[("**.html", "jinja2.ext:babel_extract")], keywords=TEMPLATE_KEYWORDS,
            options_map={"**.html": {"trim_blocks": "true", "lstrip_blocks": "true"}}):
        found.append(((f"{TEMPLATES}/{filename}", lineno), message, context))
    return found


def main() -> None:
    pot = template(asyncio.run(synced_commands()))
    # Files without line numbers, the catalogues without locations: an edit elsewhere in a file changes neither.
    (i18n.LOCALES / f"{i18n.DOMAIN}.pot").write_bytes(_po_bytes(pot, include_lineno=False))
    for lang in i18n.languages()[1:]:
        path = i18n.po_path(lang)
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=i18n.DOMAIN)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        path.write_bytes(_po_bytes(catalog, no_location=True))
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages")


def _po_bytes(catalog: Catalog, **options: bool) -> bytes:
    import io

    buffer = io.BytesIO()
    write_po(buffer, catalog, width=120, sort_output=False, omit_header=False, **options)
    return buffer.getvalue()


if __name__ == "__main__":
    main()
