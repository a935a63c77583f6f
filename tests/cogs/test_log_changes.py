"""/game log's file: each seat change after the move it followed, with its own time and no move number, in
the reader's language."""

from __future__ import annotations

import asyncio

from cogs.long_games import LINES_PER_LOOK, log_message, log_message_in_turns
from host import read_models as rm
from i18n import said

SEATS = tuple(rm.SeatView(i, name, 100 + i, False) for i, name in enumerate(("alice", "bob")))
RESIGNS = "🏳️ **{player}** resigns."
BACK = "🙋 **{player}** is back and plays their own seat again."


def file_lines(log: rm.MoveLog, lang: str = "en") -> list[str]:
    _, file = log_message(log, lang)
    return file.fp.read().decode().splitlines()[2:]  # past the heading and its blank line


def test_each_seat_change_follows_the_move_it_came_after() -> None:
    moves = tuple(rm.LoggedMove(v, 1e9 + v, said("**{player}** passes", player="alice"), ()) for v in (1, 2))
    changes = (rm.LoggedChange(0, 1e9, (said(BACK, player="bob"),)),
               rm.LoggedChange(2, 1e9 + 3, (said(RESIGNS, player="bob"), "A bot plays bob's seat.")))
    lines = file_lines(rm.MoveLog(1, "Pentawar", rm.PLAYING, SEATS, moves, None, changes))
    assert [line.split("UTC  ")[1] for line in lines] == [
        "🙋 bob is back and plays their own seat again.", "alice passes", "alice passes", "🏳️ bob resigns.",
        "A bot plays bob's seat."]
    assert lines[0].startswith("      2001-09-09 01:46:40 UTC") and lines[1].startswith("   1  ")


def test_seat_changes_read_in_the_readers_language() -> None:
    changes = (rm.LoggedChange(3, 1e9, (said(RESIGNS, player="bob"),)),)
    lines = file_lines(rm.MoveLog(1, "Pentawar", rm.PLAYING, SEATS, (), None, changes), "fr")
    assert lines == ["      2001-09-09 01:46:40 UTC  🏳️ bob abandonne."]


def test_a_long_log_is_built_across_the_loops_turns_into_the_same_file() -> None:
    """A 20,000-move log built in one go held the event loop for 100 ms (bench.loop_lag): it looks at the
    loop's turn every LINES_PER_LOOK lines, and the file is the one ``log_message`` makes."""
    moves = tuple(rm.LoggedMove(v, 1e9 + v, said("**{player}** passes", player=SEATS[v % 2].name),
                                (said("**{player}** is out", player="bob"),) if v % 7 == 0 else ())
                  for v in range(1, 1001))
    changes = (rm.LoggedChange(500, 1e9 + 500, (said(RESIGNS, player="bob"),)),)
    log = rm.MoveLog(3, "Pentawar", rm.PLAYING, SEATS, moves, None, changes)
    looks = 0

    async def take_turn() -> None:
        nonlocal looks
        looks += 1
        await asyncio.sleep(0)

    text, file = asyncio.run(log_message_in_turns(log, take_turn, "fr"))
    expected_text, expected = log_message(log, "fr")
    lines = file.fp.read().decode()
    assert (text, lines) == (expected_text, expected.fp.read().decode())
    assert looks == -(-len(lines.splitlines()) // LINES_PER_LOOK) > 20
