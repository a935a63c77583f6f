"""Long games: timeouts, resign, replace, pause, resume and return.

Each is a change of a game in play under the table's lock, with the revision
check that moves have (``Store.change_table``) or, for a timeout's bot moves,
an ordinary write-ahead action with the version check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from data.store import FORFEITED, PLAYER, STAND_IN, SeatEvent, SeatRecord, StaleVersion, Store, TableRecord
from data.timers import DEADLINE, LOBBY, REMINDER, TimerPlan, TimerRecord
from host.clock import closed_plan, paused_plan, plan_turn, resumed_plan
from host.errors import Refusal
from host.move_lines import stored_lines
from host.outcomes import LOBBY_TIMED_OUT, forfeit_win
from host.rated import rating_plan
from host.results import ActOutcome
from i18n import N_, msg, said, said_n
from render.markup import escape_name

#: Timeouts in a row after which a bot plays the seat for the rest of the game.
TAKEOVER_AFTER = 3
#: Steps a timed-out seat's bot makes (and tables found changed after its thinking) before the timer is left
#: for its retry: a decision has a few steps, not hundreds.
TIMEOUT_TRIES = 64
#: A timed-out move's note, heading its line (said again in the reader's language: host/move_lines.py).
TIMED_OUT = N_("⏰ Time ran out, so the bot played for them: ")


@dataclass
class SeatNotice:
    """A committed change that the table should be told about."""

    table: TableRecord
    lines: list[str]
    over: bool = False
    mentions: list[int] = field(default_factory=list)
    outcomes: list[ActOutcome] = field(default_factory=list)


@dataclass
class Reminder:
    table: TableRecord
    seats: list[int]
    due: float


def _count_timeout(table: TableRecord, seat: int) -> tuple[list[SeatRecord], list[SeatEvent], list[str]]:
    """The seats, seat events and lines of one more timeout for ``seat``: the third in a row hands it to a bot."""
    record = table.seats[seat]
    seats = [replace(s) for s in table.seats]
    seats[seat].timeouts += 1
    events: list[SeatEvent] = [(seat, "timeout", record.user_id, None)]
    lines = []
    if seats[seat].timeouts >= TAKEOVER_AFTER:
        seats[seat].stand_in = STAND_IN
        lines.append(said("🤖 **{player}** timed out {n} times in a row, so a bot plays their seat from now on. "
                          "`{/game return}` takes it back.", player=escape_name(record.name), n=TAKEOVER_AFTER))
        events.append((seat, "stand_in", record.user_id, None, stored_lines(lines)))
    return seats, events, lines


class TableAccess(Protocol):
    """What seat changes use of the table service: its lock, its reads and its one way to apply a move."""

    store: Store
    on_timers: Callable[[float | None], None]
    delay_for: Callable[[int | None], float]

    def lock(self, table_id: int) -> Any: ...
    async def reload(self, table_id: int) -> TableRecord: ...
    async def get(self, table_id: int) -> TableRecord: ...
    async def require_table(self, channel_id: int) -> TableRecord: ...
    async def state(self, table: TableRecord) -> Any: ...
    def engine_of(self, table: TableRecord) -> Any: ...
    def seat_of(self, table: TableRecord, user_id: int) -> int | None: ...
    def forget(self, table_id: int) -> None: ...
    def require_playing(self, table: TableRecord) -> None: ...
    def require_host(self, table: TableRecord, user_id: int, is_manager: bool, what: str) -> None: ...
    async def bot_choice(self, table: TableRecord, state: Any, seat: int) -> str: ...
    async def apply(self, table: TableRecord, seat: int, action: str, *, by_bot: bool = False, prefix: str = "",
                    seats: list[SeatRecord] | None = None,
                    seat_events: list[SeatEvent] | None = None) -> ActOutcome: ...


class SeatChanges:
    """The long-game changes of a game in play, done through the table service's named operations."""

    def __init__(self, tables: TableAccess) -> None:
        self.tables = tables
        self.store = tables.store

    async def _playing(self, channel_id: int, table_id: int | None) -> TableRecord:
        table = await self.tables.reload(table_id or (await self.tables.require_table(channel_id)).id)
        self.tables.require_playing(table)
        return table

    def _own_seat(self, table: TableRecord, user_id: int, gone: str) -> int:
        """The member's seat at a game in play, refusing a member with none, or whose seat was forfeited."""
        seat = self.tables.seat_of(table, user_id)
        if seat is None:
            raise Refusal(N_("You are not playing at this table."))
        if table.seats[seat].stand_in == FORFEITED:
            raise Refusal(gone)
        return seat

    async def _commit_change(self, table: TableRecord, **change: Any) -> TableRecord:
        try:
            await self.store.tables.change_table(table.id, table.revision, **change)
        except StaleVersion:
            raise Refusal(N_("The table changed just now; look again and retry.")) from None
        finally:
            self.tables.forget(table.id)
        self.tables.on_timers(None)
        return await self.tables.reload(table.id)

    # ---------------------------------------------------------------- timeouts

    async def timeout(self, timer: TimerRecord) -> SeatNotice | None:
        """A seat's deadline came: apply the table's policy, unless the deadline no longer holds.

        The bot's moves for the seat are thought outside the table's lock (a search may take seconds),
        then applied under it with the revision check; a table that changed meanwhile is looked at afresh.
        """
        outcomes: list[ActOutcome] = []
        lines: list[str] = []
        for _ in range(TIMEOUT_TRIES):
            async with self.tables.lock(timer.table_id):
                found = await self._due_timeout(timer)
            if found is None:
                break
            if isinstance(found, SeatNotice):
                return found
            table, state, seat, counted = found
            action = await self.tables.bot_choice(table, state, seat)
            async with self.tables.lock(timer.table_id):
                current = await self.tables.get(table.id)
                if current.revision != table.revision:
                    continue  # a move or a change came first: look at the deadline again
                seats, events, more = (None, None, []) if counted else _count_timeout(table, seat)
                outcome = await self.tables.apply(current, seat, action, by_bot=True, prefix=TIMED_OUT,
                                                  seats=seats, seat_events=events)
            outcomes.append(outcome)
            lines += more
            if outcome.over or seat not in self.tables.engine_of(outcome.table).to_act(outcome.state):
                break
        if not outcomes:
            return None
        last = outcomes[-1]
        return SeatNotice(last.table, lines, last.over, [], outcomes)

    async def _due_timeout(self, timer: TimerRecord
                           ) -> SeatNotice | tuple[TableRecord, Any, int, bool] | None:
        """Under the lock: None when the deadline no longer holds (it is dropped if stale), a notice when the
        seat forfeits, else what the bot needs to think its move: the table, its state, the seat, and whether
        this expiry was already counted (a later step of the timed-out decision)."""
        table = await self.tables.reload(timer.table_id)
        current = [t for t in await self.store.timers.timers_of(table.id)
                   if (t.kind, t.seat) == (DEADLINE, timer.seat)]
        if not current or current[0].started != timer.started:
            return None  # a move or a new turn replaced this deadline
        if table.status != "playing":
            await self.store.timers.change_timers(table.id, TimerPlan(drop_all=True))
            return None
        if current[0].due is None or current[0].due > self.store.now():
            return None  # paused, or moved later
        engine = self.tables.engine_of(table)
        state = await self.tables.state(table)
        seat = timer.seat
        if seat not in engine.to_act(state) or table.seats[seat].bot_plays:
            await self.store.timers.change_timers(table.id,
                                                  TimerPlan(drop=[(DEADLINE, seat), (REMINDER, seat)]))
            return None
        # An expiry counted with the bot's first step, before a later step failed (a dead worker, a
        # restart), is not counted again: the bot only finishes the decision.
        counted = any(s == seat and kind == "timeout" and at > current[0].started
                      for _, s, kind, _, _, at in await self.store.tables.seat_events(table.id))
        if not counted and table.on_timeout == "forfeit":
            return await self._forfeit(table, seat, "timeout", None,
                                       said("⏰ Time ran out for **{player}**, who forfeits.",
                                            player=escape_name(table.seats[seat].name)))
        return table, state, seat, counted

    async def reminder(self, timer: TimerRecord) -> Reminder | None:
        """A half-time reminder came: consume it, and say whom to remind if the deadline still holds."""
        async with self.tables.lock(timer.table_id):
            if not await self.store.timers.take_timer(timer):
                return None  # replaced by a newer clock, or taken by another process
            table = await self.tables.reload(timer.table_id)
            if table.status != "playing" or table.paused or table.seats[timer.seat].bot_plays:
                return None
            state = await self.tables.state(table)
            if timer.seat not in self.tables.engine_of(table).to_act(state):
                return None
            return Reminder(table, [timer.seat], timer.due or 0.0)

    async def lobby_timeout(self, timer: TimerRecord) -> TableRecord | None:
        """A lobby that never started closes itself."""
        async with self.tables.lock(timer.table_id):
            table = await self.tables.reload(timer.table_id)
            if table.status != "lobby":
                await self.store.timers.change_timers(table.id, TimerPlan(drop_kinds=[LOBBY]))
                return None
            await self.store.tables.close_table(table.id, table.revision, timers=closed_plan(table, self.store.now()),
                                                reason=LOBBY_TIMED_OUT)
            self.tables.on_timers(None)
            self.tables.forget(table.id)
            return await self.tables.reload(table.id)

    # --------------------------------------------------------------- forfeits

    async def _forfeit(self, table: TableRecord, seat: int, kind: str, by: int | None,
                       line: str) -> SeatNotice:
        engine = self.tables.engine_of(table)
        state = await self.tables.state(table)
        seats = [replace(s) for s in table.seats]
        seats[seat].stand_in = FORFEITED
        changed = replace(table, seats=seats)
        win = forfeit_win(engine, changed)
        now = self.store.now()
        to_act = engine.to_act(state)
        if win is not None:
            winners = [s.name for s in seats if win[s.position] == 1]
            names: object = (winners[0] if len(winners) == 1 else msg("{a} and {b}", a=winners[0], b=winners[1])
                              if len(winners) == 2 else " and ".join(winners))
            lines = [line, said_n("🏁 **{names}** wins.", "🏁 **{names}** win.", len(winners), names=names)]
            results = [(s.position, s.user_id, win[s.position]) for s in seats]
            timers = plan_turn(changed, to_act, [], now, 0.0, over=True)
            after = await self._commit_change(table, seats=seats, timers=timers, results=results,
                                              events=[self._event(table, seat, kind, by, lines)],
                                              rating=rating_plan(engine, changed, win))
            return SeatNotice(after, lines, over=True)
        lines = [line, said("A bot plays **{player}**'s seat to the end; the seat is placed last.",
                            player=escape_name(seats[seat].name))]
        timers = plan_turn(changed, to_act, to_act, now, self.tables.delay_for(table.guild_id))
        after = await self._commit_change(table, seats=seats, timers=timers,
                                          events=[self._event(table, seat, kind, by, lines)])
        return SeatNotice(after, lines)

    @staticmethod
    def _event(table: TableRecord, seat: int, kind: str, by: int | None, lines: list[str],
               user: int | None = None) -> SeatEvent:
        """The seat's history row of a change, with the lines that told the table about it (for /game log)."""
        return (seat, kind, table.seats[seat].user_id if user is None else user, by, stored_lines(lines))

    async def resign(self, channel_id: int, user_id: int, table_id: int | None = None) -> SeatNotice:
        table_id = table_id or (await self.tables.require_table(channel_id)).id
        async with self.tables.lock(table_id):
            table = await self._playing(channel_id, table_id)
            seat = self._own_seat(table, user_id, N_("You have already left this game."))
            return await self._forfeit(table, seat, "resign", user_id,
                                       said("🏳️ **{player}** resigns.", player=escape_name(table.seats[seat].name)))

    async def drop_seat(self, table_id: int, user_id: int, line: str) -> SeatNotice | None:
        """A player who drops from a tournament forfeits their seat at once, as with a resignation."""
        async with self.tables.lock(table_id):
            table = await self.tables.reload(table_id)
            seat = self.tables.seat_of(table, user_id)
            if table.status != "playing" or seat is None or table.seats[seat].stand_in == FORFEITED:
                return None
            return await self._forfeit(table, seat, "drop", user_id, line)

    async def end_as_draw(self, table_id: int, line: str) -> SeatNotice | None:
        """End a game in play at once, every seat sharing first place (a tournament round's time ran out)."""
        async with self.tables.lock(table_id):
            table = await self.tables.reload(table_id)
            if table.status != "playing":
                return None
            engine = self.tables.engine_of(table)
            to_act = engine.to_act(await self.tables.state(table))
            places = [1] * len(table.seats)
            results = [(s.position, s.user_id, 1) for s in table.seats]
            timers = plan_turn(table, to_act, [], self.store.now(), 0.0, over=True)
            after = await self._commit_change(table, timers=timers, results=results, drawn=True,
                                              rating=rating_plan(engine, table, places))
            return SeatNotice(after, [line], over=True)

    # ------------------------------------------------------------ replace, return

    async def replace_player(self, channel_id: int, user_id: int, is_manager: bool, player_id: int,
                             new_id: int, new_name: str, table_id: int | None = None,
                             new_is_bot: bool = False) -> SeatNotice:
        if new_is_bot:
            raise Refusal(N_("A seat goes to a member, not a bot; the table's own bots play timed-out seats."))
        table_id = table_id or (await self.tables.require_table(channel_id)).id
        async with self.tables.lock(table_id):
            table = await self._playing(channel_id, table_id)
            self.tables.require_host(table, user_id, is_manager, N_("replace a player"))
            seat = self.tables.seat_of(table, player_id)
            if seat is None:
                raise Refusal(N_("{member} has no seat at this table."), member=f"<@{player_id}>")
            if self.tables.seat_of(table, new_id) is not None:
                raise Refusal(N_("{member} already has a seat at this table."), member=f"<@{new_id}>")
            if table.seats[seat].stand_in == FORFEITED:
                raise Refusal(N_("That seat was forfeited; a bot plays it to the end."))
            seats = [replace(s) for s in table.seats]
            old_name = seats[seat].name
            seats[seat] = replace(seats[seat], user_id=new_id, name=new_name, timeouts=0, stand_in=PLAYER)
            timers = await self._retimed(table, seats, seat)
            lines = [said("🔁 {member} takes over **{player}**'s seat (seat {seat}). Open your hand with "
                          "**Hand / act**.", member=f"<@{new_id}>", player=escape_name(old_name), seat=seat + 1)]
            after = await self._commit_change(table, seats=seats, timers=timers,
                                              events=[self._event(table, seat, "replace", user_id, lines, new_id)])
            return SeatNotice(after, lines, mentions=[new_id])

    async def take_back(self, channel_id: int, user_id: int, table_id: int | None = None) -> SeatNotice:
        table_id = table_id or (await self.tables.require_table(channel_id)).id
        async with self.tables.lock(table_id):
            table = await self._playing(channel_id, table_id)
            seat = self._own_seat(table, user_id, N_("You left this game; a bot plays your seat to the end."))
            if table.seats[seat].stand_in != STAND_IN:
                raise Refusal(N_("You are playing your seat already."))
            seats = [replace(s) for s in table.seats]
            seats[seat] = replace(seats[seat], stand_in=PLAYER, timeouts=0)
            timers = await self._retimed(table, seats, seat)
            lines = [said("🙋 **{player}** is back and plays their own seat again.",
                          player=escape_name(seats[seat].name))]
            after = await self._commit_change(table, seats=seats, timers=timers,
                                              events=[self._event(table, seat, "return", user_id, lines)])
            return SeatNotice(after, lines)

    async def _retimed(self, table: TableRecord, seats: list[SeatRecord], seat: int) -> TimerPlan:
        """Timers after ``seat`` changed hands: its clock starts afresh if it is to act."""
        state = await self.tables.state(table)
        to_act = self.tables.engine_of(table).to_act(state)
        changed = replace(table, seats=seats)
        plan = plan_turn(changed, [s for s in to_act if s != seat], to_act, self.store.now(),
                         self.tables.delay_for(table.guild_id))
        if seat in to_act:
            plan.drop += [(DEADLINE, seat), (REMINDER, seat)]
        return plan

    # ---------------------------------------------------------- pause, resume

    async def pause(self, channel_id: int, user_id: int, is_manager: bool,
                    table_id: int | None = None) -> SeatNotice:
        table_id = table_id or (await self.tables.require_table(channel_id)).id
        async with self.tables.lock(table_id):
            table = await self._playing(channel_id, table_id)
            self.tables.require_host(table, user_id, is_manager, N_("pause the table"))
            if table.paused:
                raise Refusal(N_("This table is already paused. `{/game resume}` restarts its clocks."))
            timers = paused_plan(await self.store.timers.timers_of(table.id), self.store.now())
            after = await self._commit_change(table, paused=True, timers=timers)
            return SeatNotice(after, [N_("⏸️ The table is paused: no clock runs and no bot moves until "
                                         "`{/game resume}`.")])

    async def resume(self, channel_id: int, user_id: int, is_manager: bool,
                     table_id: int | None = None) -> SeatNotice:
        table_id = table_id or (await self.tables.require_table(channel_id)).id
        async with self.tables.lock(table_id):
            table = await self._playing(channel_id, table_id)
            self.tables.require_host(table, user_id, is_manager, N_("resume the table"))
            if not table.paused:
                raise Refusal(N_("This table isn't paused."))
            timers = resumed_plan(await self.store.timers.timers_of(table.id), self.store.now())
            after = await self._commit_change(table, paused=False, timers=timers)
            return SeatNotice(after, [N_("▶️ The table plays on: each waiting seat has the time it had left.")])

    # ------------------------------------------------- the bot lost the channel

    async def lose_channel(self, table_id: int) -> TableRecord | None:
        """Discord refused the table's post (403/404): its clocks stop, so nobody loses a turn because the
        bot could not post, and its timers wait instead of retrying. None: not a game in play, or already
        paused (a person's pause stays theirs)."""
        async with self.tables.lock(table_id):
            table = await self.tables.reload(table_id)
            if table.status != "playing" or table.paused:
                return None
            timers = paused_plan(await self.store.timers.timers_of(table.id), self.store.now())
            try:
                return await self._commit_change(table, paused=True, lost=True, timers=timers)
            except Refusal:
                return None  # changed meanwhile: that change's own post meets the refusal again

    async def regain_channel(self, table_id: int) -> TableRecord | None:
        """A post there succeeded again: a table the bot paused plays on with the time each seat had left.
        None: it was not paused by the bot (a person's pause waits for ``/game resume``)."""
        async with self.tables.lock(table_id):
            table = await self.tables.reload(table_id)
            if table.status != "playing" or not table.lost:
                return None
            timers = resumed_plan(await self.store.timers.timers_of(table.id), self.store.now())
            try:
                return await self._commit_change(table, paused=False, timers=timers)
            except Refusal:
                return None
