"""Where a server's web pages are, when it turned them on: the link of a table, a tournament, a leaderboard or
a player. Synchronous for tables and tournaments: whether a server's pages are on comes from the settings cache,
and which channels @everyone can view from a map kept here (loaded at start, updated as the bot records them)."""

from __future__ import annotations

from data.store import Store, TableRecord
from data.tournaments import TournamentRecord
from host.settings import ServerSettings


class WebLinks:
    def __init__(self, store: Store, settings: ServerSettings, public_url: str) -> None:
        self.store = store
        self.settings = settings
        self.public_url = public_url.rstrip("/")
        self.channels: dict[int, bool] = {}

    def served_at(self, url: str) -> None:
        """The address the pages turned out to be served at: links use it when PUBLIC_URL is not set."""
        if not self.public_url:
            self.public_url = url.rstrip("/")

    async def load(self) -> None:
        self.channels = await self.store.web.channel_facts()

    async def record(self, guild_id: int, channel_id: int, public: bool) -> None:
        if self.channels.get(channel_id) != public:
            await self.store.web.set_channel_public(guild_id, channel_id, public)
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

    async def set_player_hidden(self, user_id: int, hidden: bool) -> None:
        """``/profile visibility``: hide the member's player page (it 404s, their name links nowhere) or show it."""
        await self.store.web.set_profile_hidden(user_id, hidden)

    async def player(self, guild_id: int | None, user_id: int) -> str | None:
        if not self.pages_on(guild_id) or await self.store.web.hidden_profiles([user_id]):
            return None
        return f"{self.public_url}/s/{guild_id}/players/{user_id}"
