"""A cheap complement to ``tests.languages.english_left``, which finds only English that the catalogues know:
English that never reached them is found here, in the source, before any test plays a game.

Every string literal of the presenting layers (cogs/, web/, bot.py) and of host/ (whose refusals and their
words reach members) that reads as English prose (two words or more) is one of: a message id given to a
catalogue function (``t``, ``tn``, ``N_``…); a command's or option's description or a choice's name given to
discord.py's decorators, which the slash-command translator translates (these must be catalogued); a docstring,
a log line, a metric's help or a developer's exception; or a literal listed below with why it stays. The web
templates' text is read too: outside ``{{ _("…") }}`` only the names listed below stand.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import i18n
from i18n.check import read

ROOT = Path(__file__).resolve().parents[2]
SCOPE = ("cogs", "web", "bot.py", "host")
#: Two words of letters: prose, not an id ("dh:a"), a code ("max_turns=300") or a single name.
PROSE = re.compile(r"[A-Za-z]{2,}[,.:;!?')]* \(?[A-Za-z]{2,}")
CATALOGUE_CALLS = {"t", "tp", "tn", "N_", "said", "msg", "said_n", "msg_n", "_", "_n"}
#: discord.py's calls whose texts the slash-command translator (cogs/translator.py) gives each language.
TRANSLATOR_CALLS = {"command", "Command", "describe", "Group", "Choice", "choices", "rename", "context_menu"}
#: Calls whose texts are for operators and developers, never for members.
OPERATOR_OWNERS = {"log", "logger", "logging", "warnings", "argparse", "parser"}
#: Constructors whose texts are for operators: the metrics' help, the worker pools' process names.
OPERATOR_CALLS = {"Counter", "Gauge", "Histogram", "Summary", "WorkerProcesses"}

#: Literals that stay as they are, each with why.
ALLOWED: dict[tuple[str, str], str] = {
    ("cogs/presenter.py", "turn_time: off · "): "a setting's name and value, as /game new takes them",
    ("cogs/presenter.py", r"\ba card\b"): "a regular expression over English text",
    ("cogs/profile.py", "game new"): "a slash command's name, looked up in the synced commands",
    ("cogs/profile.py", "game join"): "a slash command's name, looked up in the synced commands",
    ("cogs/profile.py", "game status"): "a slash command's name, looked up in the synced commands",
    ("cogs/profile.py", "tournament new"): "a slash command's name, looked up in the synced commands",
    ("cogs/profile.py", "tournament join"): "a slash command's name, looked up in the synced commands",
    ("cogs/profile.py", "config set"): "a slash command's name, looked up in the synced commands",
    ("bot.py", "game resume"): "a slash command's name, compared with the interaction's",
    ("bot.py", "the bot is closed"): "/healthz's reason, for an operator's probe",
    ("bot.py", "the gateway is not ready"): "/healthz's reason, for an operator's probe",
    ("bot.py", "the gateway connection is closed (reconnecting)"): "/healthz's reason, for an operator's probe",
    ("bot.py", "the gateway connection of shard {shards} is closed"): "/healthz's reason, for an operator's probe",
    ("web/__main__.py", "Deckhand web pages at http://:/ (database )"): "printed to the operator's console",
    ("host/web.py", "the database is at schema , this web needs : run the bot once to migrate"):
        "python -m web's refusal to start, printed to the operator's console",
    ("host/web.py", "the database is at schema , newer than this web knows (): deploy the web of the bot's version"):
        "python -m web's refusal to start, printed to the operator's console",
    ("web/app.py", "public, max-age=31536000, immutable"): "an HTTP header",
    ("web/app.py", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                   "script-src 'self' 'unsafe-inline'"): "an HTTP header",
    ("web/app.py", 'attachment; filename=""'): "an HTTP header",
    ("web/app.py", 'attachment; filename="leaderboard-.csv"'): "an HTTP header",
    ("web/live.py", "event: change\ndata: \n\n"): "the server-sent events' wire format",
    ("host/limits.py", "/game new"): "a command's name, the key of its cooldown",
    ("host/limits.py", "/tournament new"): "a command's name, the key of its cooldown",
    **{("host/tables.py", f"Robo {name}"): "a bot player's name: names are not translated"
       for name in ("Ada", "Bix", "Cog", "Dot", "Eel", "Fox")},
    ("host/web.py", "# penalties and notes (organisers only)"): "a heading of the export file, whose columns are "
                                                               "documented English ids",
}
#: Words a template shows outside the catalogues: the bot's name and the abbreviations of the standings.
TEMPLATE_WORDS = {"Deckhand", "JSON", "CSV", "OPP", "OOPP"}


def sources() -> Iterator[Path]:
    for name in SCOPE:
        path = ROOT / name
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _owner(call: ast.Call) -> str | None:
    func = call.func
    return func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None


def _pieces(node: ast.AST) -> list[str] | None:
    """A literal's text: a string's, or an f-string's literal pieces (its placeholders are not English)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return None


def literals(tree: ast.AST) -> Iterator[tuple[int, str, str, list[str]]]:
    """Each prose literal (line, text, kind, literal pieces) with where it stands: ``catalogue``,
    ``translator``, ``operator`` or ``shown``."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in ast.walk(tree):
        pieces = _pieces(node)
        text = "".join(pieces or ())
        if pieces is None or not PROSE.search(text) or isinstance(parents.get(node), ast.JoinedStr):
            continue
        kind = "shown"
        if isinstance(parents.get(node), ast.Expr):
            kind = "operator"  # a docstring
        above = parents.get(node)
        while above is not None and kind == "shown":
            if isinstance(above, ast.Call):
                if _name(above) in CATALOGUE_CALLS:
                    kind = "catalogue"
                elif _name(above) in TRANSLATOR_CALLS:
                    kind = "translator"
                elif _owner(above) in OPERATOR_OWNERS or _name(above) in OPERATOR_CALLS:
                    kind = "operator"
            elif isinstance(above, ast.Raise):
                made = above.exc
                if not (isinstance(made, ast.Call) and "Refusal" in (_name(made) or "")):
                    kind = "operator"  # a developer's exception; a refusal is a member's answer
            above = parents.get(above)
        yield node.lineno, text, kind, pieces


def catalogued() -> set[str]:
    found: set[str] = set()
    for message in read(i18n.LOCALES / f"{i18n.DOMAIN}.pot"):
        found.update(message.id if isinstance(message.id, (list, tuple)) else (message.id,))
    return found


def test_no_english_literal_escapes_the_catalogues() -> None:
    ids = catalogued()
    escaped = []
    for path in sources():
        where = path.relative_to(ROOT).as_posix()
        for line, text, kind, pieces in literals(ast.parse(path.read_text(), where)):
            if kind == "shown" and (where, text) not in ALLOWED:
                escaped.append(f"{where}:{line}: {text[:100]!r}")
            # A description the translator is to translate must be in the catalogues; an f-string's is
            # catalogued as the command payload shows it filled (tests/catalogues.py reads the synced commands).
            if kind == "translator" and text not in ids and \
                    not all(any(piece in msgid for msgid in ids) for piece in pieces):
                escaped.append(f"{where}:{line}: {text[:100]!r} is not catalogued")
    assert escaped == [], "\n".join(escaped)


def test_the_allow_list_holds_only_literals_that_exist() -> None:
    """A literal removed from the code leaves the allow-list too, so the list never hides a later one."""
    present = {(path.relative_to(ROOT).as_posix(), text) for path in sources()
               for _, text, kind, _ in literals(ast.parse(path.read_text())) if kind == "shown"}
    assert set(ALLOWED) - present == set()


def test_the_templates_show_no_english_outside_the_catalogues() -> None:
    left = []
    for path in sorted((ROOT / "web" / "templates").glob("*.html")):
        page = re.sub(r"<style>.*?</style>|<script.*?</script>", "", path.read_text(), flags=re.S)
        page = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", page, flags=re.S)
        attributes = re.findall(r'\b(?:alt|title|aria-label|placeholder)="([^"]*)"', page)
        text = " ".join([re.sub(r"<[^>]*>", " ", page), *attributes])
        left += [f"{path.name}: {word}" for word in re.findall(r"[A-Za-z][A-Za-z'-]+", text)
                 if word not in TEMPLATE_WORDS]
    assert left == []


def test_the_check_finds_english_it_should() -> None:
    """The check itself: a refusal, an answer and an f-string in English are found; a message id is not."""
    code = '''
async def answer(interaction, lang, name):
    await interaction.response.send_message("You are not at this table.")
    await tell(interaction, f"Sorry {name}, that seat is taken.")
    await tell(interaction, t(lang, "You are already at this table."))
    raise Refusal("That table does not exist.")
'''
    kinds = {(text, kind) for _, text, kind, _ in literals(ast.parse(code))}
    assert kinds == {("You are not at this table.", "shown"), ("Sorry , that seat is taken.", "shown"),
                     ("You are already at this table.", "catalogue"), ("That table does not exist.", "shown")}
