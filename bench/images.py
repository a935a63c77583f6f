"""Table image render + PNG encode time per game, on ~50 states from random games.

    .venv/bin/python -m bench.images [--states N]

Times ``render.table_png`` (what the bot posts with every table message) and
``render.hand_png`` (the ephemeral hand panel), in milliseconds, after a
first pass over the same states so font and card-face caches are loaded as in
a bot that has been running a while (the first-pass median is shown too).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench._common import engine, finish, header, median, percentile, play, verdict
from render import hand_png, table_png
from render.common import to_png


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    budget_ms: float
    note: str = ""
    #: Only states whose public view passes this filter are timed (e.g. Ogre's 12-card field).
    want: Callable[[dict[str, Any]], bool] | None = None
    #: Budgeted, or shown for information only.
    budgeted: bool = True


OGRE_FIELD = 12
#: Discord's longest nicknames in several scripts and with emoji, so font fallback is timed too.
SCRIPT_NAMES = [
    "Bob Zürich Überspieler of Cards~",
    "Ґалина Єрмак Їжачок і я ґєїі ok",
    "王小明 張偉 山田さくら 김민준 한국어 ok",
    "👨‍👩‍👧 Olha 🇺🇦 👍🏽 a long name xx",
    "Ζωή Παπαδοπούλου Καλημέρα ok",
    "Frank",
]

CASES = [
    Case("do_over", 4, 25.0),
    Case("pedwar", 4, 25.0),
    Case("king_pedro", 4, 25.0),
    Case("ogre_cheerleaders", 4, 25.0, f"field of {OGRE_FIELD} cards",
         want=lambda v: len(v.get("field", [])) == OGRE_FIELD),
    Case("pentawar", 5, 25.0),
    Case("do_over", 6, 25.0, "6 players, information only", budgeted=False),
]


def pick_states(case: Case, count: int, rnd: random.Random) -> tuple[list[Any], str]:
    """About ``count`` states spread over several random games; a note says what was found."""
    eng = engine(case.game)
    if case.want is None:
        games = 5
        chosen: list[Any] = []
        for seed in range(1, games + 1):
            states = list(play(eng, case.players, seed))
            chosen += rnd.sample(states, min(len(states), -(-count // games)))
        return chosen[:count], ""
    # Filtered: walk games until enough matching states, at most 3 per game so they differ.
    chosen = []
    closest: tuple[int, Any] | None = None
    for seed in range(1, 2001):
        hits = []
        for s in play(eng, case.players, seed):
            view = eng.view(s, None)
            size = len(view.get("field", []))
            if closest is None or abs(size - OGRE_FIELD) < abs(closest[0] - OGRE_FIELD):
                closest = (size, s)
            if case.want(view):
                hits.append(s)
        chosen += rnd.sample(hits, min(3, len(hits)))
        if len(chosen) >= count:
            return chosen[:count], f"{count} states with a {OGRE_FIELD}-card field from {seed} games"
    if chosen:
        return chosen, f"only {len(chosen)} states with a {OGRE_FIELD}-card field were found"
    assert closest is not None
    return [closest[1]], f"no {OGRE_FIELD}-card field was reached; timing the closest field ({closest[0]} cards)"


def measure(case: Case, count: int) -> dict[str, Any]:
    eng = engine(case.game)
    states, note = pick_states(case, count, random.Random(1234))
    names = SCRIPT_NAMES[:case.players]
    publics = [eng.view(s, None) for s in states]
    seats = [(eng.to_act(s) or [0])[0] for s in states]
    hands = [eng.view(s, seat) for s, seat in zip(states, seats, strict=True)]
    table_png(case.game, publics[0], names)  # load the fonts once
    hand_png(case.game, hands[0], seats[0], names)
    # First pass: every state drawn for the first time (card faces and text not yet cached).
    first_ms = []
    for pub in publics:
        t = time.perf_counter()
        table_png(case.game, pub, names)
        first_ms.append((time.perf_counter() - t) * 1000)
    for seat, hand in zip(seats, hands, strict=True):
        hand_png(case.game, hand, seat, names)

    # Timed pass: steady state, as in a bot that has been running a while.
    table_ms, sizes, hand_ms = [], [], []
    for pub in publics:
        t = time.perf_counter()
        png = table_png(case.game, pub, names)
        table_ms.append((time.perf_counter() - t) * 1000)
        sizes.append(len(png))
    for seat, hand in zip(seats, hands, strict=True):
        t = time.perf_counter()
        hand_png(case.game, hand, seat, names)
        hand_ms.append((time.perf_counter() - t) * 1000)
    # Where the table time goes: drawing vs PNG encoding.
    module = __import__(f"render.{case.game}", fromlist=["table_image"])
    draw_ms, encode_ms = [], []
    for pub in publics:
        t = time.perf_counter()
        img = module.table_image(pub, names)
        t2 = time.perf_counter()
        to_png(img)
        draw_ms.append((t2 - t) * 1000)
        encode_ms.append((time.perf_counter() - t2) * 1000)
    hand_module = __import__(f"render.{case.game}", fromlist=["hand_image"])
    hand_encode_ms = []
    for seat, hand in zip(seats, hands, strict=True):
        img = hand_module.hand_image(hand, seat, names)
        t = time.perf_counter()
        to_png(img)
        hand_encode_ms.append((time.perf_counter() - t) * 1000)
    return {"states": len(states), "note": note, "first": first_ms, "table": table_ms, "sizes": sizes, "hand": hand_ms,
            "draw": draw_ms, "encode": encode_ms, "hand_encode": hand_encode_ms,
            "size_px": module.table_image(publics[0], names).size}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=50, help="states timed per game (default 50)")
    args = parser.parse_args()
    header("images: table render + PNG encode (render.table_png), hand panel (render.hand_png)")
    print(f"   {args.states} states per game from RandomBot games; budget is on the table image median")
    print()
    print(f"{'game':<19}{'pl':>3}{'n':>4} | {'table ms med':>12}{'p90':>7}{'max':>7} | "
          f"{'draw':>6}{'encode':>7}{'1st':>6} | {'PNG KiB med':>11}{'max':>6} | {'hand med':>8}{'p90':>6} | "
          f"{'budget':>7}  result")
    costs: list[str] = []
    failures: list[str] = []
    notes: list[str] = []
    for case in CASES:
        r = measure(case, args.states)
        med = median(r["table"])
        ok = med <= case.budget_ms
        mark = verdict(ok) if case.budgeted else "info"
        if case.budgeted and not ok:
            failures.append(f"{case.game} table {med:.1f} ms > {case.budget_ms:g} ms")
        print(f"{case.game:<19}{case.players:>3}{r['states']:>4} | {med:>12.1f}{percentile(r['table'], 90):>7.1f}"
              f"{max(r['table']):>7.1f} | {median(r['draw']):>6.1f}{median(r['encode']):>7.1f}"
              f"{median(r['first']):>6.1f} | "
              f"{median(r['sizes']) / 1024:>11.1f}{max(r['sizes']) / 1024:>6.1f} | "
              f"{median(r['hand']):>8.1f}{percentile(r['hand'], 90):>6.1f} | "
              f"{'≤' + format(case.budget_ms, 'g') + ' ms':>7}  {mark}")
        table, bare = median(r["table"]), median(r["encode"])
        hand, hand_bare = median(r["hand"]), median(r["hand_encode"])
        costs.append(f"{case.game:<19}{case.players:>3} | table {table:>5.1f} ms, its bare PNG encode {bare:>5.1f} ms "
                     f"({bare / table:>4.0%}) | hand {hand:>5.1f} ms, its bare PNG encode {hand_bare:>5.1f} ms "
                     f"({hand_bare / hand:>4.0%})")
        detail = f"{case.game} ({case.players} players): image {r['size_px'][0]}x{r['size_px'][1]} px"
        if case.note:
            detail += f"; {case.note}"
        if r["note"]:
            detail += f"; {r['note']}"
        notes.append(detail)
    print()
    print("Each image's cost (render + encode, median) beside the bare PNG encode of the same finished image,")
    print("the part no drawing cache can remove while the PNG stays byte-identical:")
    for line in costs:
        print(line)
    print()
    print("   ms = milliseconds per image (median / 90th percentile / max); draw + encode = the two halves")
    print("   of the table time measured separately; 1st = median of a first pass over the same states, before")
    print("   per-card caches were warm; hand = hand_png for the seat to act (no budget set).")
    for line in notes:
        print(f"   {line}")
    return finish(failures)


if __name__ == "__main__":
    raise SystemExit(main())
