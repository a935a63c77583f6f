"""Restart-proof controls: every button and select is a DynamicItem.

A custom_id says everything needed to act on it, so a click works after a
restart without any View kept in memory:

    dh:h:<table>:<version>             Hand / act (opens the current hand, whatever the version)
    dh:a:<table>:<version>:<action>    an action button
    dh:s:<table>:<version>:<index>     an action select (the action is the chosen value)
    dh:l:<table>:<verb>                a lobby button (join, leave, addbot, start)
    dh:t:<tournament>:<verb>           a tournament sign-up button (join, leave, checkin)
    dh:p:<tournament>:<page>           a page of a tournament's standings

The templates accept only well-formed ids. Anything else, a forged or garbled
id included, is answered by :func:`unhandled`, which ``on_interaction`` calls,
so no click is left without an answer.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import discord

import i18n
from i18n import N_, t

ControlHandler = Callable[[discord.Interaction, "Control", Sequence[str]], Awaitable[None]]

#: The answer to a click on a control that is not ours, damaged or forged.
BAD_CONTROL = N_("That control isn't one I recognise (it may be damaged). "
                 "Use the table's **Hand / act** button or `{/play}` instead.")
STARTING = N_("Deckhand is starting up or stopping; try again in a moment.")
#: Control kinds that belong to a tournament (a sign-up button, a standings page); the others to a table.
TOURNAMENT_KINDS = ("t", "p")

#: Table ids are row ids and versions are move counts: both fit these bounds, and
#: parsing them strictly keeps a huge or non-ASCII number away from the database.
MAX_TABLE_ID = 2**63 - 1
MAX_VERSION = 10**9
_NUMBER = r"[0-9]{1,19}"
BUTTON_TEMPLATE = (rf"dh:(?:h:{_NUMBER}:{_NUMBER}|a:{_NUMBER}:{_NUMBER}:[^\r\n]+|[lt]:{_NUMBER}:[a-z]{{1,20}}"
                   rf"|p:{_NUMBER}:[0-9]{{1,4}})")
SELECT_TEMPLATE = rf"dh:s:{_NUMBER}:{_NUMBER}:[0-9]{{1,2}}"
_PATTERNS = (re.compile(BUTTON_TEMPLATE), re.compile(SELECT_TEMPLATE))



@dataclass(frozen=True)
class Control:
    """A parsed custom_id."""

    kind: str  # "h", "a", "s", "l"; "t" and "p" for tournaments (TOURNAMENT_KINDS)
    #: The row the control acts on: a table, or for the tournament kinds a tournament.
    target_id: int
    version: int | None = None  # the table version; for "p", the standings page
    action: str = ""  # the action of an action button, or the verb of a lobby or sign-up button

    @property
    def table_id(self) -> int:
        if self.kind in TOURNAMENT_KINDS:
            raise ValueError(f"a {self.kind!r} control names a tournament, not a table")
        return self.target_id

    @property
    def tournament_id(self) -> int:
        if self.kind not in TOURNAMENT_KINDS:
            raise ValueError(f"a {self.kind!r} control names a table, not a tournament")
        return self.target_id


def parse_control(custom_id: str) -> Control | None:
    """The control a custom_id names, or None when it is not a well-formed Deckhand id."""
    if len(custom_id) > 100 or not any(p.fullmatch(custom_id) for p in _PATTERNS):
        return None
    parts = custom_id.split(":", 4)
    kind, table_id = parts[1], int(parts[2])
    if not 0 < table_id <= MAX_TABLE_ID:
        return None
    if kind in ("l", "t"):
        return Control(kind, table_id, None, parts[3])
    if kind == "p":
        return Control(kind, table_id, int(parts[3]))
    version = int(parts[3])
    if version > MAX_VERSION:
        return None
    return Control(kind, table_id, version, parts[4] if kind == "a" else "")


def _in_message(interaction: discord.Interaction, component_type: int, custom_id: str) -> bool:
    """Whether the clicked component is on the message, as discord.py needs to route it to an item."""
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            kind = int(getattr(getattr(child, "type", None), "value", -1))
            if getattr(child, "custom_id", None) == custom_id and kind == component_type:
                return True
    return False


def unhandled(interaction: discord.Interaction) -> bool:
    """True for a component interaction that no DynamicItem will take, so the caller must answer it."""
    if interaction.type is not discord.InteractionType.component:
        return False
    data = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    component_type = int(data.get("component_type", 0) or 0)
    expected = 2 if _PATTERNS[0].fullmatch(custom_id) else 3 if _PATTERNS[1].fullmatch(custom_id) else None
    return expected != component_type or not _in_message(interaction, component_type, custom_id)


async def take_turn(interaction: discord.Interaction) -> None:
    """Wait for a turn of the event loop shared with the store's calls (``data.database.Turns``) before a
    click's work: clicks that arrive together (a burst of moves at many tables) each start in the same
    turn, and their first steps (the item rebuilt from the message, the member's language, the guard) held
    the loop together, 56 of them some 15-25 ms, before any reached the store's turns."""
    turns = getattr(interaction.client, "turns", None)
    if turns is not None:
        await turns.take()


async def _dispatch(interaction: discord.Interaction, custom_id: str, values: Sequence[str]) -> None:
    # The handler belongs to the bot that got the click (a test may run a fresh bot after a restart).
    handler: ControlHandler | None = getattr(interaction.client, "control_handler", None)
    control = parse_control(custom_id)
    if handler is None or control is None:
        text = STARTING if handler is None else BAD_CONTROL
        if not interaction.response.is_done():
            lang = i18n.resolve(interaction.locale.value if interaction.locale else None)  # a private answer
            await interaction.response.send_message(t(lang, text), ephemeral=True)
        return
    await handler(interaction, control, values)


def stateless_view() -> discord.ui.View:
    """A View used only to carry components: discord.py keeps nothing for it.

    discord.py stores every view it sends and gives each ephemeral one a
    15-minute timeout task. Deckhand sends a panel per click, so those timers
    and views would pile up in memory, and clicks slowed down turn after
    turn. A view that is already
    stopped is never stored; clicks reach the DynamicItems registered once in
    ``setup_hook`` instead.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


class ActButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(self, custom_id: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,  # type: ignore[override]
                             match: object) -> ActButton:
        await take_turn(interaction)
        return cls(getattr(item, "custom_id", "") or "", getattr(item, "label", None) or "…")

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _dispatch(interaction, self.item.custom_id or "", [])


class ActSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, custom_id: str, placeholder: str | None = None,
                 options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="…")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,  # type: ignore[override]
                             match: object) -> ActSelect:
        await take_turn(interaction)
        return cls(getattr(item, "custom_id", "") or "", getattr(item, "placeholder", None),
                   list(getattr(item, "options", []) or []))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _dispatch(interaction, self.item.custom_id or "", list(self.item.values))


def with_link(view: discord.ui.View | None, url: str | None, label: str) -> discord.ui.View | None:
    """``view`` with a link button to ``url`` added (a new view if there was none); unchanged without a url.
    ``label`` is already in the reader's language (no English default: a caller must say it)."""
    if url is None:
        return view
    if view is None:
        view = stateless_view()
    if len(view.children) >= 25:
        return view
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label))
    return view
