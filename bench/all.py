"""Run every benchmark, one subprocess each, and summarise the verdicts.

    .venv/bin/python -m bench.all [name ...]

Each benchmark prints its own figures and ends with ``RESULT: PASS`` or
``RESULT: FAIL (...)``; its exit status is 0 when every budget held.
This script exits 1 when any benchmark failed a budget or crashed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from pathlib import Path

BENCHMARKS = ("images", "playouts", "store", "score_collection", "click", "burst", "loop_lag")
ROOT = Path(__file__).resolve().parent.parent
LIMIT_S = 180  # a benchmark is meant to finish in under 60 s; this only stops a hang


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="name",
                        help=f"benchmarks to run (default all: {', '.join(BENCHMARKS)})")
    args = parser.parse_args()
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    names = args.names or list(BENCHMARKS)
    summary: list[tuple[str, str, float, str]] = []
    for name in names:
        print(f"\n$ python -m bench.{name}", flush=True)
        start = time.perf_counter()
        lines: list[str] = []
        proc = subprocess.Popen([sys.executable, "-m", f"bench.{name}"], cwd=ROOT, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=1)
        watchdog = threading.Timer(LIMIT_S, proc.kill)  # only this child, and only if it hangs
        watchdog.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                print(line, end="", flush=True)
                lines.append(line.rstrip("\n"))
            code = proc.wait()
        finally:
            watchdog.cancel()
        elapsed = time.perf_counter() - start
        result = next((ln.removeprefix("RESULT: ") for ln in reversed(lines) if ln.startswith("RESULT: ")), "")
        status = "PASS" if code == 0 else ("FAIL" if result.startswith("FAIL") else f"ERROR (exit {code})")
        summary.append((name, status, elapsed, result.removeprefix("FAIL").strip(" ()") if code else ""))
    print("\n== summary ==")
    for name, status, elapsed, detail in summary:
        over = "  (over the 60 s target)" if elapsed > 60 else ""
        print(f"{name:<18}{status:<8}{elapsed:>6.1f} s{over}  {detail}")
    return 0 if all(status == "PASS" for _, status, _, _ in summary) else 1


if __name__ == "__main__":
    raise SystemExit(main())
