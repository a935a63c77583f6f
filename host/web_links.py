"""Where a server's web pages are, when it turned them on: the link of a table, a tournament, a leaderboard or
a player. Synchronous for tables and tournaments: whether a server's pages are on comes from the settings cache,
and which channels @everyone can view from a map kept here (loaded at start, updated as the bot records them)."""

from __future__ import annotations

from collections.abc import Callable

from data.store import Store, TableRecord
from data.tournaments import TournamentRecord
from host.known_members import known_names
from host.settings import ServerSettings


class WebLinks:
    def __init__(self, store: Store, settings: ServerSettings, public_url: str,
                 sees: Callable[[int], bool | None] | None = None) -> None:
        self.store = store
        self.settings = settings
        self.public_url = public_url.rstrip("/")
        self.channels: dict[int, bool] = {}
        #: Whether @everyone can view a channel, from the bot's own cache (None: not known there). It answers for a
        #: channel not recorded yet: the first lobby or sign-up in a channel is built before the command that
        #: made it completes, when the channel's visibility is recorded for the web pages.
        self.sees = sees

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

    def public(self, channel_id: int) -> bool:
        """Whether @everyone can view the channel: as recorded, else as the bot's cache has it."""
        known = self.channels.get(channel_id)
        if known is None and self.sees is not None:
            known = self.sees(channel_id)
        return bool(known)

    def table(self, table: TableRecord) -> str | None:
        if not self.pages_on(table.guild_id) or not self.public(table.parent_id or table.channel_id):
            return None
        return f"{self.public_url}/s/{table.guild_id}/tables/{table.id}"

    def tournament(self, record: TournamentRecord) -> str | None:
        if not self.pages_on(record.guild_id) or not self.public(record.channel_id):
            return None
        return f"{self.public_url}/s/{record.guild_id}/tournaments/{record.id}"

    def leaderboard(self, guild_id: int | None, game: str) -> str | None:
        return f"{self.public_url}/s/{guild_id}/leaderboard/{game}" if self.pages_on(guild_id) else None

    async def set_player_hidden(self, user_id: int, hidden: bool) -> None:
        """``/profile visibility``: hide the member's player page (it 404s, their name links nowhere) or show it."""
        await self.store.web.set_profile_hidden(user_id, hidden)

    async def player(self, guild_id: int | None, user_id: int) -> str | None:
        """The member's player page, when it is served: pages on, not hidden, and the member known in the server
        (sat at a table or entered a tournament there; otherwise the page 404s, and a link to it would too)."""
        if not guild_id or not self.pages_on(guild_id) or await self.store.web.hidden_profiles([user_id]):
            return None
        if user_id not in await known_names(self.store, guild_id, [user_id]):
            return None
        return f"{self.public_url}/s/{guild_id}/players/{user_id}"
