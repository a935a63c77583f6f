"""Play random-bot games and print speed and placings.

    python -m engines.simulate do_over --players 4 --games 200 --seed 1

An engine that offers ``random_playout`` (King Pedro) plays its random games
through it: the very games RandomBot plays through the contract, a few times
faster (``--through-apply`` takes the contract path instead).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from engines import GAME_IDS, get_engine
from engines.bots import RandomBot


@dataclass
class SimulationReport:
    game: str
    players: int
    games: int
    seconds: float
    actions: int
    places: list[Counter[int]] = field(default_factory=list)  # per seat: place -> count

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def lines(self) -> list[str]:
        out = [f"{self.game}: {self.games} games, {self.players} players, {self.seconds:.2f} s",
               f"games/s: {self.games_per_second:.1f}",
               f"mean actions per game: {self.actions / max(1, self.games):.1f}",
               "placings (seat: place x count):"]
        for seat, counter in enumerate(self.places):
            out.append(f"  seat {seat}: " + ", ".join(f"{p}x{counter[p]}" for p in sorted(counter)))
        return out


def simulate(game_id: str, players: int, games: int, seed: int, options: dict | None = None,
             through_apply: bool = False) -> SimulationReport:
    engine = get_engine(game_id)
    report = SimulationReport(game_id, players, games, 0.0, 0, [Counter() for _ in range(players)])
    start = time.perf_counter()
    fast_playout = None if through_apply else getattr(engine, "random_playout", None)
    if fast_playout is not None:
        for g in range(games):
            result = fast_playout(seed + g, options, bot_seed=seed * 1_000_003 + g)
            report.actions += result.moves
            for seat, place in enumerate(result.places):
                report.places[seat][place] += 1
        report.seconds = time.perf_counter() - start
        return report
    for g in range(games):
        state = engine.new_game(players, seed + g, options)
        bot = RandomBot(seed * 1_000_003 + g)
        while True:
            seats = engine.to_act(state)
            if not seats:
                break
            state = engine.apply(state, seats[0], bot.choose(engine, state, seats[0]))
            report.actions += 1
        for seat, place in enumerate(engine.outcome(state)):
            report.places[seat][place] += 1
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("game", choices=GAME_IDS)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--through-apply", action="store_true",
                        help="play through the engine contract even where the engine has a fast playout")
    args = parser.parse_args(argv)
    engine = get_engine(args.game)
    players = args.players or engine.min_players
    if not engine.min_players <= players <= engine.max_players:
        parser.error(f"{engine.title} takes {engine.min_players} to {engine.max_players} players")
    report = simulate(args.game, players, args.games, args.seed, through_apply=args.through_apply)
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
