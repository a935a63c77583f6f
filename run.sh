#!/usr/bin/env bash
# Set up (first time) and run Deckhand: the real bot with DISCORD_TOKEN, else the offline sandbox.
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
    || ! .venv/bin/python -c "import discord, asyncpg, PIL, dotenv, regex, fontTools, networkx, openskill, jinja2, prometheus_client, babel, zlib_ng, simcord.preview" 2>/dev/null; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[dev]"
  touch "$stamp"
fi
exec .venv/bin/python bot.py "$@"
