"""Helpers that play through Discord the way a person would: open the hand, pick a control."""

from __future__ import annotations

from typing import Any

import discord


def components(message: Any) -> list[dict[str, Any]]:
    """Flattened component dicts of a ResponseMessage or discord.Message."""
    rows = message.components
    out: list[dict[str, Any]] = []
    for row in rows:
        if isinstance(row, dict):
            out.extend(row.get("components", [row]))
        else:  # discord.ActionRow
            for child in row.children:
                out.append(child.to_dict())
    return out


def table_messages(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if m.attachments and m.attachments[0].filename == "table.png"]


def hand_button_id(message: Any) -> str:
    return next(c["custom_id"] for c in components(message) if c.get("label") == "Hand / act")


def choices_in(panel: Any) -> list[tuple[str, str | None, str]]:
    """(kind, custom_id, value) for every action control on an ephemeral hand panel."""
    found: list[tuple[str, str | None, str]] = []
    for c in components(panel):
        cid = c.get("custom_id", "")
        if c.get("type") == 2 and cid.startswith("dh:a:"):
            found.append(("button", cid, cid.split(":", 4)[4]))
        elif c.get("type") == 3:
            for option in c.get("options", []):
                found.append(("select", cid, option["value"]))
    return found


async def use(member: Any, panel: Any, kind: str, custom_id: str | None, value: str) -> Any:
    if kind == "button":
        return await member.click(panel, custom_id=custom_id)
    return await member.select(panel, [value], custom_id=custom_id)
