"""Link buttons from Discord messages to the web pages, when a server turned its pages on.

Synchronous on purpose, so a message builder adds a link with one call: whether a server's pages are on comes
from the settings cache (every guild's settings are read at start and re-read when they change), and which
channels @everyone can view from the map the bot's one :class:`WebLinks` keeps (loaded at start by the /profile
cog, updated as the bot records them). bot.py builds that object and gives it to each cog that links.
"""

from __future__ import annotations

from cogs.controls import with_link
from host.read_models import TournamentView
from host.tournaments.service import TournamentState
from host.tournaments.views import tournament_view
from host.web_links import WebLinks


def linked_view(state: TournamentState, links: WebLinks) -> TournamentView:
    """The tournament's read model, with its web page's address when the server's pages are on."""
    return tournament_view(state, links.tournament(state.record))


__all__ = ["WebLinks", "linked_view", "with_link"]
