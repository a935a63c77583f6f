"""One process's host service, holding shard 0 of 2, playing until it is SIGKILLed.

    python -m tests.host.shard_driver URL ACKS

It opens four tables in guilds on shard 0 (one human, two bots, a 60 s turn clock) and makes
the human's moves as fast as it can, while its scheduler plays the bots. Each line of ACKS,
``table_id action``, is written and fsynced only after the move was acknowledged (``act``
returned), so after a SIGKILL every line must be in the database.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
import time

from host import Refusal, StaleClick
from host.shards import Shards
from tests.host.test_shards import Instance, guild_on, human_and_bots, human_move

TABLES = 4
FIRST_CHANNEL = 5000


class WallClock:
    @property
    def now(self) -> float:
        return time.time()


async def main(url: str, acks_path: str) -> None:
    owner = await Instance.start(url, Shards.of(2, [0]), WallClock(), itertools.count(11).__next__)  # type: ignore[arg-type]
    tables = [(await human_and_bots(owner.tables, guild_on(0, n=n + 1), FIRST_CHANNEL + n)).id for n in range(TABLES)]
    with open(acks_path, "a", encoding="utf-8") as acks:
        while True:
            for n, table_id in enumerate(tables):
                try:
                    action = await human_move(owner.tables, table_id, FIRST_CHANNEL + n)
                except (StaleClick, Refusal):  # a bot moved first: refused, not acknowledged
                    continue
                if action is not None:
                    acks.write(f"{table_id} {action}\n")
                    acks.flush()
                    os.fsync(acks.fileno())
            await asyncio.sleep(0.002)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
