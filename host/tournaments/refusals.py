"""The one error this package raises for a request an organiser can correct."""

from __future__ import annotations


class TournamentRefusal(ValueError):
    """A clear, player-readable reason why a tournament setting or action is refused.

    ``str(err)`` is meant to be shown as is (ephemeral) and nothing has changed when it is raised.
    """
