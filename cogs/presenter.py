"""Turn host results into Discord messages: the table message, the hand panel, the lobby."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

import render
from cogs.controls import ActButton, ActSelect, stateless_view
from cogs.menu import NAV, Menu, build_menu
from cogs.web_links import table_link
from data.store import TableRecord
from engines import get_engine
from host import HandInfo, TableService
from host.durations import describe
from host.names import fill_names
from host.tables import bot_plays_note, seat_names
from render.pool import RenderPool

log = logging.getLogger(__name__)

MAX_CONTENT = 1900
LOBBY_VERBS = (("join", "Join", discord.ButtonStyle.success), ("leave", "Leave", discord.ButtonStyle.secondary),
               ("addbot", "Add bot", discord.ButtonStyle.secondary), ("start", "Start", discord.ButtonStyle.primary))


@dataclass
class Outgoing:
    """A message ready to send or to edit into place."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None
    embed: discord.Embed | None = None
    mentions: discord.AllowedMentions = field(default_factory=lambda: discord.AllowedMentions(
        everyone=False, roles=False, users=True))

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "allowed_mentions": self.mentions}
        if self.files:
            kwargs["files"] = self.files
        if self.view is not None:
            kwargs["view"] = self.view
        if self.embed is not None:
            kwargs["embed"] = self.embed
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "attachments": self.files, "view": self.view, "embed": self.embed,
                "allowed_mentions": self.mentions}


#: Table and hand images are drawn in worker processes, a table in its own one unless that is busier
#: (render/pool.py):
#: shared by every bot of the process, started by the first bot's set-up, stopped when the process ends.
RENDER_POOL = RenderPool()


async def drawn(table_id: int, fn: Callable[..., bytes], /, *args: Any) -> bytes:
    """``fn(*args)``, a PNG of table ``table_id``, drawn off the event loop in a render worker."""
    return await RENDER_POOL.draw(table_id, fn, *args)


def _png(data: bytes, name: str, description: str | None = None) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name, description=description[:1024] if description else None)


def clock_line(table: TableRecord) -> str:
    where = "a thread" if table.parent_id is not None else "this channel"
    if not table.turn_time:
        return f"turn_time: off · plays in {where}"
    return (f"turn_time: {describe(table.turn_time)} · on_timeout: {table.on_timeout} · plays in {where}"
            + (" · ⏸️ paused" if table.paused else ""))


def mention(table: TableRecord, seat: int) -> str:
    record = table.seats[seat]
    return f"<@{record.user_id}>" if record.user_id and not record.is_bot else f"**{record.name}**"


def placings(table: TableRecord, places: list[int]) -> str:
    order = sorted(range(len(places)), key=lambda s: (places[s], s))
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    return "\n".join(f"{medals.get(places[s], f'{places[s]}.')} {table.seats[s].name}" for s in order)


def _clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: "a card" in a repeated line becomes the count: "discards a card face down" ×7 → "discards 7 cards face down".
_A_CARD = re.compile(r"\ba card\b")


def collapse(lines: list[str]) -> list[str]:
    """Runs of one repeated public line read as one: "**carol** discards 7 cards face down", and
    lines that say no "a card" get the count after them: "**dave** bids 40 (×2)"."""
    out: list[str] = []
    count = 0
    for i, line in enumerate(lines):
        count += 1
        if i + 1 < len(lines) and lines[i + 1] == line:
            continue
        if count == 1:
            out.append(line)
        elif _A_CARD.search(line):
            out.append(_A_CARD.sub(f"{count} cards", line, count=1))
        else:
            out.append(f"{line} (×{count})")
        count = 0
    return out


def deadline_note(due: float | None) -> str:
    return f" ⏰ <t:{int(due)}:R>" if due is not None else ""


async def table_message(tables: TableService, table: TableRecord, lines: list[str], *,
                        deadlines: dict[int, float | None] | None = None) -> Outgoing:
    """The public table message: image, what just happened, whose turn (and until when), and Hand / act."""
    engine = get_engine(table.game)
    state = await tables.state(table)
    view = engine.view(state, None)
    names = seat_names(table)
    head = f"**{engine.title}** · table #{table.id} · move {table.version}"
    recent = collapse(lines)
    body = [head, *recent[-5:]]  # a phone shows about 8 lines: the rest is in the picture and /game log
    embed = None
    if table.status == "finished":
        body = [head, "🏁 **Game over!**", placings(table, await tables.places(table))]
        # The final move's full story (scoring breakdowns can be long) goes in an embed.
        embed = discord.Embed(title="Final result", description=_clip("\n".join(recent), 4000),
                              colour=discord.Colour.gold())
        controls = None
    elif table.status == "abandoned":
        body.append("This table was abandoned.")
        controls = None
    else:
        status = fill_names(str(view.get("status", "")), names)
        if status:
            body.append(f"*{status}*")
        turn = engine.to_act(state)
        due = deadlines or {}
        body.append("To act: " + ", ".join(mention(table, s) + deadline_note(due.get(s)) for s in turn))
        if table.paused:
            body.append("⏸️ Paused: no clock runs until `/game resume`.")
        controls = stateless_view()
        controls.add_item(ActButton(f"dh:h:{table.id}:{table.version}", "Hand / act",
                                    discord.ButtonStyle.primary))
    last = recent[-1].replace("**", "") if recent else None
    image = await drawn(table.id, render.table_png, table.game, view, names, last)
    alt = render.alt_text(table.game, view, names, last)
    return Outgoing(_clip("\n".join(body)), [_png(image, "table.png", alt)], table_link(controls, table), embed)


def hand_controls(info: HandInfo, prefix: str = "") -> discord.ui.View | None:
    if not info.choices:
        return None
    menu: Menu = build_menu(info.choices, prefix)
    table = info.table
    view = stateless_view()
    for action, label in menu.buttons:
        view.add_item(ActButton(f"dh:a:{table.id}:{table.version}:{action}", label[:80]))
    if menu.back:
        view.add_item(ActButton(f"dh:h:{table.id}:{table.version}", "◀ Back", discord.ButtonStyle.secondary))
    for i, spec in enumerate(menu.selects):
        options = [discord.SelectOption(label=label[:100], value=value,
                                        emoji="📂" if value.startswith(NAV) else None)
                   for value, label in spec.options]
        view.add_item(ActSelect(f"dh:s:{table.id}:{table.version}:{i}", spec.placeholder[:150], options))
    return view


def _hand_lines(info: HandInfo, note: str) -> list[str]:
    table = info.table
    engine = get_engine(table.game)
    names = seat_names(table)
    lines = [note] if note else []
    lines.append(f"**{engine.title}** · table #{table.id} · you are **{names[info.seat]}** (seat {info.seat + 1})")
    status = fill_names(str(info.view.get("status", "")), names)
    if status:
        lines.append(f"*{status}*")
    if table.status != "playing":
        lines.append("The game is over." if table.status == "finished" else "This table was abandoned.")
    elif table.seats[info.seat].bot_plays:
        lines.append(bot_plays_note(table.seats[info.seat]))
    elif info.choices:
        lines.append(f"Your move: {len(info.choices)} choice{'s' if len(info.choices) != 1 else ''} below, "
                     "or use `/play`.")
    else:
        lines.append("Waiting for " + ", ".join(names[s] for s in info.to_act) + ".")
    return lines


async def hand_message(info: HandInfo, prefix: str = "", note: str = "") -> Outgoing:
    """The seat's private panel: the hand image and the controls for its legal moves."""
    table = info.table
    engine = get_engine(table.game)
    names = seat_names(table)
    lines = _hand_lines(info, note)
    image = await drawn(table.id, render.hand_png, table.game, info.view, info.seat, names)
    alt = f"Your hand at {engine.title}, table #{table.id}. " + " ".join(lines[-2:]).replace("*", "")
    return Outgoing(_clip("\n".join(lines)), [_png(image, "hand.png", alt)], hand_controls(info, prefix))


def move_done_message(info: HandInfo, note: str) -> Outgoing:
    """After a move that leaves the seat nothing to do: what was done and whom the table waits for, in
    words. No hand image: the player cannot act on it, and drawing one for every move of every table
    doubled the work of a move (the next **Hand / act** shows the hand as it then is)."""
    lines = _hand_lines(info, note)
    if info.table.status == "playing":
        lines.append("Your hand: **Hand / act** on the table message.")
    return Outgoing(_clip("\n".join(lines)))


def lobby_message(table: TableRecord, note: str = "") -> Outgoing:
    engine = get_engine(table.game)
    embed = discord.Embed(title=f"{engine.title} · table #{table.id}",
                          description=f"Host: <@{table.host_id}>\n"
                                      f"Players {len(table.seats)}/{engine.max_players} "
                                      f"(needs {engine.min_players}+)",
                          colour=discord.Colour.green())
    embed.add_field(name="Seats", value="\n".join(
        ("🤖 " if s.is_bot else "• ") + s.name for s in table.seats) or "—", inline=False)
    options = ", ".join(f"{k}={str(v).lower()}" for k, v in sorted(table.options.items()))
    if options:
        embed.add_field(name="Options", value=options, inline=False)
    embed.add_field(name="Clock", value=clock_line(table), inline=False)
    embed.set_footer(text="Join with the button or /game join. The host starts with /game start.")
    view = stateless_view()
    if table.status == "lobby":
        for verb, label, style in LOBBY_VERBS:
            view.add_item(ActButton(f"dh:l:{table.id}:{verb}", label, style))
    return Outgoing(note, embed=embed, view=table_link(view, table), mentions=discord.AllowedMentions.none())
