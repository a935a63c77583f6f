"""engines.pedwar.score_collection on random 20-card collections.

    .venv/bin/python -m bench.score_collection [--collections N]

Three ways, each over the same random collections (random Goal or none):
  fresh      - the per-collection cache (``_collections_score``) is cleared before every call, the
               inner sub-problem memo stays warm: a long-running bot scoring a collection it has not
               seen before. The budget is checked here.
  cold       - both caches cleared before every call: the worst case (first scoring after a start).
  cached     - the same collection scored again: what the renderer and views pay after the first call.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bench._common import finish, header, median, percentile, verdict
from data.editions import pedwar as edition
from engines.pedwar import score_collection, scoring

BUDGET_MS = 5.0
SIZE = 20


Collection = tuple[list[str], int | None]


def run(collections: list[Collection], before: Callable[[Collection], object]) -> tuple[list[float], int]:
    times, total = [], 0
    for cards, goal in collections:
        before((cards, goal))
        t = time.perf_counter()
        total += score_collection(cards, goal)
        times.append((time.perf_counter() - t) * 1000)
    return times, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collections", type=int, default=1000, help="random collections (default 1000)")
    args = parser.parse_args()
    header(f"score_collection: exact best score of a random {SIZE}-card Pedwar collection")
    rnd = random.Random(7)
    collections = [(rnd.sample(edition.OBJECT_CARDS, SIZE), rnd.choice([None, *range(1, 9)]))
                   for _ in range(args.collections)]
    print(f"   {len(collections)} collections of {SIZE} of the {len(edition.OBJECT_CARDS)} Object cards, "
          "Goal random (None or 1-8)")
    print()

    def clear_outer(_: Collection) -> None:
        scoring._collections_score.cache_clear()

    def clear_all(_: Collection) -> None:
        scoring._collections_score.cache_clear()
        scoring._st.cache_clear()

    def score_first(item: Collection) -> None:
        score_collection(*item)

    clear_all(collections[0])
    run(collections[:20], clear_outer)  # warm the inner memo the way a running bot would
    fresh, s1 = run(collections, clear_outer)
    cold, s2 = run(collections, clear_all)
    cached, s3 = run(collections, score_first)
    assert s1 == s2 == s3, "the caches changed a score"

    print(f"{'mode':<8}{'n':>6} | {'median ms':>10}{'p95':>8}{'max':>8} | {'budget':>8}  result")
    failures: list[str] = []
    for name, times, budgeted in (("fresh", fresh, True), ("cold", cold, False), ("cached", cached, False)):
        med, p95, top = median(times), percentile(times, 95), max(times)
        ok = p95 <= BUDGET_MS
        if budgeted and not ok:
            failures.append(f"fresh p95 {p95:.2f} ms > {BUDGET_MS:g} ms")
        mark = verdict(ok) if budgeted else "info"
        print(f"{name:<8}{len(times):>6} | {med:>10.3f}{p95:>8.3f}{top:>8.3f} | "
              f"{'≤' + format(BUDGET_MS, 'g') + ' ms':>8}  {mark}")
    over = sum(t > BUDGET_MS for t in fresh)
    print()
    print(f"   PASS/FAIL is on the fresh p95 (ms per call); {over} of {len(fresh)} fresh calls took over "
          f"{BUDGET_MS:g} ms, worst {max(fresh):.2f} ms.")
    return finish(failures)


if __name__ == "__main__":
    raise SystemExit(main())
