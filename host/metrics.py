"""The process's Prometheus metrics (``GET /metrics``): one object each, in prometheus-client's default registry.

The services record into them themselves, through the :class:`Recorder` each is given in its constructor
(``bot.py``'s ``compose`` gives them :data:`PROMETHEUS`): the store times its transactions and counts the
moves it commits, the scheduler counts due timers, the bot pool times thinking, the render pool drawing,
the poster table messages, the guard counts interactions; the bot times first answers and counts Discord's
REST errors. A service built without one (tests, tools, benchmarks) records nothing. The gauges of open
tables and tournaments and of the gateway's latency are read when the page is scraped. With several
processes, each exposes its own.
"""

from __future__ import annotations

from typing import Protocol

from prometheus_client import Counter, Gauge, Histogram

#: Seconds: from a few milliseconds to the 3 s Discord allows for a first answer, and beyond.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
#: Seconds: database transactions and drawings are usually short.
SHORT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

INTERACTIONS = Counter("deckhand_interactions_total", "Interactions handled, by command and outcome",
                       ["command", "outcome"])
ACK_LATENCY = Histogram("deckhand_ack_latency_seconds",
                        "From an interaction's creation to its first answer (or deferral)", buckets=LATENCY_BUCKETS)
TABLE_POST_LATENCY = Histogram("deckhand_table_post_seconds", "Time to post or edit a table message",
                               buckets=LATENCY_BUCKETS)
TIMERS_DUE = Counter("deckhand_timers_fired_total", "Timers (deadlines, reminders, bot moves) that came due and fired")
TIMER_LATENESS = Histogram("deckhand_timer_lateness_seconds", "How late a due timer fired", buckets=LATENCY_BUCKETS)
MOVES = Counter("deckhand_moves_committed_total", "Moves committed to the action log")
PICTURES = Counter("deckhand_pictures_drawn_total", "Pictures drawn (tables, hands, brackets)", ["kind"])
PICTURE_TIME = Histogram("deckhand_picture_seconds", "Time to draw a picture", ["kind"], buckets=SHORT_BUCKETS)
BOT_THINKING = Histogram("deckhand_bot_thinking_seconds", "Time a bot spent choosing a move", ["level"],
                         buckets=LATENCY_BUCKETS)
DB_TRANSACTION = Histogram("deckhand_db_transaction_seconds", "Time a database transaction took",
                           buckets=SHORT_BUCKETS)
REST_ERRORS = Counter("deckhand_discord_rest_errors_total", "Discord REST requests that failed, by HTTP status",
                      ["status"])
GATEWAY_LATENCY = Gauge("deckhand_gateway_latency_seconds", "Discord gateway heartbeat latency")
OPEN_TABLES = Gauge("deckhand_open_tables", "Tables in a lobby or in play")
OPEN_TOURNAMENTS = Gauge("deckhand_open_tournaments", "Tournaments registering or in play")
WEB_REQUESTS = Counter("deckhand_web_requests_total", "Web page requests, by route and status", ["route", "status"])


class Recorder(Protocol):
    """What the services observe. The layers below host declare the part they use (``data.database.
    DataTimings``, ``render.pool.DrawingTimings``) as protocols of their own, which this one satisfies."""

    def interaction(self, command: str, outcome: str) -> None: ...
    def acknowledged(self, seconds: float) -> None: ...
    def table_posted(self, seconds: float) -> None: ...
    def timer_fired(self, lateness: float | None) -> None: ...
    def move_committed(self) -> None: ...
    def picture_drawn(self, kind: str, seconds: float) -> None: ...
    def bot_thought(self, level: str, seconds: float) -> None: ...
    def transaction(self, seconds: float) -> None: ...
    def rest_error(self, status: int) -> None: ...


class Silent:
    """Records nothing: what a service built outside the bot (a test, a tool, a benchmark) is given."""

    def interaction(self, command: str, outcome: str) -> None:
        pass

    def acknowledged(self, seconds: float) -> None:
        pass

    def table_posted(self, seconds: float) -> None:
        pass

    def timer_fired(self, lateness: float | None) -> None:
        pass

    def move_committed(self) -> None:
        pass

    def picture_drawn(self, kind: str, seconds: float) -> None:
        pass

    def bot_thought(self, level: str, seconds: float) -> None:
        pass

    def transaction(self, seconds: float) -> None:
        pass

    def rest_error(self, status: int) -> None:
        pass


class Prometheus:
    """Records into the process's metrics above (what ``/metrics`` shows)."""

    def interaction(self, command: str, outcome: str) -> None:
        INTERACTIONS.labels(command, outcome).inc()

    def acknowledged(self, seconds: float) -> None:
        ACK_LATENCY.observe(max(0.0, seconds))

    def table_posted(self, seconds: float) -> None:
        TABLE_POST_LATENCY.observe(seconds)

    def timer_fired(self, lateness: float | None) -> None:
        TIMERS_DUE.inc()
        if lateness is not None:
            TIMER_LATENESS.observe(max(0.0, lateness))

    def move_committed(self) -> None:
        MOVES.inc()

    def picture_drawn(self, kind: str, seconds: float) -> None:
        PICTURES.labels(kind).inc()
        PICTURE_TIME.labels(kind).observe(seconds)

    def bot_thought(self, level: str, seconds: float) -> None:
        BOT_THINKING.labels(level).observe(seconds)

    def transaction(self, seconds: float) -> None:
        DB_TRANSACTION.observe(seconds)

    def rest_error(self, status: int) -> None:
        REST_ERRORS.labels(str(status)).inc()


#: The recorder of the running bot: one per process, like the metrics it records into.
PROMETHEUS = Prometheus()
SILENT = Silent()
