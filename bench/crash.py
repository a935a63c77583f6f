"""Crash soak: SIGKILL the bot at random moments during play at six tables, check after each kill.

    python -m bench.crash [--kills 76] [--seed 1]

After each kill: every acknowledged move and lobby change is stored, ``PRAGMA
integrity_check`` passes, and every table replays to its snapshot; at the end a
restarted bot plays on at every table. The default suite runs three kills
(tests/crash); this is the long run.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from tests.crash.harness import kill_and_check


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="deckhand-crash-") as tmp:
        kills, acknowledged = kill_and_check(Path(tmp), args.kills, args.seed, low=0.8, high=4.0, report=True)
    print(f"{kills} SIGKILLs, {acknowledged} acknowledged changes, none lost; "
          f"{time.perf_counter() - started:.0f} s")
    print("RESULT: PASS")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
