"""Per-server settings: defaults for new tables, reminders, bot pace and level, lobby timeout, game channels.

Values are stored as the text a manager typed, after checking; :class:`ServerSettings`
reads them back as typed values, with a small per-guild cache that every change clears.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import i18n
from data.store import Store
from host.durations import TURN_TIME_BOUNDS, describe, parse_duration
from host.errors import Refusal
from host.limits import Cooldowns
from host.parsing import whole_number
from host.read_models import SettingsShown
from i18n import N_, said
from render.markup import in_code

BOT_LEVELS = ("random", "easy", "normal", "hard")
ON_TIMEOUT = ("bot", "forfeit")
ON_OFF = ("on", "off")
LOBBY_BOUNDS = (60, 30 * 86400)
MAX_BOT_DELAY = 600
#: The most entrants any tournament takes; a server may set a lower ``max_entrants_limit``.
ENTRANTS_CEILING = 1024
DEFAULT_ENTRANTS_LIMIT = 256
#: Flood limits (issue 26): their defaults and the highest value a server may set.
DEFAULT_OPEN_TABLES = 5
DEFAULT_THREAD_TABLES = 50
#: Discord's own limit of active threads in a server: more thread tables could never open anyway.
THREAD_TABLES_CEILING = 1000
OPEN_TABLES_CEILING = 1000
DEFAULT_BOT_ENTRANTS = 32
DEFAULT_NEW_COOLDOWN = 3
NEW_COOLDOWN_CEILING = 3600
TOURNAMENT_CREATORS = ("managers", "everyone")


@dataclass(frozen=True)
class Settings:
    turn_time: int | None = None
    on_timeout: str = "bot"
    thread: bool = False
    reminders: bool = True
    bot_delay: float | None = None  # None: the process's BOT_DELAY
    bot_level: str = "normal"
    lobby_timeout: int = 3 * 86400
    game_channels: tuple[int, ...] = ()  # empty: any channel
    web_pages: bool = False  # the server's public web pages (web/)
    #: The IANA zone that ``/tournament new starts_at:2026-12-01 18:00`` is read in.
    timezone: str = "UTC"
    #: The most entrants one tournament of this server may take (``max_entrants`` at most this).
    max_entrants_limit: int = DEFAULT_ENTRANTS_LIMIT
    #: Members with this role run tournaments as organisers (None: nobody by role).
    tournament_organiser_role: int | None = None
    #: Lobbies and games one member may host in this server that have not ended.
    max_open_tables: int = DEFAULT_OPEN_TABLES
    #: Active thread tables in this server (each holds one of Discord's 1,000 active threads).
    max_thread_tables: int = DEFAULT_THREAD_TABLES
    #: Who may run ``/tournament new``: ``managers`` (Manage Server or the organiser role) or ``everyone``.
    tournament_creators: str = "managers"
    #: The most bot entrants one tournament may take.
    max_bot_entrants: int = DEFAULT_BOT_ENTRANTS
    #: Seconds a member waits between two ``/game new`` (or two ``/tournament new``).
    new_cooldown: int = DEFAULT_NEW_COOLDOWN
    #: What the server's channels read: en, fr, uk, or auto (its Discord language when Deckhand speaks it).
    language: str = i18n.AUTO

    def channel_language(self, preferred_locale: str | None) -> str:
        """The language of table messages, tournament posts and threads, given the guild's preferred_locale."""
        return i18n.server_language(self.language, preferred_locale)

    def allows_channel(self, channel_id: int) -> bool:
        return not self.game_channels or channel_id in self.game_channels


NAMES = ("turn_time", "on_timeout", "thread", "reminders", "bot_delay", "bot_level", "lobby_timeout", "game_channels",
         "web_pages", "timezone", "max_entrants_limit", "tournament_organiser_role", "language", "max_open_tables",
         "max_thread_tables", "tournament_creators", "max_bot_entrants", "new_cooldown")
#: Whole-number settings: (lowest, highest).
NUMBER_BOUNDS = {"max_entrants_limit": (2, ENTRANTS_CEILING), "max_open_tables": (1, OPEN_TABLES_CEILING),
                 "max_thread_tables": (0, THREAD_TABLES_CEILING), "max_bot_entrants": (0, ENTRANTS_CEILING),
                 "new_cooldown": (0, NEW_COOLDOWN_CEILING)}
#: Each setting's help, a message id the presenter translates (with HELP_VALUES filled in).
HELP = {
    "turn_time": N_("default turn clock for new tables: off, or e.g. 90s, 10m, 12h, 3d, 1d12h (30s to 14d)"),
    "on_timeout": N_("what happens when a seat's time runs out: bot or forfeit"),
    "thread": N_("whether new tables open in their own thread: on or off"),
    "reminders": N_("a reminder at half time: on or off"),
    "bot_delay": N_("seconds a bot waits before each move (0 to {max_bot_delay})"),
    "bot_level": N_("level of new bot seats: random, easy, normal or hard"),
    "lobby_timeout": N_("a lobby that has not started after this long closes itself (1m to 30d)"),
    "game_channels": N_("where tables may be opened: any, or channel mentions/ids separated by spaces"),
    "web_pages": N_("public web pages of this server's tables, tournaments and leaderboards: on or off"),
    "timezone": N_("the time zone of tournament start times, an IANA name such as Europe/Paris (default UTC)"),
    "max_entrants_limit": N_("the most entrants a tournament may take, 2 to {ceiling} (default {default})"),
    "tournament_organiser_role": N_("members with this role run every tournament: a role mention or id, or none"),
    "language": N_("what the server's channels read: en, fr, uk, or auto (the server's Discord language when it "
                   "is one of those, else English)"),
    "max_open_tables": N_("lobbies and games one member may host here that have not ended, 1 to {open_ceiling} "
                          "(default {open_default})"),
    "max_thread_tables": N_("active thread tables in this server, 0 to {thread_ceiling} (default {thread_default})"),
    "tournament_creators": N_("who may run {/tournament new}: managers (Manage Server or the tournament organiser "
                              "role) or everyone"),
    "max_bot_entrants": N_("the most bot entrants a tournament may take, 0 to {ceiling} (default {bots_default})"),
    "new_cooldown": N_("seconds a member waits between two {/game new} or two {/tournament new}, 0 to "
                       "{cooldown_ceiling} (default {cooldown_default})"),
}
#: The numbers the help texts name.
HELP_VALUES = (("max_bot_delay", MAX_BOT_DELAY), ("ceiling", ENTRANTS_CEILING), ("default", DEFAULT_ENTRANTS_LIMIT),
               ("open_ceiling", OPEN_TABLES_CEILING), ("open_default", DEFAULT_OPEN_TABLES),
               ("thread_ceiling", THREAD_TABLES_CEILING), ("thread_default", DEFAULT_THREAD_TABLES),
               ("bots_default", DEFAULT_BOT_ENTRANTS), ("cooldown_ceiling", NEW_COOLDOWN_CEILING),
               ("cooldown_default", DEFAULT_NEW_COOLDOWN))


#: require_play_here's refusal for each thing it is asked about: a whole sentence, so that it translates.
PLAY_ELSEWHERE = {"Tables": N_("Tables can't be opened here. This server plays in {allowed}.")}
GAME_CHANNELS_FORM = N_("`game_channels` is `any`, or channels (#mentions or ids) separated by spaces.")


def normalise(name: str, value: str) -> str:
    """Check ``value`` for ``name`` and return its stored form; a bad value raises Refusal."""
    raw = value.strip()
    low = raw.lower()
    if name not in NAMES:
        raise Refusal(N_("There is no setting `{name}`. The settings are: {names}."), name=in_code(name[:40]),
                      names=", ".join(NAMES))
    if name == "turn_time":
        seconds = parse_duration(raw, low=TURN_TIME_BOUNDS[0], high=TURN_TIME_BOUNDS[1])
        return "off" if seconds is None else str(seconds)
    if name == "lobby_timeout":
        seconds = parse_duration(raw, low=LOBBY_BOUNDS[0], high=LOBBY_BOUNDS[1], what="lobby_timeout",
                                 allow_off=False)
        return str(seconds)
    if name == "on_timeout":
        return _choice(name, low, ON_TIMEOUT)
    if name in ("thread", "reminders", "web_pages"):
        return _choice(name, low, ON_OFF)
    if name == "bot_level":
        return _choice(name, low, BOT_LEVELS)
    if name == "bot_delay":
        number = whole_number(raw, 0, MAX_BOT_DELAY)
        if number is None:
            raise Refusal(N_("`bot_delay` is a whole number of seconds from 0 to {most}."), most=MAX_BOT_DELAY)
        return str(number)
    if name == "timezone":
        return check_timezone(raw)
    if name in NUMBER_BOUNDS:
        low_bound, high_bound = NUMBER_BOUNDS[name]
        number = whole_number(raw, low_bound, high_bound)
        if number is None:
            raise Refusal(N_("`{name}` is a whole number from {low} to {high}."), name=name, low=low_bound,
                          high=high_bound)
        return str(number)
    if name == "tournament_creators":
        return _choice(name, low, TOURNAMENT_CREATORS)
    if name == "tournament_organiser_role":
        if low in ("none", "off"):
            return "none"
        number = whole_number(raw.strip("<@&>"), 1, 2**63 - 1)
        if number is None:
            raise Refusal(N_("`tournament_organiser_role` is a role (a mention or its id), or `none`."))
        return str(number)
    if name == "language":
        return _choice(name, low, (*i18n.languages(), i18n.AUTO))
    if low == "any":
        return "any"
    ids = []
    for part in raw.replace(",", " ").split():
        number = whole_number(part.strip("<#>"), 1, 2**63 - 1)
        if number is None:
            raise Refusal(GAME_CHANNELS_FORM)
        ids.append(number)
    if not ids:
        raise Refusal(GAME_CHANNELS_FORM)
    return " ".join(str(i) for i in dict.fromkeys(ids))


def check_timezone(raw: str) -> str:
    """An IANA time zone name as zoneinfo knows it; a bad one raises Refusal."""
    name = raw.strip()
    try:
        if not name or name.startswith(("/", ".")) or ".." in name:
            raise ValueError(name)
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise Refusal(N_("`{name}` is not a time zone I know. Use an IANA name such as `UTC`, `Europe/Paris` or "
                         "`America/New_York`."), name=in_code(name[:60])) from None
    return name


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise Refusal(N_("`{name}` is one of {allowed}."), name=name, allowed=", ".join(f"`{a}`" for a in allowed))
    return value


def parse(stored: dict[str, str], default_level: str = "normal") -> Settings:
    values: dict[str, Any] = {"bot_level": default_level}
    for name, raw in stored.items():
        if name == "turn_time":
            values[name] = None if raw == "off" else int(raw)
        elif name == "lobby_timeout" or name in NUMBER_BOUNDS:
            values[name] = int(raw)
        elif name == "tournament_organiser_role":
            values[name] = None if raw == "none" else int(raw)
        elif name in ("thread", "reminders", "web_pages"):
            values[name] = raw == "on"
        elif name == "bot_delay":
            values[name] = float(raw)
        elif name == "game_channels":
            values[name] = () if raw == "any" else tuple(int(x) for x in raw.split())
        elif name in NAMES:
            values[name] = raw
    return Settings(**values)


def shown(settings: Settings, default_delay: float) -> list[tuple[str, str]]:
    # (bot_level is always concrete: the process default fills it in when the server set none.)
    """(name, value) lines for /config show."""
    channels = "any" if not settings.game_channels else " ".join(f"<#{c}>" for c in settings.game_channels)
    delay = settings.bot_delay if settings.bot_delay is not None else default_delay
    return [("turn_time", describe(settings.turn_time)), ("on_timeout", settings.on_timeout),
            ("thread", "on" if settings.thread else "off"), ("reminders", "on" if settings.reminders else "off"),
            ("bot_delay", f"{delay:g}s" if settings.bot_delay is not None
             else said("{delay} (the process default)", delay=f"{delay:g}s")),
            ("bot_level", settings.bot_level), ("lobby_timeout", describe(settings.lobby_timeout)),
            ("game_channels", channels), ("web_pages", "on" if settings.web_pages else "off"),
            ("timezone", settings.timezone), ("max_entrants_limit", str(settings.max_entrants_limit)),
            ("tournament_organiser_role", "none" if settings.tournament_organiser_role is None
             else f"<@&{settings.tournament_organiser_role}>"), ("language", settings.language),
            ("max_open_tables", str(settings.max_open_tables)), ("max_thread_tables", str(settings.max_thread_tables)),
            ("tournament_creators", settings.tournament_creators),
            ("max_bot_entrants", str(settings.max_bot_entrants)), ("new_cooldown", f"{settings.new_cooldown}s")]


class ServerSettings:
    def __init__(self, store: Store, default_delay: float, default_level: str = "normal") -> None:
        self.store = store
        self.default_delay = default_delay
        self.default_level = default_level
        self._cache: dict[int, Settings] = {}
        #: When each member last opened a table or tournament (the ``new_cooldown`` limit), on the store's clock.
        self.cooldowns = Cooldowns(lambda: store.now())

    async def get(self, guild_id: int | None) -> Settings:
        if guild_id is None:
            return Settings()
        cached = self._cache.get(guild_id)
        if cached is None:
            cached = parse(await self.store.settings.guild_settings(guild_id), self.default_level)
            self._cache[guild_id] = cached
        return cached

    def cached(self, guild_id: int | None) -> Settings | None:
        """A guild's settings if read since they last changed (every guild's are read at start), else None."""
        return self._cache.get(guild_id or 0)

    def cached_delay(self, guild_id: int | None) -> float:
        """The bot pace for a guild, from the cache (filled by any earlier ``get``)."""
        cached = self._cache.get(guild_id or 0)
        if cached is None or cached.bot_delay is None:
            return self.default_delay
        return cached.bot_delay

    def cached_level(self, guild_id: int | None) -> str:
        """The level of new bot seats in a guild, from the cache (filled by any earlier ``get``)."""
        cached = self._cache.get(guild_id or 0)
        return cached.bot_level if cached is not None else self.default_level

    async def require_play_here(self, guild_id: int | None, channel_id: int, what: str) -> Settings:
        """The server's settings, when ``channel_id`` is one of its game channels; else a Refusal naming them."""
        settings = await self.get(guild_id)
        if not settings.allows_channel(channel_id):
            allowed = " ".join(f"<#{c}>" for c in settings.game_channels)
            raise Refusal(PLAY_ELSEWHERE.get(what, N_("{what} can't be opened here. This server plays in {allowed}.")),
                          what=what, allowed=allowed)
        return settings

    @staticmethod
    def require_manager(is_manager: bool) -> None:
        # Discord hides /config from others (default_permissions), but a server's admins can change who
        # sees it, so the service checks too.
        if not is_manager:
            raise Refusal(N_("Only members with the **Manage Server** permission can see or change Deckhand's "
                          "settings."))

    async def shown(self, guild_id: int | None, is_manager: bool) -> SettingsShown:
        """/config show: every setting with its value and help, for a member with Manage Server."""
        self.require_manager(is_manager)
        current = await self.get(guild_id)
        rows = tuple((name, value, HELP.get(name, "")) for name, value in shown(current, self.default_delay))
        return SettingsShown(rows, HELP_VALUES)

    async def change(self, guild_id: int, name: str, value: str, user_id: int, is_manager: bool) -> str:
        """/config set, for a member with Manage Server: the setting's new value, as /config show gives it."""
        self.require_manager(is_manager)
        current = await self.set(guild_id, name, value, user_id)
        return dict(shown(current, self.default_delay))[name]

    async def set(self, guild_id: int, name: str, value: str, user_id: int) -> Settings:
        stored = normalise(name, value)
        await self.store.settings.set_guild_setting(guild_id, name, stored, user_id)
        self._cache.pop(guild_id, None)
        return await self.get(guild_id)
