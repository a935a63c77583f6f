"""The permissions the bot checks before it opens a table or a tournament, and the README's invite."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

from host import Refusal, permissions

README = Path(__file__).resolve().parents[2] / "README.md"


def test_each_checked_permission_has_discords_own_bit() -> None:
    for name, (_, bit) in permissions.PERMISSIONS.items():
        assert discord.Permissions(**{name: True}).value == bit, name


def test_the_readmes_permission_integer_and_invite_link_are_the_sum_of_the_checked_permissions() -> None:
    text = README.read_text(encoding="utf-8")
    total = sum(discord.Permissions(**{name: True}).value for name in permissions.PERMISSIONS)
    assert total == permissions.INVITE_PERMISSIONS
    integers = {int(n) for n in re.findall(r"permission integer is `(\d+)`", text)}
    links = {int(n) for n in re.findall(r"discord\.com/oauth2/authorize\?[^)\s>]*permissions=(\d+)", text)}
    assert integers == {total} and links == {total}, (integers, links)
    for label, _ in permissions.PERMISSIONS.values():
        assert label in text, f"the README names {label}"


def test_what_is_needed_grows_with_threads_and_a_scheduled_start() -> None:
    table = set(permissions.needed(thread=False))
    assert table == {"view_channel", "send_messages", "send_messages_in_threads", "embed_links", "attach_files",
                     "read_message_history"}
    assert set(permissions.needed(thread=True)) == table | {"create_public_threads", "manage_threads"}
    assert set(permissions.needed(thread=True, scheduled=True)) == table | {
        "create_public_threads", "manage_threads", "manage_events"}


def test_a_refusal_names_every_missing_permission_and_nothing_granted() -> None:
    granted = {"view_channel", "send_messages", "read_message_history", "create_public_threads"}
    with pytest.raises(Refusal) as refused:
        permissions.require(granted, "open a table", thread=True)
    text = str(refused.value)
    for label in ("Send Messages in Threads", "Embed Links", "Attach Files", "Manage Threads"):
        assert f"**{label}**" in text
    for label in ("View Channel", "**Send Messages**", "Read Message History", "Create Public Threads"):
        assert label not in text
    permissions.require(set(permissions.PERMISSIONS), "open a tournament", thread=True, scheduled=True)


def test_can_post_needs_send_messages_in_a_channel_and_in_threads_in_a_thread() -> None:
    base = {"view_channel", "embed_links", "attach_files"}
    assert permissions.can_post(base | {"send_messages"}, in_thread=False)
    assert not permissions.can_post(base | {"send_messages_in_threads"}, in_thread=False)
    assert permissions.can_post(base | {"send_messages_in_threads"}, in_thread=True)
    assert not permissions.can_post(base | {"send_messages"}, in_thread=True)
    assert not permissions.can_post({"send_messages", "embed_links", "attach_files"}, in_thread=False)
