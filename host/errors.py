"""Refusals: expected, player-facing reasons why a request changed nothing."""

from __future__ import annotations

from collections.abc import Iterable

from i18n import DEFAULT, N_, t


class Refusal(Exception):
    """A request that was refused; ``str(exc)`` is its English text.

    ``Refusal(N_("`{name}` is one of {allowed}."), name=..., allowed=...)`` gives a message id with named
    placeholders: the guard shows it in the member's language (``msgid`` and ``params``). A refusal made of
    finished text (no params) is shown as it is, translated only if that exact text is in the catalogues.
    """

    def __init__(self, text: str = "", /, **params: object) -> None:
        # English, its commands ({/game new}) named as English members type them.
        super().__init__(t(DEFAULT, text, **params) if params or "{/" in text or "{:" in text else text)
        self.msgid = text
        self.params = params


class StaleClick(Refusal):
    """A control drawn for an older version of the table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(N_("That table has moved on since this was drawn. Here is the current state."))
        self.table_id = table_id


class Phrase:
    """Words a refusal carries as a param (a status, an action, an option's values): a message id with its
    named params, translated where the refusal is shown, so the whole refusal reads in the member's language.
    ``str()`` is its English text."""

    def __init__(self, msgid: str, /, **params: object) -> None:
        self.msgid = msgid
        self.params = params

    def __str__(self) -> str:
        return t(DEFAULT, self.msgid, **self.params)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Figure(int):
    """A number a refusal writes the reader's way: 5,000 in English, 5 000 in French (not an id or a count of
    seats, which stay as they are)."""

    def __format__(self, spec: str) -> str:
        return format(int(self), spec or ",")


class Several(tuple[object, ...]):
    """Several words a refusal lists (tables and their threads, permissions, options), each translated where
    the refusal is shown, joined with ``sep``."""

    sep: str

    def __new__(cls, items: Iterable[object], sep: str = ", ") -> Several:
        made = super().__new__(cls, items)
        made.sep = sep
        return made

    def __format__(self, spec: str) -> str:
        return format(self.sep.join(format(item) for item in self), spec)


class GameTitle(str):
    """A game's title in a refusal: as it is, except King Pedro's descriptive part, said in the reader's
    language (``i18n.title``)."""
