"""The web settings from the environment: WEB_PORT, WEB_HOST, PUBLIC_URL (and the database the bot uses)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class WebSettings:
    #: None: no web server (in the bot); ``python -m web`` then uses 8080.
    port: int | None
    host: str
    #: The address links from Discord use, e.g. https://deckhand.example.org (no trailing slash).
    public_url: str
    #: DATABASE_URL or DATABASE_PATH: kept out of the repr, since a URL may hold a password.
    database: str = field(repr=False)

    @classmethod
    def from_env(cls) -> WebSettings:
        port = os.environ.get("WEB_PORT", "").strip()
        host = os.environ.get("WEB_HOST", "").strip() or "0.0.0.0"
        public = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
        database = (os.environ.get("DATABASE_URL", "").strip()
                    or os.environ.get("DATABASE_PATH", "").strip() or os.path.join("var", "deckhand.sqlite3"))
        local = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}" if port.isdigit() else ""
        return cls(int(port) if port.isdigit() else None, host, public or local, database)
