"""Names are text: a member-chosen string (a display name, a tournament name, an option value echoed
back, a note) made safe for each place Discord shows text.

- ``escape_name`` for text Discord renders as markdown (message content, embed titles, descriptions
  and fields): every markdown character gets a backslash (Discord shows ``\\*`` as ``*``), so
  ``**bold**``, ``||spoiler||``, ``[x](https://…)`` and ``# big`` read as written.
- ``label_name`` for text Discord shows as is (button labels, select options, autocomplete
  choices, thread names): no backslashes, which would show there.
- Both neutralise mentions, ``@everyone``, ``@here``, ``<@id>``, ``<@!id>`` and ``<@&role>``, with a
  zero-width space after the ``@``: nothing in the text can ping, whatever a payload's
  ``allowed_mentions`` says, and the name still reads the same. Both drop explicit bidirectional
  controls (a right-to-left override would turn the rest of the line around), keep at most
  ``MAX_MARKS`` combining marks on a letter (zalgo would climb over the lines above), and make any
  run of white space or control characters one space.
- ``in_code`` for a value echoed back inside an inline code span (a refused option or setting).
- ``shorten`` cuts a name to a length (Discord's UTF-16 count for a label, or ``graphemes`` where a name
  is counted as readers see it) between grapheme clusters, with "…": one cut for host's labels and the
  presenters' standings.
- ``plain_text`` turns a line written with ``escape_name`` back into plain text, for the table image,
  its alt text, the web pages and the move-list file, which show names as written.

It lives in ``render`` because both ``host`` (which writes lines such as "**alice** plays 7") and the
presenters in ``cogs`` need it, and ``render`` is below both; it imports nothing of Discord.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

import regex

#: Combining marks kept on one letter: enough for any script's accents (Vietnamese stacks two).
MAX_MARKS = 2
ZWSP = "\u200b"
#: Explicit bidirectional formatting: embeddings, overrides, isolates and their ends.
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
_SPACE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029]+")
_GRAPHEME = regex.compile(r"\X")
#: What Discord reads as a mention (a user, a nickname mention, a role, everyone, here).
_MENTION = re.compile(r"@(?=everyone|here|[!&]?\d)")
#: Characters that start or end markdown anywhere in a line; a backslash first, so it is escaped too.
_INLINE = str.maketrans({c: "\\" + c for c in "\\*_~`|[]<>#"})
#: Markdown that only counts at the start of a line: a list item, a quote, a numbered list, subtext.
_LINE_START = re.compile(r"^(?:([-+])|(\d+)\.)(?=\s)")
#: A link Discord would make clickable by itself.
_URL = re.compile(r"(?<=[A-Za-z]):(?=//)")
_ESCAPED = re.compile(r"\\([^0-9A-Za-z\s])|\*\*|@\u200b")
_BOLD = re.compile(r"(\\.)|\*\*")
ELLIPSIS = "…"


#: Names and lines recur (a table's four players on every move): each is tidied once, not at every use.
@functools.lru_cache(maxsize=4096)
def _tidy(name: str) -> str:
    name = unicodedata.normalize("NFC", name).translate(_BIDI)
    name = _SPACE.sub(" ", name).strip()
    clusters = []
    for cluster in _GRAPHEME.findall(name):
        marks = 0
        kept = []
        for char in cluster:
            if unicodedata.combining(char):
                marks += 1
                if marks > MAX_MARKS:
                    continue
            kept.append(char)
        clusters.append("".join(kept))
    return _MENTION.sub("@" + ZWSP, "".join(clusters))


def label_length(text: str) -> int:
    """Length as Discord may count it: UTF-16 code units (an emoji counts 2). Never less than the
    code-point count discord.py checks, so a label that fits here fits both."""
    return len(text.encode("utf-16-le")) // 2


def graphemes(text: str) -> int:
    """Length as a reader counts it: grapheme clusters (a family emoji or a flag is one)."""
    return len(_GRAPHEME.findall(text))


def shorten(name: str, limit: int, length: Callable[[str], int] = label_length) -> str:
    """``name`` cut at a grapheme boundary so that it plus "…" is at most ``limit`` long (by ``length``); a
    cut never splits an emoji, a flag or a letter from its combining mark."""
    name = unicodedata.normalize("NFC", name)
    if length(name) <= limit:
        return name
    out = ""
    for cluster in _GRAPHEME.findall(name):
        if length(out + cluster + ELLIPSIS) > limit:
            break
        out += cluster
    out = out.rstrip()
    return out + ELLIPSIS if length(out + ELLIPSIS) <= limit else ""


def label_name(name: str) -> str:
    """``name`` for a place without markdown (a button label, a select option, an autocomplete
    choice, a thread name): mentions neutralised, bidi controls dropped, zalgo trimmed."""
    return _tidy(name) or "?"


@functools.lru_cache(maxsize=4096)
def escape_name(name: str) -> str:
    """``name`` for a place that renders markdown (content, embeds): as ``label_name``, and every
    markdown character escaped, so it shows exactly as written and formats nothing."""
    text = _tidy(name).translate(_INLINE)
    text = _URL.sub(r"\\:", text)
    text = _LINE_START.sub(lambda m: f"\\{m.group(1)}" if m.group(1) else f"{m.group(2)}\\.", text)
    return text or "?"


def in_code(value: str) -> str:
    """``value`` to echo between single back-ticks (an inline code span, where Discord renders no
    markdown and no mention): its own back-ticks, which would close the span early, become a look-alike
    (ˋ), and mentions are neutralised as in ``label_name``."""
    return label_name(value).replace("`", "\u02cb")


def unbold(markdown: str) -> str:
    """``markdown`` without its bold markers, escapes kept (``"**a\\*** plays"`` → ``"a\\* plays"``)."""
    return _BOLD.sub(lambda m: m.group(1) or "", markdown)


def plain_text(markdown: str) -> str:
    """A line written with ``escape_name`` (and bold ``**`` around names) as plain text: backslash
    escapes undone, bold markers and the zero-width spaces of neutralised mentions dropped."""
    return _ESCAPED.sub(lambda m: m.group(1) or ("@" if m.group(0).startswith("@") else ""), markdown)
