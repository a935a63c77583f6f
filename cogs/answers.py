"""Answering an interaction within Discord's 3 seconds: defer, then finish or follow up.

A path that makes more than one REST call before it can answer, or that may wait (a thread to open,
a round to pair, a long log to read), defers first and answers when its work is done. Refusals that
need no REST call come before the deferral; when one is still possible after it, the deferral is
ephemeral (a follow-up cannot make a public deferral private). Interaction tokens last 15 minutes:
after that a public result goes to the channel, and a private one is dropped (and logged).
"""

from __future__ import annotations

import logging
from datetime import UTC, timedelta

import discord

from cogs.presenter import Outgoing

log = logging.getLogger(__name__)

#: Discord's interaction tokens last 15 minutes: no follow-up is tried after this (a little before, to be safe).
TOKEN_LIFE = timedelta(minutes=14, seconds=30)


def token_expired(interaction: discord.Interaction) -> bool:
    """Whether the interaction's token has run out (a follow-up would fail)."""
    created = interaction.created_at
    return discord.utils.utcnow() - (created if created.tzinfo else created.replace(tzinfo=UTC)) > TOKEN_LIFE


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Acknowledge now ("thinking…"); the answer follows with :func:`reply` or the guard's refusal."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        interaction.extras["deferred"] = True


async def reply(interaction: discord.Interaction, out: Outgoing, *,
                ephemeral: bool, want_message: bool = False) -> discord.Message | None:
    """The response; after a deferral, the deferred message filled in; else a follow-up. Returns the
    message when it was a follow-up or a channel post, or with ``want_message`` a public first response
    (a public answer's message id is kept by some)."""
    if not interaction.response.is_done():
        await interaction.response.send_message(ephemeral=ephemeral, **out.send_kwargs())
        return await interaction.original_response() if want_message and not ephemeral else None
    if token_expired(interaction):
        interaction.extras.pop("deferred", None)
        if not ephemeral and isinstance(interaction.channel, discord.abc.Messageable):
            return await interaction.channel.send(**out.send_kwargs())
        log.info("a private answer to user %s was dropped: its interaction expired", interaction.user.id)
        return None
    if interaction.extras.pop("deferred", False):
        kwargs = out.edit_kwargs()
        if kwargs.get("view") is None:
            kwargs.pop("view")
        return await interaction.edit_original_response(**kwargs)
    return await interaction.followup.send(ephemeral=ephemeral, wait=True, **out.send_kwargs())


async def announce(interaction: discord.Interaction, text: str, mentions: list[int]) -> None:
    """A public result after a private deferral: posted in the channel, and the organiser told the same."""
    allowed = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in mentions])
    channel = interaction.channel
    if isinstance(channel, discord.abc.Messageable):
        try:
            await channel.send(text[:2000], allowed_mentions=allowed)
        except discord.HTTPException:
            log.warning("could not post a tournament announcement in channel %s", interaction.channel_id)
    await reply(interaction, Outgoing(text[:2000], mentions=discord.AllowedMentions.none()), ephemeral=True)
