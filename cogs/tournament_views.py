"""Tournament messages: the sign-up, a round's pairings, the standings (paged), the status, the end.

Each formats what the tournament service read; none calls back into ``host``.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import discord

from cogs.controls import ActButton, stateless_view, with_link
from cogs.presenter import Outgoing
from cogs.standings_pages import safe_name, standings_pages
from host.read_models import CUT, FORMAT_NAMES, PlaceInfo, RoundInfo, StandingRow, TournamentView
from render.markup import escape_name
from render.words import count

#: An embed's description holds 4096 characters; pairings are split into messages below that.
DESCRIPTION = 3900
FIELD = 1024
GOLD = discord.Colour.gold()


def _quiet() -> discord.AllowedMentions:
    return discord.AllowedMentions.none()


def format_line(state: TournamentView) -> str:
    r = state.record
    parts = [state.title, FORMAT_NAMES.get(r.format, r.format), f"tables of {r.table_size}"]
    if r.format not in ("single_elimination", "double_elimination"):
        parts.append(count(r.rounds, "round") if r.rounds else
                     ("⌈log₂ N⌉ rounds" if r.format == "swiss" else "every pair meets once"))
    if r.top_cut:
        parts.append(f"top cut {r.top_cut}" + (" (double elimination)" if r.top_cut_format == "double" else ""))
    return " · ".join(parts)


def clock_text(state: TournamentView) -> str:
    r = state.record
    text = f"{r.turn_time} a turn (a bot plays a turn that runs out)"
    if r.round_time.seconds:
        text += f"; each round lasts {r.round_time}"
    return text


def entrant_list(state: TournamentView) -> str:
    checkin = state.record.checkin
    waiting = {e.id for e in state.waiting}
    lines = []
    for e in state.entrants:
        if not e.active and state.record.status == "registration":
            continue
        mark = "🤖 " if e.is_bot else ("✅ " if checkin and e.checked_in else "• ")
        late = f" (joined late: {e.missed_rounds} round{'s' if e.missed_rounds != 1 else ''} lost)" \
            if e.missed_rounds else ""
        lines.append(mark + safe_name(e.name) + (" ⏳ waiting list" if e.id in waiting else "") + late)
    text = ""
    for i, line in enumerate(lines):
        more = f"\n… and {len(lines) - i} more"
        if len(text) + len(line) + 1 + len(more) > FIELD:
            return text + more
        text += ("\n" if text else "") + line
    return text or "Nobody yet."


def signup_message(state: TournamentView, note: str = "") -> Outgoing:
    r = state.record
    about = f"{format_line(state)}\nOrganiser: <@{r.organiser_id}>\nClock: {clock_text(state)}"
    about += "".join("\n" + line for line in rules_lines(state))
    embed = discord.Embed(title=f"🏆 {escape_name(r.name)}", colour=GOLD, description=about)
    options = ", ".join(f"{k}={str(v).lower()}" for k, v in sorted(r.options.items()))
    if options:
        embed.add_field(name="Table options", value=options[:FIELD], inline=False)
    count = len([e for e in state.entrants if e.active or r.status != "registration"])
    embed.add_field(name=f"Entrants ({count})", value=entrant_list(state), inline=False)
    view = stateless_view()
    if r.status == "registration":
        footer = "Join with the button or /tournament join. The organiser starts with /tournament start."
        if r.checkin:
            footer = "Check-in is open: entrants who have not checked in at the start are dropped. " + footer
        embed.set_footer(text=footer)
        view.add_item(ActButton(f"dh:t:{r.id}:join", "Join", discord.ButtonStyle.success))
        view.add_item(ActButton(f"dh:t:{r.id}:leave", "Leave", discord.ButtonStyle.secondary))
        if r.checkin:
            view.add_item(ActButton(f"dh:t:{r.id}:checkin", "Check in", discord.ButtonStyle.primary))
    else:
        embed.set_footer(text=f"Registration is closed ({r.status}). /tournament standings and /tournament status "
                              "follow the event.")
        view = None
    return Outgoing(note, embed=embed, view=with_link(view, r.web_url), mentions=_quiet())


def rules_lines(state: TournamentView) -> list[str]:
    """The start on the calendar and the registration rules, as the sign-up shows them."""
    r = state.record
    lines = []
    if r.starts_at is not None:
        when = int(r.starts_at)
        lines.append(f"Starts: <t:{when}:F> (<t:{when}:R>); check-in opens {count(r.checkin_minutes, 'minute')} before")
    if r.role_id is not None:
        lines.append(f"Entrants must hold <@&{r.role_id}>")
    if r.max_entrants is not None:
        waiting = len(state.waiting)
        lines.append(f"At most {count(r.max_entrants, 'entrant')}"
                     + (f"; {waiting} on the waiting list" if waiting else ""))
    if r.late_join_rounds:
        lines.append(f"Late entries until round {r.late_join_rounds} begins (each missed round is a loss)")
    return lines


def joined_text(state: TournamentView, user_id: int) -> str:
    """The private answer to a join: entered, on the waiting list, or entered late."""
    r = state.record
    mine = next((e for e in state.entrants if e.user_id == user_id), None)
    waiting = [e.user_id for e in state.waiting]
    if user_id in waiting:
        return (f"**{escape_name(r.name)}** is full ({count(r.max_entrants or 0, 'entrant')}): you are number "
                f"{waiting.index(user_id) + 1} on its waiting list, and move up when someone leaves before the start.")
    if mine is not None and mine.missed_rounds:
        return (f"You joined **{escape_name(r.name)}** late: round{'s' if mine.missed_rounds != 1 else ''} 1"
                f"{f'–{mine.missed_rounds}' if mine.missed_rounds > 1 else ''} count as a loss with no opponent, "
                "and you are paired from the next round.")
    active = len([e for e in state.entrants if e.active])
    return f"You are entered in **{escape_name(r.name)}** ({count(active, 'entrant')})."


def penalties_text(state: TournamentView) -> str:
    """Penalties and notes, for organisers only (``/tournament status`` answers privately)."""
    if not state.penalties:
        return ""
    names = {e.id: e.name for e in state.entrants}
    icons = {"warning": "⚠️ warning", "game_loss": "🟥 game loss", "disqualify": "⛔ disqualified", "note": "📝 note"}
    lines = [f"{icons.get(p.kind, p.kind)} · **{safe_name(names.get(p.entrant_id, '?'))}** · {escape_name(p.text)} "
             f"(<@{p.organiser_id}>, <t:{int(p.at)}:f>)" + (" · pending: their next table" if p.pending else "")
             for p in state.penalties]
    text = "\n**Penalties and notes** (organisers only):"
    for line in lines:
        if len(text) + len(line) > 1800:
            return text + "\n…"
        text += "\n" + line
    return text


def round_title(state: TournamentView, rnd: RoundInfo) -> str:
    if rnd.stage == CUT:
        cut_rounds = [x for x in state.rounds if x.stage == CUT]
        if state.record.table_size > 2:
            return "Top cut: the final table"
        return f"Top cut, round {cut_rounds.index(rnd) + 1}"
    if state.record.format in ("single_elimination", "double_elimination"):
        return f"Round {rnd.number}"
    return f"Round {rnd.number} of {state.record.rounds}"


def sides_text(place: PlaceInfo, names: Mapping[int, str]) -> str:
    joiner = " vs " if len(place.sides) == 2 else ", "
    return joiner.join(" & ".join(safe_name(names.get(e, "?")) for e in side) for side in place.sides)


def pairings_messages(state: TournamentView, rnd: RoundInfo, threads: Mapping[int, int]) -> list[Outgoing]:
    """The round's tables with a link to each thread, its byes and walkovers: one or more embeds."""
    names = state.names
    lines = []
    for place in state.round_places(rnd.number):
        if place.table_id is None:
            winner = [side for side, p in zip(place.sides, place.places or [], strict=False) if p == 1]
            who = " & ".join(safe_name(names.get(e, "?")) for e in (winner[0] if winner else []))
            lines.append(f"**Walkover**: {sides_text(place, names)} · {who} goes through (an opponent dropped)")
            continue
        thread = threads.get(place.table_id)
        where = f" · <#{thread}>" if thread else ""
        lines.append(f"**Table {place.position + 1}**{where}: {sides_text(place, names)}")
    byes = state.round_byes(rnd.number)
    if byes:
        bracket = state.record.format in ("single_elimination", "double_elimination")
        scored = " (1 point each)" if not bracket and rnd.stage != CUT else ""
        lines.append(f"**Bye**{scored}: " + ", ".join(safe_name(names.get(e, "?")) for e in byes))
    if rnd.due:
        lines.append(f"This round ends <t:{int(rnd.due)}:R>; then the organiser can `/tournament advance`.")
    chunks: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if size + len(line) + 1 > DESCRIPTION and chunks[-1]:
            chunks.append([])
            size = 0
        chunks[-1].append(line)
        size += len(line) + 1
    title = f"🏆 {escape_name(state.record.name)} · {round_title(state, rnd)}"
    out = []
    for i, chunk in enumerate(chunks):
        embed = discord.Embed(title=title if i == 0 else f"{title} (continued)", description="\n".join(chunk),
                              colour=GOLD)
        out.append(Outgoing("", embed=embed, mentions=_quiet()))
    return out


def standings_message(state: TournamentView, rows: Sequence[StandingRow], page: int, *,
                      title: str = "Standings") -> Outgoing:
    pages = standings_pages(rows, state.names, f"{escape_name(state.record.name)} · {title}")
    page = max(1, min(page, len(pages)))
    shown = pages[page - 1]
    embed = discord.Embed(title=shown.title[:256], description=shown.description, colour=GOLD)
    late = [e for e in state.entrants if e.missed_rounds]
    if late and page == len(pages):
        embed.description = ((embed.description or "") + "\n" + "\n".join(
            f"{safe_name(e.name)}: round{'s' if e.missed_rounds != 1 else ''} 1"
            f"{f'–{e.missed_rounds}' if e.missed_rounds > 1 else ''} lost with no opponent (joined late)"
            for e in late))[:4096]
    embed.set_footer(text=f"Ties: OPP, then OOPP, then a lot drawn at the start. {format_line(state)}"[:2048])
    view = None
    if len(pages) > 1:
        view = stateless_view()
        tid = state.record.id
        # Each button names the page it opens, so a click works after a restart with no view in memory.
        back = ActButton(f"dh:p:{tid}:{max(1, page - 1)}", "◀ Previous", discord.ButtonStyle.secondary)
        on = ActButton(f"dh:p:{tid}:{min(len(pages), page + 1)}", "Next ▶", discord.ButtonStyle.secondary)
        back.item.disabled = page == 1
        on.item.disabled = page == len(pages)
        view.add_item(back)
        view.add_item(on)
    return Outgoing("", embed=embed, view=with_link(view, state.record.web_url), mentions=_quiet())


def status_message(state: TournamentView, threads: Mapping[int, int]) -> Outgoing:
    r = state.record
    lines = [format_line(state), f"Clock: {clock_text(state)}"]
    if r.status == "registration":
        lines.append(f"Registration is open: {count(len(state.entrants), 'entrant')} so far.")
    current = state.current
    if current is not None and r.status in ("playing", "finished"):
        places = state.round_places(current.number)
        playing = [p for p in places if p.status != "finished"]
        lines.append(f"**{round_title(state, current)}**: {len(places) - len(playing)} of "
                     f"{count(len(places), 'table')} finished.")
        for place in places:
            mark = "✅" if place.status == "finished" else "▶️"
            thread = threads.get(place.table_id or 0)
            where = f" <#{thread}>" if thread else ""
            drawn = " (drawn: time ran out)" if place.drawn else ""
            lines.append(f"{mark} Table {place.position + 1}{where}: {sides_text(place, state.names)}{drawn}")
        if current.due and current.status == "playing":
            # A noun before the relative time: "runs out 5 minutes ago" would be false once it has passed.
            lines.append(f"Round deadline: <t:{int(current.due)}:R>.")
    if r.status == "finished" and r.champion:
        lines.append("🏆 Champion: " + " & ".join(safe_name(state.names.get(e, "?")) for e in r.champion))
    if r.status == "cancelled":
        lines.append("This tournament was cancelled.")
    text = ""
    for line in lines:
        if len(text) + len(line) + 1 > DESCRIPTION:
            text += "\n…"
            break
        text += ("\n" if text else "") + line
    embed = discord.Embed(title=f"🏆 {escape_name(r.name)} · {r.status}", description=text, colour=GOLD)
    return Outgoing("", embed=embed, view=with_link(None, r.web_url), mentions=_quiet())


def champion_line(state: TournamentView) -> str:
    if not state.record.champion:
        return f"**{escape_name(state.record.name)}** is over, with no champion: every player still in it dropped."
    names = " & ".join(f"**{safe_name(state.names.get(e, '?'))}**" for e in state.record.champion)
    return f"🏆 **{escape_name(state.record.name)}** is over. Champion: {names}!"


def bracket_file(png: bytes, alt: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename="bracket.png", description=alt[:1024])
