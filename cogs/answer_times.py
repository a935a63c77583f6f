"""The acknowledgement latency: from an interaction's creation to its first answer (or deferral).

discord.py builds each interaction in its connection state's ``parse_interaction_create`` and each answer
goes through the interaction's ``response``. The bot builds its connection state from the subclasses here
(``DeckhandBot._get_state``), so every interaction it receives is a :class:`TimedInteraction` whose
response tells the bot's recorder when the first answer went out. Nothing of discord.py is replaced: these
are subclasses the bot is made with.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord.state import AutoShardedConnectionState, ConnectionState

from host.metrics import Recorder

T = TypeVar("T")


class TimedResponse(discord.InteractionResponse):  # type: ignore[type-arg]
    __slots__ = ("_recorder",)

    def __init__(self, parent: discord.Interaction, recorder: Recorder) -> None:
        super().__init__(parent)
        self._recorder = recorder

    async def _first(self, answer: Awaitable[T], first: bool) -> T:
        result = await answer
        if first:
            self._recorder.acknowledged((discord.utils.utcnow() - self._parent.created_at).total_seconds())
        return result

    async def send_message(self, *args: Any, **kwargs: Any) -> Any:
        return await self._first(super().send_message(*args, **kwargs), not self.is_done())

    async def defer(self, *args: Any, **kwargs: Any) -> Any:
        return await self._first(super().defer(*args, **kwargs), not self.is_done())

    async def edit_message(self, *args: Any, **kwargs: Any) -> Any:
        return await self._first(super().edit_message(*args, **kwargs), not self.is_done())

    async def send_modal(self, *args: Any, **kwargs: Any) -> Any:
        return await self._first(super().send_modal(*args, **kwargs), not self.is_done())


class TimedInteraction(discord.Interaction):  # type: ignore[type-arg]
    __slots__ = ("_recorder",)

    def __init__(self, *, data: Any, state: Any, recorder: Recorder) -> None:
        super().__init__(data=data, state=state)
        self._recorder = recorder

    @discord.utils.cached_slot_property("_cs_response")
    def response(self) -> TimedResponse:
        return TimedResponse(self, self._recorder)


class TimedInteractions:
    """Builds :class:`TimedInteraction`: ``parse_interaction_create`` as discord.py 2.7 writes it, but for the
    class (tests/cogs/test_answer_times.py fails when discord.py's own differs from this copy)."""

    recorder: Recorder
    _command_tree: Any
    _view_store: Any
    dispatch: Any

    def parse_interaction_create(self, data: Any) -> None:
        interaction = TimedInteraction(data=data, state=self, recorder=self.recorder)
        if data['type'] in (2, 4) and self._command_tree:  # application command and auto complete
            self._command_tree._from_interaction(interaction)
        elif data['type'] == 3:  # interaction component
            # These keys are always there for this interaction type
            inner_data = data['data']
            custom_id = inner_data['custom_id']
            component_type = inner_data['component_type']
            self._view_store.dispatch_view(component_type, custom_id, interaction)
        elif data['type'] == 5:  # modal submit
            # These keys are always there for this interaction type
            inner_data = data['data']
            custom_id = inner_data['custom_id']
            components = inner_data['components']
            resolved = inner_data.get('resolved', {})
            self._view_store.dispatch_modal(custom_id, interaction, components, resolved)
        self.dispatch('interaction', interaction)


class DeckhandState(TimedInteractions, ConnectionState):  # type: ignore[type-arg]
    def __init__(self, *, recorder: Recorder, **options: Any) -> None:
        self.recorder = recorder
        super().__init__(**options)


class ShardedDeckhandState(TimedInteractions, AutoShardedConnectionState):  # type: ignore[type-arg]
    def __init__(self, *, recorder: Recorder, **options: Any) -> None:
        self.recorder = recorder
        super().__init__(**options)
