"""Deckhand's composition root: settings, logging, the Bot, its cogs, the store.

    python bot.py            # real bot with DISCORD_TOKEN, else the offline sandbox
    python bot.py --sandbox  # always the offline sandbox (SimCord + browser preview)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import gc
import logging
import os
import signal
import sys
import weakref
from collections.abc import Awaitable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from cogs import controls
from cogs.answer_times import DeckhandState, ShardedDeckhandState
from cogs.config import ConfigCog
from cogs.controls import BAD_CONTROL, ActButton, ActSelect, ControlHandler
from cogs.flow import TableFlow
from cogs.game import GameCog
from cogs.guard import APOLOGY, Guard, bot_permissions, tell
from cogs.locales import member_language, remember_locale
from cogs.pictures import RENDER_POOL, drawn
from cogs.profile import ProfileCog
from cogs.ratings import RatingsCog
from cogs.tournament import TournamentCog
from cogs.tournament_flow import TournamentFlow
from cogs.translator import CatalogueTranslator
from cogs.web_links import cached_visibility
from data.database import Turns
from data.store import COMMAND_TIMEOUT, Store
from engines.bots import BOT_LEVELS
from host import TableRecord, TableService, permissions
from host.clock import Scheduler
from host.events import AsyncSignal, Signal
from host.languages import MemberLanguages, ServerLocales
from host.long_games import LongGameService
from host.metrics import PROMETHEUS, Recorder
from host.pairing import PairingPool
from host.ratings import RatingService
from host.settings import ServerSettings
from host.shards import Shards
from host.thinking import BotPool
from host.tournaments.service import TournamentService
from host.tournaments.timers import TournamentTimerSource
from host.web import PublicSite
from host.web_links import WebLinks
from i18n import t
from web.app import WebServer, make_app
from web.config import WebSettings
from web.logs import setup_logging as setup_log_format

log = logging.getLogger("deckhand")


#: The gateway events Deckhand reads: its servers, their channels, threads and roles (``guilds``), and nothing
#: else. It answers interactions, which reach a bot whatever its intents, and never reads a message: with
#: ``Intents.default()`` Discord sent it every message posted in every channel of every server (and each
#: reaction and typing notice), all parsed and cached for nothing, its own table posts included.
INTENTS = discord.Intents(guilds=True)


@dataclass(frozen=True)
class Settings:
    # The token and the database URL's password never appear in a repr (a logged or printed Settings).
    token: str | None = field(repr=False)
    database_path: str
    #: postgresql://user@host:port/db selects PostgreSQL; empty keeps SQLite at database_path.
    database_url: str | None = field(repr=False)
    dev_guild_id: int | None
    log_level: str
    bot_delay: float
    sandbox_port: int | None
    bot_level: str = "normal"
    #: SHARD_COUNT and SHARD_IDS: this process runs those shards (an AutoShardedBot) and serves
    #: their guilds; None (the default) runs one unsharded bot that serves every guild.
    shards: Shards | None = None
    #: DATABASE_COMMAND_TIMEOUT: seconds PostgreSQL may take for one statement before it is given up.
    database_command_timeout: float = COMMAND_TIMEOUT
    #: SYNC_COMMANDS: auto (sync the slash commands when they differ from Discord's), force (every start), off.
    sync_commands: str = "auto"
    #: BOT_TIME_LIMIT: seconds a bot's search may take before its worker is replaced and it plays the easy move.
    bot_time_limit: float = 30.0
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
            database_command_timeout=float(os.environ.get("DATABASE_COMMAND_TIMEOUT", "").strip() or COMMAND_TIMEOUT),
            sync_commands=mode if (mode := os.environ.get("SYNC_COMMANDS", "").strip().lower()) in (
                "force", "off") else "auto",
            bot_time_limit=_positive(os.environ.get("BOT_TIME_LIMIT", ""), 30.0),
            web=WebSettings.from_env(),
            log_format=os.environ.get("LOG_FORMAT", "text").strip().lower() or "text",
        )


#: Fields Discord adds to a registered command that the bot's own payload does not decide.
_ASSIGNED = frozenset({"id", "application_id", "version", "guild_id"})


def _meaningful(value: object) -> bool:
    return value not in (None, False, [], {}, "")


def commands_match(wanted: list[dict[str, Any]], registered: list[dict[str, Any]]) -> bool:
    """Whether Discord's registered commands say what the tree's payloads say.

    Commands are matched by name and type (Discord keeps its own order). Within one, only what the
    payload sets is compared (Discord adds ids and defaults); an empty or false value matches a missing
    one; options and choices match item by item, so one added, removed or moved differs.
    """
    by_key = {(r.get("name"), r.get("type", 1)): r for r in registered}
    return len(wanted) == len(registered) == len(by_key) and all(
        _same(w, by_key.get((w.get("name"), w.get("type", 1)))) for w in wanted)


def _same(wanted: object, registered: object) -> bool:
    if isinstance(wanted, dict):
        if not isinstance(registered, dict):
            return False
        keys = {k for k, v in wanted.items() if _meaningful(v)} - _ASSIGNED
        extra = [k for k in ("options", "choices") if k not in keys and _meaningful(registered.get(k))]
        return not extra and all(k in registered and _same(wanted[k], registered[k]) for k in keys)
    if isinstance(wanted, list):
        return isinstance(registered, list) and len(wanted) == len(registered) and all(
            map(_same, wanted, registered))
    if isinstance(wanted, bool) or isinstance(registered, bool):
        return wanted == registered
    return str(wanted) == str(registered)


def _positive(text: str, default: float) -> float:
    try:
        value = float(text)
    except ValueError:
        return default
    return value if value > 0 else default


def guild_locale(bot: commands.Bot, guild_id: int) -> str | None:
    """A server's Discord language, for its web pages when its ``language`` setting is ``auto``."""
    guild = bot.get_guild(guild_id)
    return guild.preferred_locale.value if guild is not None and guild.preferred_locale else None


def discord_now() -> float:
    """The bot's one clock: Discord's UTC time as a POSIX timestamp."""
    return discord.utils.utcnow().timestamp()


@dataclass(frozen=True)
class Services:
    """The bot's object graph: every service with its collaborators, and the cogs that present them."""

    store: Store
    server_settings: ServerSettings
    bot_pool: BotPool
    tables: TableService
    flow: TableFlow
    scheduler: Scheduler
    tournaments: TournamentService
    tournament_flow: TournamentFlow
    #: The same scheduler class over the tournament timers (check-in, start, a scheduled event's end).
    tournament_scheduler: Scheduler
    #: Pairs large fields in a worker process (closed at stop).
    pairing: PairingPool
    cogs: tuple[commands.Cog, ...]
    #: Each member's last seen Discord locale (direct messages speak it).
    languages: MemberLanguages
    #: Each server's Discord language, stored for the web pages of another process (``python -m web``).
    server_locales: ServerLocales

    async def route_control(self, interaction: discord.Interaction, control: controls.Control,
                            values: Sequence[str]) -> None:
        """A click on one of our controls: tournament sign-ups and standings pages, else a table's."""
        if control.kind in controls.TOURNAMENT_KINDS:
            await self.tournament_flow.on_control(interaction, control, values)
        else:
            await self.flow.on_control(interaction, control, values)


#: /healthz's reason when shards' connections are down (for an operator's probe, in English).
SHARD_DOWN = "the gateway connection of shard {shards} is closed"


class WebServing:
    """The web pages' server (web/), started and stopped with the /profile cog when WEB_PORT is set."""

    def __init__(self, bot: commands.Bot, site: PublicSite, links: WebLinks, web: WebSettings) -> None:
        self.bot = bot
        self.site = site
        self.links = links
        self.web = web
        self.server: WebServer | None = None

    async def start(self) -> None:
        app = make_app(self.site, gateway=self.gateway_problem, gateway_latency=lambda: self.bot.latency,
                       public_url=self.web.public_url)
        self.server = WebServer(app, self.web.host, self.web.port or 0)
        # Started in a context of its own: the connections it serves are the outside world's, not work the
        # bot started (SimCord, in the sandbox and the benchmarks, waits for all of the bot's own work).
        # (Created from an empty context, so that nothing marks the task or what it spawns as the bot's.)
        await contextvars.Context().run(asyncio.get_running_loop().create_task, self.server.start())
        host = "127.0.0.1" if self.web.host in ("0.0.0.0", "") else self.web.host
        self.links.served_at(f"http://{host}:{self.server.port}")
        log.info("web pages at http://%s:%d/ (links use %s)", self.web.host, self.server.port,
                 self.links.public_url)

    async def stop(self) -> None:
        if self.server is not None:
            await self.server.stop()

    def gateway_problem(self) -> str | None:
        """What keeps the gateway from serving, or None. discord.py stays "ready" while it reconnects after a
        dropped connection, so each connection is looked at too: a closed one is not serving."""
        if self.bot.is_closed():
            return "the bot is closed"
        if not self.bot.is_ready():
            return "the gateway is not ready"
        if isinstance(self.bot, commands.AutoShardedBot):
            down = sorted(shard_id for shard_id, shard in self.bot.shards.items() if shard.is_closed())
            if down:
                return SHARD_DOWN.format(shards=", ".join(map(str, down)))
            return None
        ws = self.bot.ws
        if ws is None or not ws.open:
            return "the gateway connection is closed (reconnecting)"
        return None


async def compose(bot: commands.Bot, settings: Settings, guard: Guard, recorder: Recorder = PROMETHEUS) -> Services:
    """Build the whole object graph, each service getting what it needs in its constructor.

    ``recorder`` (the process's metrics) goes to each service that observes itself: the store, the bot pool,
    the table flow's poster and the table scheduler (the guard and the bot's own answers have it already).

    Two pairs of services would hold each other: the table service tells the scheduler when timers change,
    and the scheduler fires through the table flow, which uses the table service; the table flow tells the
    tournament flow when a table finishes, and the tournament flow posts through the table flow. The two
    signals below are built first and break those circles.
    """
    # Every stored time comes from Discord's clock.
    store = await Store.connect(settings.database_url or settings.database_path, discord_now,
                                command_timeout=settings.database_command_timeout, recorder=recorder,
                                # Pictures drawn together come back together: each caller's work then waits its
                                # turn of the loop with the store's calls, so that a burst's table messages do not
                                # hold the loop at once.
                                turns=RENDER_POOL.turns)
    timers_changed: Signal[float | None] = Signal()
    table_finished: AsyncSignal[TableRecord] = AsyncSignal()
    server_settings = ServerSettings(store, settings.bot_delay, settings.bot_level)
    links = WebLinks(store, server_settings, settings.web.public_url, sees=cached_visibility(bot))
    site = PublicSite(store, draw=drawn, locale_of=lambda guild_id: guild_locale(bot, guild_id))
    bot_pool = BotPool(time_limit=settings.bot_time_limit, recorder=recorder)
    tables = TableService(store, bot_delay=settings.bot_delay, delay_for=server_settings.cached_delay,
                          level_for=server_settings.cached_level, think=bot_pool.think, on_timers=timers_changed,
                          web_url=links.table)
    # With several processes, each fires the timers and catches up the tables of its own shards' guilds.
    languages = MemberLanguages(store)
    flow = TableFlow(bot, tables, guard, settings.bot_delay, settings=server_settings, shards=settings.shards,
                     on_finished=table_finished, recorder=recorder, languages=languages)
    scheduler = Scheduler(store, flow.fire, shards=settings.shards, recorder=recorder)
    timers_changed.connect(scheduler.poke)
    tournament_timers_changed: Signal[float | None] = Signal()
    pairing = PairingPool()
    tournaments = TournamentService(tables, server_settings, pairing,
                                    on_timers=lambda: tournament_timers_changed(None))
    tournament_flow = TournamentFlow(bot, tournaments, flow, guard, links)
    table_finished.connect(tournament_flow.on_table_finished)
    tournament_scheduler = Scheduler(TournamentTimerSource(store), tournament_flow.fire,  # type: ignore[arg-type]
                                     shards=settings.shards)
    tournament_timers_changed.connect(tournament_scheduler.poke)
    cogs = (GameCog(tables, LongGameService(store, tables, server_settings), guard, flow, server_settings),
            ConfigCog(server_settings, guard),
            TournamentCog(tournaments, tournament_flow, guard, server_settings, links),
            RatingsCog(RatingService(store), guard, links),
            ProfileCog(bot, server_settings, tournaments, guard, links, site,
                       WebServing(bot, site, links, settings.web) if settings.web.port is not None else None))
    return Services(store, server_settings, bot_pool, tables, flow, scheduler, tournaments, tournament_flow,
                    tournament_scheduler, pairing, cogs, languages=languages, server_locales=ServerLocales(store))


def rest_errors(recorder: Recorder) -> aiohttp.TraceConfig:
    """discord.py's HTTP trace (its ``http_trace`` option): every failed response of Discord's REST API,
    counted by status (a retried one included; interaction answers go through the same session)."""
    trace = aiohttp.TraceConfig()

    async def on_end(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        if params.response.status >= 400:
            recorder.rest_error(params.response.status)

    trace.on_request_end.append(on_end)
    return trace


#: How long a clean stop waits for interactions in flight to finish their commit.
DRAIN_SECONDS = 4.0


class DeckhandBot(commands.Bot):
    # Every bot built is closed through close(), the same path as SIGINT, even where its host
    # only detaches it.
    _live: ClassVar[weakref.WeakSet[DeckhandBot]] = weakref.WeakSet()

    @classmethod
    async def close_all(cls) -> None:
        for bot in list(cls._live):
            await bot.close()

    def __init__(self, settings: Settings, recorder: Recorder = PROMETHEUS, **options: object) -> None:
        #: The process's metrics: the services record into it (given it by ``compose``), and so do the guard,
        #: the first answers (``_get_state``, which runs inside ``super().__init__``) and Discord's REST errors.
        self.recorder = recorder
        # Slash commands and components only: no message-content intent (nor any privileged one), and no
        # prefix commands or help command, so a plain mention of the bot gets no answer.
        super().__init__(command_prefix=commands.when_mentioned, intents=INTENTS,
                         # Nobody is pinged unless a message names them (the members to act, reminded or
                         # paired): never @everyone, @here, a role, or a user whose id a name contains.
                         allowed_mentions=discord.AllowedMentions.none(),
                         help_command=None, http_trace=rest_errors(recorder), **options)
        self.settings = settings
        self.guard = Guard(recorder)
        #: The whole object graph, built once by ``compose`` in ``setup_hook``.
        self.services: Services | None = None
        self.store: Store | None = None
        self.control_handler: ControlHandler | None = None
        #: The loop's turns, shared with the store and the render pool: each click takes one before its work
        #: (``cogs.controls``).
        self.turns: Turns | None = None
        self._closing = False
        DeckhandBot._live.add(self)

    def _get_state(self, **options: Any) -> DeckhandState:
        """discord.py's connection state, made as the subclass whose interactions time their first answer."""
        return DeckhandState(recorder=self.recorder, dispatch=self.dispatch, handlers=self._handlers,
                             hooks=self._hooks, http=self.http, **options)

    # What tests and tools read of the graph (``store`` is a plain reference: None once closed).
    @property
    def tables(self) -> TableService | None:
        return self.services.tables if self.services else None

    @property
    def flow(self) -> TableFlow | None:
        return self.services.flow if self.services else None

    @property
    def scheduler(self) -> Scheduler | None:
        return self.services.scheduler if self.services else None

    @property
    def tournaments(self) -> TournamentService | None:
        return self.services.tournaments if self.services else None

    async def setup_hook(self) -> None:
        if not RENDER_POOL.started:
            RENDER_POOL.start()  # the workers load their fonts while the bot connects
        self.services = services = await compose(self, self.settings, self.guard, self.recorder)
        self.store = services.store
        self.add_dynamic_items(ActButton, ActSelect)
        self.control_handler = services.route_control
        self.turns = services.store.db.turns
        for cog in services.cogs:
            await self.add_cog(cog)
        # Command, option and choice names and descriptions in French and Ukrainian, from the catalogues.
        await self.tree.set_translator(CatalogueTranslator())
        # Registered through the tree's own API, with the cogs (SimCord, in the tests, wraps the tree's error
        # handler when it attaches, to collect errors nobody handled: these are each answered).
        self.tree.error(self.on_app_command_error)
        if self.settings.shards is not None and 0 not in self.settings.shards.ids:
            # Slash commands belong to the application, not to a shard: one process registers them for all
            # (each doing it would spend Discord's daily limit on command changes once per process).
            log.info("slash commands are registered by the process holding shard 0")
        else:
            await self.sync_commands()
        freeze_start_up_heap()

    async def registered_commands(self, app_id: int, guild: discord.Object | None) -> Any:
        """What Discord holds, with every language's names and descriptions: without ``with_localizations``
        Discord leaves ``name_localizations`` and ``description_localizations`` out (discord.py's own
        ``get_global_commands`` does not ask), so translated commands would never match and sync at every start."""
        path = ("/applications/{application_id}/guilds/{guild_id}/commands" if guild is not None
                else "/applications/{application_id}/commands")
        route = discord.http.Route("GET", path, application_id=app_id,
                                   **({"guild_id": guild.id} if guild is not None else {}))
        return await self.http.request(route, params={"with_localizations": "true"})

    async def sync_commands(self) -> bool:
        """Register the slash commands with Discord only when they differ from what it holds (one GET).

        Discord allows a few hundred command changes a day; syncing at every start spends them for
        nothing. SYNC_COMMANDS=force syncs at every start anyway, =off never. Returns whether it synced.
        """
        guild = discord.Object(id=self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        mode = self.settings.sync_commands
        if mode == "off":
            return False
        if mode != "force":
            try:
                app_id = self.application_id or (await self.application_info()).id
                registered = await self.registered_commands(app_id, guild)
                # The payloads tree.sync() would send (translated, when a translator is set).
                translator = self.tree.translator
                wanted = [await c.get_translated_payload(self.tree, translator) if translator else c.to_dict(self.tree)
                          for c in self.tree._get_all_commands(guild=guild)]
                if commands_match(wanted, registered):
                    log.info("slash commands unchanged: not synced")
                    return False
            except discord.HTTPException:
                log.warning("could not read the registered commands; syncing them", exc_info=True)
        await self.tree.sync(guild=guild)
        log.info("slash commands synced")
        return True

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        services = self.services
        if services is None:
            return
        for guild in self.guilds:  # the bot pace of each server, before any bot moves
            try:
                await services.server_settings.get(guild.id)
            except Exception:  # one server's settings must not keep every table waiting
                log.warning("could not read the settings of server %s", guild.id, exc_info=True)
            await self.locale_seen(guild)
        await services.flow.resume()
        await services.tournament_flow.resume()
        if not self._closing:
            services.scheduler.start()
            services.tournament_scheduler.start()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # A component that no DynamicItem will take (not ours, forged, garbled) is answered here.
        if controls.unhandled(interaction) and not interaction.response.is_done():
            await self.guard.run(interaction, lambda: tell(interaction, t(member_language(interaction), BAD_CONTROL)))
        # Every interaction tells the member's Discord language: direct messages will speak it.
        if self.services is not None and not self._closing:
            await remember_locale(self.services.languages, interaction)
        # An interaction in a channel that refused the bot's posts: tables the bot paused there play on
        # (``/game resume`` does it itself, with its own answer).
        services = self.services
        command = interaction.command.qualified_name if interaction.command is not None else ""
        # Only where Discord says the bot may post: an interaction's own answer goes through its webhook, which a
        # channel that denies the bot Send Messages still lets through, and a retry there would be one more
        # refused request (towards Discord's invalid-request ban) at every member's click.
        if services is not None and not self._closing and interaction.channel_id is not None and \
                permissions.can_post(bot_permissions(interaction),
                                     in_thread=isinstance(interaction.channel, discord.Thread)):
            await services.flow.reached(interaction.channel_id, regain=command != "game resume")

    async def on_message(self, message: discord.Message) -> None:
        """Nothing: Deckhand answers slash commands and components only, never a message or a mention."""

    # A changing server (cogs.flow): a deleted channel ends its tables; a removed server is left alone.
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        if self.services is not None:
            await self.services.flow.channel_deleted(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        if self.services is not None:
            await self.services.flow.channel_deleted(payload.thread_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        if self.services is not None:
            await self.services.flow.guild_removed(guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        if self.services is not None:
            await self.locale_seen(guild)
            await self.services.flow.guild_joined(guild.id)

    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        if before.preferred_locale != after.preferred_locale:
            await self.locale_seen(after)

    async def locale_seen(self, guild: discord.Guild) -> None:
        """Store the server's Discord language when it changed: ``python -m web`` reads it for ``auto``."""
        if self.services is None:
            return
        try:
            await self.services.server_locales.seen(guild.id, guild.preferred_locale.value
                                                    if guild.preferred_locale else None)
        except Exception:  # the pages would speak the last stored language; nothing else depends on it
            log.warning("could not store the Discord language of server %s", guild.id, exc_info=True)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.locale_seen(guild)  # a server seen again (each at start, after an outage) may have changed it
        # A re-invite can arrive as an available guild too; an outage's return is not a re-invite.
        if self.services is not None and guild.id in self.services.flow.access.gone_guilds:
            await self.services.flow.guild_joined(guild.id)

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """A slash command's failure, answered (the tree's error handler, registered in ``setup_hook``)."""
        lang = member_language(interaction)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t(lang, "Deckhand tables live in server channels, not in direct messages.")
        elif isinstance(error, app_commands.TransformerError):
            text = t(lang, "I couldn't use `{value}` there. Pick one of the choices Discord offers for that option.",
                     value=str(error.value)[:60])
        elif isinstance(error, app_commands.MissingPermissions):
            text = t(lang, "You need the Manage Server permission for that command.")
        elif isinstance(error, app_commands.CheckFailure):
            text = t(lang, "You can't use that command here.")
        else:
            log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            text = t(lang, APOLOGY)
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
        services = self.services
        if services is not None:
            await services.scheduler.close()
            await services.tournament_scheduler.close()
            await services.flow.tasks.close()  # a next round being seated, cut short: it resumes at the next start
        self.control_handler = None
        for cog in ("GameCog", "ConfigCog", "TournamentCog", "RatingsCog", "ProfileCog"):
            if self.get_cog(cog) is not None:
                await self.remove_cog(cog)
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None
        if services is not None:
            await asyncio.to_thread(services.bot_pool.close)
            await asyncio.to_thread(services.pairing.close)
        log.info("stopped cleanly")


_heap_frozen = False


def freeze_start_up_heap() -> None:
    """Once per process, when the first bot is set up: what exists then (modules, the command tree, fonts'
    tables, discord.py's internals) lives as long as the process, so it is moved out of the cyclic
    collector's sight (``gc.freeze``). A full collection then looks only at what the bot has made since, and
    the pause it puts into a burst of moves is much shorter.

    And the youngest generation is collected ten times less often: a move makes thousands of short-lived
    objects (payloads, rows, futures), and the default threshold ran a collection every few moves of a burst.
    bench/README.md has the figures."""
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

    def __init__(self, settings: Settings, recorder: Recorder = PROMETHEUS) -> None:
        assert settings.shards is not None
        super().__init__(settings, recorder, shard_count=settings.shards.count, shard_ids=list(settings.shards.ids))

    def _get_state(self, **options: Any) -> ShardedDeckhandState:
        return ShardedDeckhandState(recorder=self.recorder, dispatch=self.dispatch, handlers=self._handlers,
                                    hooks=self._hooks, http=self.http, **options)


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
