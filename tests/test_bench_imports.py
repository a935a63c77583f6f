"""Every benchmark module imports: a name moved between layers (``standings_pages`` into ``cogs``) broke
``bench.tournament`` for sessions, and nothing but a run of it would have said so."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
MODULES = sorted(p.stem for p in BENCH.glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("name", MODULES)
def test_each_benchmark_module_imports(name: str) -> None:
    module = importlib.import_module(f"bench.{name}")
    if not name.startswith("_"):
        assert callable(getattr(module, "main", None)), f"bench.{name} has no main()"
