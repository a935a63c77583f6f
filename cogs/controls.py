"""Restart-proof controls: every button and select is a DynamicItem.

A custom_id says everything needed to act on it (``dh:<kind>:<table>:<version>:…``),
so a click works after a restart without any View kept in memory. The
templates are deliberately broad: a garbled or forged ``dh:`` id still
reaches our handler, which answers it instead of leaving the click to fail.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import discord

ControlHandler = Callable[[discord.Interaction, str, Sequence[str]], Awaitable[None]]

_handler: ControlHandler | None = None


def set_handler(handler: ControlHandler | None) -> None:
    global _handler
    _handler = handler


async def _dispatch(interaction: discord.Interaction, custom_id: str, values: Sequence[str]) -> None:
    if _handler is None:
        await interaction.response.send_message("Deckhand is still starting up; try again in a moment.",
                                                ephemeral=True)
        return
    await _handler(interaction, custom_id, values)


def stateless_view() -> discord.ui.View:
    """A View used only to carry components: discord.py keeps nothing for it.

    discord.py stores every view it sends and gives each ephemeral one a
    15-minute timeout task. Deckhand sends a panel per click, so those timers
    and views would pile up in memory (SimCord showed clicks slowing from
    25 ms to over 500 ms after a few hundred turns). A view that is already
    stopped is never stored; clicks reach the DynamicItems registered once in
    ``setup_hook`` instead.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


class ActButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dh:(?P<body>(?!s:).*)"):
    def __init__(self, custom_id: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,  # type: ignore[override]
                             match: object) -> ActButton:
        return cls(getattr(item, "custom_id", "") or "", getattr(item, "label", None) or "…")

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _dispatch(interaction, self.item.custom_id or "", [])


class ActSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"dh:s:(?P<body>.*)"):
    def __init__(self, custom_id: str, placeholder: str | None = None,
                 options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="…")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,  # type: ignore[override]
                             match: object) -> ActSelect:
        return cls(getattr(item, "custom_id", "") or "", getattr(item, "placeholder", None),
                   list(getattr(item, "options", []) or []))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _dispatch(interaction, self.item.custom_id or "", list(self.item.values))
