"""Table image render + PNG encode time per game, on ~50 states from random games.

    .venv/bin/python -m bench.images [--states N]

Times ``render.table_png`` (what the bot posts with every table message, with its "Last:" line) and
``render.hand_png`` (the ephemeral hand panel), in milliseconds: cold (drawn from nothing: no strip or
compressed band kept from an earlier picture; fonts, card faces and words loaded, as in a bot that has
run a while) and a move (whole games in order, each picture after the one before, as at a table), beside
Pillow's bare PNG encode of the same finished picture.
"""

from __future__ import annotations

import argparse
import io
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bench._common import engine, finish, header, median, percentile, play, verdict
from render import hand_png, png, strips, table_png, with_last_action

LAST = "Ada plays the 7 of Hearts on the pile"


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


def _cold() -> None:
    """Forget every drawn strip and compressed band (fonts and card faces stay loaded)."""
    strips.clear_cache()
    png.clear_cache()


def _bare_encode_ms(img: Image.Image) -> float:
    """Pillow's own PNG encode of a finished picture (compress_level 3): what drawing the picture whole and
    encoding it, as this bot once did, paid on top of the drawing."""
    plain = img.copy()
    plain.info.clear()
    t = time.perf_counter()
    plain.save(io.BytesIO(), format="PNG", compress_level=3)
    return (time.perf_counter() - t) * 1000


def measure(case: Case, count: int) -> dict[str, Any]:
    eng = engine(case.game)
    states, note = pick_states(case, count, random.Random(1234))
    names = SCRIPT_NAMES[:case.players]
    publics = [eng.view(s, None) for s in states]
    seats = [(eng.to_act(s) or [0])[0] for s in states]
    hands = [eng.view(s, seat) for s, seat in zip(states, seats, strict=True)]
    module = __import__(f"render.{case.game}", fromlist=["table_image", "hand_image"])
    for pub, seat, hand in zip(publics, seats, hands, strict=True):  # fonts, card faces and words, once
        table_png(case.game, pub, names, LAST)
        hand_png(case.game, hand, seat, names)

    # Cold: each picture drawn from nothing, no strip or band of it kept from an earlier one.
    cold_ms, sizes, hand_cold_ms = [], [], []
    for pub in publics:
        _cold()
        t = time.perf_counter()
        data = table_png(case.game, pub, names, LAST)
        cold_ms.append((time.perf_counter() - t) * 1000)
        sizes.append(len(data))
    for seat, hand in zip(seats, hands, strict=True):
        _cold()
        t = time.perf_counter()
        hand_png(case.game, hand, seat, names)
        hand_cold_ms.append((time.perf_counter() - t) * 1000)

    # A move: whole games in order, each picture drawn after the one before it (as at a table).
    move_ms, hand_move_ms = [], []
    for seed in (11, 12):
        _cold()
        previous = False
        for i, state in enumerate(play(eng, case.players, seed)):
            pub = eng.view(state, None)
            seat = (eng.to_act(state) or [0])[0]
            t = time.perf_counter()
            table_png(case.game, pub, names, f"{names[seat]} made move {i}")
            t2 = time.perf_counter()
            hand_png(case.game, eng.view(state, seat), seat, names)
            if previous:
                move_ms.append((t2 - t) * 1000)
                hand_move_ms.append((time.perf_counter() - t2) * 1000)
            previous = True
    bare_ms = [_bare_encode_ms(with_last_action(module.table_image(pub, names), LAST)) for pub in publics]
    hand_bare_ms = [_bare_encode_ms(module.hand_image(hand, seat, names))
                    for seat, hand in zip(seats, hands, strict=True)]
    return {"states": len(states), "note": note, "cold": cold_ms, "move": move_ms, "sizes": sizes,
            "hand_cold": hand_cold_ms, "hand_move": hand_move_ms, "bare": bare_ms, "hand_bare": hand_bare_ms,
            "size_px": module.table_image(publics[0], names).size}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=50, help="states timed per game (default 50)")
    args = parser.parse_args()
    header("images: table picture (render.table_png) and hand panel (render.hand_png), drawn and encoded")
    print(f"   {args.states} states per game from RandomBot games; the budget is on the cold table picture's median")
    print()
    print(f"{'game':<19}{'pl':>3}{'n':>4} | {'table cold med':>14}{'p90':>6}{'max':>6} | {'a move':>6}{'p90':>6} | "
          f"{'PNG KiB med':>11}{'max':>6} | {'hand cold':>9}{'a move':>7} | {'budget':>7}  result")
    costs: list[str] = []
    failures: list[str] = []
    notes: list[str] = []
    for case in CASES:
        r = measure(case, args.states)
        med = median(r["cold"])
        ok = med <= case.budget_ms
        mark = verdict(ok) if case.budgeted else "info"
        if case.budgeted and not ok:
            failures.append(f"{case.game} table {med:.1f} ms > {case.budget_ms:g} ms")
        print(f"{case.game:<19}{case.players:>3}{r['states']:>4} | {med:>14.1f}{percentile(r['cold'], 90):>6.1f}"
              f"{max(r['cold']):>6.1f} | {median(r['move']):>6.1f}{percentile(r['move'], 90):>6.1f} | "
              f"{median(r['sizes']) / 1024:>11.1f}{max(r['sizes']) / 1024:>6.1f} | "
              f"{median(r['hand_cold']):>9.1f}{median(r['hand_move']):>7.1f} | "
              f"{'≤' + format(case.budget_ms, 'g') + ' ms':>7}  {mark}")
        costs.append(f"{case.game:<19}{case.players:>3} | table: a move {median(r['move']):>4.1f} ms, cold "
                     f"{med:>4.1f} ms, a bare PNG encode {median(r['bare']):>4.1f} ms | hand: a move "
                     f"{median(r['hand_move']):>4.1f} ms, cold {median(r['hand_cold']):>4.1f} ms, a bare PNG encode "
                     f"{median(r['hand_bare']):>4.1f} ms")
        detail = f"{case.game} ({case.players} players): image {r['size_px'][0]}x{r['size_px'][1]} px"
        if case.note:
            detail += f"; {case.note}"
        if r["note"]:
            detail += f"; {r['note']}"
        notes.append(detail)
    print()
    print("Each picture's whole cost (drawn and encoded; median) beside Pillow's bare PNG encode of the same")
    print("finished picture, which a renderer drawing pictures whole pays on top of the drawing:")
    for line in costs:
        print(line)
    print()
    print("   cold = every strip drawn and every row compressed (render.strips and render.png caches emptied")
    print("   before each picture; fonts, card faces and words stay loaded, as in a running bot); a move = whole")
    print("   games in order, each picture drawn after the one before (what a table pays per move: only the")
    print("   strips that changed are drawn and compressed); hand = hand_png for the seat to act.")
    for line in notes:
        print(f"   {line}")
    return finish(failures)


if __name__ == "__main__":
    raise SystemExit(main())
