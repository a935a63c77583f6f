"""Small helpers shared by the benchmark scripts: random play, percentiles, verdicts."""

from __future__ import annotations

import math
import os
import platform
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

from engines import get_engine
from engines.bots import RandomBot
from engines.contract import Engine

#: Seat names like real ones: mixed lengths, one very long.
NAMES = ["Alice", "Bob the Builder", "Carol with a very long display name indeed", "Dmitri", "Eve", "Frank"]


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0–100) with linear interpolation between closest ranks."""
    if not values:
        return math.nan
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    k = (len(ordered) - 1) * p / 100
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def median(values: Sequence[float]) -> float:
    return percentile(values, 50)


def process_tree_cpu() -> tuple[float, float]:
    """CPU seconds so far of this process (all threads) and of its live child processes (the render and
    bot workers), from ``/proc`` on Linux; (this process, 0.0) elsewhere."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    children = 0.0
    try:
        pids = os.listdir("/proc")
    except OSError:
        return time.process_time(), 0.0
    me = os.getpid()
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for pid in pids:
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(pid)] = int(fields[1])
        cpu[int(pid)] = (int(fields[11]) + int(fields[12])) / ticks
    for pid in cpu:
        ancestor = parents.get(pid)
        while ancestor not in (None, 0, 1, me):
            ancestor = parents.get(ancestor)
        if ancestor == me:
            children += cpu[pid]
    return time.process_time(), children


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


#: The reference workload of :func:`core_speed`: this many additions in a plain Python loop.
REFERENCE_ADDS = 1_000_000


def core_speed() -> float:
    """Milliseconds one core of this machine takes for ``REFERENCE_ADDS`` additions in a Python loop (best of
    three). Printed with every benchmark's figures: machines of one kind differ (the same burst of moves cost
    9.7 ms of CPU a move on the ninth session's 2-core machine and 16-18 ms on the tenth's), and a figure in
    milliseconds read on a slower core is not comparable without it."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(REFERENCE_ADDS):
            total += i
        best = min(best, time.perf_counter() - start)
    return best * 1000


def header(title: str) -> None:
    print(f"== {title} ==")
    print(f"   python {platform.python_version()} on {platform.machine()} ({sys.platform}); wall-clock times; "
          f"one core adds {REFERENCE_ADDS:,} numbers in a Python loop in {core_speed():.0f} ms (the machine's speed)")


def finish(failures: list[str]) -> int:
    """Print the overall result line and return the process exit code (1 if any budget failed)."""
    if failures:
        print(f"RESULT: FAIL ({', '.join(failures)})")
        return 1
    print("RESULT: PASS")
    return 0


def play(engine: Engine, players: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[Any]:
    """Every state of one random game (RandomBot for every seat), the opening deal and the end included."""
    state = engine.new_game(players, seed, options)
    bot = RandomBot(seed)
    yield state
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, bot.choose(engine, state, seat))
        yield state


def engine(game_id: str) -> Engine:
    return get_engine(game_id)


async def configure(env: Any, guild: Any, channel: Any, **values: Any) -> None:
    """Set server settings through ``/config set``, as a server's manager would: the benchmarks and tests that
    open many tables or tournaments quickly raise the flood limits (issue 26) this way, never the defaults.

    The manager (a member with Manage Server) is made once per guild and kept on it."""
    import discord  # the benchmarks that never run a bot do not import discord

    manager = getattr(guild, "_deckhand_manager", None)
    if manager is None:
        role = guild.create_role("server managers", permissions=discord.Permissions(manage_guild=True))
        manager = guild.add_member(env.create_user("manager"), roles=[role])
        guild._deckhand_manager = manager
    for name, value in values.items():
        done = await manager.slash(channel, "config set", setting=name, value=str(value))
        assert f"`{name}` is now" in (done.response.content or ""), done.response.content
