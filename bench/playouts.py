"""Random playouts per second per game: RandomBot in every seat, from the deal to the end.

    .venv/bin/python -m bench.playouts [--games N] [--seconds S]

A playout is ``new_game`` then ``to_act`` / ``legal_actions`` (inside
``RandomBot.choose``) / ``apply`` until ``is_over``, the way the property
tests play.

King Pedro has a second row, ``king_pedro playout``: the same random games
played by ``engines.king_pedro.playout.random_playout`` (what
``engines.simulate king_pedro`` runs), which makes the very same moves without
a state copy per move; a test checks that, move for move. Random King Pedro
games last about 5,800 moves, and through ``apply`` they run at 13-18 games/s,
well under the budget of 50; the budget is checked on the playout row, and
the contract row is printed beside it, unbudgeted, so the gap stays visible.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from bench._common import engine, finish, header, verdict
from engines.bots import RandomBot
from engines.king_pedro.playout import random_playout


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    budget: float | None  # playouts per second, at least; None: shown for comparison only
    default_games: int
    options: dict[str, Any] | None = None
    fast_path: bool = False  # King Pedro's random_playout instead of the contract loop


CASES = [
    Case("do_over", 4, 200, 600),
    Case("pedwar", 4, 100, 300),
    # Full games with the default options (target 262, max_rounds 100), through apply and through random_playout.
    Case("king_pedro", 4, None, 60),
    Case("king_pedro", 4, 50, 300, fast_path=True),
    Case("ogre_cheerleaders", 4, 200, 1500),
    Case("pentawar", 5, 200, 600),
]


def hit_round_limit(eng: Any, state: Any) -> bool:
    """King Pedro ended on ``max_rounds`` rather than a partnership reaching the target."""
    return any("round limit" in e for e in eng.events(state))


def run(case: Case, games: int, seconds: float) -> dict[str, Any]:
    eng = engine(case.game)
    actions = 0
    limit_hits = 0
    rounds = 0
    played = 0
    start = time.perf_counter()
    for seed in range(1, games + 1):
        if case.fast_path:
            result = random_playout(seed, case.options)
            actions += result.moves
            rounds += result.rounds
            limit_hits += result.at_round_limit
            played += 1
            if time.perf_counter() - start > seconds:
                break
            continue
        state = eng.new_game(case.players, seed, case.options)
        bot = RandomBot(seed)
        while not eng.is_over(state):
            seat = eng.to_act(state)[0]
            state = eng.apply(state, seat, bot.choose(eng, state, seat))
            actions += 1
        played += 1
        if case.game == "king_pedro":
            limit_hits += hit_round_limit(eng, state)
            rounds += state.round
        if time.perf_counter() - start > seconds:
            break
    elapsed = time.perf_counter() - start
    return {"games": played, "elapsed": elapsed, "actions": actions, "limit_hits": limit_hits, "rounds": rounds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None,
                        help="games per engine (default: " + ", ".join(f"{c.game} {c.default_games}"
                                                                         for c in CASES) + ")")
    parser.add_argument("--seconds", type=float, default=8.0,
                        help="stop an engine early after this many seconds (default 8)")
    args = parser.parse_args()
    header("playouts: random games per second (RandomBot in every seat)")
    print()
    print(f"{'game':<19}{'pl':>3}{'games':>7}{'s':>7} | {'games/s':>8}{'actions/game':>14}{'actions/s':>11} | "
          f"{'budget':>9}  result")
    failures: list[str] = []
    extra: list[str] = []
    for case in CASES:
        r = run(case, args.games or case.default_games, args.seconds)
        rate = r["games"] / r["elapsed"]
        name = case.game + (" playout" if case.fast_path else "")
        if case.budget is None:
            budget, result = "-", "(compare)"
        else:
            ok = rate >= case.budget
            if not ok:
                failures.append(f"{name} {rate:.1f} games/s < {case.budget:g}")
            budget, result = f"≥{case.budget:g}/s", verdict(ok)
        print(f"{name:<19}{case.players:>3}{r['games']:>7}{r['elapsed']:>7.2f} | {rate:>8.1f}"
              f"{r['actions'] / r['games']:>14.1f}{r['actions'] / r['elapsed']:>11.0f} | {budget:>9}  {result}")
        if case.game == "king_pedro":
            extra.append(f"{name}: {r['limit_hits']} of {r['games']} games ended at max_rounds "
                         f"({engine('king_pedro').default_options['max_rounds']}) without a winning bid; "
                         f"mean {r['rounds'] / r['games']:.1f} rounds per game, {r['rounds'] / r['elapsed']:.0f} "
                         "rounds/s")
    print()
    print("   games/s = complete random playouts per second of wall time; s = seconds spent on that engine")
    for line in extra:
        print(f"   {line}")
    return finish(failures)


if __name__ == "__main__":
    raise SystemExit(main())
