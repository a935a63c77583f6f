"""The store's two backends: SQLite (sqlite3: writes on the loop, reads in a thread; the default) and
PostgreSQL (asyncpg, DATABASE_URL).

Only ``data/`` imports these modules (``data.store`` picks the backend); nothing above ``data/`` may.
"""
