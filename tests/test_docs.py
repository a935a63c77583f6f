"""The docs keep up with the bot: every slash command, `.env` setting and `/config` server setting has exactly one
entry in README.md and docs/*.md; the README fits on a screen or two; every relative link resolves.

An entry is a row of a Markdown table whose header's first cell is `command`, `setting` or `server setting`, and
whose first cell starts with the name in backticks (the convention is written in docs/contributors.md).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot import DeckhandBot, create_bot
from host.settings import NAMES as SERVER_SETTINGS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: Where entries live: the README and one page per reader.
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
#: The rules for players, in English and in each language's folder beside them (docs/rules/fr/, docs/rules/uk/).
RULES = sorted((ROOT / "docs" / "rules").glob("**/*.md"))
#: Whose relative links must resolve: the pages, the rules in every language and the benchmarks' README.
LINKING = [*PAGES, *RULES, ROOT / "bench" / "README.md"]
README_MAX_LINES = 150

#: The first header cell of a table, and the kind of entry its rows are.
KINDS = {"command": "slash command", "setting": ".env setting", "server setting": "server setting"}


@dataclass(frozen=True)
class Entry:
    kind: str
    name: str
    page: str
    line: int

    def where(self) -> str:
        return f"{self.page}:{self.line}"


def _cells(line: str) -> list[str]:
    # A cell may hold an escaped pipe (`on\|off`): split only on bare ones.
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def _is_separator(line: str) -> bool:
    return bool(re.fullmatch(r"\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?", line.strip()))


def _entry_name(kind: str, first_cell: str) -> str | None:
    span = re.search(r"`([^`]+)`", first_cell)
    if span is None:
        return None
    text = span.group(1).strip()
    if kind != "command":
        return text
    if not text.startswith("/"):
        return None
    # The command's words run up to its first option (`name:<…>`, `[name]`, `<…>`).
    words = []
    for word in text[1:].split():
        if not re.fullmatch(r"[\w-]+", word):
            break
        words.append(word)
    return " ".join(words)


def entries_in(path: Path, root: Path = ROOT) -> list[Entry]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Entry] = []
    kind: str | None = None
    fenced = False
    for number, line in enumerate(lines, start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            kind = None
            continue
        if fenced or not line.lstrip().startswith("|"):
            kind = None
            continue
        if kind is None:
            # A table starts: its header is this line when the next one is the separator.
            following = lines[number] if number < len(lines) else ""
            header = _cells(line)[0].lower()
            kind = KINDS.get(header, "") if _is_separator(following) else ""
            continue
        if kind and not _is_separator(line):
            name = _entry_name(next(k for k, v in KINDS.items() if v == kind), _cells(line)[0])
            if name:
                found.append(Entry(kind, name, path.relative_to(root).as_posix(), number))
    return found


def all_entries(kind: str) -> list[Entry]:
    return [entry for page in PAGES for entry in entries_in(page) if entry.kind == kind]


def entry_problems(kind: str, names: Iterable[str]) -> list[str]:
    """Each name without exactly one entry, and each entry that names nothing real, said plainly."""
    names = sorted(set(names))
    by_name: dict[str, list[Entry]] = defaultdict(list)
    for entry in all_entries(kind):
        by_name[entry.name].append(entry)
    problems = []
    for name in names:
        where = by_name.get(name, [])
        if not where:
            problems.append(f"{kind} {name!r} has no entry (a table row under a "
                            f"{next(k for k, v in KINDS.items() if v == kind)!r} header in README.md or docs/*.md)")
        elif len(where) > 1:
            problems.append(f"{kind} {name!r} has {len(where)} entries, keep one: "
                            + ", ".join(e.where() for e in where))
    for name, where in sorted(by_name.items()):
        if name not in names:
            problems.append(f"{kind} {name!r} is documented at {', '.join(e.where() for e in where)} "
                            f"but does not exist (renamed or removed?)")
    return problems


def env_settings() -> list[str]:
    """The settings `.env.example` names, set or commented out (`NAME=` or `# NAME=`)."""
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    return re.findall(r"(?m)^#?\s*([A-Z][A-Z0-9_]*)=", text)


# --- the bot's own slash commands ---------------------------------------------------------------------------------


@pytest.fixture
async def simcord_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DeckhandBot]:
    """The real bot as the sandbox builds it: no token, a temporary SQLite database, nothing else from the host."""
    for name in env_settings():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "docs.sqlite3"))
    monkeypatch.setenv("BOT_DELAY", "0")
    bot = create_bot()
    yield bot
    await bot.close()


def slash_commands(bot: DeckhandBot) -> list[str]:
    """Every command a member can type, subcommands by their full name (`game new`), groups themselves not."""
    return [command.qualified_name for command in bot.tree.walk_commands()
            if isinstance(command, app_commands.Command)]


async def test_every_slash_command_has_exactly_one_entry(simcord_env: Any) -> None:
    commands = slash_commands(simcord_env.bot)
    assert {"game new", "play", "config set", "tournament standings", "rating"} <= set(commands), commands
    problems = entry_problems(KINDS["command"], commands)
    assert not problems, "\n".join(problems)


async def test_the_readme_lists_every_slash_command_linking_to_its_entry(simcord_env: Any) -> None:
    commands = set(slash_commands(simcord_env.bot))
    entry_page = {entry.name: entry.page for entry in all_entries(KINDS["command"])}
    listed: dict[str, str] = {}
    problems = []
    for number, line in enumerate(README.read_text(encoding="utf-8").splitlines(), start=1):
        item = re.match(r"\s*[-*] \[`/([^`]+)`\]\(([^)#\s]+)(#[^)\s]*)?\)", line)
        if item is None:
            continue
        name, page = item.group(1).strip(), item.group(2)
        if name in listed:
            problems.append(f"README.md:{number}: `/{name}` is listed twice")
        listed[name] = page
        if name in entry_page and page != entry_page[name]:
            problems.append(f"README.md:{number}: `/{name}` links to {page}, but its entry is in {entry_page[name]}")
    problems += [f"README.md: `/{name}` is missing from the command list" for name in sorted(commands - set(listed))]
    problems += [f"README.md: `/{name}` is listed but is no command" for name in sorted(set(listed) - commands)]
    assert not problems, "\n".join(problems)


# --- settings ------------------------------------------------------------------------------------------------------


def test_env_example_names_settings() -> None:
    assert {"DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "BOT_LEVEL"} <= set(env_settings())


def test_every_env_example_setting_has_exactly_one_entry() -> None:
    problems = entry_problems(KINDS["setting"], env_settings())
    assert not problems, "\n".join(problems)


def test_every_server_setting_has_exactly_one_entry() -> None:
    assert "turn_time" in SERVER_SETTINGS
    problems = entry_problems(KINDS["server setting"], SERVER_SETTINGS)
    assert not problems, "\n".join(problems)


# --- the parser itself, so a wrong one cannot pass everything -----------------------------------------------------


def test_entries_are_table_rows_under_their_header_only(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "`/game new` in prose is a mention.\n\n"
        "| command | who |\n|---|---|\n"
        "| `/game new game:<game> [options]` | anyone |\n"
        "| `/game notify dm:<on\\|off>` | anyone |\n"
        "| `/play action:<…>` | a seated player |\n\n"
        "| server setting | default |\n|---|---|\n| `turn_time` | `off` |\n\n"
        "| setting | default |\n| --- | --- |\n| `DATABASE_URL` | (empty) |\n\n"
        "| figure | SQLite |\n|---|---|\n| `/game start` | 1 |\n\n"
        "```\n| command | who |\n|---|---|\n| `/game join` | anyone |\n```\n",
        encoding="utf-8")
    got = [(e.kind, e.name, e.where()) for e in entries_in(page, tmp_path)]
    assert got == [("slash command", "game new", "page.md:5"), ("slash command", "game notify", "page.md:6"),
                   ("slash command", "play", "page.md:7"), ("server setting", "turn_time", "page.md:11"),
                   (".env setting", "DATABASE_URL", "page.md:15")]


# --- the README's length and the links --------------------------------------------------------------------------


def test_the_readme_fits_on_a_screen_or_two() -> None:
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; at most {README_MAX_LINES}: move the rest to docs/"


def heading_anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats -1."""
    anchors: set[str] = set()
    seen: dict[str, int] = defaultdict(int)
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading is None:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1))
        slug = re.sub(r"[^\w\- ]", "", text.replace("`", "").replace("*", "").lower()).replace(" ", "-")
        anchors.add(slug if seen[slug] == 0 else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return anchors


def relative_links(path: Path) -> list[tuple[int, str]]:
    """(line, target) of each Markdown link or image outside code, other than web addresses."""
    found = []
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    "):
            continue
        prose = re.sub(r"`[^`]*`", "", line)
        for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", prose):
            if not re.match(r"[a-z][a-z0-9+.-]*:", target):
                found.append((number, target))
    return found


def link_problems(paths: Iterable[Path], root: Path = ROOT) -> list[str]:
    problems = []
    for path in paths:
        for number, target in relative_links(path):
            file_part, _, anchor = target.partition("#")
            resolved = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(root).as_posix()}:{number}"
            if not resolved.exists():
                problems.append(f"{where}: {target} points to a file that does not exist")
            elif anchor and resolved.suffix == ".md" and anchor not in heading_anchors(resolved):
                problems.append(f"{where}: {target} points to no heading of {resolved.name}")
    return problems


def test_every_relative_link_points_to_an_existing_file_and_heading() -> None:
    problems = link_problems(LINKING)
    assert not problems, "\n".join(problems)


def test_the_link_check_finds_a_broken_file_and_a_broken_anchor(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Title\n\n## Your hand: Hand / act\n\nx\n", encoding="utf-8")
    page = tmp_path / "b.md"
    page.write_text("[ok](a.md#your-hand-hand--act) [ok](a.md#title) [ok](https://example.com/x.md) [ok](#title)\n"
                    "[no](missing.md) [no](a.md#nowhere) `[code](missing.md)`\n", encoding="utf-8")
    (tmp_path / "b.md").write_text(page.read_text(encoding="utf-8") + "\n# Title\n", encoding="utf-8")
    assert link_problems([page], tmp_path) == ["b.md:2: missing.md points to a file that does not exist",
                                               "b.md:2: a.md#nowhere points to no heading of a.md"]


# --- the rules in other languages ----------------------------------------------------------------------------------

#: The languages whose rules for players sit in their own folder under docs/rules/.
RULES_LANGUAGES = ("fr", "uk")


def outline(path: Path) -> tuple[list[int], int, int]:
    """A page's shape: its headings' levels in order, its table rows, and its links to a heading."""
    levels, rows, anchored = [], 0, 0
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        heading = re.match(r"(#{1,6})\s", line)
        if heading:
            levels.append(len(heading.group(1)))
        rows += line.lstrip().startswith("|")
        anchored += sum("#" in target for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)))
    return levels, rows, anchored


@pytest.mark.parametrize("language", RULES_LANGUAGES)
def test_each_language_has_every_rules_file_link_checked_and_shaped_like_the_english(language: str) -> None:
    english = sorted((ROOT / "docs" / "rules").glob("*.md"))
    folder = ROOT / "docs" / "rules" / language
    assert sorted(p.name for p in folder.glob("*.md")) == [p.name for p in english]
    problems = []
    for original in english:
        translated = folder / original.name
        if translated not in LINKING:
            problems.append(f"{translated.relative_to(ROOT)} is not link-checked")
        (levels, rows, anchored), (their_levels, their_rows, their_anchored) = outline(original), outline(translated)
        if (levels, rows, anchored) != (their_levels, their_rows, their_anchored):
            problems.append(f"{translated.relative_to(ROOT)}: headings {their_levels}, {their_rows} table rows, "
                            f"{their_anchored} links to a heading; the English has {levels}, {rows}, {anchored}")
    assert not problems, "\n".join(problems)


def test_the_link_check_reads_french_and_ukrainian_headings(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("## Les enchères\n\n### Cartes Objectif (8) : votre bonus secret\n\n"
                                   "### Карти Цілі (8): ваш таємний бонус\n\n## Гра за столом Deckhand\n",
                                   encoding="utf-8")
    page = tmp_path / "b.md"
    page.write_text("[ok](a.md#les-enchères) [ok](a.md#cartes-objectif-8--votre-bonus-secret) "
                    "[ok](a.md#карти-цілі-8-ваш-таємний-бонус) [ok](a.md#гра-за-столом-deckhand)\n"
                    "[no](a.md#les-encheres) [no](a.md#Гра-за-столом-Deckhand)\n", encoding="utf-8")
    assert link_problems([page], tmp_path) == ["b.md:2: a.md#les-encheres points to no heading of a.md",
                                               "b.md:2: a.md#Гра-за-столом-Deckhand points to no heading of a.md"]
