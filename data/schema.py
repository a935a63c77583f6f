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
    # 3: long games. Turn clocks and their timers, paused tables, thread tables, the newest
    # table message (for links), bot levels and stand-ins per seat, seat events (timeouts,
    # forfeits, replacements), per-server settings with their log, per-member notices.
    """
    ALTER TABLE game_tables ADD COLUMN turn_time INTEGER;
    ALTER TABLE game_tables ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'bot';
    ALTER TABLE game_tables ADD COLUMN parent_id INTEGER;
    ALTER TABLE game_tables ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_tables ADD COLUMN message_id INTEGER;
    ALTER TABLE seats ADD COLUMN level TEXT;
    ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE timers (
        table_id   INTEGER NOT NULL REFERENCES game_tables (id),
        kind       TEXT    NOT NULL,
        seat       INTEGER NOT NULL DEFAULT -1,
        due        REAL,
        remaining  REAL,
        started    REAL    NOT NULL,
        PRIMARY KEY (table_id, kind, seat)
    );
    CREATE INDEX timers_by_due ON timers (due);
    CREATE TABLE seat_events (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id   INTEGER NOT NULL REFERENCES game_tables (id),
        version    INTEGER NOT NULL,
        seat       INTEGER NOT NULL,
        kind       TEXT    NOT NULL,
        user_id    INTEGER,
        by_user    INTEGER,
        at         REAL    NOT NULL
    );
    CREATE INDEX seat_events_by_table ON seat_events (table_id);
    CREATE TABLE guild_settings (
        guild_id   INTEGER NOT NULL,
        name       TEXT    NOT NULL,
        value      TEXT    NOT NULL,
        PRIMARY KEY (guild_id, name)
    );
    CREATE TABLE settings_log (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id   INTEGER NOT NULL,
        name       TEXT    NOT NULL,
        value      TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        at         REAL    NOT NULL
    );
    CREATE TABLE member_settings (
        user_id    INTEGER NOT NULL,
        dm_notify  INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id)
    );
    CREATE INDEX tables_by_guild ON game_tables (guild_id, status);
    """,
    # 4: tournaments (entrants, rounds, their tables and byes) and openskill ratings per server and
    # game, with the order tables were rated in, so ratings can be recomputed from ``results``.
    """
    CREATE TABLE tournaments (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id     INTEGER,
        channel_id   INTEGER NOT NULL,
        name         TEXT    NOT NULL,
        game         TEXT    NOT NULL,
        format       TEXT    NOT NULL,
        table_size   INTEGER NOT NULL,
        top_cut      INTEGER NOT NULL DEFAULT 0,
        rounds       INTEGER,
        planned_rounds INTEGER,
        turn_time    INTEGER,
        round_time   INTEGER,
        options      TEXT    NOT NULL,
        organiser_id INTEGER NOT NULL,
        status       TEXT    NOT NULL CHECK (status IN ('registration', 'playing', 'finished', 'cancelled')),
        checkin      INTEGER NOT NULL DEFAULT 0,
        message_id   INTEGER,
        champion     TEXT,
        cut_seeds    TEXT,
        revision     INTEGER NOT NULL DEFAULT 0,
        created_at   REAL    NOT NULL,
        updated_at   REAL    NOT NULL
    );
    CREATE UNIQUE INDEX one_tournament_per_channel
        ON tournaments (channel_id) WHERE status IN ('registration', 'playing');
    CREATE TABLE entrants (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        user_id       INTEGER,
        name          TEXT    NOT NULL,
        is_bot        INTEGER NOT NULL DEFAULT 0,
        level         TEXT,
        lot           INTEGER,
        rating        REAL,
        checked_in    INTEGER NOT NULL DEFAULT 0,
        left_reason   TEXT,
        joined_at     REAL    NOT NULL
    );
    CREATE UNIQUE INDEX one_entry_per_member ON entrants (tournament_id, user_id) WHERE user_id IS NOT NULL;
    CREATE TABLE rounds (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        number        INTEGER NOT NULL,
        stage         TEXT    NOT NULL,
        status        TEXT    NOT NULL CHECK (status IN ('playing', 'finished')),
        due           REAL,
        announced     INTEGER NOT NULL DEFAULT 0,
        started_at    REAL    NOT NULL,
        finished_at   REAL,
        PRIMARY KEY (tournament_id, number)
    );
    CREATE TABLE tournament_tables (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        round         INTEGER NOT NULL,
        position      INTEGER NOT NULL,
        seats         TEXT    NOT NULL,
        sides         TEXT    NOT NULL,
        table_id      INTEGER REFERENCES game_tables (id),
        status        TEXT    NOT NULL CHECK (status IN ('pending', 'playing', 'finished')),
        places        TEXT,
        drawn         INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, round, position)
    );
    CREATE UNIQUE INDEX tournament_table_of_game ON tournament_tables (table_id) WHERE table_id IS NOT NULL;
    CREATE TABLE byes (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        round         INTEGER NOT NULL,
        entrant_id    INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, round, entrant_id)
    );
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL DEFAULT 0,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE TABLE rated_tables (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        table_id   INTEGER NOT NULL REFERENCES game_tables (id)
    );
    CREATE UNIQUE INDEX rated_once ON rated_tables (table_id);
    """,
    # 5: web pages. Whether @everyone can view a channel (the bot records it; the web process has no
    # Discord connection), and which members hid their player page.
    """
    CREATE TABLE web_channels (
        channel_id INTEGER NOT NULL PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        public     INTEGER NOT NULL,
        updated_at REAL    NOT NULL
    );
    CREATE TABLE web_profiles (
        user_id    INTEGER NOT NULL PRIMARY KEY,
        hidden     INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX results_by_user ON results (user_id);
    """,
    # 6: reads that named a channel or a tournament scanned every row: the newest table or tournament of a
    # channel (``latest_table``, ``latest_tournament``: the partial unique indexes hold active ones only),
    # a tournament's entrants, and the tables a server's game rated in order.
    """
    CREATE INDEX tables_by_channel ON game_tables (channel_id, id);
    CREATE INDEX tournaments_by_channel ON tournaments (channel_id, id);
    CREATE INDEX entrants_by_tournament ON entrants (tournament_id, id);
    CREATE INDEX rated_by_game ON rated_tables (guild_id, game, id);
    """,
    # 7: tournaments on the calendar (a start time, its check-in and Discord scheduled event),
    # registration rules (a role, a cap with a waiting list, late joins), penalties and notes, and
    # the tournament timers (check-in, start, pushing the event's end) the scheduler drives.
    """
    ALTER TABLE tournaments ADD COLUMN starts_at REAL;
    ALTER TABLE tournaments ADD COLUMN checkin_minutes INTEGER NOT NULL DEFAULT 30;
    ALTER TABLE tournaments ADD COLUMN event_id INTEGER;
    ALTER TABLE tournaments ADD COLUMN event_end REAL;
    ALTER TABLE tournaments ADD COLUMN role_id INTEGER;
    ALTER TABLE tournaments ADD COLUMN max_entrants INTEGER;
    ALTER TABLE tournaments ADD COLUMN late_join_rounds INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE entrants ADD COLUMN missed_rounds INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE tournament_penalties (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        entrant_id    INTEGER NOT NULL REFERENCES entrants (id),
        kind          TEXT    NOT NULL CHECK (kind IN ('warning', 'game_loss', 'disqualify', 'note')),
        text          TEXT    NOT NULL,
        organiser_id  INTEGER NOT NULL,
        at            REAL    NOT NULL,
        pending       INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX tournament_penalties_by_event ON tournament_penalties (tournament_id);
    CREATE TABLE tournament_timers (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        kind          TEXT    NOT NULL,
        due           REAL    NOT NULL,
        started       REAL    NOT NULL,
        PRIMARY KEY (tournament_id, kind)
    );
    CREATE INDEX tournament_timers_by_due ON tournament_timers (due);
    """,
    # 8: a Swiss event's 2-player top cut played as single or double elimination.
    """
    ALTER TABLE tournaments ADD COLUMN top_cut_format TEXT NOT NULL DEFAULT 'single';
    """,
    # 9: a table's lobby messages (a JSON list of message ids), edited when the table starts or closes
    # so that none of them invites anyone to a table that has gone on.
    """
    ALTER TABLE game_tables ADD COLUMN lobby_messages TEXT NOT NULL DEFAULT '[]';
    """,
    # 10: the Discord locale each member last used, so a direct message speaks their language.
    """
    CREATE TABLE member_locales (
        user_id    INTEGER NOT NULL PRIMARY KEY,
        locale     TEXT    NOT NULL,
        seen_at    REAL    NOT NULL
    );
    """,
    # 11: why a table ended without a result ("channel deleted", "lobby timed out"…), shown by /game log.
    """
    ALTER TABLE game_tables ADD COLUMN end_reason TEXT;
    """,
    # 12: beside a move's English label, the message it was said from (host/move_lines.py), so a log can be
    # shown in any language: the move's message id, the line's params and each event's message (JSON).
    """
    ALTER TABLE actions ADD COLUMN label_id TEXT;
    ALTER TABLE actions ADD COLUMN label_params TEXT;
    ALTER TABLE actions ADD COLUMN event_ids TEXT;
    """,
    # 13: beside a seat change (a resignation, a replacement, a bot taking a seat over…), the lines that told
    # the table about it, each as the message it was said from (JSON), so /game log shows them in any language.
    """
    ALTER TABLE seat_events ADD COLUMN lines TEXT;
    """,
    # 14: each server's Discord language (guild.preferred_locale) as the bot last saw it, so the web pages of a
    # server whose ``language`` setting is ``auto`` speak it in a process of their own (python -m web).
    """
    CREATE TABLE guild_locales (
        guild_id   INTEGER NOT NULL PRIMARY KEY,
        locale     TEXT    NOT NULL,
        seen_at    REAL    NOT NULL
    );
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)
