"""Names are text (render/markup.py): a hostile name formats nothing and pings nobody, in markdown or
in a label, and reads as written once the escaping is undone."""

from __future__ import annotations

import re
import unicodedata

import discord
import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from render.markup import MAX_MARKS, escape_name, in_code, label_name, plain_text, unbold

ZALGO = ("Z" + "\u0336\u0337\u0338" * 3 + "a" + "\u0300\u0301\u0302\u0303" * 2
         + "l\u0334\u0335\u0336go\u0351\u0352\u0353")
HOSTILE = ["@everyone", "@here", "<@123456789012345678>", "<@!123456789012345678>", "<@&223456789012345678>",
           "[x](https://example.com)", "# big", "||spoiler||", "`", "**bold**", ZALGO, "\u202eevil", "- list",
           "> quote", "1. first", "-# small", "__under__", "~~gone~~", "<#123456789012345678>", "<t:1:R>",
           "https://example.com", "back\\slash"]
MENTION = re.compile(r"@(everyone|here|[!&]?\d)")
MARKDOWN = set("\\*_~`|[]<>#")
BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unescaped_markdown(text: str) -> list[int]:
    """Positions of markdown characters not preceded by a backslash that escapes them."""
    found, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and not text[i + 1].isalnum() and not text[i + 1].isspace():
            i += 2
            continue
        if text[i] in MARKDOWN:
            found.append(i)
        i += 1
    return found


def check(name: str) -> None:
    escaped, label = escape_name(name), label_name(name)
    for out in (escaped, label):
        assert not MENTION.search(out), out
        assert discord.utils.escape_mentions(out) == out  # discord.py finds nothing left to escape
        assert not BIDI & set(out)
        assert "\n" not in out and out.strip() == out and out
        for cluster in regex.findall(r"\X", out):
            assert sum(1 for c in cluster if unicodedata.combining(c)) <= MAX_MARKS
    assert not unescaped_markdown(escaped), escaped
    assert not re.match(r"\s*([-+>]|\d+\.)\s", escaped), escaped
    assert not re.search(r"[A-Za-z]://", escaped), escaped  # no link Discord would make by itself
    assert "\\" not in label.replace(name, "") or "\\" in name  # no backslashes in labels beyond the name's own
    assert plain_text(escaped) == label.replace("@\u200b", "@")


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_shown_as_text(name: str) -> None:
    check(name)


def test_the_escapes_read_as_the_name_as_written() -> None:
    assert escape_name("**bold**") == "\\*\\*bold\\*\\*"
    assert escape_name("[x](https://example.com)") == "\\[x\\](https\\://example.com)"
    assert escape_name("# big") == "\\# big"
    assert escape_name("1. first") == "1\\. first"
    assert escape_name("@everyone") == "@\u200beveryone" == label_name("@everyone")
    assert label_name("<@&223456789012345678>") == "<@\u200b&223456789012345678>"
    assert label_name("||spoiler||") == "||spoiler||"  # a label renders no markdown: no backslashes
    assert label_name("\u202eevil") == escape_name("\u202eevil") == "evil"
    assert len(label_name(ZALGO)) < len(ZALGO) and label_name(ZALGO).startswith("Z")


def test_ordinary_names_are_unchanged() -> None:
    for name in ("alice", "Zoë", "Bot 1 (easy)", "Jean-Luc", "山田", "Алёна", "🦊 fox", "O'Brien", "user.name"):
        assert escape_name(name) == name == label_name(name)


def test_an_empty_or_blank_name_still_shows_something() -> None:
    assert escape_name("") == label_name("\u202e") == "?"


def test_plain_text_undoes_a_line_written_with_escaped_names() -> None:
    line = f"**{escape_name('**bold**')}** kills **{escape_name('<@123456789012345678>')}**'s Ruby"
    assert plain_text(line) == "**bold** kills <@123456789012345678>'s Ruby"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.one_of(st.sampled_from(list("\\*_~`|[]()<>#@&!:/-+. \n0123456789abc")),
                                  st.sampled_from(sorted(BIDI)), st.sampled_from(["\u0300", "\u0336", "\u05d0"]),
                                  st.characters()), max_size=40))
def test_any_name_is_shown_as_text(name: str) -> None:
    if "\u200b" in name:  # a name's own zero-width space after an @ cannot be told from ours
        name = name.replace("\u200b", "")
    check(name)


def test_unbold_drops_bold_markers_and_keeps_escapes() -> None:
    line = f"**{escape_name('x*')}** plays"
    assert unbold(line) == "x\\* plays"
    assert plain_text(unbold(line)) == "x* plays"


@pytest.mark.parametrize("value", HOSTILE)
def test_a_value_echoed_in_a_code_span_stays_inside_it(value: str) -> None:
    shown = in_code(value)
    assert "`" not in shown and not MENTION.search(shown) and not BIDI & set(shown)
