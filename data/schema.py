"""Schema migrations, applied in order; the index + 1 is the schema version."""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: tables, seats, the append-only action log and finished results.
    """
    CREATE TABLE game_tables (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id     INTEGER,
        channel_id   INTEGER NOT NULL,
        game         TEXT    NOT NULL,
        options      TEXT    NOT NULL,
        status       TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned')),
        seed         INTEGER NOT NULL,
        version      INTEGER NOT NULL DEFAULT 0,
        snapshot     TEXT,
        host_id      INTEGER NOT NULL,
        posted_version INTEGER NOT NULL DEFAULT 0,
        created_at   REAL    NOT NULL,
        updated_at   REAL    NOT NULL
    );
    CREATE UNIQUE INDEX one_active_table_per_channel
        ON game_tables (channel_id) WHERE status IN ('lobby', 'playing');
    CREATE TABLE seats (
        table_id   INTEGER NOT NULL REFERENCES game_tables (id),
        position   INTEGER NOT NULL,
        user_id    INTEGER,
        name       TEXT    NOT NULL,
        is_bot     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, position)
    );
    CREATE UNIQUE INDEX one_seat_per_user ON seats (table_id, user_id) WHERE user_id IS NOT NULL;
    CREATE TABLE actions (
        table_id   INTEGER NOT NULL REFERENCES game_tables (id),
        version    INTEGER NOT NULL,
        seat       INTEGER NOT NULL,
        action     TEXT    NOT NULL,
        label      TEXT    NOT NULL,
        events     TEXT    NOT NULL,
        at         REAL    NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    CREATE TABLE results (
        table_id   INTEGER NOT NULL REFERENCES game_tables (id),
        seat       INTEGER NOT NULL,
        user_id    INTEGER,
        place      INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    """,
    # 2: every change of a table's state bumps its revision, so lobby edits, start and
    # abandon carry the optimistic check that moves carry with ``version``.
    """
    ALTER TABLE game_tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)
