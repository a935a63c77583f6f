"""The long-game messages behind /game: mine, tables, log and replay. Each formats what the long-game
service (host/long_games.py) read; none calls back into host."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import discord

from cogs.presenter import Outgoing, clock_line, collapse, deadline_note, link, picture_file
from host.read_models import LOBBY, MoveLog, MyTables, ReplayFrame, ServerTables, TableRow
from render.markup import escape_name, plain_text
from render.words import count

#: Rows shown at the most by /game mine, and per list by /game tables.
MINE_ROWS = 20
TABLES_ROWS = 10


def mine_text(mine: MyTables) -> str:
    if not mine.rows:
        return "You have no active tables in this server. `/game tables` lists open lobbies."
    lines = []
    for row in mine.rows[:MINE_ROWS]:
        head = f"**{row.title}** · table #{row.table_id}"
        paused = " · ⏸️ paused" if row.paused else ""
        if row.status == LOBBY:
            lines.append(f"{head} · lobby · {link(row.where)}")
        elif row.your_turn:
            lines.append(f"👉 {head} · **your turn**{deadline_note(row.due)}{paused} · {link(row.where)}")
        else:
            waiting = ", ".join(escape_name(n) for n in row.waiting_for)
            lines.append(f"{head} · waiting for {waiting}{deadline_note(row.due)}{paused} · {link(row.where)}")
    return "**Your tables**\n" + "\n".join(lines)


def table_line(row: TableRow) -> str:
    seats = f"{row.seats}/{row.max_players}" if row.status == LOBBY else count(row.seats, "player")
    return f"**{row.title}** · table #{row.table_id} · {seats} · {clock_line(row.clock)} · {link(row.where)}"


def tables_text(tables: ServerTables) -> str:
    parts = (["**Open lobbies** (anyone may join)", *(table_line(t) for t in tables.lobbies[:TABLES_ROWS])]
             if tables.lobbies else ["No open lobbies. Start one with `/game new`."])
    if tables.running:
        parts += ["", "**Running tables**", *(table_line(t) for t in tables.running[:TABLES_ROWS])]
    return "\n".join(parts)


def log_message(log: MoveLog) -> tuple[str, discord.File]:
    ended = f"{log.status}: {log.end_reason}" if log.end_reason else log.status
    lines = [f"{log.title}, table #{log.table_id} ({ended}), seats: "
             + ", ".join(f"{s.position + 1}. {s.name}" for s in log.seats), ""]
    for move in log.moves:
        # A text file is read outside Discord, so a plain UTC time, not a Discord timestamp.
        stamp = datetime.fromtimestamp(move.at, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
        lines.append(f"{move.version:>4}  {stamp} UTC  {plain_text(move.label)}")
        lines.extend(f"            {plain_text(e)}" for e in move.events)
    file = discord.File(io.BytesIO("\n".join(lines).encode()), filename=f"table-{log.table_id}-log.txt")
    why = f" It was abandoned: {log.end_reason}." if log.end_reason else ""
    return (f"The move list of table #{log.table_id} ({count(len(log.moves), 'move')}), public labels only.{why}",
            file)


async def replay_message(frame: ReplayFrame) -> Outgoing:
    last = collapse(list(frame.lines))[-1:] or ["The deal"]
    image = await picture_file(frame.picture, plain_text(last[0]))
    return Outgoing(f"**{frame.title}** · table #{frame.table_id} · after move {frame.move}: {last[0]}"[:2000],
                    [image])
