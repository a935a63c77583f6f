"""The one error this package raises for a request an organiser can correct, and the words its refusals
carry."""

from __future__ import annotations

from host.errors import Phrase
from i18n import DEFAULT, t

__all__ = ["Phrase", "TournamentRefusal"]


class TournamentRefusal(ValueError):
    """A clear, player-readable reason why a tournament setting or action is refused.

    ``str(err)`` is its English text; ``msgid`` and ``params`` let the guard show it in the member's language
    (as ``host.Refusal``). Nothing has changed when it is raised.
    """

    def __init__(self, text: str = "", /, **params: object) -> None:
        super().__init__(t(DEFAULT, text, **params) if params or "{/" in text or "{:" in text else text)
        self.msgid = text
        self.params = params
