"""Refusals: expected, player-facing reasons why a request changed nothing."""

from __future__ import annotations

from i18n import N_


class Refusal(Exception):
    """A request that was refused; ``str(exc)`` is its English text.

    ``Refusal(N_("`{name}` is one of {allowed}."), name=..., allowed=...)`` gives a message id with named
    placeholders: the guard shows it in the member's language (``msgid`` and ``params``). A refusal made of
    finished text (no params) is shown as it is, translated only if that exact text is in the catalogues.
    """

    def __init__(self, text: str = "", /, **params: object) -> None:
        super().__init__(text.format_map(params) if params else text)
        self.msgid = text
        self.params = params


class StaleClick(Refusal):
    """A control drawn for an older version of the table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(N_("That table has moved on since this was drawn. Here is the current state."))
        self.table_id = table_id
