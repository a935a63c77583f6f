"""Deckhand's composition root: settings, logging, the Bot, its cogs, the store.

    python bot.py            # real bot with DISCORD_TOKEN, else the offline sandbox
    python bot.py --sandbox  # always the offline sandbox (SimCord + browser preview)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import signal
import sys
import weakref
from collections.abc import Awaitable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs import controls
from cogs.config import ConfigCog
from cogs.controls import ActButton, ActSelect, ControlHandler
from cogs.flow import TableFlow
from cogs.game import GameCog
from cogs.guard import APOLOGY, Guard, tell
from cogs.metrics_hooks import instrument
from cogs.presenter import RENDER_POOL
from cogs.profile import ProfileCog
from cogs.ratings import RatingsCog
from cogs.tournament import TournamentCog
from cogs.tournament_flow import TournamentFlow
from data.store import Store
from engines.bots import BOT_LEVELS
from host import TableService
from host.clock import Scheduler
from host.settings import ServerSettings
from host.shards import Shards
from host.thinking import BotPool
from host.tournaments.service import TournamentService
from host.tournaments.timers import TournamentTimerSource
from web.config import WebSettings
from web.logs import setup_logging as setup_log_format

log = logging.getLogger("deckhand")


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_path: str
    #: postgresql://user@host:port/db selects PostgreSQL; empty keeps SQLite at database_path.
    database_url: str | None
    dev_guild_id: int | None
    log_level: str
    bot_delay: float
    sandbox_port: int | None
    bot_level: str = "normal"
    #: SHARD_COUNT and SHARD_IDS: this process runs those shards (an AutoShardedBot) and serves
    #: their guilds; None (the default) runs one unsharded bot that serves every guild.
    shards: Shards | None = None
    #: WEB_PORT, WEB_HOST and PUBLIC_URL: the web pages (web/); no port, no server in this process.
    web: WebSettings = field(default_factory=lambda: WebSettings(None, "0.0.0.0", "", ""))
    #: LOG_FORMAT: text, or json (one JSON object a line).
    log_format: str = "text"

    @classmethod
    def from_env(cls) -> Settings:
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        port = os.environ.get("SANDBOX_PORT", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=os.environ.get("DATABASE_PATH", "").strip() or os.path.join("var", "deckhand.sqlite3"),
            database_url=os.environ.get("DATABASE_URL", "").strip() or None,
            dev_guild_id=int(guild) if guild.isdigit() else None,
            log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            bot_delay=float(os.environ.get("BOT_DELAY", "1.5") or 1.5),
            sandbox_port=int(port) if port.isdigit() else None,
            bot_level=level if (level := os.environ.get("BOT_LEVEL", "").strip().lower()) in BOT_LEVELS else "normal",
            shards=Shards.parse(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", "")),
            web=WebSettings.from_env(),
            log_format=os.environ.get("LOG_FORMAT", "text").strip().lower() or "text",
        )


def discord_now() -> float:
    """The bot's one clock: Discord's UTC time as a POSIX timestamp (virtual under SimCord)."""
    return discord.utils.utcnow().timestamp()


#: How long a clean stop waits for interactions in flight to finish their commit.
DRAIN_SECONDS = 4.0


class DeckhandBot(commands.Bot):
    # Tests that run the bot in SimCord close every bot they built through close(),
    # the same path as SIGINT; SimCord itself only detaches a bot.
    _live: ClassVar[weakref.WeakSet[DeckhandBot]] = weakref.WeakSet()

    @classmethod
    async def close_all(cls) -> None:
        for bot in list(cls._live):
            await bot.close()

    def __init__(self, settings: Settings, **options: object) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
                         **options)
        self.settings = settings
        self.store: Store | None = None
        self.tables: TableService | None = None
        self.guard = Guard()
        self.flow: TableFlow | None = None
        self.scheduler: Scheduler | None = None
        #: The same scheduler class over the tournament timers (check-in, start, a scheduled event's end).
        self.tournament_scheduler: Scheduler | None = None
        self.server_settings: ServerSettings | None = None
        self.control_handler: ControlHandler | None = None
        self.bot_pool: BotPool | None = None
        self.tournaments: TournamentService | None = None
        self.tournament_flow: TournamentFlow | None = None
        self._closing = False
        DeckhandBot._live.add(self)

    async def setup_hook(self) -> None:
        # Every stored time comes from Discord's clock, which SimCord's virtual clock moves in tests.
        self.store = await Store.connect(self.settings.database_url or self.settings.database_path, discord_now)
        self.server_settings = ServerSettings(self.store, self.settings.bot_delay, self.settings.bot_level)
        self.tables = TableService(self.store, bot_delay=self.settings.bot_delay)
        self.tables.delay_for = self.server_settings.cached_delay
        self.tables.level_for = self.server_settings.cached_level
        self.bot_pool = BotPool()
        if not RENDER_POOL.started:
            RENDER_POOL.start()  # the workers load their fonts while the bot connects
        self.tables.think = self.bot_pool.think
        self.flow = TableFlow(self, self.tables, self.guard, self.settings.bot_delay)
        self.flow.settings = self.server_settings
        # With several processes, each fires the timers and catches up the tables of its own shards' guilds.
        self.flow.shards = self.settings.shards
        self.scheduler = Scheduler(self.store, self.flow.fire, shards=self.settings.shards)
        self.tables.on_timers = self.scheduler.poke
        self.add_dynamic_items(ActButton, ActSelect)
        await self.add_cog(GameCog(self, self.tables, self.guard, self.flow, self.server_settings))
        await self.add_cog(ConfigCog(self.server_settings, self.guard))
        self.tournaments = TournamentService(self.tables, self.server_settings)
        self.tournament_flow = TournamentFlow(self, self.tournaments, self.flow, self.guard)
        self.tournament_scheduler = Scheduler(TournamentTimerSource(self.store),  # type: ignore[arg-type]
                                              self.tournament_flow.fire, shards=self.settings.shards)
        self.tournaments.on_timers = self.tournament_scheduler.poke
        self.flow.on_finished = self.tournament_flow.on_table_finished
        self.control_handler = self.route_control
        await self.add_cog(TournamentCog(self.tournaments, self.tournament_flow, self.guard, self.server_settings))
        await self.add_cog(RatingsCog(self.store, self.guard))
        await self.add_cog(ProfileCog(self, self.store, self.server_settings, self.tournaments, self.guard,
                                      self.settings.web))
        instrument(self)
        self.tree.on_error = self.on_app_command_error
        if self.settings.shards is not None and 0 not in self.settings.shards.ids:
            # Slash commands belong to the application, not to a shard: one process registers them for all
            # (each doing it would spend Discord's daily limit on command changes once per process).
            log.info("slash commands are registered by the process holding shard 0")
        elif self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        freeze_start_up_heap()

    async def route_control(self, interaction: discord.Interaction, control: controls.Control,
                            values: Sequence[str]) -> None:
        """A click on one of our controls: tournament sign-ups and standings pages, else a table's."""
        if control.kind in ("t", "p") and self.tournament_flow is not None:
            await self.tournament_flow.on_control(interaction, control, values)
        elif self.flow is not None:
            await self.flow.on_control(interaction, control, values)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        if self.flow is not None:
            for guild in self.guilds:  # the bot pace of each server, before any bot moves
                try:
                    await self.server_settings.get(guild.id)
                except Exception:  # one server's settings must not keep every table waiting
                    log.warning("could not read the settings of server %s", guild.id, exc_info=True)
            await self.flow.resume()
        if self.tournament_flow is not None:
            await self.tournament_flow.resume()
        if self.scheduler is not None and not self._closing:
            self.scheduler.start()
        if self.tournament_scheduler is not None and not self._closing:
            self.tournament_scheduler.start()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # A component that no DynamicItem will take (not ours, forged, garbled) is answered here.
        if controls.unhandled(interaction) and not interaction.response.is_done():
            await self.guard.run(interaction, lambda: tell(interaction, (
                "That control isn't one I recognise (it may be damaged). "
                "Use the table's **Hand / act** button or `/play` instead.")))

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            text = "Deckhand tables live in server channels, not in direct messages."
        elif isinstance(error, app_commands.TransformerError):
            text = (f"I couldn't use `{str(error.value)[:60]}` there. "
                    "Pick one of the choices Discord offers for that option.")
        elif isinstance(error, app_commands.MissingPermissions):
            text = "You need the Manage Server permission for that command."
        elif isinstance(error, app_commands.CheckFailure):
            text = "You can't use that command here."
        else:
            log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            text = APOLOGY
        try:
            await tell(interaction, text)
        except discord.HTTPException:
            log.warning("could not answer a failed command")

    async def close(self) -> None:
        """The one way the bot stops (SIGINT, SIGTERM, tests): finish what is in flight, then close.

        New interactions are refused politely, handlers in flight finish their commit
        and their answer, paced bots stop between moves, then the gateway and the store close.
        """
        if self._closing:
            return
        self._closing = True
        DeckhandBot._live.discard(self)
        if not await self.guard.drain(DRAIN_SECONDS):
            log.warning("stopping with interactions still in flight after %.0f s", DRAIN_SECONDS)
        if self.scheduler is not None:
            await self.scheduler.close()
        if self.tournament_scheduler is not None:
            await self.tournament_scheduler.close()
        self.control_handler = None
        for cog in ("GameCog", "ConfigCog", "TournamentCog", "RatingsCog", "ProfileCog"):
            if self.get_cog(cog) is not None:
                await self.remove_cog(cog)
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None
        if self.bot_pool is not None:
            await asyncio.to_thread(self.bot_pool.close)
        if self.tournaments is not None:
            await asyncio.to_thread(self.tournaments.pairing.close)
        log.info("stopped cleanly")


_heap_frozen = False


def freeze_start_up_heap() -> None:
    """Once per process, when the first bot is set up: what exists then (modules, the command tree, fonts'
    tables, discord.py's internals, some 100,000 objects) lives as long as the process, so it is moved out
    of the cyclic collector's sight (``gc.freeze``). A full collection then looks only at what the bot has
    made since, and the pause it puts into a burst of moves is much shorter.

    And the youngest generation is collected every 7,000 allocations instead of 700: a move makes thousands
    of short-lived objects (payloads, rows, futures), and at 700 a burst of 56 moves ran some 70 collections
    and the full ones they lead to; a tenth as many keeps about 10 % of a burst's time (on PostgreSQL)."""
    global _heap_frozen
    if not _heap_frozen:
        _heap_frozen = True
        gc.collect()
        gc.freeze()
        gc.set_threshold(7000, *gc.get_threshold()[1:])


class ShardedDeckhandBot(DeckhandBot, commands.AutoShardedBot):
    """The same bot over the shards in SHARD_COUNT and SHARD_IDS: one of several processes on one database.

    A guild's tables belong to the process holding its shard, ``(guild_id >> 22) % SHARD_COUNT``
    (host/shards.py): that process gets the guild's interactions, and its scheduler fires only
    those tables' timers.
    """

    def __init__(self, settings: Settings) -> None:
        assert settings.shards is not None
        super().__init__(settings, shard_count=settings.shards.count, shard_ids=list(settings.shards.ids))


def create_bot(settings: Settings | None = None) -> DeckhandBot:
    """Build the unstarted bot from the environment (DATABASE_PATH, SHARD_COUNT and the rest)."""
    settings = settings or Settings.from_env()
    return DeckhandBot(settings) if settings.shards is None else ShardedDeckhandBot(settings)


def setup_logging(level: str, fmt: str = "text") -> None:
    """Plain lines, or with LOG_FORMAT=json one JSON object a line."""
    setup_log_format(level, fmt)


@contextlib.contextmanager
def stop_signals() -> Iterator[asyncio.Future[None]]:
    """A future that one SIGINT or SIGTERM completes, for as long as the block runs."""
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[None] = loop.create_future()

    def on_signal() -> None:
        if not stop.done():
            log.info("stop requested")
            stop.set_result(None)

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, on_signal)
    try:
        yield stop
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


async def until_stopped(work: Awaitable[object], stop: asyncio.Future[None]) -> None:
    """Run ``work`` until it ends or ``stop`` completes; a failure of ``work`` surfaces here."""
    task = asyncio.ensure_future(work)
    try:
        await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()
    finally:
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


async def run_sandbox(settings: Settings) -> None:
    """The real bot, unchanged, inside SimCord, with a browser view of #games and its threads."""
    import sandbox

    # SimCord's gateway has no voice and reports intents its own way: those start-up
    # warnings (some logged while simcord is imported) are harmless, and they alarm a newcomer.
    for noisy in ("discord.client", "discord.state"):
        logging.getLogger(noisy).setLevel(logging.ERROR)
    sandbox_settings = Settings(token=None, database_path=os.environ.get("SANDBOX_DATABASE_PATH", "").strip()
                                or os.path.join("var", "sandbox.sqlite3"), database_url=None,
                                dev_guild_id=None, log_level=settings.log_level, bot_delay=settings.bot_delay,
                                sandbox_port=settings.sandbox_port, bot_level=settings.bot_level,
                                web=sandbox_web(settings.web))
    bot = create_bot(sandbox_settings)
    with stop_signals() as stop:
        try:
            await sandbox.serve(bot, settings.sandbox_port, lambda work: until_stopped(work, stop), bot.close)
        finally:
            await bot.close()


def sandbox_web(web: WebSettings) -> WebSettings:
    """The sandbox serves the web pages too: on WEB_PORT, else on a free port (printed at start)."""
    port = web.port if web.port is not None else 0
    return WebSettings(port, "127.0.0.1", web.public_url if web.port is not None else "", web.database)


async def run_discord(settings: Settings) -> None:
    bot = create_bot(settings)
    with stop_signals() as stop:
        try:
            await until_stopped(bot.start(settings.token or ""), stop)
        finally:
            await bot.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run Deckhand")
    parser.add_argument("--sandbox", action="store_true", help="run offline in SimCord with a browser preview")
    args = parser.parse_args(argv)
    try:
        from dotenv import load_dotenv

        load_dotenv()
    except ImportError:
        pass
    settings = Settings.from_env()
    setup_logging(settings.log_level, settings.log_format)
    try:
        if args.sandbox or not settings.token:
            if not args.sandbox:
                log.info("no DISCORD_TOKEN set: starting the offline sandbox")
            asyncio.run(run_sandbox(settings))
        else:
            asyncio.run(run_discord(settings))
    finally:
        RENDER_POOL.close()  # shared by every bot of the process, so stopped with the process
    return 0


if __name__ == "__main__":
    sys.exit(main())
