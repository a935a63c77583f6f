"""For end-to-end tests in French and Ukrainian: which English message ids are left in what the bot sent.

A payload of a French server must not hold an English message whose French translation differs from it
(member names and game titles are not message ids, and a message whose translation is the same word, such
as "Pentawar", is never counted). Placeholders match any text, so "{player} takes the pile" is found in
"alice takes the pile". Only messages of some length are looked for: a short id ("on", "game") is too common
a word to tell a leak from a name.

A slash command named by its English name (``/game new``) where the language's differs (``/partie nouvelle``) is a
leak too: the member's command list offers only the language's names.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterable

import i18n
from i18n.check import read

#: Shorter message ids are not looked for (see above).
SHORTEST = 12
#: A slash command written out: ``/game``, ``/game new``, ``/config show`` (not a path in a link, ``…/leaderboard/x``).
COMMAND = re.compile(r"(?<![\w/])/([a-z_]+)(?: ([a-z_]+))?(?![\w/])")


@functools.cache
def _patterns(lang: str) -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    found = []
    for message in read(i18n.po_path(lang), lang):
        ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        for msgid in ids:
            if not msgid or message.context or msgid in strings:
                continue
            parts = list(string.Formatter().parse(msgid))
            literal = "".join(re.escape(text) + (".+?" if field is not None else "") for text, field, _, _ in parts)
            # The pattern can only match a text that holds its longest literal piece: a substring test first
            # keeps thousands of texts times thousands of ids fast.
            piece = max((text for text, _, _, _ in parts), key=len)
            if len(re.sub(r"\{[^}]*\}", "", msgid)) >= SHORTEST:
                found.append((msgid, piece, re.compile(literal)))
    return tuple(found)


def english_commands(text: str, lang: str) -> list[str]:
    """Each slash command ``text`` names by its English name where ``lang`` names it otherwise (``/game new`` in
    French), whatever its options."""
    found = []
    for match in COMMAND.finditer(text):
        words = [word for word in match.groups() if word]
        if i18n.lookup(lang, words[0], "command") is None:
            continue  # not a command (or a word no catalogue knows as one)
        if len(words) > 1 and i18n.lookup(lang, " ".join(words[:2]), "command") is None:
            words = words[:1]  # "/game and …": the command is /game alone
        english = "/" + " ".join(words)
        if i18n.command(" ".join(words), lang) != english:
            found.append(english)
    return found


def english_left(texts: Iterable[str], lang: str) -> list[str]:
    """Each English message id of ``lang``'s catalogue found in ``texts``, with the text it was found in, and each
    slash command named in English where ``lang``'s name differs."""
    leaks = []
    for text in texts:
        leaks += [f"command {name!r} in {text[:120]!r}" for name in english_commands(text, lang)]
        for msgid, piece, pattern in _patterns(lang):
            if piece in text and pattern.search(text):
                leaks.append(f"{msgid!r} in {text[:120]!r}")
    return leaks
