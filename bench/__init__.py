"""Deckhand benchmarks: performance budgets live here, not in timed tests.

Run one with ``.venv/bin/python -m bench.<name>`` or all with ``.venv/bin/python -m bench.all``.
See bench/README.md for the list and the budgets.
"""
