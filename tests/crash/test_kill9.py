"""SIGKILL the bot at random moments during play: nothing acknowledged is lost.

A longer run: ``python -m bench.crash --kills 76``.
"""

from __future__ import annotations

from pathlib import Path

from tests.crash.harness import kill_and_check


def test_random_kills_during_play_lose_nothing_acknowledged(tmp_path: Path) -> None:
    _, acknowledged = kill_and_check(tmp_path, kills=3, seed=20261123)
    assert acknowledged > 20, "the driver must have played enough to make the kills meaningful"
