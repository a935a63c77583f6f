"""The one error this package raises for a request an organiser can correct, and the words its refusals
carry."""

from __future__ import annotations


class Phrase:
    """A message id with its named params, translated where it is shown: a refusal's param that is itself
    words (a status, the action refused), so the whole refusal reads in the member's language.
    ``str()`` is its English text."""

    def __init__(self, msgid: str, /, **params: object) -> None:
        self.msgid = msgid
        self.params = params

    def __str__(self) -> str:
        return self.msgid.format_map(self.params) if self.params else self.msgid

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class TournamentRefusal(ValueError):
    """A clear, player-readable reason why a tournament setting or action is refused.

    ``str(err)`` is its English text; ``msgid`` and ``params`` let the guard show it in the member's language
    (as ``host.Refusal``). Nothing has changed when it is raised.
    """

    def __init__(self, text: str = "", /, **params: object) -> None:
        super().__init__(text.format_map(params) if params else text)
        self.msgid = text
        self.params = params
