"""Tournament messages: the sign-up, a round's pairings, the standings (paged), the status, the end.

Each formats what the tournament service read; none calls back into ``host``. Each is given the language it
speaks: the server's for what the channel reads (sign-up, pairings, standings, status), the member's for a
private answer (the join answer, the penalties shown to an organiser).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import discord

from cogs.controls import ActButton, stateless_view, with_link
from cogs.presenter import Outgoing
from cogs.standings_pages import safe_name, standings_pages
from host.read_models import CUT, FORMAT_NAMES, PlaceInfo, RoundInfo, StandingRow, TournamentView
from i18n import DEFAULT, N_, number, t, tn
from render.markup import escape_name

#: An embed's description holds 4096 characters; pairings are split into messages below that.
DESCRIPTION = 3900
FIELD = 1024
GOLD = discord.Colour.gold()


def _quiet() -> discord.AllowedMentions:
    return discord.AllowedMentions.none()


def format_name(lang: str, fmt: str) -> str:
    """A format's name in ``lang`` ("Swiss", "Ronde suisse")."""
    return t(lang, FORMAT_NAMES[fmt]) if fmt in FORMAT_NAMES else fmt


def format_line(state: TournamentView, lang: str = DEFAULT) -> str:
    r = state.record
    parts = [state.title, format_name(lang, r.format), t(lang, "tables of {size}", size=r.table_size)]
    if r.format not in ("single_elimination", "double_elimination"):
        parts.append(tn(lang, "{n} round", "{n} rounds", r.rounds) if r.rounds else
                     (t(lang, "⌈log₂ N⌉ rounds") if r.format == "swiss" else t(lang, "every pair meets once")))
    if r.top_cut:
        parts.append(t(lang, "top cut {size} (double elimination)", size=r.top_cut) if r.top_cut_format == "double"
                     else t(lang, "top cut {size}", size=r.top_cut))
    return " · ".join(parts)


def clock_text(state: TournamentView, lang: str = DEFAULT) -> str:
    # Durations stay in the notation members type (1h 30m), the same in every language.
    r = state.record
    text = t(lang, "{time} a turn (a bot plays a turn that runs out)", time=r.turn_time)
    if r.round_time.seconds:
        text += t(lang, "; each round lasts {time}", time=r.round_time)
    return text


def entrant_list(state: TournamentView, lang: str = DEFAULT) -> str:
    checkin = state.record.checkin
    waiting = {e.id for e in state.waiting}
    lines = []
    for e in state.entrants:
        if not e.active and state.record.status == "registration":
            continue
        mark = "🤖 " if e.is_bot else ("✅ " if checkin and e.checked_in else "• ")
        late = tn(lang, " (joined late: {n} round lost)", " (joined late: {n} rounds lost)", e.missed_rounds) \
            if e.missed_rounds else ""
        lines.append(mark + safe_name(e.name) + (t(lang, " ⏳ waiting list") if e.id in waiting else "") + late)
    text = ""
    for i, line in enumerate(lines):
        more = "\n" + t(lang, "… and {n} more", n=number(lang, len(lines) - i))
        if len(text) + len(line) + 1 + len(more) > FIELD:
            return text + more
        text += ("\n" if text else "") + line
    return text or t(lang, "Nobody yet.")


#: A tournament's status as its messages name it (the stored value is English, for the log and operators).
STATUS_NAMES = {"registration": N_("registration"), "playing": N_("playing"), "finished": N_("finished"),
                "cancelled": N_("cancelled")}


def status_name(lang: str, status: str) -> str:
    return t(lang, STATUS_NAMES[status]) if status in STATUS_NAMES else status


def signup_message(state: TournamentView, note: str = "", lang: str = DEFAULT) -> Outgoing:
    r = state.record
    about = "\n".join((format_line(state, lang), t(lang, "Organiser: <@{user}>", user=r.organiser_id),
                       t(lang, "Clock: {clock}", clock=clock_text(state, lang))))
    about += "".join("\n" + line for line in rules_lines(state, lang))
    embed = discord.Embed(title=f"🏆 {escape_name(r.name)}", colour=GOLD, description=about)
    options = ", ".join(f"{k}={str(v).lower()}" for k, v in sorted(r.options.items()))
    if options:
        embed.add_field(name=t(lang, "Table options"), value=options[:FIELD], inline=False)
    count = len([e for e in state.entrants if e.active or r.status != "registration"])
    embed.add_field(name=t(lang, "Entrants ({n})", n=number(lang, count)), value=entrant_list(state, lang),
                    inline=False)
    view = stateless_view()
    if r.status == "registration":
        footer = t(lang, "Join with the button or {/tournament join}. The organiser starts with {/tournament start}.")
        if r.checkin:
            footer = t(lang, "Check-in is open: entrants who have not checked in at the start are dropped.") + " " \
                + footer
        embed.set_footer(text=footer)
        view.add_item(ActButton(f"dh:t:{r.id}:join", t(lang, "Join"), discord.ButtonStyle.success))
        view.add_item(ActButton(f"dh:t:{r.id}:leave", t(lang, "Leave"), discord.ButtonStyle.secondary))
        if r.checkin:
            view.add_item(ActButton(f"dh:t:{r.id}:checkin", t(lang, "Check in"), discord.ButtonStyle.primary))
    else:
        embed.set_footer(text=t(lang, "Registration is closed ({status}). {/tournament standings} and "
                                      "{/tournament status} follow the event.", status=status_name(lang, r.status)))
        view = None
    return Outgoing(note, embed=embed, view=with_link(view, r.web_url, t(lang, "Web page")), mentions=_quiet())


def rules_lines(state: TournamentView, lang: str = DEFAULT) -> list[str]:
    """The start on the calendar and the registration rules, as the sign-up shows them."""
    r = state.record
    lines = []
    if r.starts_at is not None:
        when = int(r.starts_at)
        lines.append(tn(lang, "Starts: <t:{when}:F> (<t:{when}:R>); check-in opens {n} minute before",
                        "Starts: <t:{when}:F> (<t:{when}:R>); check-in opens {n} minutes before",
                        r.checkin_minutes, when=when))
    if r.role_id is not None:
        lines.append(t(lang, "Entrants must hold <@&{role}>", role=r.role_id))
    if r.max_entrants is not None:
        waiting = len(state.waiting)
        lines.append(tn(lang, "At most {n} entrant", "At most {n} entrants", r.max_entrants)
                     + (t(lang, "; {n} on the waiting list", n=number(lang, waiting)) if waiting else ""))
    if r.late_join_rounds:
        lines.append(t(lang, "Late entries until round {round} begins (each missed round is a loss)",
                       round=r.late_join_rounds))
    return lines


def missed_rounds(lang: str, missed: int) -> str:
    """The rounds a late entrant lost: "round 1", "rounds 1–3"."""
    return t(lang, "round 1") if missed == 1 else t(lang, "rounds 1–{last}", last=missed)


def joined_text(state: TournamentView, user_id: int, lang: str = DEFAULT) -> str:
    """The private answer to a join: entered, on the waiting list, or entered late."""
    r = state.record
    mine = next((e for e in state.entrants if e.user_id == user_id), None)
    waiting = [e.user_id for e in state.waiting]
    name = escape_name(r.name)
    if user_id in waiting:
        return tn(lang, "**{name}** is full ({n} entrant): you are number {place} on its waiting list, and move up "
                        "when someone leaves before the start.",
                  "**{name}** is full ({n} entrants): you are number {place} on its waiting list, and move up "
                  "when someone leaves before the start.", r.max_entrants or 0, name=name,
                  place=waiting.index(user_id) + 1)
    if mine is not None and mine.missed_rounds:
        return tn(lang, "You joined **{name}** late: {rounds} counts as a loss with no opponent, and you are paired "
                        "from the next round.",
                  "You joined **{name}** late: {rounds} count as a loss with no opponent, and you are paired "
                  "from the next round.", mine.missed_rounds, name=name,
                  rounds=missed_rounds(lang, mine.missed_rounds))
    active = len([e for e in state.entrants if e.active])
    return tn(lang, "You are entered in **{name}** ({n} entrant).", "You are entered in **{name}** ({n} entrants).",
              active, name=name)


#: A penalty's kind as the organisers read it.
PENALTY_ICONS = {"warning": N_("⚠️ warning"), "game_loss": N_("🟥 game loss"), "disqualify": N_("⛔ disqualified"),
                 "note": N_("📝 note")}


def penalties_text(state: TournamentView, lang: str = DEFAULT) -> str:
    """Penalties and notes, for organisers only (``/tournament status`` answers privately)."""
    if not state.penalties:
        return ""
    names = {e.id: e.name for e in state.entrants}
    lines = [f"{t(lang, PENALTY_ICONS[p.kind]) if p.kind in PENALTY_ICONS else p.kind} · "
             f"**{safe_name(names.get(p.entrant_id, '?'))}** · {escape_name(p.text)} "
             f"(<@{p.organiser_id}>, <t:{int(p.at)}:f>)"
             + (t(lang, " · pending: their next table") if p.pending else "")
             for p in state.penalties]
    text = "\n" + t(lang, "**Penalties and notes** (organisers only):")
    for line in lines:
        if len(text) + len(line) > 1800:
            return text + "\n…"
        text += "\n" + line
    return text


def round_title(state: TournamentView, rnd: RoundInfo, lang: str = DEFAULT) -> str:
    if rnd.stage == CUT:
        cut_rounds = [x for x in state.rounds if x.stage == CUT]
        if state.record.table_size > 2:
            return t(lang, "Top cut: the final table")
        return t(lang, "Top cut, round {number}", number=cut_rounds.index(rnd) + 1)
    if state.record.format in ("single_elimination", "double_elimination"):
        return t(lang, "Round {number}", number=rnd.number)
    return t(lang, "Round {number} of {rounds}", number=rnd.number, rounds=state.record.rounds)


def sides_text(place: PlaceInfo, names: Mapping[int, str], lang: str = DEFAULT) -> str:
    joiner = t(lang, " vs ") if len(place.sides) == 2 else ", "
    return joiner.join(" & ".join(safe_name(names.get(e, "?")) for e in side) for side in place.sides)


def pairings_messages(state: TournamentView, rnd: RoundInfo, threads: Mapping[int, int],
                      lang: str = DEFAULT) -> list[Outgoing]:
    """The round's tables with a link to each thread, its byes and walkovers: one or more embeds."""
    names = state.names
    lines = []
    for place in state.round_places(rnd.number):
        if place.table_id is None:
            winner = [side for side, p in zip(place.sides, place.places or [], strict=False) if p == 1]
            who = " & ".join(safe_name(names.get(e, "?")) for e in (winner[0] if winner else []))
            lines.append(t(lang, "**Walkover**: {sides} · {who} goes through (an opponent dropped)",
                           sides=sides_text(place, names, lang), who=who))
            continue
        thread = threads.get(place.table_id)
        where = f" · <#{thread}>" if thread else ""
        lines.append(t(lang, "**Table {number}**", number=place.position + 1) + f"{where}: "
                     + sides_text(place, names, lang))
    byes = state.round_byes(rnd.number)
    if byes:
        bracket = state.record.format in ("single_elimination", "double_elimination")
        who = ", ".join(safe_name(names.get(e, "?")) for e in byes)
        lines.append(t(lang, "**Bye** (1 point each): {who}", who=who) if not bracket and rnd.stage != CUT
                     else t(lang, "**Bye**: {who}", who=who))
    if rnd.due:
        lines.append(t(lang, "Round deadline: <t:{when}:R>; then the organiser can `{/tournament advance}`.",
                       when=int(rnd.due)))
    chunks: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if size + len(line) + 1 > DESCRIPTION and chunks[-1]:
            chunks.append([])
            size = 0
        chunks[-1].append(line)
        size += len(line) + 1
    title = f"🏆 {escape_name(state.record.name)} · {round_title(state, rnd, lang)}"
    out = []
    for i, chunk in enumerate(chunks):
        embed = discord.Embed(title=title if i == 0 else t(lang, "{title} (continued)", title=title),
                              description="\n".join(chunk),
                              colour=GOLD)
        out.append(Outgoing("", embed=embed, mentions=_quiet()))
    return out


def standings_message(state: TournamentView, rows: Sequence[StandingRow], page: int, *,
                      title: str = N_("Standings"), lang: str = DEFAULT) -> Outgoing:
    """A page of the standings; ``title`` is a message id ("Standings", "Final standings")."""
    pages = standings_pages(rows, state.names, f"{escape_name(state.record.name)} · {t(lang, title)}", lang=lang)
    page = max(1, min(page, len(pages)))
    shown = pages[page - 1]
    embed = discord.Embed(title=shown.title[:256], description=shown.description, colour=GOLD)
    late = [e for e in state.entrants if e.missed_rounds]
    if late and page == len(pages):
        embed.description = ((embed.description or "") + "\n" + "\n".join(
            f"{safe_name(e.name)}: " + t(lang, "{rounds} lost with no opponent (joined late)",
                                         rounds=missed_rounds(lang, e.missed_rounds))
            for e in late))[:4096]
    embed.set_footer(text=(t(lang, "Ties: OPP, then OOPP, then a lot drawn at the start.") + " "
                           + format_line(state, lang))[:2048])
    view = None
    if len(pages) > 1:
        view = stateless_view()
        tid = state.record.id
        # Each button names the page it opens, so a click works after a restart with no view in memory.
        back = ActButton(f"dh:p:{tid}:{max(1, page - 1)}", t(lang, "◀ Previous"), discord.ButtonStyle.secondary)
        on = ActButton(f"dh:p:{tid}:{min(len(pages), page + 1)}", t(lang, "Next ▶"), discord.ButtonStyle.secondary)
        back.item.disabled = page == 1
        on.item.disabled = page == len(pages)
        view.add_item(back)
        view.add_item(on)
    return Outgoing("", embed=embed, view=with_link(view, state.record.web_url, t(lang, "Web page")), mentions=_quiet())


def status_message(state: TournamentView, threads: Mapping[int, int], lang: str = DEFAULT) -> Outgoing:
    r = state.record
    lines = [format_line(state, lang), t(lang, "Clock: {clock}", clock=clock_text(state, lang))]
    if r.status == "registration":
        lines.append(tn(lang, "Registration is open: {n} entrant so far.", "Registration is open: {n} entrants so far.",
                        len(state.entrants)))
    current = state.current
    if current is not None and r.status in ("playing", "finished"):
        places = state.round_places(current.number)
        playing = [p for p in places if p.status != "finished"]
        lines.append(f"**{round_title(state, current, lang)}**: " + tn(
            lang, "{done} of {n} table finished.", "{done} of {n} tables finished.", len(places),
            done=number(lang, len(places) - len(playing))))
        for place in places:
            mark = "✅" if place.status == "finished" else "▶️"
            thread = threads.get(place.table_id or 0)
            where = f" <#{thread}>" if thread else ""
            drawn = t(lang, " (drawn: time ran out)") if place.drawn else ""
            lines.append(f"{mark} " + t(lang, "Table {number}", number=place.position + 1)
                         + f"{where}: {sides_text(place, state.names, lang)}{drawn}")
        if current.due and current.status == "playing":
            # A noun before the relative time: "runs out 5 minutes ago" would be false once it has passed.
            lines.append(t(lang, "Round deadline: <t:{when}:R>.", when=int(current.due)))
    if r.status == "finished" and r.champion:
        lines.append(t(lang, "🏆 Champion: {names}",
                       names=" & ".join(safe_name(state.names.get(e, "?")) for e in r.champion)))
    if r.status == "cancelled":
        lines.append(t(lang, "This tournament was cancelled."))
    text = ""
    for line in lines:
        if len(text) + len(line) + 1 > DESCRIPTION:
            text += "\n…"
            break
        text += ("\n" if text else "") + line
    embed = discord.Embed(title=f"🏆 {escape_name(r.name)} · {status_name(lang, r.status)}", description=text,
                          colour=GOLD)
    return Outgoing("", embed=embed, view=with_link(None, r.web_url, t(lang, "Web page")), mentions=_quiet())


def champion_line(state: TournamentView, lang: str = DEFAULT) -> str:
    name = escape_name(state.record.name)
    if not state.record.champion:
        return t(lang, "**{name}** is over, with no champion: every player still in it dropped.", name=name)
    names = " & ".join(f"**{safe_name(state.names.get(e, '?'))}**" for e in state.record.champion)
    return t(lang, "🏆 **{name}** is over. Champion: {names}!", name=name, names=names)


def bracket_file(png: bytes, alt: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename="bracket.png", description=alt[:1024])
