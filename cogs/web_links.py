"""Link buttons from Discord messages to the web pages, when a server turned its pages on.

Synchronous on purpose, so a message builder adds a link with one call: whether a server's pages are on comes
from the settings cache (every guild's settings are read at start and re-read when they change), and which
channels @everyone can view from a map this module keeps (loaded at start, updated as the bot records them).
"""

from __future__ import annotations

from cogs.controls import with_link
from host.read_models import TournamentView
from host.tournaments.service import TournamentState
from host.tournaments.views import tournament_view
from host.web_links import WebLinks

#: The running bot's links (set in its set-up); None: no links anywhere.
LINKS: WebLinks | None = None


def linked_view(state: TournamentState) -> TournamentView:
    """The tournament's read model, with its web page's address when the server's pages are on."""
    return tournament_view(state, LINKS.tournament(state.record) if LINKS is not None else None)


__all__ = ["LINKS", "WebLinks", "linked_view", "with_link"]
