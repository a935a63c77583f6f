"""Bot strength and thinking time per game and level (issue 15's figures, with budgets).

    .venv/bin/python -m bench.bots [--game G] [--games N] [--search-games N] [--workers W] [--minutes M]
    .venv/bin/python -m bench.bots --table [--markdown]      # only the table, from the results so far

Each line seats one bot of the level under test (or, for King Pedro's partnership line, a
partnership of them) against the others at another level, and rotates that seat over the
games. A win is first place; a shared first place counts as a share of a win. The win rate
comes with a 95% Wilson interval. Thinking time is the wall-clock time of ``bot_action`` for
every decision of a ``normal`` or ``hard`` bot with more than one legal action.

Budgets (issue 15):
- hard against random: win rate at least twice the fair share 1/n (King Pedro: fair share is a
  partnership's 1/2, and a hard partnership against a random one wins at least 90%);
- hard against easy: clearly more than the fair share, i.e. the whole 95% interval above it;
- normal against easy: more than the fair share;
- hard thinking time: median at most 1 s, p95 at most 3 s.

Ogre Cheerleaders' budget lines seat 3 players: at 2, twice the fair share would be every game.
Its 2-player lines are benched too, for information (``INFO_PLAYERS``, no budget).

The issue asks for at least 200 games per line where only random and easy play, and at least
50 where normal or hard plays (the defaults); the hard-against-easy lines, whose budget is the
whole interval, play twice that (``CLEAR_FACTOR``). A full run takes hours on a 2-core machine, so
the run is **resumable and accumulative**: every finished game is appended to
``bench/results/bots.jsonl`` (line, game index, share, thinking times), stamped with a
fingerprint of the code that decides that game's moves (the shared ``engines/*.py`` modules,
of ``engines/bots.py``'s search settings only the game's own, the game's own module or package,
and the bench's table settings). A later run skips the games
already there with the current fingerprint; results with another fingerprint are stale, counted
and ignored. The table is always printed from the accumulated results, with how many games each
line has and how many it needs.

Work is ordered so that whole lines finish cheapest first: every random/easy line, then one
probe game of each search line to time it, then the normal lines, then the hard lines, each
group by its measured cost. Games run in ``--workers`` processes; ``--minutes`` stops the run
after that long (games under way are dropped and run again next time).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import datetime as dt
import hashlib
import json
import math
import os
import signal
import sys
import time
from collections import defaultdict
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from bench._common import finish, header, median, percentile, verdict
from engines import GAME_IDS, GAME_TITLES, get_engine
from engines.bots import bot_action, search_settings

#: Players per game in the budget lines. Ogre Cheerleaders is for 2 to 4: at 2, "twice the fair
#: share" against random would be every game, so its budget lines seat 3 (twice the fair share: 67%).
PLAYERS = {"do_over": 3, "pedwar": 3, "king_pedro": 4, "ogre_cheerleaders": 3, "pentawar": 3}
#: More player counts benched for information only (no budget): Ogre Cheerleaders' 2-player lines.
INFO_PLAYERS: dict[str, tuple[int, ...]] = {"ogre_cheerleaders": (2,)}
MAX_MOVES = 20_000
#: Table options for the bench: a King Pedro game where random seats bid runs to the 100-round
#: limit, hundreds of hard decisions; ten rounds (then more points wins) keep a game to minutes.
OPTIONS: dict[str, dict] = {"king_pedro": {"max_rounds": 10}}
#: Hard-against-easy lines ("clearly more", budget "clear") play this many times ``--search-games``:
#: 100 games by default. At 50, a 3-player line passes only at 24 wins or more (48%), so a bot that
#: truly wins 49% of its games fails 39% of the time; at 100 it needs 43 wins and fails 10% of the time.
CLEAR_FACTOR = 2
#: Bumped when ``play_one`` changes how a game is set up or scored: older results become stale.
BENCH_VERSION = 1
ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "bots.jsonl"


@dataclass(frozen=True)
class Line:
    game: str
    level: str        # the bot under test
    against: str      # every other seat
    budget: str       # "double", "clear", "more", "team90", "info"
    players: int
    partnership: bool = False

    @property
    def searching(self) -> bool:
        return "normal" in (self.level, self.against) or "hard" in (self.level, self.against)

    @property
    def tier(self) -> int:
        """0: only random/easy play; 1: a normal bot plays; 2: a hard bot plays."""
        return 2 if "hard" in (self.level, self.against) else 1 if self.searching else 0

    @property
    def key(self) -> str:
        where = self.game if self.players == PLAYERS[self.game] else f"{self.game}@{self.players}p"
        return f"{where}/{self.level}{'-pair' if self.partnership else ''}-vs-{self.against}"

    def label(self) -> str:
        who = f"{self.level} partnership" if self.partnership else self.level
        return f"{who} vs {self.against}"


def lines_for(game: str, players: int | None = None) -> list[Line]:
    """The lines of ``game`` at its budget player count, or at ``players`` for information only."""
    n = PLAYERS[game] if players is None else players
    info = n != PLAYERS[game]
    out = [Line(game, "easy", "random", "info", n),
           Line(game, "hard", "random", "info" if info else "more" if game == "king_pedro" else "double", n),
           Line(game, "hard", "easy", "info" if info else "clear", n),
           Line(game, "normal", "easy", "info" if info else "more", n)]
    if game == "king_pedro":
        out.append(Line(game, "hard", "random", "team90", n, partnership=True))
    return out


def all_lines(game: str) -> list[Line]:
    return lines_for(game) + [ln for n in INFO_PLAYERS.get(game, ()) for ln in lines_for(game, n)]


def fingerprint(game: str, players: int) -> str:
    """A hash of everything that decides ``game``'s moves in this bench: the shared engine modules
    (``engines/*.py`` except the other games' modules, and of ``engines/bots.py``'s table of
    search settings only this game's), the game's own module or package, the player count and
    options, and ``BENCH_VERSION``."""
    engines = ROOT / "engines"
    game_modules = {f"{g}.py" for g in GAME_IDS}
    files = [p for p in sorted(engines.glob("*.py")) if p.name not in game_modules]
    own = engines / game
    files += sorted(own.rglob("*.py")) if own.is_dir() else [engines / f"{game}.py"]
    h = hashlib.sha256()
    for p in files:
        text = _own_settings(p.read_text(), game) if p.name == "bots.py" else p.read_text()
        h.update(p.relative_to(ROOT).as_posix().encode() + b"\0" + text.encode() + b"\0")
    h.update(json.dumps([BENCH_VERSION, players, OPTIONS.get(game)], sort_keys=True).encode())
    return h.hexdigest()[:16]


def _own_settings(source: str, game: str) -> str:
    """``engines/bots.py`` with its ``_SEARCH`` table (every game's search settings) replaced by
    ``game``'s settings: tuning one game's search must not make the other games' results stale."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "_SEARCH":
            lines = source.splitlines(keepends=True)
            own = {level: dataclasses.asdict(search_settings(game, level)) for level in ("normal", "hard")}
            return "".join(lines[:node.lineno - 1]) + json.dumps(own, sort_keys=True) + "\n" + \
                "".join(lines[node.end_lineno:])
    raise RuntimeError("engines/bots.py has no _SEARCH table: update bench.bots.fingerprint")


@dataclass
class GameResult:
    share: float                  # the tested seat's (or partnership's) share of first place
    times: dict[str, list[float]] = field(default_factory=dict)
    moves: int = 0
    secs: float = 0.0


def play_one(line: Line, g: int) -> GameResult:
    start = time.perf_counter()
    engine = get_engine(line.game)
    n = line.players
    hero = g % n
    heroes = {hero, (hero + 2) % n} if line.partnership else {hero}
    state = engine.new_game(n, 1_000 + g, OPTIONS.get(line.game))
    times: dict[str, list[float]] = {"normal": [], "hard": []}
    move = 0
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
        share = 1.0 if (hero in firsts and len(firsts) < n) else 0.5 if len(firsts) == n else 0.0
    else:
        share = sum(1 for p in firsts if p in heroes) / len(firsts)
    return GameResult(share, times, move, time.perf_counter() - start)


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return math.nan, math.nan
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# ---------------------------------------------------------------------------- results file

@dataclass
class Store:
    """The accumulated results: per line key, game index -> record (current fingerprint only)."""
    path: Path
    fps: dict[tuple[str, int], str]   # (game, players) -> fingerprint of the current code
    done: dict[str, dict[int, dict]] = field(default_factory=lambda: defaultdict(dict))
    stale: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    @classmethod
    def load(cls, path: Path, games: list[str] | None = None) -> Store:
        st = cls(path, {(g, ln.players): fingerprint(g, ln.players)
                        for g in (games or GAME_IDS) for ln in all_lines(g)})
        if path.exists():
            for raw in path.read_text().splitlines():
                if not raw.strip():
                    continue
                try:
                    rec = json.loads(raw)
                except json.JSONDecodeError:   # a line cut short by a kill: that game runs again
                    continue
                where = (rec.get("game"), rec.get("players"))
                if where not in st.fps:
                    continue
                if rec.get("fp") != st.fps[where]:
                    st.stale[rec["line"]] += 1
                else:
                    st.done[rec["line"]].setdefault(int(rec["g"]), rec)
        return st

    def add(self, line: Line, g: int, r: GameResult) -> None:
        rec = {"line": line.key, "game": line.game, "players": line.players, "g": g,
               "fp": self.fps[line.game, line.players],
               "share": r.share, "moves": r.moves, "secs": round(r.secs, 2),
               "times": {k: [round(t, 4) for t in v] for k, v in r.times.items() if v},
               "at": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as f:
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.done[line.key][g] = rec

    def cost(self, line: Line) -> float | None:
        """Mean wall seconds per game of ``line`` so far (None before its first game)."""
        recs = self.done.get(line.key)
        return sum(r["secs"] for r in recs.values()) / len(recs) if recs else None


def needed(line: Line, games: int, search_games: int) -> int:
    """Games a line needs. "Clearly more than the fair share" asks the whole 95% interval to clear
    it, so those lines play ``CLEAR_FACTOR`` times the search games (see ``CLEAR_FACTOR``)."""
    if line.budget == "clear":
        return CLEAR_FACTOR * search_games
    return search_games if line.searching else games


def plan(store: Store, lines: list[Line], games: int, search_games: int) -> list[tuple[Line, int]]:
    """The games still to play, cheapest whole lines first (see the module docstring)."""
    def todo(line: Line) -> list[int]:
        have = store.done.get(line.key, {})
        return [g for g in range(needed(line, games, search_games)) if g not in have]

    tasks: list[tuple[Line, int]] = []
    for line in sorted((ln for ln in lines if ln.tier == 0), key=lambda ln: (store.cost(ln) or 0) * len(todo(ln))):
        tasks += [(line, g) for g in todo(line)]
    search = [ln for ln in lines if ln.tier > 0]
    probes = [ln for ln in search if store.cost(ln) is None and todo(ln)]
    tasks += [(ln, todo(ln)[0]) for ln in probes]
    for line in sorted(search, key=lambda ln: (ln.tier, (store.cost(ln) or math.inf) * len(todo(ln)))):
        tasks += [(line, g) for g in todo(line) if (line, g) not in tasks]
    return tasks


def run(store: Store, lines: list[Line], args: argparse.Namespace) -> None:
    deadline = time.monotonic() + 60 * args.minutes if args.minutes else math.inf
    tasks = plan(store, lines, args.games, args.search_games)
    print(f"   {len(tasks)} games to play", flush=True)
    pending: dict[Future, tuple[Line, int]] = {}
    pool = ProcessPoolExecutor(args.workers)
    try:
        replanned = False
        while tasks or pending:
            while tasks and len(pending) < args.workers and time.monotonic() < deadline:
                line, g = tasks.pop(0)
                pending[pool.submit(play_one, line, g)] = (line, g)
            if not pending:
                break
            left = max(1.0, deadline - time.monotonic()) if deadline < math.inf else None
            finished, _ = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
            if not finished and time.monotonic() >= deadline:
                print("   time is up: games under way are dropped", flush=True)
                break
            for fut in finished:
                line, g = pending.pop(fut)
                r = fut.result()
                store.add(line, g, r)
                have = len(store.done[line.key])
                print(f"   {line.key:38} game {g:3} share {r.share:.2f} {r.moves:5} moves {r.secs:7.1f} s "
                      f"({have}/{needed(line, args.games, args.search_games)})", flush=True)
            if not replanned and all(ln.tier == 0 or store.cost(ln) is not None for ln in lines):
                # every search line has been timed: order the rest by measured cost
                replanned = True
                busy = set(pending.values())
                tasks = [t for t in plan(store, lines, args.games, args.search_games) if t not in busy]
    finally:
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)


# ---------------------------------------------------------------------------- the table

def table(store: Store, games: list[str], args: argparse.Namespace) -> tuple[list[str], list[str], list[str]]:
    """Print the table; return (failed budgets, lines short of their games, markdown rows)."""
    failures: list[str] = []
    short: list[str] = []
    rows: list[str] = []
    for game in games:
        for n in (PLAYERS[game], *INFO_PLAYERS.get(game, ())):
            _group(store, game, n, args, failures, short, rows)
    return failures, short, rows


def _group(store: Store, game: str, n: int, args: argparse.Namespace,
           failures: list[str], short: list[str], rows: list[str]) -> None:
    """The lines of one game at one player count: printed, checked against their budgets (only at
    the budget player count), and one markdown row."""
    info = n != PLAYERS[game]
    fair = 0.5 if game == "king_pedro" else 1 / n
    hard_times: list[float] = []
    normal_times: list[float] = []
    cells: dict[str, str] = {}
    for line in lines_for(game, n):
        recs = list(store.done.get(line.key, {}).values())
        need_games = needed(line, args.games, args.search_games)
        stale = store.stale.get(line.key, 0)
        count = len(recs)
        tail_stale = f"  ({stale} stale ignored)" if stale else ""
        if count < need_games:
            short.append(f"{line.key} {count}/{need_games}")
        if not count:
            print(f"{game:18} {line.label():26} n={n} games {count:3}/{need_games}  (none yet){tail_stale}")
            cells[line.label()] = f"— (0/{need_games})"
            continue
        wins = sum(r["share"] for r in recs)
        lo, hi = wilson(wins, count)
        rate = wins / count
        need = {"double": 2 * fair, "clear": fair, "more": fair, "team90": 0.9, "info": None}[line.budget]
        # "clearly more" (hard against easy): the whole 95% interval lies above the fair share
        ok = True if need is None else lo > need if line.budget == "clear" else (
            rate > need if line.budget == "more" else rate >= need)
        sign = {"clear": "low >", "more": ">"}.get(line.budget, "≥")
        tail = "" if need is None else f"  need {sign}{need:.0%} {verdict(ok)}"
        print(f"{game:18} {line.label():26} n={n} games {count:3}/{need_games}  win {rate:6.1%} "
              f"[{lo:.1%}, {hi:.1%}]  fair {fair:.0%}{tail}{tail_stale}")
        if not ok:
            failures.append(f"{game} {line.label()}")
        cells[line.label()] = f"{rate:.0%} [{lo:.0%}, {hi:.0%}] ({count}/{need_games})"
        for level in ("normal", "hard"):
            ts = [t for r in recs for t in r["times"].get(level, [])]
            if ts:
                print(f"{'':18}   {level} think: median {median(ts):.3f} s, p95 {percentile(ts, 95):.3f} s, "
                      f"max {max(ts):.3f} s over {len(ts)} moves")
            (hard_times if level == "hard" else normal_times).extend(ts)
    think = "—"
    if hard_times:
        med, p95 = median(hard_times), percentile(hard_times, 95)
        ok = info or (med <= 1.0 and p95 <= 3.0)
        print(f"{game:18} hard thinking time: median {med:.3f} s (≤ 1 s), p95 {p95:.3f} s (≤ 3 s) "
              f"{'(information)' if info else verdict(ok)} over {len(hard_times)} moves")
        if not ok:
            failures.append(f"{game} hard thinking time")
        think = f"{med:.2f} / {p95:.2f}"
    normal = f"{median(normal_times):.2f}" if normal_times else "—"
    title = GAME_TITLES[game] + (f" ({n}, {OPTIONS[game]['max_rounds']} rounds)" if game == "king_pedro"
                                 else f" ({n}, information only)" if info else f" ({n})")
    rows.append(f"| {title} | {cells['easy vs random']} | {cells['hard vs random']} | {cells['hard vs easy']} | "
                f"{cells['normal vs easy']} | {think} | {normal} |")
    if "hard partnership vs random" in cells:
        rows.append(f"King Pedro, hard partnership vs random: {cells['hard partnership vs random']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=GAME_IDS, action="append", help="only this game (repeatable)")
    ap.add_argument("--games", type=int, default=200, help="games per line with only random/easy bots")
    ap.add_argument("--search-games", type=int, default=50, help="games per line where normal/hard plays")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=0, help="stop the run after this long (0: no limit)")
    ap.add_argument("--table", action="store_true", help="print the table from the results so far; play nothing")
    ap.add_argument("--markdown", action="store_true", help="with the table, its rows for the README")
    ap.add_argument("--results", type=Path, default=RESULTS, help=f"results file (default {RESULTS.relative_to(ROOT)})")
    args = ap.parse_args(argv)
    games = args.game or list(GAME_IDS)
    header("bots: win rates (95% CI) and thinking time per move")
    store = Store.load(args.results, games)
    fps = ", ".join(f"{g}@{n} {fp}" for (g, n), fp in store.fps.items())
    print(f"   results: {args.results}; fingerprints: {fps}")
    if not args.table:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        try:
            run(store, [ln for g in games for ln in all_lines(g)], args)
        except KeyboardInterrupt:
            print("   interrupted: games under way are dropped", flush=True)
    failures, short, rows = table(store, games, args)
    if args.markdown:
        print("\n| game (players) | easy vs random | hard vs random | hard vs easy | normal vs easy "
              "| hard s/move median / p95 | normal s/move median |\n|---|---|---|---|---|---|---|")
        print("\n".join(r for r in rows if r.startswith("|")))
        print("\n".join(r for r in rows if not r.startswith("|")))
    if short:
        print(f"SHORT of the issue's games: {', '.join(short)}")
    return finish(failures)


if __name__ == "__main__":
    raise SystemExit(main())
