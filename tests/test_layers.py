"""The import graph of the whole repository keeps the layers: every import points down, only the
Discord adapters import discord, and no two modules need each other.

Every module of the application's packages is parsed with ``ast``; every import counts, those inside
functions and under ``TYPE_CHECKING`` included. The rules are checked on the graph, not on a list of
today's names, and the checker itself is tested on small made-up trees.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Higher imports lower, never the reverse. ``web`` sits beside ``cogs``: a presenter of host's read models;
#: ``sandbox`` (the offline sandbox that bot.py runs the bot in) beside them too. ``i18n`` (the catalogues and
#: language resolution) is below them all and imports none of them, so every layer may mark or translate words.
LAYERS = {"bot": 6, "cogs": 5, "web": 5, "sandbox": 5, "host": 4, "render": 3, "engines": 2, "data": 1, "i18n": 0}
#: Only these import discord.
DISCORD_ADAPTERS = {"bot", "cogs", "sandbox"}
#: Top-level folders that are not part of the application: they may import anything of it.
OUTSIDE = {"tests", "bench", "docs", ".venv", "var", "build", "dist"}
#: The one edge allowed against the rules, and why: cogs/flow.py is being split by the time branch,
#: which moves its store calls behind host.
EXEMPT: set[tuple[str, str]] = set()


def modules(root: Path) -> dict[str, Path]:
    """Every module of the application: bot.py and the packages of LAYERS, by dotted name."""
    found: dict[str, Path] = {}
    for path in sorted(root.glob("*.py")):
        if path.stem in LAYERS:
            found[path.stem] = path
    for package in LAYERS:
        for path in sorted((root / package).rglob("*.py")) if (root / package).is_dir() else []:
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


@dataclass(frozen=True)
class Imported:
    """One name an import statement takes: ``import a.b`` (module ``a.b``, name None, bound ``a``) or
    ``from a.b import c as d`` (module ``a.b``, name ``c``, bound ``d``); ``level``: a relative import's dots."""

    module: str
    name: str | None
    bound: str
    level: int = 0


def imports(tree: ast.AST, *, nested: bool = True) -> Iterator[Imported]:
    """Every name a source's import statements take: anywhere in it (functions and TYPE_CHECKING blocks too),
    or with ``nested=False`` in the module's top-level statements alone."""
    for node in ast.walk(tree) if nested else getattr(tree, "body", []):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Imported(alias.name, None, alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                yield Imported(node.module or "", alias.name, alias.asname or alias.name, node.level)


def imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterator[str]:
    """Every dotted name the module imports, anywhere in it (functions and TYPE_CHECKING blocks too)."""
    for imported in imports(tree):
        if imported.name is None:
            yield imported.module
            continue
        source = imported.module
        if imported.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - (imported.level - 1)]
            source = ".".join([*base, *([imported.module] if imported.module else [])])
        yield f"{source}.{imported.name}"


def graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of the application it imports (a name resolves to its longest known module)."""
    known = modules(root)
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        targets: set[str] = set()
        for imported in imported_names(ast.parse(path.read_text(encoding="utf-8")), name,
                                       path.name == "__init__.py"):
            target = imported
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        edges[name] = targets
    return edges


def imports_discord(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(not i.level and i.module.split(".")[0] == "discord" for i in imports(tree))


def package(module: str) -> str:
    return module.split(".")[0]


def layer_breaks(edges: dict[str, set[str]]) -> list[str]:
    """Imports that point up or sideways between packages, and cogs importing data."""
    bad = []
    for source, targets in sorted(edges.items()):
        for target in sorted(targets):
            if (source, target) in EXEMPT:
                continue
            a, b = package(source), package(target)
            if a == b:
                continue
            if LAYERS[b] >= LAYERS[a]:
                bad.append(f"{source} imports {target}: {a} may only import layers below it")
            elif a == "cogs" and b == "data":
                bad.append(f"{source} imports {target}: cogs reach data only through host")
    return bad


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


# ------------------------------------------------------------------ the repository


def test_every_folder_of_code_has_a_layer() -> None:
    """A new package or top-level module must be given its layer here before the rules can hold for it."""
    unknown = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name not in LAYERS
                     and p.name not in OUTSIDE and not p.name.startswith(".") and not p.name.endswith(".egg-info")
                     and any(p.rglob("*.py")))
    unknown += sorted(p.name for p in ROOT.glob("*.py") if p.stem not in LAYERS)
    assert not unknown, f"folders and modules of code with no layer: {unknown}"


def test_imports_only_point_down_and_cogs_never_reach_data() -> None:
    bad = layer_breaks(graph(ROOT))
    assert not bad, "\n".join(bad)


def test_no_two_modules_import_each_other_even_under_type_checking() -> None:
    found = cycles(graph(ROOT))
    assert not found, "import circles: " + "; ".join(" <-> ".join(group) for group in found)


def test_only_the_discord_adapters_import_discord() -> None:
    bad = sorted(name for name, path in modules(ROOT).items()
                 if package(name) not in DISCORD_ADAPTERS and imports_discord(path))
    assert not bad, f"discord imported outside cogs/ and bot.py: {bad}"


def store_reaches(path: Path) -> list[int]:
    """Lines where a module calls into a store it was handed through a host service (``x.store.web...``):
    an import-free way for a cog to reach data, which the import graph cannot see."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted(node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                  and node.value.attr == "store")


def test_cogs_never_call_into_a_store_through_a_service() -> None:
    bad = [f"{name}:{line}" for name, path in sorted(modules(ROOT).items()) if package(name) == "cogs"
           for line in store_reaches(path)]
    assert not bad, f"cogs reaching data through a service's store (go through a host service): {bad}"


def test_the_checker_finds_a_cog_writing_through_a_services_store(tmp_path: Path) -> None:
    root = write(tmp_path, {"cogs/__init__.py": "",
                            "cogs/a.py": "async def f(self):\n    await self.events.store.web.hide(1)\n"})
    assert store_reaches(modules(root)["cogs.a"]) == [2]

def test_the_exemptions_are_still_needed() -> None:
    """An exempted edge that is gone must leave the list, so it cannot hide a new one."""
    edges = graph(ROOT)
    stale = sorted(f"{a} -> {b}" for a, b in EXEMPT if b not in edges.get(a, set()))
    assert not stale, f"exempted imports that no longer exist: {stale}"


# --------------------------------------------------------------- the checker itself


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("files, expected", [
    ({"data/__init__.py": "", "data/a.py": "def f():\n    import host.b\n", "host/__init__.py": "", "host/b.py": ""},
     "data.a imports host.b"),
    ({"cogs/__init__.py": "", "cogs/a.py": "from data.store import X\n", "data/__init__.py": "",
      "data/store.py": "X = 1\n"}, "cogs reach data only through host"),
    ({"cogs/__init__.py": "", "cogs/a.py": "import web.page\n", "web/__init__.py": "", "web/page.py": ""},
     "cogs.a imports web.page"),
])
def test_the_checker_finds_an_import_that_points_up_or_sideways(tmp_path: Path, files: dict[str, str],
                                                                  expected: str) -> None:
    bad = layer_breaks(graph(write(tmp_path, files)))
    assert any(expected in line for line in bad), bad


def test_the_checker_finds_a_circle_closed_under_type_checking(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "host/__init__.py": "",
        "host/a.py": "from host.b import B\n",
        "host/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from host.a import A\n",
        "host/c.py": "from . import a\n",
    })
    assert cycles(graph(root)) == [["host.a", "host.b"]]


def test_the_checker_finds_discord_in_host(tmp_path: Path) -> None:
    root = write(tmp_path, {"host/__init__.py": "", "host/a.py": "def f():\n    from discord import Embed\n"})
    assert imports_discord(modules(root)["host.a"])
