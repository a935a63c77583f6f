"""Link buttons from Discord messages to the web pages, when a server turned its pages on.

Synchronous on purpose, so a message builder adds a link with one call: whether a server's pages are on comes
from the settings cache (every guild's settings are read at start and re-read when they change), and which
channels @everyone can view from a map this module keeps (loaded at start, updated as the bot records them).
"""

from __future__ import annotations

import discord

from cogs.controls import stateless_view
from data.store import Store, TableRecord
from data.tournaments import TournamentRecord
from host.settings import ServerSettings


class WebLinks:
    def __init__(self, store: Store, settings: ServerSettings, public_url: str) -> None:
        self.store = store
        self.settings = settings
        self.public_url = public_url.rstrip("/")
        self.channels: dict[int, bool] = {}

    async def load(self) -> None:
        self.channels = await self.store.channel_facts()

    async def record(self, guild_id: int, channel_id: int, public: bool) -> None:
        if self.channels.get(channel_id) != public:
            await self.store.set_channel_public(guild_id, channel_id, public)
            self.channels[channel_id] = public

    def pages_on(self, guild_id: int | None) -> bool:
        if not self.public_url or not guild_id:
            return False
        cached = self.settings.cached(guild_id)
        return bool(cached and cached.web_pages)

    def server(self, guild_id: int | None) -> str | None:
        return f"{self.public_url}/s/{guild_id}" if self.pages_on(guild_id) else None

    def table(self, table: TableRecord) -> str | None:
        if not self.pages_on(table.guild_id) or not self.channels.get(table.parent_id or table.channel_id):
            return None
        return f"{self.public_url}/s/{table.guild_id}/tables/{table.id}"

    def tournament(self, record: TournamentRecord) -> str | None:
        if not self.pages_on(record.guild_id) or not self.channels.get(record.channel_id):
            return None
        return f"{self.public_url}/s/{record.guild_id}/tournaments/{record.id}"

    def leaderboard(self, guild_id: int | None, game: str) -> str | None:
        return f"{self.public_url}/s/{guild_id}/leaderboard/{game}" if self.pages_on(guild_id) else None

    async def player(self, guild_id: int | None, user_id: int) -> str | None:
        if not self.pages_on(guild_id) or await self.store.hidden_profiles([user_id]):
            return None
        return f"{self.public_url}/s/{guild_id}/players/{user_id}"


#: The running bot's links (set in its set-up); None: no links anywhere.
LINKS: WebLinks | None = None


def with_link(view: discord.ui.View | None, url: str | None, label: str = "Web page") -> discord.ui.View | None:
    """``view`` with a link button to ``url`` added (a new view if there was none); unchanged without a url."""
    if url is None:
        return view
    if view is None:
        view = stateless_view()
    if len(view.children) >= 25:
        return view
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label))
    return view


def table_link(view: discord.ui.View | None, table: TableRecord) -> discord.ui.View | None:
    return view if LINKS is None else with_link(view, LINKS.table(table))


def tournament_link(view: discord.ui.View | None, record: TournamentRecord) -> discord.ui.View | None:
    return view if LINKS is None else with_link(view, LINKS.tournament(record))
