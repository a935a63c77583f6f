"""host.privacy: who may see which tables, decided over plain facts; and /game log|replay by table number."""

from __future__ import annotations

import pytest

from data.store import Store
from host import Refusal, TableService
from host.long_games import LongGameService
from host.privacy import ChannelAccess, Sight, can_view, visible_mine, visible_tables
from host.read_models import ClockView, Duration, MineRow, MyTables, ServerTables, TableRow, Where
from host.settings import ServerSettings


def test_view_channel_decides_a_channel_and_a_public_thread() -> None:
    assert can_view(ChannelAccess(1, view_channel=True))
    assert not can_view(ChannelAccess(1, view_channel=False))
    assert not can_view(ChannelAccess(1, view_channel=False, manage_threads=True))


def test_a_private_thread_needs_membership_or_manage_threads_besides_view_channel() -> None:
    assert not can_view(ChannelAccess(2, view_channel=True, private_thread=True))
    assert can_view(ChannelAccess(2, view_channel=True, private_thread=True, thread_member=True))
    assert can_view(ChannelAccess(2, view_channel=True, private_thread=True, manage_threads=True))
    assert not can_view(ChannelAccess(2, view_channel=False, private_thread=True, thread_member=True)), \
        "a member of a thread whose parent they lost cannot view it"


def test_a_sight_holds_only_the_channels_the_member_can_view() -> None:
    sight = Sight.of([ChannelAccess(1, True), ChannelAccess(2, False), ChannelAccess(3, True, True, False),
                      ChannelAccess(4, True, True, True)])
    assert sight.visible == frozenset({1, 4})
    assert sight.sees(1) and not sight.sees(2) and not sight.sees(3) and not sight.sees(99)


def mine_row(table_id: int, channel_id: int) -> MineRow:
    return MineRow(table_id, "Pentawar", "playing", True, (), None, False, Where(1, channel_id, None))


def table_row(table_id: int, channel_id: int, status: str) -> TableRow:
    clock = ClockView(Duration(None), "bot", False, False)
    return TableRow(table_id, "Pentawar", status, 2, 5, clock, Where(1, channel_id, None))


def test_lists_keep_only_the_tables_in_channels_seen_and_their_order() -> None:
    sight = Sight(frozenset({10, 30}))
    mine = MyTables((mine_row(3, 30), mine_row(2, 20), mine_row(1, 10)))
    assert [r.table_id for r in visible_mine(mine, sight).rows] == [3, 1]
    tables = ServerTables((table_row(1, 10, "lobby"), table_row(2, 20, "lobby")),
                          (table_row(3, 20, "playing"), table_row(4, 30, "playing")))
    shown = visible_tables(tables, sight)
    assert [r.table_id for r in shown.lobbies] == [1] and [r.table_id for r in shown.running] == [4]


async def test_a_hidden_table_number_is_answered_as_one_that_does_not_exist(store: Store) -> None:
    tables = TableService(store)
    games = LongGameService(store, tables, ServerSettings(store, 0.0))
    for channel in (10, 20):
        await tables.create(guild_id=1, channel_id=channel, game_id="pentawar", options=None, user_id=100,
                            user_name="u100")
        await tables.join(channel, 101, "u101")
        await tables.start(channel, 100, False)
    hidden = (await store.tables.latest_table(20)).id  # type: ignore[union-attr]
    assert await games.table_channel(1, hidden) == 20
    assert await games.table_channel(2, hidden) is None, "another server's table is no table here"

    async def answer(number: int, sight: Sight | None) -> str:
        with pytest.raises(Refusal) as refused:
            await games.move_log(1, 10, number, sight)
        with pytest.raises(Refusal) as again:
            await games.replay(1, 10, 0, number, sight)
        assert str(refused.value) == str(again.value)
        return str(refused.value).replace(str(number), "N")

    missing = await answer(987654, Sight(frozenset({10, 20})))
    assert missing == "There is no table #N in this server."
    assert await answer(hidden, Sight(frozenset({10}))) == missing
    assert await answer(hidden, None) == missing, "no sight read: nothing beyond the member's own channel"
    shown = await games.move_log(1, 10, hidden, Sight(frozenset({20})))
    assert shown.table_id == hidden
    # The channel's own latest table needs no sight: the member asked from inside it.
    assert (await games.move_log(1, 10, None)).table_id != hidden
