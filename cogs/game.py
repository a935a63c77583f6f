"""Slash commands (/game …, /play) and the handler behind every button and select."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import controls
from cogs.menu import NAV
from cogs.presenter import Outgoing, hand_message, lobby_message, table_message
from data.store import ActionRecord, TableRecord
from engines import GAME_IDS, GAME_TITLES, get_engine
from host import ActOutcome, Refusal, StaleClick, TableService

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=GAME_TITLES[g], value=g) for g in GAME_IDS]
APOLOGY = "Sorry, something went wrong on my side. The table is safe; please try again."
BAD_CONTROL = ("That control isn't one I recognise (it may be damaged). "
               "Use the table's **Hand / act** button or `/play` instead.")


def _parse_options(text: str | None) -> dict[str, Any]:
    """``"max_turns=300 allow_voluntary_take=false"`` → a dict; bad text raises Refusal."""
    options: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, raw = part.partition("=")
        if not sep or not key or not raw:
            raise Refusal(f"Options look like `name=value`; I couldn't read `{part[:40]}`.")
        low = raw.lower()
        if low in ("true", "yes", "on"):
            options[key] = True
        elif low in ("false", "no", "off"):
            options[key] = False
        elif raw.isdigit():
            options[key] = int(raw)
        else:
            raise Refusal(f"Option `{key[:40]}` needs a number or true/false.")
    return options


def _is_manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def _reply(interaction: discord.Interaction, out: Outgoing, *, ephemeral: bool) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **out.send_kwargs())
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **out.send_kwargs())


async def _tell(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="Create, join and run card game tables",
                              guild_only=True)

    def __init__(self, bot: commands.Bot, tables: TableService, bot_delay: float) -> None:
        self.bot = bot
        self.tables = tables
        self.bot_delay = bot_delay
        self._runners: dict[int, asyncio.Task[None]] = {}

    async def cog_load(self) -> None:
        controls.set_handler(self.on_control)

    async def cog_unload(self) -> None:
        controls.set_handler(None)
        for task in self._runners.values():
            task.cancel()

    # ------------------------------------------------------------ guard rails

    async def guarded(self, interaction: discord.Interaction, work: Callable[[], Awaitable[None]],
                      table_id: int | None = None) -> None:
        """Run ``work``; a Refusal becomes an ephemeral note, anything else an apology and a log line."""
        try:
            await work()
        except StaleClick as stale:
            await self.show_hand(interaction, stale.table_id, note=f"⏩ {stale}", fresh=True)
        except Refusal as refusal:
            await _tell(interaction, str(refusal))
        except Exception:
            log.exception("unexpected error (table %s, user %s)", table_id, interaction.user.id)
            try:
                await _tell(interaction, APOLOGY)
            except discord.HTTPException:
                log.warning("could not deliver the apology for table %s", table_id)

    # ------------------------------------------------------------------ lobby

    @game.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(game="Which game", options="Table options, e.g. max_turns=300 (see /game rules)")
    @app_commands.choices(game=GAME_CHOICES)
    async def game_new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                       options: str | None = None) -> None:
        async def work() -> None:
            table = await self.tables.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, game_id=game.value,
                options=_parse_options(options), user_id=interaction.user.id,
                user_name=interaction.user.display_name)
            note = f"{interaction.user.mention} opened a **{get_engine(table.game).title}** table."
            await _reply(interaction, lobby_message(table, note), ephemeral=False)

        await self.guarded(interaction, work)

    @game_new.autocomplete("options")
    async def options_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None)
        try:
            defaults = get_engine(str(game_id)).default_options if game_id else {}
        except (KeyError, ModuleNotFoundError):
            defaults = {}
        pairs = [f"{k}={str(v).lower()}" for k, v in defaults.items()]
        suggestions = [current] if current else []
        suggestions += [" ".join(pairs), *pairs]
        return [app_commands.Choice(name=s[:100], value=s[:100]) for s in dict.fromkeys(suggestions) if s][:25]

    async def _lobby_change(self, interaction: discord.Interaction,
                            change: Callable[[], Awaitable[TableRecord]], note: str) -> None:
        async def work() -> None:
            table = await change()
            if table.status == "abandoned":
                await _reply(interaction, Outgoing("Everyone left, so the table is closed."), ephemeral=False)
                return
            out = lobby_message(table, note)
            message = interaction.message
            if message is not None and not message.flags.ephemeral:
                await interaction.response.edit_message(**out.edit_kwargs())
            else:
                await _reply(interaction, out, ephemeral=False)

        await self.guarded(interaction, work)

    @game.command(name="join", description="Take a seat at this channel's table")
    async def game_join(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(interaction, lambda: self.tables.join(
            interaction.channel_id or 0, interaction.user.id, interaction.user.display_name),
            f"{interaction.user.display_name} joined.")

    @game.command(name="leave", description="Leave this channel's table before it starts")
    async def game_leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(interaction, lambda: self.tables.leave(
            interaction.channel_id or 0, interaction.user.id), f"{interaction.user.display_name} left.")

    @game.command(name="addbot", description="Fill a seat with a bot player (host only)")
    async def game_addbot(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(interaction, lambda: self.tables.add_bot(
            interaction.channel_id or 0, interaction.user.id, _is_manager(interaction)), "A bot sat down.")

    @game.command(name="start", description="Deal the cards (host only)")
    async def game_start(self, interaction: discord.Interaction) -> None:
        await self.guarded(interaction, lambda: self._start(interaction))

    async def _start(self, interaction: discord.Interaction) -> None:
        table = await self.tables.start(interaction.channel_id or 0, interaction.user.id, _is_manager(interaction))
        seats = ", ".join(f"{s.position + 1}. {s.name}" for s in table.seats)
        message = interaction.message
        if message is not None and not message.flags.ephemeral:
            await interaction.response.edit_message(**lobby_message(table, "The game has started.").edit_kwargs())
        else:
            await interaction.response.send_message(f"The game begins! Seats: {seats}")
        await self.post_table(table, [f"The game begins! Seats: {seats}"], interaction.channel)
        self.schedule_bots(table.id)

    @game.command(name="status", description="Show this channel's table")
    async def game_status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            table = await self.tables.require_table(interaction.channel_id or 0)
            if table.status == "lobby":
                await _reply(interaction, lobby_message(table), ephemeral=True)
                return
            recent = await self.tables.store.actions(table.id, max(0, table.version - 5))
            await _reply(interaction, await table_message(self.tables, table, _log_lines(recent)), ephemeral=True)

        await self.guarded(interaction, work)

    @game.command(name="abandon", description="Close this channel's table (host or Manage Server)")
    async def game_abandon(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            table = await self.tables.abandon(interaction.channel_id or 0, interaction.user.id,
                                              _is_manager(interaction))
            await _reply(interaction, Outgoing(f"Table #{table.id} was abandoned by {interaction.user.mention}."),
                         ephemeral=False)

        await self.guarded(interaction, work)

    @game.command(name="rules", description="A short summary of a game's rules")
    @app_commands.choices(game=GAME_CHOICES)
    async def game_rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async def work() -> None:
            engine = get_engine(game.value)
            embed = discord.Embed(title=f"{engine.title}: rules", description=engine.summary[:4000],
                                  colour=discord.Colour.blurple())
            embed.add_field(name="Players", value=f"{engine.min_players}–{engine.max_players}")
            if engine.default_options:
                embed.add_field(name="Table options (defaults)", value=", ".join(
                    f"`{k}={str(v).lower()}`" for k, v in engine.default_options.items()), inline=False)
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await self.guarded(interaction, work)

    @game.command(name="bench", description="Look through the bench (Ogre Cheerleaders)")
    async def game_bench(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            table = await self.tables.require_table(interaction.channel_id or 0)
            view = await self.tables.public_view(table) if table.status != "lobby" else {}
            if "bench" not in view:
                raise Refusal("This game has no bench.")
            bench = list(view["bench"])
            text = ", ".join(reversed(bench)) if bench else "empty"
            await _tell(interaction, f"**Bench** ({len(bench)} cards, top first): {text}"[:1900])

        await self.guarded(interaction, work)

    # ------------------------------------------------------------------- play

    @app_commands.command(name="play", description="Make a move at this channel's table")
    @app_commands.describe(action="Start typing: your legal moves are offered")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        async def work() -> None:
            table = await self.tables.require_table(interaction.channel_id or 0)
            outcome = await self.tables.act(table.id, interaction.user.id, action.strip())
            await self.after_action(interaction, outcome, edit=False)

        await self.guarded(interaction, work)

    @play.autocomplete("action")
    async def play_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        try:
            table = await self.tables.table_in(interaction.channel_id or 0)
            if table is None or table.status != "playing":
                return []
            info = await self.tables.hand(table.id, interaction.user.id)
        except Refusal:
            return []
        needle = current.lower().strip()
        hits = [(a, label) for a, label in info.choices if needle in label.lower() or needle in a.lower()]
        return [app_commands.Choice(name=label[:100], value=a) for a, label in hits[:25]]

    # --------------------------------------------------------------- controls

    async def on_control(self, interaction: discord.Interaction, custom_id: str, values: Sequence[str]) -> None:
        parts = custom_id.split(":", 4)
        table_id = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None

        async def work() -> None:
            kind = parts[1] if len(parts) > 1 else ""
            if table_id is None or kind not in ("h", "a", "s", "l"):
                raise Refusal(BAD_CONTROL)
            if kind == "l":
                await self._lobby_control(interaction, table_id, parts[3] if len(parts) > 3 else "")
                return
            if len(parts) < 4 or not parts[3].isdigit():
                raise Refusal(BAD_CONTROL)
            version = int(parts[3])
            if kind == "h":
                table = await self.tables.get(table_id)
                if table.status == "playing" and table.version != version:
                    raise StaleClick(table_id)
                await self.show_hand(interaction, table_id)
                return
            if kind == "a":
                if len(parts) < 5 or not parts[4]:
                    raise Refusal(BAD_CONTROL)
                action = parts[4]
            else:
                if len(values) != 1:
                    raise Refusal(BAD_CONTROL)
                action = values[0]
                if action.startswith(NAV):
                    table = await self.tables.get(table_id)
                    if table.version != version:
                        raise StaleClick(table_id)
                    await self.show_hand(interaction, table_id, prefix=action[len(NAV):])
                    return
            outcome = await self.tables.act(table_id, interaction.user.id, action, version)
            await self.after_action(interaction, outcome, edit=True)

        await self.guarded(interaction, work, table_id)

    async def _lobby_control(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        table = await self.tables.get(table_id)
        if table.channel_id != interaction.channel_id or table.status != "lobby":
            raise Refusal("That lobby is closed." if table.status != "lobby" else BAD_CONTROL)
        if verb == "start":
            await self._start(interaction)
            return
        channel_id, user = table.channel_id, interaction.user
        changes: dict[str, tuple[Callable[[], Awaitable[TableRecord]], str]] = {
            "join": (lambda: self.tables.join(channel_id, user.id, user.display_name), f"{user.display_name} joined."),
            "leave": (lambda: self.tables.leave(channel_id, user.id), f"{user.display_name} left."),
            "addbot": (lambda: self.tables.add_bot(channel_id, user.id, _is_manager(interaction)),
                       "A bot sat down."),
        }
        if verb not in changes:
            raise Refusal(BAD_CONTROL)
        change, note = changes[verb]
        table = await change()
        if table.status == "abandoned":
            await interaction.response.edit_message(content="Everyone left, so the table is closed.",
                                                    embed=None, view=None)
            return
        await interaction.response.edit_message(**lobby_message(table, note).edit_kwargs())

    async def show_hand(self, interaction: discord.Interaction, table_id: int, *, prefix: str = "",
                        note: str = "", fresh: bool = False) -> None:
        """The seat's private panel: edited in place from an ephemeral panel, else a new ephemeral."""
        info = await self.tables.hand(table_id, interaction.user.id)
        out = hand_message(info, prefix, note)
        message = interaction.message
        if not fresh and message is not None and message.flags.ephemeral and not interaction.response.is_done():
            await interaction.response.edit_message(**out.edit_kwargs())
        else:
            await _reply(interaction, out, ephemeral=True)

    async def after_action(self, interaction: discord.Interaction, outcome: ActOutcome, *, edit: bool) -> None:
        """Acknowledge the actor with their fresh panel, then tell the table."""
        info = await self.tables.hand(outcome.table.id, interaction.user.id)
        out = hand_message(info, note=f"✅ {outcome.line.replace('**', '')}")
        message = interaction.message
        if edit and message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(**out.edit_kwargs())
        else:
            await _reply(interaction, out, ephemeral=True)
        if outcome.turn_changed:
            await self.post_table(outcome.table, None, interaction.channel)
        self.schedule_bots(outcome.table.id)

    # --------------------------------------------------------- table + bots

    async def post_table(self, table: TableRecord, lines: list[str] | None,
                         channel: Any = None) -> None:
        """Post a fresh table message with everything since the last one."""
        if lines is None:
            lines = _log_lines(await self.tables.store.actions(table.id, table.posted_version))
        if channel is None or getattr(channel, "id", None) != table.channel_id:
            channel = self.bot.get_channel(table.channel_id) or await self.bot.fetch_channel(table.channel_id)
        out = await table_message(self.tables, table, lines)
        await channel.send(**out.send_kwargs())
        await self.tables.mark_posted(table)

    def schedule_bots(self, table_id: int) -> None:
        running = self._runners.get(table_id)
        if running is not None and not running.done():
            return
        self._runners[table_id] = asyncio.create_task(self._run_bots(table_id), name=f"bots-{table_id}")

    async def _run_bots(self, table_id: int) -> None:
        """Let bot seats move one at a time, paced so the channel stays readable."""
        try:
            while await self.tables.bots_to_act(table_id):
                await asyncio.sleep(self.bot_delay)
                outcome = await self.tables.bot_step(table_id)
                if outcome is None:
                    break
                if outcome.turn_changed:
                    await self.post_table(outcome.table, None)
        except Exception:
            log.exception("bot runner failed (table %s)", table_id)

    async def resume(self) -> None:
        """After a restart: let bots that were due to move carry on."""
        for table in await self.tables.store.playing_tables():
            if await self.tables.bots_to_act(table.id):
                self.schedule_bots(table.id)


def _log_lines(records: Sequence[ActionRecord]) -> list[str]:
    return [line for r in records for line in (r.label, *r.events)]
