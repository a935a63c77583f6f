"""The end-to-end fixtures (SimCord) for the web tests that drive the bot, and links to a fixed address."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import db_path, fixed_table_seeds, simcord_bot, world  # noqa: F401

PUBLIC_URL = "https://deck.example"


@pytest.fixture(autouse=True)
def public_url(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("PUBLIC_URL", PUBLIC_URL)
    monkeypatch.delenv("WEB_PORT", raising=False)
    return PUBLIC_URL
