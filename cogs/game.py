"""Slash commands /game … and /play: open, join and run a table, and make moves."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import defer, reply
from cogs.controls import take_turn
from cogs.flow import BOT_SAT, JOINED, LEFT, TableFlow
from cogs.guard import Guard, bot_permissions, is_manager, tell
from cogs.locales import member_language, rules_file
from cogs.long_games import log_message_in_turns, mine_text, replay_message, tables_text
from cogs.presenter import Outgoing, clock_line, lobby_message, said, table_message
from cogs.rules_embed import rules_embed
from cogs.sight import sight_of
from cogs.threads import open_table_thread, require_thread_channel, thread_name
from host import HandPanel, LobbyChange, Refusal, SeatNotice, TableService, permissions
from host.catalog import GAMES, game_rules
from host.long_games import LongGameService, NewTable, parse_table_number
from host.outcomes import THREAD_REFUSED
from host.privacy import visible_mine, visible_tables
from host.read_models import LobbyMessage
from host.settings import ServerSettings
from host.table_feed import TableRecord
from i18n import N_, t, tn
from render.markup import escape_name, label_name
from render.words import article

log = logging.getLogger(__name__)

#: How long /play's suggestions may take; Discord waits 3 s for them.
AUTOCOMPLETE_SECONDS = 2.0

RULES_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
GAME_CHOICES = [app_commands.Choice(name=title, value=game) for game, title in GAMES]
LEVEL_CHOICES = [app_commands.Choice(name=name, value=name) for name in ("easy", "normal", "hard")]
TIMEOUT_CHOICES = [app_commands.Choice(name="bot: a bot plays the turn", value="bot"),
                   app_commands.Choice(name="forfeit: the player is out", value="forfeit")]


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="Create, join and run card game tables",
                              guild_only=True)

    def __init__(self, tables: TableService, long_games: LongGameService, guard: Guard, flow: TableFlow,
                 settings: ServerSettings) -> None:
        self.tables = tables
        self.long_games = long_games
        self.guard = guard
        self.flow = flow
        self.settings = settings

    # ------------------------------------------------------------------ lobby

    @game.command(name="new", description="Open a table for a game in this channel (or its own thread)")
    @app_commands.describe(game="Which game", options="Table options, e.g. max_turns=300 (see /game rules)",
                           turn_time="Time per turn: off, or e.g. 90s, 10m, 12h, 3d, 1d12h (30s to 14d)",
                           on_timeout="When a turn's time runs out: a bot plays it, or the player forfeits",
                           thread="Open the table in a thread of its own")
    @app_commands.choices(game=GAME_CHOICES, on_timeout=TIMEOUT_CHOICES)
    async def game_new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                       options: str | None = None, turn_time: str | None = None,
                       on_timeout: app_commands.Choice[str] | None = None, thread: bool | None = None) -> None:
        await self.guard.run(interaction, lambda: self._new_table(
            interaction, game.value, options, turn_time, on_timeout.value if on_timeout else None, thread))

    async def _new_table(self, interaction: discord.Interaction, game_id: str, options: str | None,
                         turn_time: str | None, on_timeout: str | None, thread: bool | None) -> None:
        channel = interaction.channel
        in_thread = isinstance(channel, discord.Thread)
        home = channel.parent_id if isinstance(channel, discord.Thread) else interaction.channel_id
        new = await self.long_games.check_new(interaction.guild_id, home or 0, in_thread, game_id, options,
                                              turn_time, on_timeout, thread, interaction.user.id)
        try:
            target, lobby = await self._make_lobby(interaction, new)
        except BaseException:
            # No table was opened: a refusal (bot permissions, no thread, a busy channel), Discord's error (the
            # "thinking…" answer refused) or any other: the cooldown is given back.
            self.long_games.not_opened(interaction.guild_id, interaction.user.id)
            raise
        lang = await self.flow.speakers.channel(interaction.guild_id)  # the lobby is the channel's
        note = (f"{interaction.user.mention} opened {article(new.title)} **{new.title}** table." if lang == "en"
                else t(lang, "{member} opened a **{title}** table.", member=interaction.user.mention,
                       title=new.title))
        if not new.in_own_thread:
            # From here on the table exists (it counts against max_open_tables): a lost answer keeps the cooldown.
            posted = await reply(interaction, lobby_message(lobby, note, lang), ephemeral=False, want_message=True)
            await self.flow.lobbies.remember(lobby.table_id, posted, lang=lang)
            return
        await self._lobby_in_thread(interaction, target, lobby, note, lang)

    async def _make_lobby(self, interaction: discord.Interaction, new: NewTable) -> tuple[Any, LobbyMessage]:
        """The lobby of a checked /game new, in the channel or a thread opened for it: (where, lobby)."""
        channel = interaction.channel
        permissions.require(bot_permissions(interaction), permissions.OPEN_TABLE, thread=new.in_own_thread)
        target: Any = channel
        if new.in_own_thread:
            require_thread_channel(channel)
            # Opening a thread, renaming it and posting the lobby are three REST calls (a 429 makes any of them
            # wait): answer "thinking" first. A refusal is still possible (no permission, the thread limit).
            await defer(interaction, ephemeral=True)
            lang = await self.flow.speakers.channel(interaction.guild_id)  # a thread name is the server's
            target = await open_table_thread(channel, t(lang, "{title} · new table", title=new.title))
        try:
            lobby = await self.long_games.create(
                new, guild_id=interaction.guild_id,
                channel_id=target.id if new.in_own_thread else interaction.channel_id or 0,
                parent_id=interaction.channel_id if new.in_own_thread else None,
                user_id=interaction.user.id, user_name=interaction.user.display_name)
        except BaseException:
            if new.in_own_thread:
                await target.delete()
            raise
        return target, lobby

    async def _lobby_in_thread(self, interaction: discord.Interaction, thread: Any, lobby: LobbyMessage,
                               note: str, lang: str) -> None:
        try:
            await thread.edit(name=thread_name(f"{lobby.title} #{lobby.table_id}"))
        except discord.HTTPException:
            log.warning("could not rename the thread of table %s", lobby.table_id)
        try:
            posted = await thread.send(**lobby_message(lobby, note, lang).send_kwargs())
        except discord.HTTPException:
            # A lobby nobody can see would wait out its lobby_timeout in an empty thread: take both back.
            log.warning("could not post the lobby of table %s in its thread", lobby.table_id, exc_info=True)
            await self.tables.abandon(thread.id, interaction.user.id, True, lobby.table_id, THREAD_REFUSED)
            self.long_games.not_opened(interaction.guild_id, interaction.user.id)  # taken back: no table opened
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
            raise Refusal(N_("I opened a thread but could not post in it: I need **Send Messages in Threads** in "
                             "this channel. No table was opened; try `{:thread:false}`.")) from None
        await self.flow.lobbies.remember(lobby.table_id, posted, lang=lang)
        told = f"{note} " + t(lang, "It plays in {thread}: join there.", thread=thread.mention)
        await reply(interaction, Outgoing(told, mentions=discord.AllowedMentions.none()), ephemeral=True)
        try:  # the channel learns of it too (the answer after a private deferral is private)
            await interaction.channel.send(told, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not announce table %s in its channel", lobby.table_id)

    @game_new.autocomplete("options")
    async def options_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None)
        rules = game_rules(str(game_id)) if game_id else None
        pairs = [f"{k}={str(v).lower()}" for k, v in (rules.default_options if rules else ())]
        suggestions = [current] if current else []
        suggestions += [" ".join(pairs), *pairs]
        # What the member typed is echoed back as a choice: shown as text, never as a mention.
        return [app_commands.Choice(name=label_name(s)[:100], value=s[:100])
                for s in dict.fromkeys(suggestions) if s][:25]

    async def _lobby_change(self, interaction: discord.Interaction,
                            change: Callable[[], Awaitable[LobbyChange]], note: str) -> None:
        async def work() -> None:
            # The note is a message id; the flow shows it in the server's language with the member's name.
            await self.flow.lobby_changed(interaction, await change(), note,
                                          player=escape_name(interaction.user.display_name))

        await self.guard.run(interaction, work)

    @game.command(name="join", description="Take a seat at this channel's table")
    async def game_join(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(interaction, lambda: self.tables.join(
            interaction.channel_id or 0, interaction.user.id, interaction.user.display_name), JOINED)

    @game.command(name="leave", description="Leave this channel's table before it starts")
    async def game_leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(interaction, lambda: self.tables.leave(
            interaction.channel_id or 0, interaction.user.id), LEFT)

    @game.command(name="addbot", description="Fill a seat with a bot player (host or Manage Server)")
    @app_commands.describe(level="easy plays by rules of thumb; normal and hard search (default: the server's)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def game_addbot(self, interaction: discord.Interaction,
                          level: app_commands.Choice[str] | None = None) -> None:
        async def change() -> LobbyChange:
            await self.settings.get(interaction.guild_id)  # the server's default level, cached for the bot seat
            return await self.tables.add_bot(interaction.channel_id or 0, interaction.user.id,
                                             is_manager(interaction), level=level.value if level else None)

        await self._lobby_change(interaction, change, BOT_SAT)

    @game.command(name="start", description="Deal the cards (host or Manage Server)")
    async def game_start(self, interaction: discord.Interaction) -> None:
        await self.guard.run(interaction, lambda: self.flow.start(interaction))

    @game.command(name="status", description="Show this channel's table")
    async def game_status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            shown = await self.long_games.status(interaction.channel_id or 0)
            lang = member_language(interaction)  # a private answer
            if isinstance(shown, LobbyMessage):
                await reply(interaction, lobby_message(shown, lang=lang), ephemeral=True)
                return
            out = await table_message(shown, lang)
            out.content = f"{out.content}\n{clock_line(shown.clock, lang)}"[:2000]
            await reply(interaction, out, ephemeral=True)

        await self.guard.run(interaction, work)

    @game.command(name="abandon", description="Close this channel's table (host or Manage Server)")
    async def game_abandon(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            table = await self.tables.abandon(interaction.channel_id or 0, interaction.user.id,
                                              is_manager(interaction))
            lang = await self.flow.speakers.channel(interaction.guild_id)  # a public answer
            await reply(interaction, Outgoing(t(lang, "Table #{table} was abandoned by {member}.", table=table.id,
                                                member=interaction.user.mention)), ephemeral=False)
            if table.snapshot is not None:  # a game in play: its last table message shows it closed
                await self.flow.post_table(table, [], interaction.channel)
            else:  # a lobby: its message no longer invites anyone
                await self.flow.lobbies.settle(table)

        await self.guard.run(interaction, work)

    @game.command(name="rules", description="A short summary of a game's rules")
    @app_commands.choices(game=GAME_CHOICES)
    async def game_rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async def work() -> None:
            rules = game_rules(game.value)
            if rules is None:
                raise Refusal(N_("I don't know a game called `{game}`."), game=game.value[:40])
            lang = member_language(interaction)  # a private answer
            embed = rules_embed(rules, lang)
            path = rules_file(RULES_DIR, game.value, lang)  # in the member's language
            files = [discord.File(path, filename=path.name)] if path.exists() else []
            await interaction.response.send_message(embed=embed, files=files, ephemeral=True)

        await self.guard.run(interaction, work)

    @game.command(name="bench", description="Look through the bench (Ogre Cheerleaders)")
    async def game_bench(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bench = await self.long_games.bench(interaction.channel_id or 0)
            lang = member_language(interaction)
            text = ", ".join(said(lang, card) for card in bench.cards) if bench.cards else t(lang, "empty")
            await tell(interaction, tn(lang, "**Bench** ({n} card, top first): {cards}",
                                       "**Bench** ({n} cards, top first): {cards}", len(bench.cards),
                                       cards=text)[:1900])

        await self.guard.run(interaction, work)

    # ------------------------------------------------------------- long games

    @game.command(name="resign", description="Give up your seat: you are placed last, and a bot plays on")
    async def game_resign(self, interaction: discord.Interaction) -> None:
        await self.guard.run(interaction, lambda: self._notice(interaction, self.tables.resign(
            interaction.channel_id or 0, interaction.user.id)))

    @game.command(name="replace", description="Hand a player's seat to another member (host or Manage Server)")
    @app_commands.describe(player="Whose seat", with_="Who takes it over")
    @app_commands.rename(with_="with")
    async def game_replace(self, interaction: discord.Interaction, player: discord.User,
                           with_: discord.Member) -> None:
        await self.guard.run(interaction, lambda: self._notice(interaction, self.tables.replace_player(
            interaction.channel_id or 0, interaction.user.id, is_manager(interaction), player.id, with_.id,
            with_.display_name, new_is_bot=with_.bot)))

    @game.command(name="pause", description="Stop this table's clocks (host or Manage Server)")
    async def game_pause(self, interaction: discord.Interaction) -> None:
        await self.guard.run(interaction, lambda: self._notice(interaction, self.tables.pause(
            interaction.channel_id or 0, interaction.user.id, is_manager(interaction))))

    @game.command(name="resume", description="Restart this table's clocks (host or Manage Server)")
    async def game_resume(self, interaction: discord.Interaction) -> None:
        await self.guard.run(interaction, lambda: self._notice(interaction, self.tables.resume(
            interaction.channel_id or 0, interaction.user.id, is_manager(interaction))))

    @game.command(name="return", description="Take your seat back from the bot that played it after timeouts")
    async def game_return(self, interaction: discord.Interaction) -> None:
        await self.guard.run(interaction, lambda: self._notice(interaction, self.tables.take_back(
            interaction.channel_id or 0, interaction.user.id)))

    async def _notice(self, interaction: discord.Interaction, change: Awaitable[SeatNotice]) -> None:
        """Answer a seat change publicly with its lines, then post the table as it stands."""
        notice = await change
        lang = await self.flow.speakers.channel(interaction.guild_id)  # a public answer: the server's language
        await interaction.response.send_message("\n".join(said(lang, line) for line in notice.lines)[:2000],
                                                allowed_mentions=discord.AllowedMentions(
                                                    users=[discord.Object(u) for u in notice.mentions]))
        # The lines were the answer; the table messages follow.
        await self.flow.show_notice(dataclasses.replace(notice, lines=[], mentions=[]), interaction.channel)

    @game.command(name="notify", description="Direct messages when it is your turn at any table")
    @app_commands.describe(dm="on: a DM at your turn and at each reminder; off: channel pings only")
    @app_commands.choices(dm=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")])
    async def game_notify(self, interaction: discord.Interaction, dm: str) -> None:
        async def work() -> None:
            on = await self.long_games.set_notify(interaction.user.id, dm)
            lang = member_language(interaction)
            await tell(interaction, t(lang, "I'll send you a direct message when it's your turn at any table, and at "
                                            "each reminder.") if on else
                       t(lang, "No more direct messages; you are still pinged in the table's channel."))

        await self.guard.run(interaction, work)

    @game.command(name="mine", description="Your active tables in this server, your turns first")
    async def game_mine(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            mine = await self.long_games.mine(interaction.guild_id, interaction.user.id)
            sight = await sight_of(interaction, (row.where.channel_id for row in mine.rows))
            await tell(interaction, mine_text(visible_mine(mine, sight), member_language(interaction)))

        await self.guard.run(interaction, work)

    @game.command(name="tables", description="This server's open lobbies and running tables")
    async def game_tables(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            tables = await self.long_games.server_tables(interaction.guild_id)
            sight = await sight_of(interaction, (row.where.channel_id for row in (*tables.lobbies, *tables.running)))
            await tell(interaction, tables_text(visible_tables(tables, sight), member_language(interaction)))

        await self.guard.run(interaction, work)

    @game.command(name="log", description="The move list of this channel's latest table, as a text file")
    @app_commands.describe(table="An older table of this server, by number")
    async def game_log(self, interaction: discord.Interaction, table: str | None = None) -> None:
        async def work() -> None:
            found = await self._history_table(interaction, table)
            await defer(interaction, ephemeral=True)  # a long game's log is thousands of lines to read and upload
            moves = await self.long_games.log_of(found)
            text, file = await log_message_in_turns(moves, lambda: take_turn(interaction), member_language(interaction))
            await reply(interaction, Outgoing(text, [file]), ephemeral=True)

        await self.guard.run(interaction, work)

    @game.command(name="replay", description="The table as it stood after a move (privately)")
    @app_commands.describe(move="Move number (0 = the deal)", table="An older table of this server, by number")
    async def game_replay(self, interaction: discord.Interaction, move: app_commands.Range[int, 0, 100000],
                          table: str | None = None) -> None:
        async def work() -> None:
            found = await self._history_table(interaction, table)
            self.long_games.check_replay(found, move)  # a lobby or a move past the last: refused before any defer
            await defer(interaction, ephemeral=True)  # the replay and its picture take a moment
            frame = await self.long_games.replay_of(found, move)
            await reply(interaction, await replay_message(frame, member_language(interaction)), ephemeral=True)

        await self.guard.run(interaction, work)

    async def _history_table(self, interaction: discord.Interaction, table: str | None) -> TableRecord:
        """The table /game log or /game replay shows: the channel's latest, or number ``table`` if the member
        can view its channel. Its refusals (a bad number, no table, a hidden one) come before any "thinking…":
        they need no REST call, but where the member's view of a channel is not cached (sight_of defers then)."""
        number = parse_table_number(table)
        channel = None if number is None else await self.long_games.table_channel(interaction.guild_id, number)
        sight = await sight_of(interaction, [] if channel is None else [channel])
        return await self.long_games.history_table(interaction.guild_id, interaction.channel_id or 0, number, sight)

    # ------------------------------------------------------------------- play

    @app_commands.command(name="play", description="Make a move at this channel's table")
    @app_commands.describe(action="Start typing: your legal moves are offered")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        async def work() -> None:
            table = await self.tables.require_table(interaction.channel_id or 0)
            outcome = await self.tables.act(table.id, interaction.user.id, action.strip())
            await self.flow.after_action(interaction, outcome, edit=False)

        await self.guard.run(interaction, work)

    @play.autocomplete("action")
    async def play_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        async def own_hand() -> HandPanel | None:
            table = await self.tables.table_in(interaction.channel_id or 0)
            if table is None or table.status != "playing":
                return None
            return await self.tables.hand(table.id, interaction.user.id, member_language(interaction))

        try:
            # Discord drops an autocomplete not answered within 3 s: offering nothing beats offering late.
            info = await asyncio.wait_for(own_hand(), AUTOCOMPLETE_SECONDS)
        except Refusal:
            return []
        except Exception:  # a suggestion list must never fail; /play itself says what is wrong
            log.warning("no /play suggestions (channel %s)", interaction.channel_id, exc_info=True)
            return []
        if info is None:
            return []
        needle = current.lower().strip()
        lang = member_language(interaction)  # the member's own suggestions
        labels = [(a, said(lang, label)) for a, label in info.choices]
        hits = [(a, label) for a, label in labels if needle in label.lower() or needle in a.lower()]
        return [app_commands.Choice(name=label[:100], value=a[:100]) for a, label in hits[:25]]
