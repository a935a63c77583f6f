"""The offline sandbox: the real bot, unchanged, inside SimCord, with a browser view that can follow threads.

Like ``bot.py``, this is the composition root's edge: it may import discord and SimCord. SimCord's preview
presents one channel; ``/sandbox go`` (registered only here, never on Discord) moves it to #games or any of
its threads, and a follower republishes the page whenever the bot has sent something, so reminders,
timeouts, bot moves and pairings appear without "Refresh preview".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from i18n import N_

log = logging.getLogger("deckhand.sandbox")

MEMBERS = ("alice", "bob", "carol", "dave")
#: The member who may manage the sandbox server: /config and every organiser command.
MANAGER = "alice"
HOME = "games"
#: How often the follower looks for news from the bot (seconds); a message shows within twice this.
FOLLOW_SECONDS = 0.5
#: Looks to wait after ``/sandbox go`` before moving: the browser fetches the command's result within a look
#: or two, and a view that moved before that reports the command as "not completed".
GRACE_LOOKS = 2

#: Posted in #games in the sandbox server's language (its ``language`` setting; ``auto``: its Discord language).
WELCOME = N_(
    "👋 **Welcome to the Deckhand sandbox.** Type `{/game new}` to open a table, `{/game join}` to sit down and "
    "`{/game start}` to deal; `{/game addbot}` fills empty seats. Switch members with **Viewing as** at the top "
    "to play every seat.\n"
    "• **alice** manages this server: she can try `{/config}` and every organiser command "
    "(`{/tournament new}`, `{/tournament start}`, …). bob, carol and dave are ordinary members.\n"
    "• `{/game new thread:true}` and tournaments open tables in threads: `/sandbox go` takes this view to a "
    "thread and back to #games.\n"
    "• Reminders, timeouts, bot moves and pairings appear here by themselves, as on Discord."
)


class Places:
    """Where the preview can go: the home channel and every thread of it, newest last."""

    def __init__(self, home: Any) -> None:
        self.home = home

    def all(self) -> list[Any]:
        return [self.home, *sorted(self.home.threads, key=lambda thread: thread.id)]

    def find(self, channel_id: int) -> Any | None:
        return next((place for place in self.all() if place.id == channel_id), None)

    @staticmethod
    def label(place: Any) -> str:
        return f"#{place.name}" if not place.is_thread else f"🧵 {place.name}"


class Follower:
    """Keeps the browser view current: moves it between places and republishes it when the bot posts.

    It runs outside the bot (SimCord refuses preview operations from the bot's own tasks), so the command
    only leaves a request here and the follower carries it out on its next look.
    """

    def __init__(self, env: Any, preview: Any, places: Places) -> None:
        self.env = env
        self.preview = preview
        self.places = places
        self.requested: int | None = None
        self._shown = -1
        self._grace = 0
        preview._publish = self._count_shown(preview._publish)

    def request(self, channel_id: int) -> None:
        self.requested = channel_id
        self._grace = GRACE_LOOKS

    async def run(self) -> None:
        while True:
            await asyncio.sleep(FOLLOW_SECONDS)
            with contextlib.suppress(Exception):  # a look that overlaps a click is simply tried again
                await self.look()

    async def look(self) -> None:
        target = self.requested
        if target is not None:
            if self.preview._active_action is not None or self._grace > 0:
                self._grace -= self.preview._active_action is None
                return
            place = self.places.find(target)
            if place is not None:
                self.move_to(place)  # raises while a click is being handled: the request waits for the next look
            self.requested = None
        elif len(self.env.http_requests) != self._shown:
            # Only news the view has not shown yet is worth a republish: each one makes the browser's next
            # revision-bound step (an autocomplete being typed) start again.
            await self.preview.refresh()

    def _count_shown(self, publish: Callable[..., None]) -> Callable[..., None]:
        """``publish``, noting how much the bot had sent when the view was last published (by anyone)."""
        def published(*args: Any, **kwargs: Any) -> None:
            publish(*args, **kwargs)
            self._shown = len(self.env.http_requests)
        return published

    def move_to(self, place: Any) -> None:
        """Present ``place`` in every open page of the preview, at its latest messages.

        SimCord 3.2.1 fixes a preview's channel when it is made, and only one preview may run: this sets the
        channel of the session and of each page, as the preview's own navigation does for a message.
        """
        preview = self.preview
        self.env._begin_operation("sandbox.go")
        try:
            preview.channel = place
            for page in tuple(preview._pages.values()):
                page.channel_id = place.id
                page.target_id = preview._initial_target(page.viewer, place.id)
                if page.layout == "channel":
                    page.window_end_id = page.target_id
                page.modal = None
                page.modal_handle = None
                page.generation += 1
                page.navigation_query = ""
                page.navigation_cursor = None
                page.candidate_queries.clear()
                preview._publish(page, reason="navigation")
        finally:
            self.env._end_operation()


def member_language(interaction: discord.Interaction) -> str:
    """What a private answer speaks: the member's Discord language (as cogs.locales, which sits above here)."""
    return i18n.resolve(interaction.locale.value if interaction.locale else None)


class SandboxCog(commands.Cog):
    """``/sandbox go``: only in the sandbox, where the browser shows one channel at a time."""

    sandbox = app_commands.Group(name="sandbox", description="Sandbox only: move this view between channels",
                                 guild_only=True)

    def __init__(self, places: Places, follower: Follower) -> None:
        self.places = places
        self.follower = follower

    @sandbox.command(name="go", description="Show #games or one of its threads in this view")
    @app_commands.describe(place="#games or a thread (a thread table or a tournament table)")
    async def go(self, interaction: discord.Interaction, place: str) -> None:
        target = self.places.find(int(place)) if place.isdigit() else None
        if target is None:
            await interaction.response.send_message(i18n.t(
                member_language(interaction), "I don't know that place. Pick #{home} or a thread from the suggestions.",
                home=HOME), ephemeral=True)
            return
        await interaction.response.send_message(i18n.t(member_language(interaction), "Taking this view to {place}…",
                                                       place=target.mention), ephemeral=True)
        self.follower.request(target.id)

    @go.autocomplete("place")
    async def places_for(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        typed = typed.strip().lower()
        choices = [app_commands.Choice(name=Places.label(place)[:100], value=str(place.id))
                   for place in reversed(self.places.all()) if typed in (place.name or "").lower()]
        return choices[:25]


@dataclass
class World:
    guild: Any
    home: Any
    members: list[Any]


async def build_world(env: Any, bot: commands.Bot, locale: str | None = None) -> World:
    """One server with #games, four members (alice manages it) and the welcome message; ``locale`` is the
    server's Discord language (SimCord's default, en-US, when None)."""
    guild = env.create_guild("Deckhand Sandbox", **({"preferred_locale": locale} if locale else {}))
    managers = guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    home = guild.create_text_channel(HOME)
    members = [guild.add_member(env.create_user(name), roles=[managers] if name == MANAGER else [])
               for name in MEMBERS]
    games = bot.get_channel(home.id)
    if isinstance(games, discord.TextChannel):
        preferred = games.guild.preferred_locale.value if games.guild.preferred_locale else None
        await games.send(i18n.t(i18n.server_language(i18n.AUTO, preferred), WELCOME))
    return World(guild, home, members)


async def follow(env: Any, preview: Any, world: World, bot: commands.Bot) -> Follower:
    """Add ``/sandbox go`` to the bot and return the follower that keeps ``preview`` current."""
    follower = Follower(env, preview, Places(world.home))
    await bot.add_cog(SandboxCog(follower.places, follower))
    await bot.tree.sync()
    return follower


async def serve(bot: commands.Bot, port: int | None, until: Callable[[Awaitable[None]], Awaitable[None]],
                close: Callable[[], Awaitable[None]]) -> None:
    """Build the sandbox world around ``bot`` and present it until ``until`` returns.

    ``until(work)`` waits for ``work`` (the browser session ending) or a stop signal; ``close`` stops the
    bot inside SimCord, so answers still in flight reach the channel.
    """
    import simcord

    async with simcord.run(bot, check_errors=False) as env:
        world = await build_world(env, bot)
        async with env.preview(world.home, viewers=world.members, layout="channel", port=port) as preview:
            follower = await follow(env, preview, world, bot)
            following = asyncio.create_task(follower.run())
            print(f"\nDeckhand sandbox is running: open {preview.url}\n"
                  "Play in #games; switch 'Viewing as' between alice, bob, carol and dave "
                  "(alice manages the server); /sandbox go moves the view to a thread. Ctrl-C stops.\n",
                  flush=True)
            web = getattr(bot.get_cog("ProfileCog"), "server", None)
            if web is not None:  # the web pages (docs/operators.md, "Web pages"), on WEB_PORT or a free port
                print(f"Web pages: http://127.0.0.1:{web.port}/s/{world.guild.id} "
                      "(alice turns them on: /config set setting:web_pages value:on)\n", flush=True)
            try:
                await until(preview.wait_closed())
            finally:
                following.cancel()
                await asyncio.gather(following, return_exceptions=True)
                await close()
