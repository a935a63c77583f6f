"""The long-game commands behind /game: the turn clock at /game new, resign, replace, pause, resume,
return, notify, mine, tables, log and replay. GameCog's methods are thin and delegate here."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

import render
from cogs.answers import defer
from cogs.flow import is_manager, reply
from cogs.guard import tell
from cogs.presenter import Outgoing, clock_line, collapse, deadline_note, drawn, lobby_message
from data.store import TableRecord
from engines import get_engine
from host import Refusal, SeatNotice
from host.durations import TURN_TIME_BOUNDS, parse_duration
from host.parsing import parse_options, whole_number
from host.replay import rebuild
from host.tables import seat_names

if TYPE_CHECKING:
    from cogs.game import GameCog

log = logging.getLogger(__name__)

THREAD_LIMIT = 160006
THREAD_NAME = 100


async def new_table(cog: GameCog, interaction: discord.Interaction, game_id: str, options: str | None,
                    turn_time: str | None, on_timeout: str | None, thread: bool | None) -> None:
    settings = await cog.settings.get(interaction.guild_id)
    channel = interaction.channel
    in_thread = isinstance(channel, discord.Thread)
    home = channel.parent_id if in_thread and isinstance(channel, discord.Thread) else interaction.channel_id
    if not settings.allows_channel(home or 0):
        allowed = " ".join(f"<#{c}>" for c in settings.game_channels)
        raise Refusal(f"Tables can't be opened here. This server plays in {allowed}.")
    parsed = parse_options(options)
    cog.tables.check_new(game_id, parsed)
    clock = (settings.turn_time if turn_time is None
             else parse_duration(turn_time, low=TURN_TIME_BOUNDS[0], high=TURN_TIME_BOUNDS[1]))
    policy = on_timeout or settings.on_timeout
    if policy not in ("bot", "forfeit"):
        raise Refusal("`on_timeout` is `bot` or `forfeit`.")
    use_thread = (settings.thread if thread is None else thread) and not in_thread
    title = get_engine(game_id).title
    target: Any = channel
    if use_thread:
        # Opening a thread, renaming it and posting the lobby are three REST calls (a 429 makes any of them
        # wait): answer "thinking" first. A refusal is still possible (no permission, the thread limit).
        await defer(interaction, ephemeral=True)
        target = await _open_thread(channel, f"{title} · new table")
    try:
        table = await cog.tables.create(
            guild_id=interaction.guild_id, channel_id=target.id if use_thread else interaction.channel_id or 0,
            game_id=game_id, options=parsed, user_id=interaction.user.id, user_name=interaction.user.display_name,
            turn_time=clock, on_timeout=policy, parent_id=interaction.channel_id if use_thread else None,
            lobby_timeout=settings.lobby_timeout)
    except BaseException:
        if use_thread:
            await target.delete()
        raise
    note = f"{interaction.user.mention} opened a **{title}** table."
    if not use_thread:
        await reply(interaction, lobby_message(table, note), ephemeral=False)
        return
    try:
        await target.edit(name=f"{title} #{table.id}"[:THREAD_NAME])
    except discord.HTTPException:
        log.warning("could not rename the thread of table %s", table.id)
    try:
        await target.send(**lobby_message(table, note).send_kwargs())
    except discord.HTTPException:
        # A lobby nobody can see would wait out its lobby_timeout in an empty thread: take both back.
        log.warning("could not post the lobby of table %s in its thread", table.id, exc_info=True)
        await cog.tables.abandon(target.id, interaction.user.id, True, table.id)
        with contextlib.suppress(discord.HTTPException):
            await target.delete()
        raise Refusal("I opened a thread but could not post in it: I need **Send Messages in Threads** in this "
                      "channel. No table was opened; try `thread:false`.") from None
    told = f"{note} It plays in {target.mention}: join there."
    await reply(interaction, Outgoing(told, mentions=discord.AllowedMentions.none()), ephemeral=True)
    try:  # the channel learns of it too (the answer after a private deferral is private)
        await channel.send(told, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("could not announce table %s in its channel", table.id)


async def _open_thread(channel: Any, name: str) -> Any:
    if not hasattr(channel, "create_thread"):  # e.g. a voice channel's text chat
        raise Refusal("Threads can't be opened in this kind of channel. No table was opened; try `thread:false`.")
    try:
        return await channel.create_thread(name=name[:THREAD_NAME], type=discord.ChannelType.public_thread,
                                           auto_archive_duration=10080)
    except discord.Forbidden:
        raise Refusal("I can't open a thread here: I need the **Create Public Threads** permission in this "
                      "channel. No table was opened; try `thread:false`.") from None
    except discord.HTTPException as exc:
        if exc.code == THREAD_LIMIT:
            raise Refusal("This server has reached Discord's limit of active threads, so I can't open one. "
                          "No table was opened; archive some threads or try `thread:false`.") from None
        raise Refusal(f"Discord refused to open a thread ({exc.status}). No table was opened; "
                      "try `thread:false`.") from None


async def show_notice(cog: GameCog, interaction: discord.Interaction, notice: SeatNotice) -> None:
    """Answer a seat change publicly with its lines, then post the table as it stands."""
    await interaction.response.send_message("\n".join(notice.lines)[:2000],
                                            allowed_mentions=discord.AllowedMentions(
                                                users=[discord.Object(u) for u in notice.mentions]))
    # The lines were the answer; the table messages follow.
    await cog.flow.show_notice(dataclasses.replace(notice, lines=[], mentions=[]), interaction.channel)


async def replace(cog: GameCog, interaction: discord.Interaction, player: discord.User | discord.Member,
                  new: discord.Member) -> None:
    if new.bot:
        raise Refusal("A seat goes to a member, not a bot; the table's own bots play timed-out seats.")
    notice = await cog.tables.replace_player(interaction.channel_id or 0, interaction.user.id,
                                             is_manager(interaction), player.id, new.id, new.display_name)
    await show_notice(cog, interaction, notice)


async def notify(cog: GameCog, interaction: discord.Interaction, dm: str) -> None:
    if dm not in ("on", "off"):
        raise Refusal("`dm` is `on` or `off`.")
    await cog.tables.store.set_dm_notify(interaction.user.id, dm == "on")
    text = ("I'll send you a direct message when it's your turn at any table, and at each reminder."
            if dm == "on" else "No more direct messages; you are still pinged in the table's channel.")
    await tell(interaction, text)


async def mine(cog: GameCog, interaction: discord.Interaction) -> None:
    tables = await cog.tables.store.tables_in_guild(interaction.guild_id or 0)
    uid = interaction.user.id
    rows: list[tuple[int, str]] = []
    for table in tables:
        seat = cog.tables.seat_of(table, uid)
        if seat is None:
            continue
        title = get_engine(table.game).title
        link = cog.flow.link(table)
        if table.status == "lobby":
            rows.append((2, f"**{title}** · table #{table.id} · lobby · {link}"))
            continue
        state = await cog.tables.state(table)
        to_act = get_engine(table.game).to_act(state)
        deadlines = await cog.flow.deadlines(table)
        paused = " · ⏸️ paused" if table.paused else ""
        if seat in to_act:
            rows.append((0, f"👉 **{title}** · table #{table.id} · **your turn**"
                            f"{deadline_note(deadlines.get(seat))}{paused} · {link}"))
        else:
            waiting = ", ".join(table.seats[s].name for s in to_act)
            soonest = min((d for s, d in deadlines.items() if s in to_act and d), default=None)
            rows.append((1, f"**{title}** · table #{table.id} · waiting for {waiting}{deadline_note(soonest)}"
                            f"{paused} · {link}"))
    if not rows:
        await tell(interaction, "You have no active tables in this server. `/game tables` lists open lobbies.")
        return
    rows.sort(key=lambda r: r[0])
    await tell(interaction, "**Your tables**\n" + "\n".join(text for _, text in rows[:20]))


async def list_tables(cog: GameCog, interaction: discord.Interaction) -> None:
    tables = await cog.tables.store.tables_in_guild(interaction.guild_id or 0)
    lobbies = [t for t in tables if t.status == "lobby"]
    running = [t for t in tables if t.status == "playing"]

    def line(t: TableRecord) -> str:
        engine = get_engine(t.game)
        seats = f"{len(t.seats)}/{engine.max_players}" if t.status == "lobby" else f"{len(t.seats)} players"
        return f"**{engine.title}** · table #{t.id} · {seats} · {clock_line(t)} · {cog.flow.link(t)}"

    parts = ["**Open lobbies** (anyone may join)", *(line(t) for t in lobbies[:10])] if lobbies else [
        "No open lobbies. Start one with `/game new`."]
    parts += ["", "**Running tables**", *(line(t) for t in running[:10])] if running else []
    await tell(interaction, "\n".join(parts))


async def history_table(cog: GameCog, interaction: discord.Interaction, table: int | None) -> TableRecord:
    """The channel's latest table, or ``table``: a table of this server."""
    if table is not None:
        found = await cog.tables.store.get_table(table)
        if found is None or found.guild_id != interaction.guild_id:
            raise Refusal(f"There is no table #{table} in this server.")
        return found
    found = await cog.tables.store.latest_table(interaction.channel_id or 0)
    if found is None:
        raise Refusal("This channel has had no table yet. Give a `table:` number to reach another one.")
    return found


async def game_log(cog: GameCog, interaction: discord.Interaction, table: int | None) -> None:
    record = await history_table(cog, interaction, table)
    await defer(interaction, ephemeral=True)  # a long game's log is thousands of lines to read and upload
    actions = await cog.tables.store.actions(record.id)
    engine = get_engine(record.game)
    lines = [f"{engine.title}, table #{record.id} ({record.status}), seats: "
             + ", ".join(f"{s.position + 1}. {s.name}" for s in record.seats), ""]
    for a in actions:
        # A text file is read outside Discord, so a plain UTC time, not a Discord timestamp.
        stamp = datetime.fromtimestamp(a.at, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
        lines.append(f"{a.version:>4}  {stamp} UTC  {a.label.replace('**', '')}")
        lines.extend(f"            {e.replace('**', '')}" for e in a.events)
    data = "\n".join(lines).encode()
    file = discord.File(io.BytesIO(data), filename=f"table-{record.id}-log.txt")
    await reply(interaction, Outgoing(f"The move list of table #{record.id} ({len(actions)} moves), "
                                      "public labels only.", [file]), ephemeral=True)


async def replay(cog: GameCog, interaction: discord.Interaction, move: int, table: int | None) -> None:
    record = await history_table(cog, interaction, table)
    if record.status == "lobby":
        raise Refusal("That table has not started yet.")
    actions = await cog.tables.store.actions(record.id)
    if not 0 <= move <= len(actions):
        raise Refusal(f"Table #{record.id} has moves 0 to {len(actions)}.")
    await defer(interaction, ephemeral=True)  # the replay and its picture take a moment
    engine = get_engine(record.game)
    state = rebuild(engine, record, actions[:move])
    names = seat_names(record)
    view = engine.view(state, None)
    last = collapse([a.label for a in actions[:move]])[-1:] or ["The deal"]
    image = await drawn(record.id, render.table_png, record.game, view, names, last[0].replace("**", ""))
    alt = render.alt_text(record.game, view, names, last[0].replace("**", ""))
    out = Outgoing(f"**{engine.title}** · table #{record.id} · after move {move}: {last[0]}"[:2000],
                   [discord.File(io.BytesIO(image), filename="table.png", description=alt[:1024])])
    await reply(interaction, out, ephemeral=True)


def parse_table_number(text: str | None) -> int | None:
    if text is None:
        return None
    number = whole_number(text.strip().lstrip("#"), 1, 2**63 - 1)
    if number is None:
        raise Refusal("`table` is a table number, like `12`.")
    return number
