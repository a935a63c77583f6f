"""The store's two backends: SQLite (standard library sqlite3, the default) and PostgreSQL (asyncpg, DATABASE_URL).

Only ``data.store`` imports these modules; nothing above ``data/`` may.
"""
