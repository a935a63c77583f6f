"""The long-game messages behind /game: mine, tables, log and replay. Each formats what the long-game
service (host/long_games.py) read; none calls back into host."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime

import discord

import i18n
from cogs.presenter import Outgoing, clock_line, collapse, deadline_note, link, picture_file, said
from host.read_models import ABANDONED, FINISHED, LOBBY, PLAYING, MoveLog, MyTables, ReplayFrame, ServerTables, TableRow
from i18n import N_, t, tn
from render.markup import escape_name, plain_text

EN = i18n.DEFAULT
#: A table's status in words, in the log's heading.
STATUSES = {LOBBY: N_("lobby"), PLAYING: N_("playing"), FINISHED: N_("finished"), ABANDONED: N_("abandoned")}

#: Rows shown at the most by /game mine, and per list by /game tables.
MINE_ROWS = 20
TABLES_ROWS = 10


def mine_text(mine: MyTables, lang: str = EN) -> str:
    if not mine.rows:
        return t(lang, "You have no active tables in this server. `{/game tables}` lists open lobbies.")
    lines = []
    for row in mine.rows[:MINE_ROWS]:
        head = t(lang, "**{title}** · table #{table}", title=row.title, table=row.table_id)
        paused = " · ⏸️ " + t(lang, "paused") if row.paused else ""
        if row.status == LOBBY:
            lines.append(f"{head} · {t(lang, STATUSES[LOBBY])} · {link(row.where)}")
        elif row.your_turn:
            turn = t(lang, "your turn")
            lines.append(f"👉 {head} · **{turn}**{deadline_note(row.due)}{paused} · {link(row.where)}")
        else:
            waiting = t(lang, "waiting for {names}", names=", ".join(escape_name(n) for n in row.waiting_for))
            lines.append(f"{head} · {waiting}{deadline_note(row.due)}{paused} · {link(row.where)}")
    return "**" + t(lang, "Your tables") + "**\n" + "\n".join(lines)


def table_line(row: TableRow, lang: str = EN) -> str:
    seats = (f"{row.seats}/{row.max_players}" if row.status == LOBBY
             else tn(lang, "{n} player", "{n} players", row.seats))
    head = t(lang, "**{title}** · table #{table}", title=row.title, table=row.table_id)
    return f"{head} · {seats} · {clock_line(row.clock, lang)} · {link(row.where)}"


def tables_text(tables: ServerTables, lang: str = EN) -> str:
    lobbies = [table_line(r, lang) for r in tables.lobbies[:TABLES_ROWS]]
    parts = ([t(lang, "**Open lobbies** (anyone may join)"), *lobbies]
             if tables.lobbies else [t(lang, "No open lobbies. Start one with `{/game new}`.")])
    if tables.running:
        running = [table_line(r, lang) for r in tables.running[:TABLES_ROWS]]
        parts += ["", "**" + t(lang, "Running tables") + "**", *running]
    return "\n".join(parts)


def _stamp(at: float) -> str:
    # A text file is read outside Discord, so a plain UTC time, not a Discord timestamp.
    return datetime.fromtimestamp(at, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")


def _log_lines(log: MoveLog, lang: str) -> Iterator[str]:
    """The file's lines, one at a time: a long game's log is some 20,000 lines, each read in the member's
    language, too long to build in one turn of the event loop (``log_message_in_turns``)."""
    reason = said(lang, log.end_reason) if log.end_reason else ""
    status = t(lang, STATUSES.get(log.status, log.status))
    ended = f"{status}: {reason}" if reason else status
    yield t(lang, "{title}, table #{table} ({ended}), seats: {seats}", title=log.title, table=log.table_id,
            ended=ended, seats=", ".join(f"{s.position + 1}. {s.name}" for s in log.seats))
    yield ""
    # Each seat change after the move it followed (those before the first move first), with its own time and no
    # move number: it is not a move.
    changes: dict[int, list[str]] = {}
    first = log.moves[0].version if log.moves else None
    for change in log.changes:
        at = first - 1 if first is not None and change.version < first else change.version
        changes.setdefault(at, []).extend(f"      {_stamp(change.at)} UTC  {plain_text(said(lang, line))}"
                                          for line in change.lines)
    yield from changes.pop(first - 1, []) if first is not None else []
    for move in log.moves:
        yield f"{move.version:>4}  {_stamp(move.at)} UTC  {plain_text(said(lang, move.label))}"
        yield from (f"            {plain_text(said(lang, e))}" for e in move.events)
        yield from changes.pop(move.version, [])
    yield from (line for rest in changes.values() for line in rest)


def _log_answer(log: MoveLog, lang: str, lines: list[str]) -> tuple[str, discord.File]:
    file = discord.File(io.BytesIO("\n".join(lines).encode()), filename=f"table-{log.table_id}-log.txt")
    reason = said(lang, log.end_reason) if log.end_reason else ""
    why = " " + t(lang, "It was abandoned: {reason}.", reason=reason) if reason else ""
    return (tn(lang, "The move list of table #{table} ({n} move), public labels only.",
               "The move list of table #{table} ({n} moves), public labels only.", len(log.moves),
               table=log.table_id) + why, file)


def log_message(log: MoveLog, lang: str = EN) -> tuple[str, discord.File]:
    """A table's move list as a text file: its headings in ``lang`` (the member's), each move's public line
    read in that language when it was said from a message."""
    return _log_answer(log, lang, list(_log_lines(log, lang)))


#: Lines built between two looks at the loop's turn (``log_message_in_turns``): some 0.2 ms of work.
LINES_PER_LOOK = 50


async def log_message_in_turns(log: MoveLog, take_turn: Callable[[], Awaitable[None]],
                               lang: str = EN) -> tuple[str, discord.File]:
    """``log_message``, built across the event loop's turns: ``take_turn`` (the store's shared turns) is
    awaited every ``LINES_PER_LOOK`` lines, so other members' clicks are served while a 20,000-move log is
    read out (in one go it held the loop for 100 ms)."""
    lines: list[str] = []
    for line in _log_lines(log, lang):
        if len(lines) % LINES_PER_LOOK == 0:
            await take_turn()
        lines.append(line)
    return _log_answer(log, lang, lines)


async def replay_message(frame: ReplayFrame, lang: str = EN) -> Outgoing:
    last = collapse(list(frame.lines), lang)[-1:] or [t(lang, "The deal")]
    image = await picture_file(frame.picture, plain_text(last[0]), lang=lang)
    return Outgoing(t(lang, "**{title}** · table #{table} · after move {move}: {last}", title=frame.title,
                      table=frame.table_id, move=frame.move, last=last[0])[:2000], [image])
