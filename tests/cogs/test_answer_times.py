"""The bot's connection state builds interactions that time their first answer (cogs/answer_times.py).

Its ``parse_interaction_create`` is discord.py's own with one class changed: when discord.py's changes (an
upgrade), the copy must be brought up to date, or interactions would be handled the old way.
"""

from __future__ import annotations

import inspect
import textwrap

from discord.state import ConnectionState

from cogs.answer_times import TimedInteractions


def body(function: object) -> list[str]:
    source = textwrap.dedent(inspect.getsource(function))  # type: ignore[arg-type]
    return [line.rstrip() for line in source.splitlines()[1:] if line.strip()]


def test_the_copy_of_parse_interaction_create_matches_discord_py() -> None:
    ours = body(TimedInteractions.parse_interaction_create)
    theirs = body(ConnectionState.parse_interaction_create)
    assert ours[0].strip() == "interaction = TimedInteraction(data=data, state=self, recorder=self.recorder)"
    assert theirs[0].strip() == "interaction = Interaction(data=data, state=self)"
    assert ours[1:] == theirs[1:]
