"""One guard around every handler: each interaction is answered exactly once.

A handler's work runs inside :meth:`Guard.run`. Whatever it raises becomes
an answer: a :class:`Refusal` its own text, a stale click a fresh panel (or,
if even that is refused, the refusal), anything else the apology and a log
line with the table id. The guard also counts the handlers in flight, so a
clean stop can let them finish their commit before the store closes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.answers import reply
from cogs.locales import member_language
from cogs.presenter import Outgoing
from host import Refusal, StaleClick, permissions
from host.errors import Figure, GameTitle, Several
from host.metrics import Recorder
from i18n import N_, Said, number, say_text, t, title

log = logging.getLogger(__name__)

# Message ids: the member reads them in their own language (cogs.locales.member_language).
APOLOGY = N_("Sorry, something went wrong on my side. The table is safe; please try again.")
STOPPING = N_("Deckhand is restarting; nothing was changed. Please try again in a moment.")

OnStale = Callable[[StaleClick], Awaitable[None]]


def awaiting_answer(interaction: discord.Interaction) -> bool:
    """Whether the member has not been answered yet (not responded, or deferred with no follow-up)."""
    return not interaction.response.is_done() or bool(interaction.extras.get("deferred"))


async def tell(interaction: discord.Interaction, text: str) -> None:
    """A private note: the response if none was sent yet, the deferred message filled in, else a follow-up
    (past Discord's 15 minutes, dropped). The one answering path, ``cogs.answers.reply``, does each."""
    await reply(interaction, Outgoing(text[:2000]), ephemeral=True)


def _words(value: object, lang: str) -> object:
    """A refusal's param in ``lang``: words (a Phrase, a nested refusal, an engine's Said, a list of them) are
    translated, a Figure written the language's way; names and ids stay as they are."""
    if hasattr(value, "msgid") and hasattr(value, "params"):
        return refusal_text(value, lang)  # type: ignore[arg-type]
    if isinstance(value, Said):
        return say_text(lang, value)
    if isinstance(value, Several):
        return value.sep.join(str(_words(item, lang)) for item in value)
    if isinstance(value, Figure):
        return number(lang, value)
    if isinstance(value, GameTitle):
        return title(lang, value)
    return value


def refusal_text(refusal: Refusal, lang: str) -> str:
    """A refusal in the member's language: its message id translated, its placeholders filled."""
    if isinstance(refusal.msgid, Said):  # an engine's reason (IllegalAction), said from a message
        return say_text(lang, refusal.msgid)
    params = {key: _words(value, lang) for key, value in refusal.params.items()}
    try:
        return t(lang, refusal.msgid, **params)
    except (KeyError, IndexError, ValueError):  # a translation that names a placeholder the refusal lacks
        return str(refusal)


def role_ids(interaction: discord.Interaction) -> list[int]:
    """The invoking member's roles, as plain ids for host to check."""
    return [r.id for r in getattr(interaction.user, "roles", ())]


def bot_permissions(interaction: discord.Interaction) -> set[str]:
    """The bot's own permissions in the interaction's channel (Discord sends them with it), as plain names
    among those host checks (read by name: iterating Permissions skips aliases such as view_channel)."""
    granted = interaction.app_permissions
    return {name for name in permissions.PERMISSIONS if getattr(granted, name, False)}


def is_manager(interaction: discord.Interaction) -> bool:
    """Whether the member has Manage Server here: passed down to host, which decides what that allows."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def command_name(interaction: discord.Interaction) -> str:
    """The metrics' name of what was used: the command, or a component's verb (never its ids)."""
    if interaction.command is not None:
        return interaction.command.qualified_name
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    # Components: "dh:a:12:3:play:7" → "component dh:a".
    return "component " + ":".join(custom_id.split(":")[:2]) if custom_id else "other"


def outcome_of(exc: BaseException | None) -> str:
    """How a handler ended, for the metrics: ok, stale, refused or error."""
    if exc is None:
        return "ok"
    if isinstance(exc, StaleClick):
        return "stale"
    return "refused" if isinstance(exc, Refusal) else "error"


class Guard:
    def __init__(self, recorder: Recorder | None = None) -> None:
        self.closing = False
        self._inflight: set[asyncio.Task[object]] = set()
        #: Told each interaction's command and outcome (None: nobody is told).
        self.recorder = recorder

    async def run(self, interaction: discord.Interaction, work: Callable[[], Awaitable[None]], *,
                  table_id: int | None = None, on_stale: OnStale | None = None) -> None:
        if self.closing:
            self._record(interaction, "stopping")
            await self._answer(interaction, t(member_language(interaction), STOPPING), table_id)
            return
        task = asyncio.current_task()
        if task is not None:
            self._inflight.add(task)
        outcome = "ok"
        try:
            await work()
        except Exception as exc:  # noqa: BLE001 - every failure must become an answer
            outcome = outcome_of(exc)
            await self._fail(interaction, exc, table_id, on_stale)
        finally:
            if task is not None:
                self._inflight.discard(task)
            self._record(interaction, outcome)

    def _record(self, interaction: discord.Interaction, outcome: str) -> None:
        if self.recorder is not None:
            self.recorder.interaction(command_name(interaction), outcome)

    async def _fail(self, interaction: discord.Interaction, exc: Exception, table_id: int | None,
                    on_stale: OnStale | None) -> None:
        if isinstance(exc, StaleClick) and on_stale is not None and awaiting_answer(interaction):
            try:
                await on_stale(exc)
                return
            except Refusal as again:  # e.g. a stranger's click on an old message
                exc = again
            except Exception as again:  # noqa: BLE001
                exc = again
        if isinstance(exc, Refusal):
            text = refusal_text(exc, member_language(interaction))
        else:
            log.error("unexpected error (table %s, user %s)", table_id, interaction.user.id,
                      exc_info=(type(exc), exc, exc.__traceback__))
            text = t(member_language(interaction), APOLOGY)
        await self._answer(interaction, text, table_id)

    @staticmethod
    async def _answer(interaction: discord.Interaction, text: str, table_id: int | None) -> None:
        if not awaiting_answer(interaction):
            # The member already has their answer (the move was acknowledged); a later
            # failure, such as posting the table message, is logged above, not told twice.
            return
        try:
            await tell(interaction, text)
        except Exception:
            log.warning("could not answer an interaction (table %s)", table_id, exc_info=True)

    async def drain(self, timeout: float) -> bool:
        """Stop taking new work and wait up to ``timeout`` s for the handlers in flight."""
        self.closing = True
        pending = {t for t in self._inflight if t is not asyncio.current_task() and not t.done()}
        if not pending:
            return True
        _, still = await asyncio.wait(pending, timeout=timeout)
        return not still
