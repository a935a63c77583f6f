"""Milliseconds from a click to the acknowledged response, through the real bot in SimCord.

    .venv/bin/python -m bench.click [--turns N] [--drift-turns N]

One process: ``bot.create_bot()`` (temporary SQLite file, BOT_DELAY=0) run under
SimCord, a Do Over! table with four human seats opened with /game new, /game join
and /game start. Then, turn after turn, the member to act
  (a) clicks the public "Hand / act" button  -> the ephemeral hand panel (hand image, controls);
  (b) clicks or selects an action in that panel -> the action is committed, the panel is redrawn,
      and when the turn moves on the bot posts the next public table message (table image).
For (a) the budgeted figure runs from the click to the moment the bot's interaction response
(its acknowledgement) reaches SimCord's fake Discord (see ``AckClock``). For (b) it runs until both
the acknowledgement and the follow-up table message (its POST) have reached SimCord. The wall time
around ``await member.click(...)`` / ``member.select(...)``, which returns once SimCord has settled
all the bot's work, is printed for information: it carries SimCord's own idle waits.

Measure (c), with a budget too: while ten ``hard`` bots search King Pedro positions in the bot's
process pool, a member's move at another table plus its hand panel (host level; see
``clicks_while_bots_think``): bots think off the event loop, so a click stays fast.

SimCord's clock is virtual and stands still unless advanced. The run lets 15 virtual minutes pass
every ``ADVANCE_EVERY`` turns (outside the timed clicks), as real time would; a second, shorter run
without advancing the clock shows whether click time grows with the session. It used to:
discord.py gave every ephemeral panel's View a 15-minute timeout task until Deckhand sent views
that are already stopped (``cogs.controls.stateless_view``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from bench._common import configure, finish, header, median, percentile, verdict

BUDGET_MS = 50.0
PLAYERS = ("alice", "bob", "carol", "dave")
WARMUP_TURNS = 5
ADVANCE_EVERY = 10
PANEL_TIMEOUT_S = 15 * 60 + 1


class AckClock:
    """When the bot's interaction callback (its acknowledgement) reached SimCord's fake Discord.

    ``member.click`` returns only once SimCord has *settled* the bot. When the
    last thing left is a queued done-callback (discord.py's ViewStore drops its
    finished dispatch task with ``set.discard``), SimCord's settle loop sleeps its
    whole 50 ms idle interval before looking again, so settled times carry up
    to 50 ms of harness wait that no user would see. The acknowledgement is the
    moment the response exists for the player: that is what the budget names.
    """

    def __init__(self) -> None:
        self.stamps: list[float] = []
        #: When each public message was posted (the POST reached SimCord), for (b)'s table post.
        self.posts: list[float] = []

    def mark(self) -> int:
        """Call before a click; pass the result to ``since``."""
        return len(self.stamps)

    def install(self) -> None:
        from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

        original = FakeWebhookAdapter.request
        original_http = FakeHTTPClient.request
        stamps, posts = self.stamps, self.posts

        async def request(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
            result = await original(adapter, route, *args, **kwargs)
            if route.url.endswith("/callback"):
                stamps.append(time.perf_counter())
            return result

        async def http_request(client: Any, route: Any, **kwargs: Any) -> Any:
            result = await original_http(client, route, **kwargs)
            if route.method == "POST" and route.url.endswith("/messages"):
                posts.append(time.perf_counter())
            return result

        FakeWebhookAdapter.request = request  # type: ignore[method-assign,assignment]
        FakeHTTPClient.request = http_request  # type: ignore[method-assign]

    def posted_since(self, start: float) -> float | None:
        """Milliseconds from ``start`` to the last public message posted since, if any."""
        after = [t for t in self.posts if t >= start]
        return (after[-1] - start) * 1000 if after else None

    def since(self, mark: int, start: float) -> float:
        """Milliseconds from ``start`` to the one acknowledgement the click made."""
        new = self.stamps[mark:]
        assert len(new) == 1, f"a click must be answered by exactly one interaction response, got {len(new)}"
        return (new[0] - start) * 1000


ACKS = AckClock()


@dataclass
class Session:
    hand: list[tuple[int, float]] = field(default_factory=list)  # (turn, ms to the acknowledgement)
    action: list[tuple[int, float]] = field(default_factory=list)  # (turn, ms until acknowledged and posted)
    action_settled: list[tuple[int, float]] = field(default_factory=list)  # (turn, ms until SimCord settled)
    hand_settled: list[tuple[int, float]] = field(default_factory=list)
    action_ack: list[tuple[int, float]] = field(default_factory=list)
    menu: list[tuple[int, float]] = field(default_factory=list)
    posted: int = 0
    games: int = 0
    setup_ms: float = 0.0
    wall_s: float = 0.0


def pick(rnd: random.Random, options: list[tuple[str, str | None, str]]) -> tuple[str, str | None, str]:
    """Uniform among the controls, but swaps only now and then so Do Over!'s swap step ends."""
    plain = [o for o in options if not o[2].startswith("swap")]
    return rnd.choice(plain or options)


async def session(env: Any, guild: Any, members: dict[str, Any], name: str, turns: int,
                  advance_every: int | None, seed: int) -> Session:
    from tests.e2e.driver import choices_in, hand_button_id, latest_table_message, seats_to_act, table_messages, use

    out = Session()
    start = time.perf_counter()
    rnd = random.Random(seed)
    channel = guild.create_text_channel(name)
    by_id = {m.id: m for m in members.values()}

    async def new_table() -> None:
        host = members[PLAYERS[0]]
        opened = await host.slash(channel, "game new", game="do_over")
        assert not opened.ephemeral, opened.response.content
        for who in PLAYERS[1:]:
            joined = await members[who].slash(channel, "game join")
            assert not joined.ephemeral, joined.response.content
        started = await host.slash(channel, "game start")
        assert "The game begins" in started.response.content, started.response.content
        out.games += 1

    t = time.perf_counter()
    await new_table()
    out.setup_ms = (time.perf_counter() - t) * 1000
    seen = len(table_messages(channel))
    for turn in range(turns + WARMUP_TURNS):
        if advance_every and turn and turn % advance_every == 0:
            await env.advance_time(PANEL_TIMEOUT_S)  # real time passes: old panels' views time out
        message = latest_table_message(channel)
        if "Game over" in message.content:
            await new_table()
            message = latest_table_message(channel)
        member = by_id[seats_to_act(message)[0]]
        custom_id = hand_button_id(message)
        timed = turn >= WARMUP_TURNS
        mark, t = ACKS.mark(), time.perf_counter()
        opened = await member.click(message, custom_id=custom_id)
        dt = (time.perf_counter() - t) * 1000
        assert opened.acknowledged and opened.ephemeral, "the hand panel must be an ephemeral response"
        panel = opened.response
        if timed:
            out.hand.append((turn, ACKS.since(mark, t)))
            out.hand_settled.append((turn, dt))
        for _ in range(6):
            kind, control, value = pick(rnd, choices_in(panel))
            mark, t = ACKS.mark(), time.perf_counter()
            result = await use(member, panel, kind, control, value)
            dt = (time.perf_counter() - t) * 1000
            assert result.acknowledged, "every click is acknowledged"
            if not value.startswith(">"):
                assert "✅" in result.response.content, result.response.content
                if timed:
                    ack = ACKS.since(mark, t)
                    posted = ACKS.posted_since(t)
                    out.action.append((turn, max(ack, posted) if posted is not None else dt))
                    out.action_ack.append((turn, ack))
                    out.action_settled.append((turn, dt))
                break
            if timed:
                out.menu.append((turn, ACKS.since(mark, t)))
            panel = result.response
        else:
            raise AssertionError("menu nesting did not end")
        now = len(table_messages(channel))
        out.posted += timed and now > seen
        seen = now
    out.wall_s = time.perf_counter() - start
    return out


async def clicks_while_bots_think(db_path: str, thinkers: int, clicks: int) -> tuple[list[float], int]:
    """(c) ms from a human's move at one table to its drawn hand panel while ``thinkers`` hard bots think.

    Host level, without SimCord (whose settling would wait for every bot's thought before a click
    returned): ``thinkers`` King Pedro positions are searched at the ``hard`` level through the bot's
    own process pool (``host.thinking.BotPool``), again and again, while a member plays Do Over! at
    another table through ``TableService``; the figure is ``act`` plus the hand panel's image, the
    bot's acknowledgement.
    """
    import render
    from data.store import Store
    from engines import get_engine
    from host import TableService
    from host.thinking import BotPool

    store = await Store.open(db_path)
    tables = TableService(store)
    pool = BotPool()
    king_pedro = get_engine("king_pedro")
    stop = False
    thoughts = 0

    async def think_forever(seed: int) -> None:
        nonlocal thoughts
        state = king_pedro.new_game(4, seed)
        while not stop:
            seat = king_pedro.to_act(state)[0]
            action = await pool.think("king_pedro", king_pedro.dump(state), seat, seed + thoughts, "hard")
            state = king_pedro.apply(state, seat, action)
            thoughts += 1
            if king_pedro.is_over(state):
                state = king_pedro.new_game(4, seed + thoughts)

    await tables.create(guild_id=1, channel_id=1, game_id="do_over", options=None, user_id=1, user_name="a")
    await tables.join(1, 2, "b")
    table = await tables.start(1, 1, False)
    workers = [asyncio.create_task(think_forever(1000 + i)) for i in range(thinkers)]
    times: list[float] = []
    try:
        await asyncio.sleep(1.0)  # the pool is up and every bot is thinking
        for _ in range(clicks):
            table = await tables.get(table.id)
            if table.status != "playing":
                break
            state = await tables.state(table)
            engine = tables.engine_of(table)
            seat = engine.to_act(state)[0]
            user = table.seats[seat].user_id or 0
            t = time.perf_counter()
            await tables.act(table.id, user, engine.legal_actions(state, seat)[0], table.version)
            info = await tables.hand(table.id, user)
            render.hand_png(table.game, dict(info.picture.view), info.seat, list(info.picture.names))
            times.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.1)
    finally:
        stop = True
        await asyncio.gather(*workers, return_exceptions=True)
        await asyncio.to_thread(pool.close)
        await store.close()
    return times, thoughts


def row(label: str, samples: list[tuple[int, float]], budgeted: bool, failures: list[str]) -> None:
    times = [ms for _, ms in samples]
    if not times:
        print(f"{label:<42}{0:>5} |  (none)")
        return
    med = median(times)
    ok = med <= BUDGET_MS
    if budgeted and not ok:
        failures.append(f"{label.split(')')[0].strip('( ')} median {med:.1f} ms")
    mark = verdict(ok) if budgeted else "info"
    print(f"{label:<42}{len(times):>5} | {med:>10.1f}{percentile(times, 90):>8.1f}{max(times):>8.1f} | "
          f"{'≤' + format(BUDGET_MS, 'g') + ' ms':>8}  {mark}")


def blocks(samples: list[tuple[int, float]], size: int) -> str:
    out = []
    first = min(t for t, _ in samples)
    last = max(t for t, _ in samples)
    for lo in range(first, last + 1, size):
        chunk = [ms for t, ms in samples if lo <= t < lo + size]
        if chunk:
            out.append(f"{median(chunk):.0f}")
    return " → ".join(out)


async def bench(turns: int, drift_turns: int, thinkers: int = 10) -> int:
    import simcord

    from bot import create_bot

    ACKS.install()
    bot = create_bot()
    async with simcord.run(bot) as env:
        guild = env.create_guild("Deckhand Bench")
        members = {name: guild.add_member(env.create_user(name)) for name in PLAYERS}
        # The host opens the next game the moment one ends, as a server that plays back to back allows.
        await configure(env, guild, guild.create_text_channel("settings"), new_cooldown=0)
        steady = await session(env, guild, members, "games", turns, ADVANCE_EVERY, seed=5)
        drift = None
        if drift_turns:
            await env.advance_time(PANEL_TIMEOUT_S)
            drift = await session(env, guild, members, "no-clock", drift_turns, None, seed=6)
        errors = list(env.errors)
    await bot.close()  # SimCord detaches the bot but leaves closing it (and its store) to us

    failures: list[str] = []
    print(f"   setup (/game new, 3x /game join, /game start): {steady.setup_ms:.0f} ms; {WARMUP_TURNS} warm-up "
          f"turns not counted; {steady.games} game(s); 15 virtual minutes pass every {ADVANCE_EVERY} turns")
    print()
    print(f"{'interaction':<42}{'n':>5} | {'median ms':>10}{'p90':>8}{'max':>8} | {'budget':>8}  result")
    row("(a) 'Hand / act' -> panel acknowledged", steady.hand, True, failures)
    row("(b) action in the panel -> ack + post", steady.action, True, failures)
    row("    submenu select -> acknowledged", steady.menu, False, failures)
    row("(a) settled (info)", steady.hand_settled, False, failures)
    row("(b) acknowledged, before the post (info)", steady.action_ack, False, failures)
    row("(b) settled (info)", steady.action_settled, False, failures)
    print()
    print("   acknowledged = from the click/select until the bot's interaction response reached SimCord;")
    print("   ack + post = until both the response and the new table message (its POST) reached SimCord;")
    print("   settled = until the awaited click returned: all the bot's work for it, SimCord's settle wait")
    print("   included (its loop sleeps a 50 ms idle interval whenever only a queued done-callback is left,")
    print("   which, with the table picture drawn in a worker process, is most of (b) settled).")
    print(f"   {steady.posted} of {len(steady.action)} timed actions moved the turn on and posted a new table "
          "message (table image) inside the timed click.")
    if drift is not None:
        size = max(1, drift_turns // 4)
        hand_ms, action_ms = median([m for _, m in drift.hand]), median([m for _, m in drift.action])
        print(f"   Without advancing SimCord's clock ({drift_turns} turns, info): (a) acknowledged median "
              f"{hand_ms:.1f} ms, (b) ack + post {action_ms:.1f} ms;")
        print(f"   medians per {size}-turn block, (a) {blocks(drift.hand, size)} ms, "
              f"(b) {blocks(drift.action, size)} ms.")
    if errors:
        print(f"   the bot logged {len(errors)} error(s): {errors[:3]!r}")
        failures.append(f"{len(errors)} bot errors")
    if thinkers:
        times, thoughts = await clicks_while_bots_think(os.environ["DATABASE_PATH"] + ".bots", thinkers, 40)
        print()
        row(f"(c) move + panel, {thinkers} hard bots thinking", [(i, ms) for i, ms in enumerate(times)], True,
            failures)
        print(f"   (c): {thinkers} King Pedro bots searched at the hard level in the bot's process pool "
              f"({thoughts} moves thought meanwhile) while a member played at another table.")
    return finish(failures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200, help="timed turns (default 200)")
    parser.add_argument("--hard-bots", type=int, default=10,
                        help="hard bots thinking during measure (c) (default 10; 0 skips it)")
    parser.add_argument("--drift-turns", type=int, default=80,
                        help="turns of the information run without advancing the clock (default 80; 0 skips it)")
    args = parser.parse_args()
    header("click: click -> acknowledged response through SimCord (Do Over!, 4 human seats)")
    with tempfile.TemporaryDirectory(prefix="deckhand-click-") as tmp:
        os.environ["DATABASE_PATH"] = os.path.join(tmp, "deckhand.sqlite3")
        os.environ["BOT_DELAY"] = "0"
        os.environ.pop("DEV_GUILD_ID", None)
        return asyncio.run(bench(args.turns, args.drift_turns, args.hard_bots))


if __name__ == "__main__":
    raise SystemExit(main())
