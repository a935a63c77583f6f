"""Bot strength and thinking time per game and level (issue 15's figures, with budgets).

    .venv/bin/python -m bench.bots [--game G] [--games N] [--search-games N] [--workers W]

Each line seats one bot of the level under test (or, for King Pedro's partnership line, a
partnership of them) against the others at another level, and rotates that seat over the
games. A win is first place; a shared first place counts as a share of a win. The win rate
comes with a 95% Wilson interval. Thinking time is the wall-clock time of ``bot_action`` for
every decision of a ``normal`` or ``hard`` bot with more than one legal action.

Budgets (issue 15):
- hard against random: win rate at least twice the fair share 1/n (King Pedro: fair share is a
  partnership's 1/2, and a hard partnership against a random one wins at least 90%);
- hard against easy and normal against easy: more than the fair share;
- hard thinking time: median at most 1 s, p95 at most 3 s.

The issue asks for at least 200 games per line where only random and easy play, and at least
50 where normal or hard plays (the defaults); a full run takes hours on a 2-core machine, so
``--games``/``--search-games`` give a quick run. Games run in ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench._common import finish, header, median, percentile, verdict
from engines import GAME_IDS, get_engine
from engines.bots import bot_action

#: Players per game in the bench tables.
PLAYERS = {"do_over": 3, "pedwar": 3, "king_pedro": 4, "ogre_cheerleaders": 2, "pentawar": 3}
MAX_MOVES = 20_000
#: Table options for the bench: a King Pedro game where random seats bid runs to the 100-round
#: limit, hundreds of hard decisions; ten rounds (then more points wins) keep a game to minutes.
OPTIONS: dict[str, dict] = {"king_pedro": {"max_rounds": 10}}


@dataclass(frozen=True)
class Line:
    game: str
    level: str        # the bot under test
    against: str      # every other seat
    budget: str       # "double", "more", "team90", "info"
    partnership: bool = False

    @property
    def searching(self) -> bool:
        return "normal" in (self.level, self.against) or "hard" in (self.level, self.against)

    def label(self) -> str:
        who = f"{self.level} partnership" if self.partnership else self.level
        return f"{who} vs {self.against}"


def lines_for(game: str) -> list[Line]:
    out = [Line(game, "easy", "random", "info"),
           Line(game, "hard", "random", "more" if game == "king_pedro" else "double"),
           Line(game, "hard", "easy", "more"),
           Line(game, "normal", "easy", "more")]
    if game == "king_pedro":
        out.append(Line(game, "hard", "random", "team90", partnership=True))
    return out


@dataclass
class GameResult:
    share: float                  # the tested seat's (or partnership's) share of first place
    times: dict[str, list[float]] = field(default_factory=dict)


def play_one(line: Line, g: int) -> GameResult:
    engine = get_engine(line.game)
    n = PLAYERS[line.game]
    hero = g % n
    heroes = {hero, (hero + 2) % n} if line.partnership else {hero}
    state = engine.new_game(n, 1_000 + g, OPTIONS.get(line.game))
    times: dict[str, list[float]] = {"normal": [], "hard": []}
    for move in range(MAX_MOVES):
        seats = engine.to_act(state)
        if not seats:
            break
        seat = seats[0]
        level = line.level if seat in heroes else line.against
        multi = len(engine.legal_actions(state, seat)) > 1
        t0 = time.perf_counter()
        action = bot_action(engine, state, seat, g * 100_003 + move, level=level)
        if level in times and multi:
            times[level].append(time.perf_counter() - t0)
        state = engine.apply(state, seat, action)
    places = engine.outcome(state)
    firsts = [p for p in range(n) if places[p] == 1]
    if line.game == "king_pedro":
        return GameResult(1.0 if (hero in firsts and len(firsts) < n) else 0.5 if len(firsts) == n else 0.0, times)
    return GameResult(sum(1 for p in firsts if p in heroes) / len(firsts), times)


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return math.nan, math.nan
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=GAME_IDS, action="append", help="only this game (repeatable)")
    ap.add_argument("--games", type=int, default=200, help="games per line with only random/easy bots")
    ap.add_argument("--search-games", type=int, default=50, help="games per line where normal/hard plays")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    header("bots: win rates (95% CI) and thinking time per move")
    failures: list[str] = []
    hard_times: list[float] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for game in args.game or list(GAME_IDS):
            n = PLAYERS[game]
            fair = 0.5 if game == "king_pedro" else 1 / n
            for line in lines_for(game):
                games = args.search_games if line.searching else args.games
                start = time.perf_counter()
                results = list(pool.map(play_one, [line] * games, range(games)))
                wins = sum(r.share for r in results)
                lo, hi = wilson(wins, games)
                rate = wins / games
                need = {"double": 2 * fair, "more": fair, "team90": 0.9, "info": None}[line.budget]
                ok = True if need is None else (rate > need if line.budget == "more" else rate >= need)
                tail = "" if need is None else f"  need {'>' if line.budget == 'more' else '≥'}{need:.0%} " \
                                                 f"{verdict(ok)}"
                print(f"{game:18} {line.label():26} n={n} games={games:4}  win {rate:6.1%} "
                      f"[{lo:.1%}, {hi:.1%}]  fair {fair:.0%}  ({time.perf_counter() - start:.0f} s){tail}",
                      flush=True)
                if not ok:
                    failures.append(f"{game} {line.label()}")
                for level in ("normal", "hard"):
                    ts = [t for r in results for t in r.times[level]]
                    if ts:
                        print(f"{'':18}   {level} think: median {median(ts):.3f} s, p95 {percentile(ts, 95):.3f} s, "
                              f"max {max(ts):.3f} s over {len(ts)} moves", flush=True)
                    if level == "hard":
                        hard_times += ts
            if hard_times:
                med, p95 = median(hard_times), percentile(hard_times, 95)
                ok = med <= 1.0 and p95 <= 3.0
                print(f"{game:18} hard thinking time: median {med:.3f} s (≤ 1 s), p95 {p95:.3f} s (≤ 3 s) "
                      f"{verdict(ok)}", flush=True)
                if not ok:
                    failures.append(f"{game} hard thinking time")
                hard_times = []
    return finish(failures)


if __name__ == "__main__":
    raise SystemExit(main())
