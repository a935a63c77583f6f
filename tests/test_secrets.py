"""Secrets stay secret: a printed or logged Settings shows neither the token nor the database password."""

from __future__ import annotations

import pytest

from bot import Settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.OTk5.c2VjcmV0LXRva2VuLXRoYXQtbXVzdC1uZXZlci1zaG93"
URL = "postgresql://deckhand:hunter2-password@db.example:5432/deckhand"


def test_the_repr_of_settings_shows_neither_the_token_nor_the_database_password(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", URL)
    settings = Settings.from_env()
    assert settings.token == TOKEN and settings.database_url == URL  # still there for the bot to use
    for shown in (repr(settings), str(settings), f"{settings}"):
        assert TOKEN not in shown and "hunter2" not in shown, shown
