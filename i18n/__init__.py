"""Deckhand's words in every language: gettext catalogues, language resolution, numbers.

English is the source language: a message id *is* its English text, with ``{named}`` placeholders.
Each other language is one catalogue, ``i18n/locales/<lang>/LC_MESSAGES/deckhand.po``, committed; its
``.mo`` is compiled by Babel from the ``.po`` the first time the language is used (written beside it when
the folder is writable, else kept in memory), so a new language is a new ``.po`` file and no code.

This package sits below every other layer and imports none of them, so engines and renderers can mark
message ids (``N_``), host can resolve languages and the presenters can translate.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
import logging
import os
import re
import string
from collections.abc import Mapping
from datetime import datetime, tzinfo
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from babel import Locale
from babel.dates import format_date, format_time
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, parse_pattern
from babel.units import format_unit

log = logging.getLogger(__name__)

DOMAIN = "deckhand"
LOCALES = Path(__file__).resolve().parent / "locales"
#: The source language: message ids are its text, and every unknown locale falls back to it.
DEFAULT = "en"
#: The per-server setting that follows the server's Discord language (``guild.preferred_locale``).
AUTO = "auto"


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def languages() -> tuple[str, ...]:
    """English, then every language with a catalogue, in code order (``("en", "fr", "uk")``)."""
    found = sorted(p.parent.parent.name for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (DEFAULT, *(lang for lang in found if lang != DEFAULT))


def resolve(locale: str | None) -> str:
    """The language a Discord locale speaks here: by its language part (``fr-CA`` and ``fr`` are French,
    ``uk`` Ukrainian); a locale without a catalogue, or none, is English."""
    if not locale:
        return DEFAULT
    lang = str(locale).replace("_", "-").split("-", 1)[0].strip().lower()
    return lang if lang in languages() else DEFAULT


def server_language(setting: str, preferred_locale: str | None) -> str:
    """What a server's channels read: its ``language`` setting, or with ``auto`` its Discord language when
    Deckhand speaks it, else English."""
    return resolve(preferred_locale) if setting == AUTO else resolve(setting)


def compile_catalogue(lang: str) -> bytes:
    """The ``.mo`` bytes of a language, compiled by Babel from its ``.po`` (fuzzy entries left out)."""
    with po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def _write_atomically(target: Path, data: bytes) -> None:
    """Several processes may compile at once (the bot, its workers, tests): each writes a file of its own and
    renames it over the target, so no reader ever sees half a catalogue."""
    temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, target)
    except OSError:  # an installed, read-only package: the compiled catalogue lives in memory only
        log.info("catalogue %s compiled in memory", target)
        with contextlib.suppress(OSError):
            temporary.unlink()


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """A language's compiled catalogue, built at first use; English (or a language without one) is none."""
    if lang == DEFAULT or lang not in languages():
        return gettext.NullTranslations()
    source = po_path(lang)
    compiled = source.with_suffix(".mo")
    if not compiled.exists() or compiled.stat().st_mtime < source.stat().st_mtime:
        data = compile_catalogue(lang)
        _write_atomically(compiled, data)
        return gettext.GNUTranslations(io.BytesIO(data))
    with compiled.open("rb") as handle:
        return gettext.GNUTranslations(handle)


# --------------------------------------------------------------------------- slash commands named in messages
#: A command named inside a message: ``{/game resume}``, ``{/game notify dm:on}``, ``{/game new options:}``; or an
#: option alone: ``{:round_time}``, ``{:thread:false}``, ``{:table:}``. A quoted value is free text, kept as written:
#: ``{/config set setting:web_pages value:"on"}``.
COMMAND_PLACEHOLDER = re.compile(r"\{([/:][^{}]+)\}")


def option(name: str, lang: str, /, value: str | None = None) -> str:
    """A slash command option as a member of ``lang`` sees it: ``option("round_time", "fr")`` is ``durée_ronde``;
    with a value, ``option("dm", "fr", "on")`` is ``mp:activé``: a value is a choice's English name, translated,
    unless it is quoted (``value='"on"'``: free text the member types as it is, written without its quotes); an
    empty value leaves ``table:`` for the member to fill in."""
    shown = lookup(lang, name, "option") or name
    if value is None:
        return shown
    if len(value) > 1 and value[0] == value[-1] == '"':
        return f"{shown}:{value[1:-1]}"
    return f"{shown}:{(lookup(lang, value, 'choice') or value) if value else ''}"


def command(path: str, lang: str, /, **options: str) -> str:
    """A slash command as a member of ``lang`` types it: ``command("game new", "fr")`` is ``/partie nouvelle``,
    ``command("game notify", "fr", dm="on")`` is ``/partie notifications mp:activé``.

    The words are those cogs/translator.py gives Discord (a command under the ``command`` context, a subcommand
    by its whole path there, an option under ``option``, a choice under ``choice``), looked up the same way, so
    that a message never names a command differently from the member's command list. Options as in
    :func:`option`; a Python keyword option takes a trailing underscore (``with_="…"``).
    """
    words = path.split()
    # A subcommand is looked up by its whole path, as the translator asks for it ("tournament new").
    text = "/" + " ".join(lookup(lang, " ".join(words[:i + 1]), "command") or word for i, word in enumerate(words))
    for name, value in options.items():
        text += " " + option(name.rstrip("_"), lang, value)
    return text


def command_in(placeholder: str, lang: str) -> str:
    """A placeholder's command or option in ``lang``: ``/game notify dm:on`` → ``/partie notifications mp:activé``,
    ``:round_time`` → ``durée_ronde``, ``:thread:false`` → ``fil:false``."""
    if placeholder.startswith(":"):
        name, colon, value = placeholder[1:].partition(":")
        return option(name, lang, value if colon else None)
    words = placeholder.lstrip("/").split()
    path = " ".join(word for word in words if ":" not in word)
    options = dict(word.split(":", 1) for word in words if ":" in word)
    return command(path, lang, **options)


def _fill(lang: str, text: str, params: Mapping[str, object]) -> str:
    # A command placeholder ({/game new}, {:thread:false}) is filled by the language itself, so a message that
    # names a command needs no param for it and reads the same wherever it is said (stored, refused, posted).
    if "{/" in text or "{:" in text:
        text = COMMAND_PLACEHOLDER.sub(lambda found: command_in(found.group(1), lang), text)
    # Named placeholders only ({name}); a translation can reorder them freely.
    return text.format_map(params) if params else text


def _ids_by_english(lang: str) -> dict[str, str]:
    """Each message id of ``lang``'s catalogue that names a command, by its English text (``closed with /game
    abandon`` → ``closed with {/game abandon}``): a text stored in English can still be said in ``lang``."""
    return _ids_named_in(translations(lang))


@functools.lru_cache(maxsize=8)
def _ids_named_in(catalogue: gettext.NullTranslations) -> dict[str, str]:
    # Kept per catalogue object, not per language: a catalogue built again (its .po changed, or another folder of
    # catalogues in a test) is a new object, and its ids are never read from the one before.
    messages = getattr(catalogue, "_catalog", {})
    return {_fill(DEFAULT, key, {}): key for key in messages
            if isinstance(key, str) and ("{/" in key or "{:" in key)}


def t(lang: str, msgid: str, /, **params: object) -> str:
    """``msgid`` (its English text) in ``lang``, with its ``{named}`` placeholders filled. An English text whose
    commands were written out (``/game abandon``, as stored in a table's ``end_reason``) is its message id too."""
    if lang != DEFAULT:
        msgid = _ids_by_english(lang).get(msgid, msgid)
    return _fill(lang, translations(lang).gettext(msgid), params)


def tp(lang: str, context: str, msgid: str, /, **params: object) -> str:
    """As :func:`t`, for a message id whose meaning depends on where it stands (a command name, a choice)."""
    return _fill(lang, translations(lang).pgettext(context, msgid), params)


def tn(lang: str, singular: str, plural: str, n: int, /, **params: object) -> str:
    """The plural form of ``lang`` for ``n`` (French has two, Ukrainian three); ``{n}`` is the number written
    the language's way."""
    text = translations(lang).ngettext(singular, plural, n)
    return _fill(lang, text, {"n": number(lang, n), **params})


@functools.cache
def _whole_numbers_by_form(lang: str) -> dict[str, int]:
    """The smallest whole number of each of ``lang``'s plural categories (CLDR's: one, few, many, other)."""
    rule = Locale.parse(lang).plural_form
    found: dict[str, int] = {}
    for n in range(200):
        found.setdefault(rule(n), n)
    return found


def plural_n(lang: str, amount: float | Fraction) -> int:
    """The ``n`` to give :func:`tn` for an amount that may not be whole (½ pt, 1½ pts, 2.67 pts): a whole number
    in the plural category ``lang`` gives ``amount`` by CLDR's rules for decimals, which a catalogue's
    Plural-Forms cannot take. French writes "0,5 pt" and "1,5 pt" (under 2 is singular), English "1½ pts"."""
    if amount == int(amount):
        return int(amount)
    category = _locale(lang).plural_form(Decimal(str(round(float(amount), 2))))
    numbers = _whole_numbers_by_form(lang)
    # Ukrainian's decimals have a category no whole number has ("other"): its "many" form, as for 5.
    return numbers.get(category, numbers.get("many", 2))


def N_(msgid: str) -> str:
    """Marks a message id for extraction where it is defined; it is translated where it is shown."""
    return msgid


@functools.cache
def _locale(lang: str) -> Locale:
    """``lang``'s Babel locale, parsed once: Babel parses a locale given by name on every call (some 8 times a
    table picture, where the scores and counts are written)."""
    return Locale.parse(lang)


@functools.lru_cache(maxsize=4096, typed=True)
def number(lang: str, value: float) -> str:
    """A number written the language's way: 1,234.5 in English, 1 234,5 in French and Ukrainian."""
    return format_decimal(value, locale=_locale(lang))


@functools.lru_cache(maxsize=4096, typed=True)
def decimal(lang: str, value: float, places: int) -> str:
    """A number with exactly ``places`` decimals, the language's way: 25.00 in English, 25,00 in French."""
    return format_decimal(value, format="#,##0." + "0" * places if places else "#,##0", locale=_locale(lang))


def title(lang: str, game_title: str) -> str:
    """A game's title in ``lang``: titles stay as they are, except King Pedro's descriptive part ("King Pedro
    canadien et ukrainien"), the same words as the ``game`` option's choices in the slash commands."""
    return tp(lang, "choice", game_title)


def percent(lang: str, share: float, places: int = 1) -> str:
    """A share (0 to 1) as a percentage with ``places`` decimals, the language's way: 58.3% in English,
    58,3 % in French (the language's own pattern, its spacing included)."""
    pattern = parse_pattern(_locale(lang).percent_formats[None].pattern)
    pattern.frac_prec = (places, places)
    return pattern.apply(share, _locale(lang))


#: The units a duration is written in, largest first.
_UNITS = (("duration-day", 86400), ("duration-hour", 3600), ("duration-minute", 60), ("duration-second", 1))


def duration(lang: str, seconds: float) -> str:
    """A length of time in words, each unit with the language's plural: "1 day, 2 hours, 5 minutes",
    "1 jour, 2 heures et 5 minutes", "1 день, 2 години і 5 хвилин"."""
    left = max(0, int(seconds))
    parts = []
    for unit, size in _UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(format_unit(count, unit, length="long", locale=lang))
    return format_list(parts, style="unit", locale=lang) if parts else format_unit(0, "duration-second",
                                                                                    length="long", locale=lang)


def moment(lang: str, when: datetime, zone: tzinfo) -> str:
    """A date and time in a time zone, the language's way: "December 1, 2026, 8:00 PM", "1 décembre 2026,
    20:00". (A deadline a member must act by is a Discord timestamp instead: Discord localises it.)"""
    local = when.astimezone(zone)
    pattern = _locale(lang).datetime_formats["medium"]
    return str(pattern).replace("'", "").format(format_time(local, "short", locale=lang),
                                                format_date(local, "long", locale=lang))


def placeholders(text: str) -> set[str]:
    """The names of a text's ``{named}`` placeholders (what a translation must keep), its commands
    (``{/game notify dm:on}``) whole."""
    commands = set(COMMAND_PLACEHOLDER.findall(text))
    rest = COMMAND_PLACEHOLDER.sub("", text)
    return commands | {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(rest) if field}


def lookup(lang: str, msgid: str, context: str | None = None) -> str | None:
    """``msgid``'s translation in ``lang`` when its catalogue has one, else None (English has none)."""
    catalogue = getattr(translations(lang), "_catalog", {})
    key = f"{context}\x04{msgid}" if context else msgid
    found = catalogue.get(key)
    return found if isinstance(found, str) and found else None


# --------------------------------------------------------------------------- messages made far from their reader
#: A message made below the presenters: ``(msgid, params)``, or ``((singular, plural), params)`` whose
#: ``params["n"]`` picks the plural form. A param is plain text (a name, a ``{p0}`` seat placeholder, a number)
#: or a message itself (a card's name). It is JSON-safe: stored as a list, it reads back the same.
Message = tuple[object, dict[str, object]]


def msg(msgid: str, /, **params: object) -> Message:
    """A message to be said later, in whatever language its reader speaks."""
    return (msgid, params)


def msg_n(singular: str, plural: str, n: int, /, **params: object) -> Message:
    """A counted message: ``{n}`` picks the language's plural form when it is said."""
    return ((singular, plural), {"n": n, **params})


def is_message(value: object) -> bool:
    return (isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[1], dict)
            and (isinstance(value[0], str) or (isinstance(value[0], (tuple, list)) and len(value[0]) == 2)))


def say(lang: str, message: Message) -> str:
    """``message`` in ``lang``. In English it reads exactly as the engines' English text always has (a number
    as Python writes it), so stored labels and bots' fingerprints do not move."""
    ident, params = message
    filled = {key: say(lang, value) if is_message(value) else value for key, value in params.items()}
    if isinstance(ident, (tuple, list)):
        n = int(params["n"])  # type: ignore[call-overload]
        if lang == DEFAULT or lang not in languages():
            return _fill(DEFAULT, ident[0] if n == 1 else ident[1], {**filled, "n": str(n)})
        return tn(lang, ident[0], ident[1], n, **{k: v for k, v in filled.items() if k != "n"})
    return t(lang, str(ident), **filled)


class Said(str):
    """English text that remembers the message it was said from, so a reader can have it in their language.

    It *is* the English text (equal, hashed, dumped to JSON as it), so an engine keeps its contract's plain
    ``str`` results and their exact English while a presenter can ask for :func:`message_of`.
    """

    __slots__ = ("message",)
    message: Message

    def __new__(cls, message: Message) -> Said:
        made = super().__new__(cls, say(DEFAULT, message))
        made.message = message
        return made

    def __reduce__(self) -> tuple[object, tuple[Message]]:  # pickled to the render and bot pools
        return (Said, (self.message,))


def said(msgid: str, /, **params: object) -> Said:
    """English text of ``msgid`` with its message kept (see :class:`Said`)."""
    return Said(msg(msgid, **params))


def said_n(singular: str, plural: str, n: int, /, **params: object) -> Said:
    """As :func:`said`, counted."""
    return Said(msg_n(singular, plural, n, **params))


def message_of(text: str | Message) -> Message:
    """The message a text was said from; plain English text is its own message id (translated when the
    catalogue has it, else shown as it is)."""
    if isinstance(text, Said):
        return text.message
    if is_message(text):
        return text  # type: ignore[return-value]
    return (str(text), {})


def say_text(lang: str, text: str | Message) -> str:
    """A text that may have been said from a message, in ``lang``."""
    return say(lang, message_of(text))
