"""A table picture begun when its move is committed is the one its message shows, and only that one."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest

from cogs import pictures
from cogs.pictures import EarlyPictures


def table_png(*args: Any) -> bytes:
    return repr(args).encode()


class Drawer:
    """Stands in for the render pool: records each picture handed to it, and gives it back when let go."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, tuple[Any, ...]]] = []
        self.go = asyncio.Event()

    def submit(self, table_id: int, fn: Any, /, *args: Any) -> tuple[Any, tuple[Any, ...]]:
        self.asked.append((table_id, args))
        return fn, args

    async def finish(self, drawing: tuple[Any, tuple[Any, ...]]) -> bytes:
        await self.go.wait()
        fn, args = drawing
        return bytes(fn(*args))


@pytest.fixture
def drawer(monkeypatch: pytest.MonkeyPatch) -> Drawer:
    drawer = Drawer()
    monkeypatch.setattr(pictures, "RENDER_POOL", drawer)
    return drawer


def spawner(tasks: list[asyncio.Task[Any]]) -> Any:
    def spawn(work: Coroutine[Any, Any, bytes], name: str) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work, name=name)
        tasks.append(task)
        return task
    return spawn


async def test_the_begun_picture_is_drawn_at_once_and_taken_for_the_same_arguments(drawer: Drawer) -> None:
    tasks: list[asyncio.Task[Any]] = []
    early = EarlyPictures(spawner(tasks))
    early.begin(7, table_png, "pedwar", {"trick": [1]}, "move 3")
    assert drawer.asked == [(7, ("pedwar", {"trick": [1]}, "move 3"))], "handed over at once, before any wait"
    begun = early.take(7, table_png, "pedwar", {"trick": [1]}, "move 3")
    assert begun is tasks[0] and len(early) == 0
    drawer.go.set()
    assert await begun == table_png("pedwar", {"trick": [1]}, "move 3")
    assert early.take(7, table_png, "pedwar", {"trick": [1]}, "move 3") is None, "taken once"


async def test_a_message_with_other_arguments_draws_its_own_and_the_begun_one_is_dropped(drawer: Drawer) -> None:
    tasks: list[asyncio.Task[Any]] = []
    early = EarlyPictures(spawner(tasks))
    early.begin(7, table_png, "pedwar", {"trick": [1]}, "move 3")
    early.begin(8, table_png, "do_over", {"pile": 2}, None)
    # A later move folded into the same post: its picture differs (another view, another last line).
    assert early.take(7, table_png, "pedwar", {"trick": [1, 2]}, "move 4") is None
    await asyncio.sleep(0)
    assert tasks[0].cancelled() and not tasks[1].done(), "only table 7's picture is dropped"
    assert early.take(8, table_png, "do_over", {"pile": 2}, None) is tasks[1]
    drawer.go.set()
    await tasks[1]


async def test_at_most_one_picture_is_kept_a_table_the_newest(drawer: Drawer) -> None:
    tasks: list[asyncio.Task[Any]] = []
    early = EarlyPictures(spawner(tasks))
    early.begin(7, table_png, "pedwar", {"trick": [1]}, "move 3")
    early.begin(7, table_png, "pedwar", {"trick": [1, 2]}, "move 4")
    await asyncio.sleep(0)
    assert len(early) == 1 and tasks[0].cancelled()
    assert early.take(7, table_png, "pedwar", {"trick": [1]}, "move 3") is None
    await asyncio.sleep(0)
    assert tasks[1].cancelled(), "the newest is dropped too when the message wants another picture"


async def test_a_stopped_bot_begins_nothing(drawer: Drawer) -> None:
    def closed(work: Coroutine[Any, Any, bytes], name: str) -> None:
        work.close()  # host.tasks.Tasks.spawn after close()

    early = EarlyPictures(closed)
    early.begin(7, table_png, "pedwar", {}, None)
    assert len(early) == 0 and early.take(7, table_png, "pedwar", {}, None) is None
