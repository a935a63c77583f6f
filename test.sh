#!/usr/bin/env bash
# Set up (first time) and run the whole suite: ruff, then pytest (unit, property, store, e2e).
set -euo pipefail
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# Install again when pyproject.toml changed since the last install (its dependencies may have), or when
# a package is missing from the venv.
stamp=.venv/.installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] \
    || ! .venv/bin/python -c "import discord, asyncpg, PIL, dotenv, regex, fontTools, networkx, openskill, jinja2, prometheus_client, babel, zlib_ng, simcord, pytest, pytest_asyncio, xdist, hypothesis, ruff" 2>/dev/null; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[dev]"
  touch "$stamp"
fi
# The browser tests (tests/web/test_browser.py) drive Debian's Chromium: install it when it is missing and
# this user can (root, or sudo without a password); without it they skip with the reason (CI=true: fail).
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
  as_root=""
  if [ "$(id -u)" != 0 ] && sudo -n true 2>/dev/null; then as_root="sudo -n"; fi
  if [ "$(id -u)" = 0 ] || [ -n "$as_root" ]; then
    echo "installing Debian's chromium for the browser tests" >&2
    ($as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq chromium) \
      >/dev/null 2>&1 || echo "could not install chromium: the browser tests will skip" >&2
  fi
fi
.venv/bin/python -m ruff check .
# Two workers (pytest-xdist), a test file to each at a time: the render, engine and property tests are CPU-bound
# and the end-to-end tests wait on their render workers, so the machine's two cores both work. A file stays on
# one worker (--dist loadfile): a module's tests keep their order (test_table_languages' last test reads what
# the ones before it met). PostgreSQL tests get a database per worker (its name carries the process id).
exec .venv/bin/python -m pytest -q -n 2 --dist loadfile "$@"
