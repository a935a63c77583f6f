"""web/ is a presenter beside cogs/: it imports host (and render, prometheus, aiohttp, jinja2), never cogs, data
or discord; and nothing below it imports web."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_web_never_imports_cogs_data_or_discord() -> None:
    for path in sorted((ROOT / "web").rglob("*.py")):
        assert not imported(path) & {"cogs", "data", "discord", "bot"}, path


def test_nothing_below_web_imports_it() -> None:
    for package in ("host", "render", "engines", "data"):
        for path in sorted((ROOT / package).rglob("*.py")):
            assert "web" not in imported(path), path
