"""One SIGINT or SIGTERM stops the bot: exit 0 within 5 s, no traceback, the store closed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def start_sandbox(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    db = tmp_path / "sandbox.sqlite3"
    env = {**os.environ, "SANDBOX_DATABASE_PATH": str(db), "DISCORD_TOKEN": "", "LOG_LEVEL": "INFO",
           "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "bot.py", "--sandbox"], cwd=ROOT, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    for line in process.stdout:
        if "sandbox is running" in line:
            return process, db
        assert time.monotonic() < deadline, "the sandbox did not start"
    raise AssertionError(f"the sandbox exited early with {process.wait()}")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_one_signal_stops_the_sandbox_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    process, db = start_sandbox(tmp_path)
    sent = time.monotonic()
    process.send_signal(sig)
    try:
        rest, _ = process.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError("the bot was still running 5 s after one signal") from None
    elapsed = time.monotonic() - sent
    assert process.returncode == 0, rest
    assert "Traceback" not in rest and "Error" not in rest, rest
    assert "stopped cleanly" in rest
    assert elapsed < 5
    # SQLite removes the write-ahead log when the last connection closes cleanly.
    assert db.exists() and not Path(f"{db}-wal").exists(), "the store was not closed"
    # The sandbox's start-up is quiet: no alarming warnings about voice or intents.
    assert "voice will NOT be supported" not in rest
