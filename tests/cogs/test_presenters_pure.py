"""Presenters only format read models: from host, data and engines they import nothing but the read-model
types and constants (host/read_models.py), so they cannot call back into a service, the store or an engine.

Checked with ``ast`` over every import of each presenter module, those inside functions included.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from tests.test_layers import imports

ROOT = Path(__file__).resolve().parents[2]
READ_MODELS = "host.read_models"
#: The modules that turn read models into messages.
PRESENTERS = ("cogs/presenter.py", "cogs/tournament_views.py", "cogs/long_games.py", "cogs/standings_pages.py")
#: What else a presenter may use of cogs: the other presenters, the controls and menus it lays out, and the
#: render pool it draws its pictures with (built in cogs/pictures.py with the process's metrics recorder).
COGS_ALLOWED = {p.removesuffix(".py").replace("/", ".") for p in PRESENTERS} | {"cogs.controls", "cogs.menu",
                                                                               "cogs.pictures"}
GUARDED = ("host", "data", "engines")


def is_read_model_name(name: str) -> bool:
    """A read-model type (a class) or constant (UPPER_CASE) of host/read_models.py."""
    value = getattr(importlib.import_module(READ_MODELS), name, None)
    return value is not None and (isinstance(value, type) or name.isupper())


def impurities(source: str) -> list[str]:
    """Every import of a presenter's source that reaches past the read models."""
    bad = []
    for imported in imports(ast.parse(source)):
        module, top = imported.module, imported.module.split(".")[0]
        if imported.level:
            bad.append("a relative import")
        elif imported.name is None:
            if top in GUARDED or (top == "cogs" and module not in COGS_ALLOWED):
                bad.append(f"import {module}")
        elif top == "cogs" and module not in COGS_ALLOWED:
            bad.append(f"from {module} import …")
        elif top in GUARDED and module != READ_MODELS:
            bad.append(f"from {module} import {imported.name}")
        elif top in GUARDED and not is_read_model_name(imported.name):
            bad.append(f"from {module} import {imported.name} (not a type or constant)")
    return bad


@pytest.mark.parametrize("path", PRESENTERS)
def test_a_presenter_imports_only_read_models_from_host_data_and_engines(path: str) -> None:
    source = (ROOT / path).read_text(encoding="utf-8")
    bad = impurities(source)
    assert not bad, f"{path} reaches past the read models: {bad}"


@pytest.mark.parametrize("source", [
    "from host.tables import TableService\n",
    "from engines import get_engine\n",
    "def f():\n    from data.store import TableRecord\n",
    "import host.durations\n",
    "from host.read_models import table_message\n",  # a function, not a type
    "from cogs.flow import TableFlow\n",  # an adapter that calls host
])
def test_the_check_finds_a_presenter_reaching_past_the_read_models(source: str) -> None:
    assert impurities(source)


def test_the_check_lets_read_model_types_and_constants_through() -> None:
    assert not impurities("from host.read_models import FINISHED, TableMessage\nimport render\n")
