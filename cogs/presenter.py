"""Turn host results into Discord messages: the table message, the hand panel, the lobby."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

import i18n
import render
from cogs.controls import ActButton, ActSelect, stateless_view, with_link
from cogs.menu import NAV, Menu, build_menu
from cogs.pictures import EarlyPictures, drawn
from host.read_models import (
    ABANDONED,
    FINISHED,
    GAVE_UP,
    LOBBY,
    PLAYING,
    TIMED_OUT,
    ClockView,
    HandPanel,
    LobbyMessage,
    Picture,
    Placing,
    ReminderMessage,
    SeatView,
    TableMessage,
    Where,
)
from i18n import N_, t, tn
from render.markup import escape_name, plain_text

log = logging.getLogger(__name__)

MAX_CONTENT = 1900
LOBBY_VERBS = (("join", N_("Join"), discord.ButtonStyle.success),
               ("leave", N_("Leave"), discord.ButtonStyle.secondary),
               ("addbot", N_("Add bot"), discord.ButtonStyle.secondary),
               ("start", N_("Start"), discord.ButtonStyle.primary))
#: The words of a table's messages when no language is given: English, the source language.
EN = i18n.DEFAULT


@dataclass
class Outgoing:
    """A message ready to send or to edit into place. It pings nobody unless ``mentions`` names them:
    the members to act, reminded or paired (never @everyone, @here or a role)."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None
    embed: discord.Embed | None = None
    mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)

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


def _png(data: bytes, name: str, description: str | None = None) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name, description=description[:1024] if description else None)


#: Why the bot paused a table by itself.
LOST_NOTE = N_("(Discord refused my messages in this channel)")


def clock_line(clock: ClockView, lang: str = EN) -> str:
    # The setting names and their values (turn_time, on_timeout, bot, forfeit) are what /game new takes: kept.
    where = t(lang, "plays in a thread") if clock.in_thread else t(lang, "plays in this channel")
    if clock.turn_time.seconds is None:
        return f"turn_time: off · {where}"
    paused = ""
    if clock.paused:
        paused = " · ⏸️ " + t(lang, "paused") + (" " + t(lang, LOST_NOTE) if clock.lost else "")
    return f"turn_time: {clock.turn_time} · on_timeout: {clock.on_timeout} · {where}{paused}"


def said(lang: str, text: str) -> str:
    """An engine's or the host's text (a move, an event, a status line) in ``lang``: its message when it was
    said from one, else its English text translated when the catalogues have it, else as it is."""
    return i18n.say_text(lang, text)


def mention(seat: SeatView) -> str:
    return f"<@{seat.user_id}>" if seat.user_id is not None else f"**{escape_name(seat.name)}**"


def pinged(users: Sequence[int | None]) -> discord.AllowedMentions:
    """Only these members may be pinged by a message."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in dict.fromkeys(users) if u is not None])


def placings(rows: Sequence[Placing]) -> str:
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    return "\n".join(f"{medals.get(p.place, f'{p.place}.')} {escape_name(p.name)}" for p in rows)


def _clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: "a card" in a repeated line becomes the count: "discards a card face down" ×7 → "discards 7 cards face down".
_A_CARD = re.compile(r"\ba card\b")


def collapse(lines: list[str], lang: str = EN) -> list[str]:
    """Runs of one repeated public line read as one: "**carol** discards 7 cards face down", and
    lines that say no "a card" get the count after them: "**dave** bids 40 (×2)". The lines are read in
    ``lang`` (the "a card" count is English's: another language's line gets the count after it)."""
    lines = [said(lang, line) for line in lines]
    out: list[str] = []
    count = 0
    for i, line in enumerate(lines):
        count += 1
        if i + 1 < len(lines) and lines[i + 1] == line:
            continue
        if count == 1:
            out.append(line)
        elif lang == EN and _A_CARD.search(line):
            out.append(_A_CARD.sub(f"{count} cards", line, count=1))
        else:
            out.append(f"{line} (×{count})")
        count = 0
    return out


def deadline(due: float) -> str:
    """A deadline as Discord shows it in the reader's own time: relative, then the date and time."""
    return f"<t:{int(due)}:R> (<t:{int(due)}:f>)"


def deadline_note(due: float | None) -> str:
    return f" ⏰ <t:{int(due)}:R>" if due is not None else ""


def _table_png_args(picture: Picture, last: str | None, lang: str) -> tuple[Any, ...]:
    return picture.game, picture.view, list(picture.names), last, picture.placings, lang


async def picture_file(picture: Picture, last: str | None, name: str = "table.png", lang: str = EN,
                       early: EarlyPictures | None = None) -> discord.File:
    """The public picture of a table, drawn off the event loop (or begun already, in ``early``), with its alt
    text."""
    args = _table_png_args(picture, last, lang)
    begun = early.take(picture.table_id, render.table_png, *args) if early is not None else None
    image = await begun if begun is not None else await drawn(picture.table_id, render.table_png, *args)
    return _png(image, name, render.alt_text(picture.game, picture.view, list(picture.names), last,
                                             picture.placings, lang))


def _last_line(recent: list[str]) -> str | None:
    return plain_text(recent[-1]) if recent else None  # the picture shows names as written


def begin_table_picture(table: TableMessage, early: EarlyPictures, lang: str = EN) -> None:
    """Start drawing the picture ``table_message(table, lang, early)`` will show, without waiting for it."""
    last = _last_line(collapse(list(table.lines), lang))
    early.begin(table.table_id, render.table_png, *_table_png_args(table.picture, last, lang))


def table_head(title: str, table_id: int, version: int, lang: str = EN) -> str:
    return t(lang, "**{title}** · table #{table} · move {move}", title=title, table=table_id, move=version)


async def table_message(table: TableMessage, lang: str = EN, early: EarlyPictures | None = None) -> Outgoing:
    """The public table message in the server's language ``lang``: image, what just happened, whose turn (and
    until when), and Hand / act. Its picture is the one begun in ``early`` when there is one."""
    head = table_head(table.title, table.table_id, table.version, lang)
    recent = collapse(list(table.lines), lang)
    body = [head, *recent[-5:]]  # a phone shows about 8 lines: the rest is in the picture and /game log
    embed = None
    if table.status == FINISHED:
        body = [head, "🏁 **" + t(lang, "Game over!") + "**", placings(table.placings)]
        # The standings head the embed; the final move's full story (scoring breakdowns can be long) follows.
        story = "\n".join(recent)
        embed = discord.Embed(title=t(lang, "Final result"), description=_clip(
            "\n\n".join(part for part in (placings(table.placings), story) if part), 4000),
            colour=discord.Colour.gold())
        controls = None
    elif table.status == ABANDONED:
        body.append(t(lang, "This table was abandoned."))
        # Finished-looking too: the result, which is none, heads the embed; the seats and the last story follow.
        seats = "\n".join(f"{i}. {escape_name(name)}" for i, name in enumerate(table.picture.names, start=1))
        embed = discord.Embed(title=t(lang, "No result"), description=_clip("\n\n".join(
            part for part in (t(lang, "Abandoned: nobody places, and no rating changes."), seats, "\n".join(recent))
            if part), 4000), colour=discord.Colour.dark_grey())
        controls = None
    else:
        if table.status_line:
            body.append(f"*{said(lang, table.status_line)}*")
        body.append(t(lang, "To act:") + " " + ", ".join(mention(a.seat) + deadline_note(a.due)
                                                         for a in table.to_act))
        if table.clock.lost:
            body.append("⏸️ " + t(lang, "Paused {why}: no clock runs until a post here succeeds or `{/game resume}`.",
                                  why=t(lang, LOST_NOTE)))
        elif table.clock.paused:
            body.append("⏸️ " + t(lang, "Paused: no clock runs until `{/game resume}`."))
        controls = stateless_view()
        controls.add_item(ActButton(f"dh:h:{table.table_id}:{table.version}", t(lang, "Hand / act"),
                                    discord.ButtonStyle.primary))
    return Outgoing(_clip("\n".join(body)), [await picture_file(table.picture, _last_line(recent), lang=lang,
                                                               early=early)],
                    with_link(controls, table.web_url, t(lang, "Web page")), embed,
                    pinged([a.seat.user_id for a in table.to_act]))


def hand_controls(info: HandPanel, prefix: str = "", lang: str = EN) -> discord.ui.View | None:
    if not info.choices:
        return None
    menu: Menu = build_menu([(action, said(lang, label)) for action, label in info.choices], prefix, lang)
    table = info
    view = stateless_view()
    for action, label in menu.buttons:
        view.add_item(ActButton(f"dh:a:{table.table_id}:{table.version}:{action}", label[:80]))
    if menu.back:
        view.add_item(ActButton(f"dh:h:{table.table_id}:{table.version}", "◀ " + t(lang, "Back"),
                                discord.ButtonStyle.secondary))
    for i, spec in enumerate(menu.selects):
        options = [discord.SelectOption(label=label[:100], value=value,
                                        emoji="📂" if value.startswith(NAV) else None)
                   for value, label in spec.options]
        view.add_item(ActSelect(f"dh:s:{table.table_id}:{table.version}:{i}", spec.placeholder[:150], options))
    return view


#: What a member's own seat says when the table's bot plays it.
BOT_PLAYS = {
    GAVE_UP: N_("You gave up this seat (a resignation or a forfeit): a bot plays it to the end of the game."),
    TIMED_OUT: N_("A bot plays your seat after three timeouts in a row. Type `{/game return}` to take it back."),
}


def _italic(line: str) -> bool:
    return line.startswith("*") and not line.startswith("**") and line.endswith("*")


def _hand_lines(info: HandPanel, note: str, lang: str = EN) -> list[str]:
    lines = [note] if note else []
    lines.append(t(lang, "**{title}** · table #{table} · you are **{name}** (seat {seat})", title=info.title,
                   table=info.table_id, name=escape_name(info.seat_name), seat=info.seat + 1))
    if info.status_line:
        lines.append(f"*{said(lang, info.status_line)}*")
    if info.status != PLAYING:
        lines.append(t(lang, "The game is over.") if info.status == FINISHED else t(lang, "This table was abandoned."))
    elif info.bot_plays is not None:
        lines.append(t(lang, BOT_PLAYS[info.bot_plays]))
    elif info.choices:
        lines.append(tn(lang, "Your move: {n} choice below, or use `{/play}`.",
                        "Your move: {n} choices below, or use `{/play}`.", len(info.choices)))
    else:
        lines.append(t(lang, "Waiting for {names}.", names=", ".join(escape_name(n) for n in info.waiting_for)))
    return lines


async def hand_message(info: HandPanel, prefix: str = "", note: str = "", lang: str = EN) -> Outgoing:
    """The seat's private panel in the member's language ``lang``: the hand image and the controls for its
    legal moves."""
    lines = _hand_lines(info, note, lang)
    picture = info.picture
    image = await drawn(info.table_id, render.hand_png, picture.game, picture.view, info.seat, list(picture.names),
                        lang)
    alt = (t(lang, "Your hand at {title}, table #{table}.", title=info.title, table=info.table_id) + " "
           + " ".join(plain_text(line[1:-1] if _italic(line) else line) for line in lines[-2:]))
    if info.due is not None and info.choices:
        # A noun, not a verb: Discord writes the time relative ("in 2 hours", "5 minutes ago"), so the line
        # reads right whenever the panel is looked at, before or after the deadline. Not in the alt text:
        # Discord does not turn <t:…> into a time there.
        lines.append("⏰ " + t(lang, "Your deadline: {when}", when=deadline(info.due)))
    return Outgoing(_clip("\n".join(lines)), [_png(image, "hand.png", alt)], hand_controls(info, prefix, lang))


def move_done_message(info: HandPanel, note: str, lang: str = EN) -> Outgoing:
    """After a move that leaves the seat nothing to do: what was done and whom the table waits for, in
    words. No hand image: the player cannot act on it, and drawing one for every move of every table
    doubled the work of a move (the next **Hand / act** shows the hand as it then is)."""
    lines = _hand_lines(info, note, lang)
    if info.status == PLAYING:
        lines.append(t(lang, "Your hand: **{button}** on the table message.", button=t(lang, "Hand / act")))
    return Outgoing(_clip("\n".join(lines)))


#: What a lobby message's footer says, by its table's status.
LOBBY_FOOTERS = {
    LOBBY: N_("Join with the button or {/game join}. The host starts with {/game start}."),
    PLAYING: N_("The game has started: it goes on in the table messages."),
    FINISHED: N_("This game is over: its final message has the result."),
    ABANDONED: N_("This table is closed."),
}


def lobby_message(lobby: LobbyMessage, note: str = "", lang: str = EN) -> Outgoing:
    """A table's lobby in ``lang`` (the server's, or the member's when only they see it)."""
    embed = discord.Embed(title=t(lang, "{title} · table #{table}", title=lobby.title, table=lobby.table_id),
                          description=t(lang, "Host: {host}", host=f"<@{lobby.host_id}>") + "\n"
                          + t(lang, "Players {seated}/{most} (needs {least}+)", seated=len(lobby.seats),
                              most=lobby.max_players, least=lobby.min_players),
                          colour=discord.Colour.green())
    embed.add_field(name=t(lang, "Seats"), value="\n".join(
        ("🤖 " if s.is_bot else "• ") + escape_name(s.name) for s in lobby.seats) or "—", inline=False)
    options = ", ".join(f"{k}={escape_name(str(v).lower())}" for k, v in lobby.options)
    if options:
        embed.add_field(name=t(lang, "Options"), value=options, inline=False)
    embed.add_field(name=t(lang, "Clock"), value=clock_line(lobby.clock, lang), inline=False)
    # Only an open lobby invites: once its table has gone on, the footer says what became of it.
    embed.set_footer(text=t(lang, LOBBY_FOOTERS.get(lobby.status, LOBBY_FOOTERS[LOBBY])))
    if lobby.status != LOBBY:
        embed.colour = discord.Colour.light_grey()
    view = stateless_view()
    if lobby.status == LOBBY:
        for verb, label, style in LOBBY_VERBS:
            view.add_item(ActButton(f"dh:l:{lobby.table_id}:{verb}", t(lang, label), style))
    return Outgoing(note, embed=embed, view=with_link(view, lobby.web_url, t(lang, "Web page")),
                    mentions=discord.AllowedMentions.none())


def link(where: Where) -> str:
    """A jump link to a table's newest message (or its channel or thread)."""
    if where.message_id:
        return f"https://discord.com/channels/{where.guild_id}/{where.channel_id}/{where.message_id}"
    return f"https://discord.com/channels/{where.guild_id}/{where.channel_id}"


def reminder_message(reminder: ReminderMessage, lang: str = EN) -> Outgoing:
    """⏰ who is reminded, at which table, and the deadline (Discord shows it in the reader's time, relative),
    in the server's language ``lang``."""
    text = "⏰ " + t(lang, "{members}: half your time is gone at table #{table} (deadline {when}). {link}",
                     members=" ".join(f"<@{u}>" for u in reminder.users), table=reminder.table_id,
                     when=f"<t:{int(reminder.due)}:R>", link=link(reminder.where))
    return Outgoing(text, mentions=pinged(reminder.users))
