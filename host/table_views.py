"""Build the read models of a table's messages from its record and game state: pure, no I/O."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from data.store import FORFEITED, SeatRecord, TableRecord
from engines import get_engine
from host import read_models as rm
from host.names import fill_said
from render.markup import escape_name


def seat_names(table: TableRecord) -> list[str]:
    return [s.name for s in table.seats]


def status_line(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """The game's own status line, markdown, with the seat names escaped in it."""
    status = view.get("status", "")
    # An engine's status line is said from a message: kept (fill_said), so the presenter says it in its language.
    return fill_said(status if isinstance(status, str) else str(status), [escape_name(n) for n in names])


def seat_view(seat: SeatRecord) -> rm.SeatView:
    member = seat.user_id if seat.user_id and not seat.is_bot else None
    return rm.SeatView(seat.position, seat.name, member, seat.is_bot)


def clock_view(table: TableRecord) -> rm.ClockView:
    return rm.ClockView(rm.Duration(table.turn_time or None), table.on_timeout, table.parent_id is not None,
                        table.paused, table.lost)


def picture(table: TableRecord, view: Mapping[str, Any], placings: tuple[int, ...] | None = None) -> rm.Picture:
    return rm.Picture(table.id, table.game, view, tuple(seat_names(table)), placings)


def final_places(table: TableRecord, places: Sequence[int] | None) -> tuple[int, ...] | None:
    """What the picture shows of a table's end: the places once finished, ``()`` for a table closed without
    a result, None while it is in play."""
    if table.status == rm.FINISHED:
        return tuple(places) if places else ()
    return () if table.status == rm.ABANDONED else None


def bot_plays_reason(seat: SeatRecord) -> str | None:
    """Why a member's own seat offers them no move, when the table's bot plays it."""
    if not seat.bot_plays:
        return None
    return rm.GAVE_UP if seat.stand_in == FORFEITED else rm.TIMED_OUT


def table_message(table: TableRecord, state: Any, lines: Sequence[str], deadlines: Mapping[int, float | None],
                  places: Sequence[int] | None, web_url: str | None = None) -> rm.TableMessage:
    """The public table message; ``places`` are each seat's final place once the game is over."""
    engine = get_engine(table.game)
    view = engine.view(state, None)
    names = seat_names(table)
    placings: tuple[rm.Placing, ...] = ()
    if table.status == rm.FINISHED and places is not None:
        order = sorted(range(len(places)), key=lambda s: (places[s], s))
        placings = tuple(rm.Placing(places[s], names[s]) for s in order)
    to_act = () if table.status == rm.FINISHED else tuple(
        rm.Turn(seat_view(table.seats[s]), deadlines.get(s)) for s in engine.to_act(state))
    return rm.TableMessage(table.id, engine.title, table.version, table.status, tuple(lines),
                           status_line(view, names), to_act, placings, clock_view(table),
                           picture(table, view, final_places(table, places)), web_url)


def hand_panel(table: TableRecord, seat: int, state: Any, choices: Sequence[tuple[str, str]],
               due: float | None = None) -> rm.HandPanel:
    engine = get_engine(table.game)
    view = engine.view(state, seat)
    names = seat_names(table)
    return rm.HandPanel(table.id, engine.title, table.version, table.status, seat, names[seat],
                        status_line(view, names), bot_plays_reason(table.seats[seat]),
                        tuple(choices), tuple(names[s] for s in engine.to_act(state)), picture(table, view),
                        due)


def lobby(table: TableRecord, web_url: str | None = None) -> rm.LobbyMessage:
    engine = get_engine(table.game)
    return rm.LobbyMessage(table.id, engine.title, table.host_id, table.status,
                           tuple(seat_view(s) for s in table.seats), engine.min_players, engine.max_players,
                           tuple(sorted(table.options.items())), clock_view(table), web_url)
