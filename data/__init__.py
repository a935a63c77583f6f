"""Persistence (the store, on SQLite or PostgreSQL) and the card lists (``data.editions``).

Kept import-free so that ``engines`` can read ``data.editions`` without
pulling in the database layer.
"""
