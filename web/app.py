"""The aiohttp application: GET routes only (anything else is refused with 405), Jinja2 with autoescaping.

Every page is a read model from ``host.web.PublicSite``; a missing one (pages off, a private channel, a
hidden player, an unknown id) is a 404, the same for each, so a 404 tells nothing about what exists.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

import i18n
from host import metrics
from host.read_models import Percent, Points
from host.web import PublicSite
from i18n import N_
from web.live import Shared, Watcher

log = logging.getLogger(__name__)

TEMPLATES = Path(__file__).with_name("templates")
#: (what failed, or None) for the gateway; None as a whole when there is no gateway (``python -m web``).
GatewayCheck = Callable[[], str | None]

SITE: web.AppKey[PublicSite] = web.AppKey("site", PublicSite)
GATEWAY: web.AppKey[Any] = web.AppKey("gateway", object)
LATENCY: web.AppKey[Any] = web.AppKey("latency", object)
JINJA: web.AppKey[jinja2.Environment] = web.AppKey("jinja", jinja2.Environment)
WATCHER: web.AppKey[Watcher] = web.AppKey("watcher", Watcher)
PUBLIC_URL: web.AppKey[str] = web.AppKey("public_url", str)
PARTS: web.AppKey[Shared] = web.AppKey("parts", Shared)


def _utc(stamp: float | None) -> str:
    if stamp is None:
        return ""
    return datetime.fromtimestamp(stamp, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


def _iso(stamp: float | None) -> str:
    return "" if stamp is None else datetime.fromtimestamp(stamp, tz=UTC).isoformat(timespec="seconds")


#: The stored codes a page shows (statuses, stages, why an entrant left), as the words the page says.
WORDS = {"lobby": N_("lobby"), "playing": N_("playing"), "finished": N_("finished"), "abandoned": N_("abandoned"),
         "registration": N_("registration"), "cancelled": N_("cancelled"), "pending": N_("pending"),
         "swiss": N_("Swiss"), "round_robin": N_("round robin"), "elimination": N_("elimination"),
         "cut": N_("top cut"), "winners": N_("winners' bracket"), "losers": N_("losers' bracket"),
         "grand_final": N_("grand final"), "drop": N_("dropped"), "no_show": N_("no-show"),
         "disqualified": N_("disqualified"), "waitlist": N_("waiting list")}


def words(lang: str) -> dict[str, Any]:
    """What a template needs to speak ``lang``: ``_`` and ``_n`` (message ids, as ``i18n.t`` and ``tn``), the
    stored codes as words, and numbers and times the language's way."""

    def when(stamp: float | None) -> str:
        if stamp is None or lang == i18n.DEFAULT:  # English keeps its ISO-like form
            return _utc(stamp)
        return f"{i18n.moment(lang, datetime.fromtimestamp(stamp, tz=UTC), UTC)} UTC"

    def points(value: Points) -> str:
        # ½ stays a half; other fractions are decimals written the language's way
        text = str(value)
        return text if value.value.denominator in (1, 2) else i18n.decimal(lang, float(value.value), 2)

    return {"lang": lang, "_": lambda msgid, **params: i18n.t(lang, msgid, **params),
            "_n": lambda singular, plural, n, **params: i18n.tn(lang, singular, plural, n, **params),
            "titled": lambda game_title: i18n.title(lang, game_title),
            "word": lambda code: i18n.t(lang, WORDS[code]) if code in WORDS else code,
            "num": lambda value, places=0: i18n.decimal(lang, value, places),
            "pct": lambda share: i18n.percent(lang, float(share.value)) if isinstance(share, Percent) else str(share),
            "points": points, "when": when}


def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, enable_async=False)
    env.filters["utc"] = _utc
    env.filters["iso"] = _iso
    return env


def _page(request: web.Request, template: str, lang: str, **context: Any) -> web.Response:
    return _html(render_page(request.app[JINJA], template, lang, **context))


def render_page(env: jinja2.Environment, template: str, lang: str, **context: Any) -> bytes:
    """A page in the server's language (``lang``: its ``<html lang>``, its words, numbers and times)."""
    return env.get_template(template).render(**words(lang), **context).encode()


def _html(body: bytes) -> web.Response:
    return web.Response(body=body, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
                                 "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                                            "style-src 'self' 'unsafe-inline'; "
                                                            "script-src 'self' 'unsafe-inline'"})


def _png(data: bytes, immutable: bool = True) -> web.Response:
    cache = "public, max-age=31536000, immutable" if immutable else "no-cache"
    return web.Response(body=data, content_type="image/png", headers={"Cache-Control": cache})


def _int(request: web.Request, name: str) -> int:
    text = request.match_info[name]
    value = int(text) if text.isdigit() and len(text) < 20 else 0
    if not 0 < value < 2**63:
        raise web.HTTPNotFound()
    return value


def _found(value: Any) -> Any:
    if value is None:
        raise web.HTTPNotFound()
    return value


def browser_language(request: web.Request) -> str:
    """The language of a page that belongs to no server (the index, a 404): the first of the browser's
    ``Accept-Language`` that Deckhand speaks, else English. A 404 never speaks a server's own language, so
    it tells nothing about what exists."""
    ranked = []
    for order, part in enumerate(request.headers.get("Accept-Language", "")[:500].split(",")[:20]):
        tag, _, weight = part.strip().partition(";q=")
        try:
            quality = float(weight) if weight else 1.0
        except ValueError:
            quality = 0.0
        ranked.append((-quality, order, tag.strip()))
    for negative, _, tag in sorted(ranked):
        lang = tag.replace("_", "-").split("-", 1)[0].lower()
        if negative < 0 and lang in i18n.languages():
            return lang
    return i18n.DEFAULT


def not_found(request: web.Request) -> web.Response:
    body = render_page(request.app[JINJA], "not_found.html", browser_language(request))
    return web.Response(status=404, body=body, content_type="text/html", charset="utf-8",
                        headers={"Vary": "Accept-Language"})


@web.middleware
async def errors(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                 ) -> web.StreamResponse:
    route = request.match_info.route.name or "other"
    start, cpu = time.perf_counter(), time.process_time()
    try:
        response = await handler(request)
    except web.HTTPNotFound:
        metrics.WEB_REQUESTS.labels(route, "404").inc()
        return not_found(request)
    except web.HTTPException as exc:
        metrics.WEB_REQUESTS.labels(route, str(exc.status)).inc()
        raise
    metrics.WEB_REQUESTS.labels(route, str(response.status)).inc()
    if not response.prepared:  # the server's own time, for bench/web.py and a browser's devtools
        response.headers["Server-Timing"] = (f"app;dur={(time.perf_counter() - start) * 1000:.2f}, "
                                             f"cpu;dur={(time.process_time() - cpu) * 1000:.2f}")
    return response


# ---------------------------------------------------------------- pages


async def index(request: web.Request) -> web.Response:
    response = _page(request, "index.html", browser_language(request))
    response.headers["Vary"] = "Accept-Language"
    return response


async def server(request: web.Request) -> web.Response:
    site, guild = request.app[SITE], _int(request, "guild")
    page = _found(await site.server(guild))
    return _page(request, "server.html", await site.language(guild), page=page)


async def table(request: web.Request) -> web.Response:
    site, guild, table_id = request.app[SITE], _int(request, "guild"), _int(request, "table")
    page = _found(await site.table(guild, table_id))
    move = request.query.get("move", "")
    step = int(move) if move.isdigit() and int(move) <= page.version else page.version
    return _page(request, "table.html", await site.language(guild), page=page, step=step)


async def table_part(request: web.Request) -> web.Response:
    """What a live page fetches after each change: one cheap read of the table's stamp per request, and the
    part itself read and rendered once per stamp, whatever the number of pages following the table."""
    site, guild, table_id = request.app[SITE], _int(request, "guild"), _int(request, "table")
    stamp = _found(await site.live_stamp(guild, table_id))
    lang = await site.language(guild)  # a part is kept per language too: the server may change it

    async def build() -> bytes | None:
        page = await site.table(guild, table_id)
        return None if page is None else render_page(request.app[JINJA], "table_live.html", lang, page=page)

    return _html(_found(await request.app[PARTS].get((guild, table_id, stamp, lang), build)))


async def table_image(request: web.Request) -> web.Response:
    data = await request.app[SITE].table_image(_int(request, "guild"), _int(request, "table"),
                                               int(request.match_info["version"]))
    return _png(_found(data))


async def replay_image(request: web.Request) -> web.Response:
    found = _found(await request.app[SITE].replay_image(_int(request, "guild"), _int(request, "table"),
                                                        int(request.match_info["move"])))
    return _png(found[0])


async def tournament(request: web.Request) -> web.Response:
    site, guild = request.app[SITE], _int(request, "guild")
    page = _found(await site.tournament(guild, _int(request, "tournament")))
    return _page(request, "tournament.html", await site.language(guild), page=page)


async def tournament_part(request: web.Request) -> web.Response:
    site, guild = request.app[SITE], _int(request, "guild")
    page = _found(await site.tournament(guild, _int(request, "tournament")))
    return _page(request, "tournament_live.html", await site.language(guild), page=page)


async def bracket(request: web.Request) -> web.Response:
    found = _found(await request.app[SITE].bracket_image(_int(request, "guild"), _int(request, "tournament")))
    return _png(found[0], immutable=False)


async def export(request: web.Request) -> web.Response:
    fmt = request.match_info["fmt"]
    found = _found(await request.app[SITE].export(_int(request, "guild"), _int(request, "tournament"), fmt))
    data, name = found
    kind = "application/json" if fmt == "json" else "text/csv"
    return web.Response(body=data, content_type=kind, charset="utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-cache"})


async def leaderboard(request: web.Request) -> web.Response:
    site, guild = request.app[SITE], _int(request, "guild")
    page = _found(await site.leaderboard(guild, request.match_info["game"]))
    return _page(request, "leaderboard.html", await site.language(guild), page=page)


async def leaderboard_csv(request: web.Request) -> web.Response:
    game = request.match_info["game"]
    data = _found(await request.app[SITE].leaderboard_csv(_int(request, "guild"), game))
    return web.Response(body=data, content_type="text/csv", charset="utf-8",
                        headers={"Content-Disposition": f'attachment; filename="leaderboard-{game}.csv"'})


async def player(request: web.Request) -> web.Response:
    site, guild = request.app[SITE], _int(request, "guild")
    page = _found(await site.player(guild, _int(request, "user")))
    return _page(request, "player.html", await site.language(guild), page=page)


async def live(request: web.Request) -> web.StreamResponse:
    """Server-sent events: ``change`` whenever the table (or tournament) moves on; the page then fetches its
    live part. Checked before the stream opens, so a page that does not exist gets its 404."""
    guild = _int(request, "guild")
    kind = request.match_info["kind"]
    thing = _int(request, "id")
    site = request.app[SITE]
    # A table's stream is checked by its stamp alone (one read); a tournament's by its page.
    _found(await (site.live_stamp(guild, thing) if kind == "tables" else site.tournament(guild, thing)))
    return await request.app[WATCHER].stream(request, "t" if kind == "tables" else "e", guild, thing,
                                             request.query.get("since", "")[:40])


# ---------------------------------------------------------------- operations


async def healthz(request: web.Request) -> web.Response:
    """200 when the gateway is ready (in the bot) and the database answers within 1 s, else 503 with why."""
    failed: dict[str, str] = {}
    gateway = request.app[GATEWAY]
    if gateway is not None:
        problem = gateway()
        if problem:
            failed["gateway"] = problem
    problem = await request.app[SITE].store.web.probe()
    if problem:
        failed["database"] = problem
    body = {"status": "fail" if failed else "ok",
            "checks": {"database": failed.get("database", "ok"),
                       **({"gateway": failed.get("gateway", "ok")} if gateway is not None else {})}}
    return web.json_response(body, status=503 if failed else 200, headers={"Cache-Control": "no-store"})


async def metrics_page(request: web.Request) -> web.Response:
    site = request.app[SITE]
    try:
        tables, events = await asyncio.wait_for(site.store.web.open_counts(), 1.0)
        metrics.OPEN_TABLES.set(tables)
        metrics.OPEN_TOURNAMENTS.set(events)
    except Exception:
        log.warning("could not count open tables for /metrics", exc_info=True)
    latency = request.app[LATENCY]
    if latency is not None:
        value = latency()
        if value is not None and value == value and value != float("inf"):
            metrics.GATEWAY_LATENCY.set(value)
    return web.Response(body=generate_latest(), headers={"Content-Type": CONTENT_TYPE_LATEST})


def make_app(site: PublicSite, *, gateway: GatewayCheck | None = None,
             gateway_latency: Callable[[], float | None] | None = None, live_interval: float = 0.5,
             public_url: str = "") -> web.Application:
    app = web.Application(middlewares=[errors])
    app[SITE] = site
    app[GATEWAY] = gateway
    app[LATENCY] = gateway_latency
    app[JINJA] = environment()
    app[WATCHER] = Watcher(site, live_interval)
    app[PARTS] = Shared()
    app[PUBLIC_URL] = public_url
    g = "/s/{guild:\\d+}"
    routes = [
        ("/", index, "index"),
        (g, server, "server"),
        (g + "/tables/{table:\\d+}", table, "table"),
        (g + "/tables/{table:\\d+}/part", table_part, "table_part"),
        (g + "/tables/{table:\\d+}/v{version:\\d{1,9}}.png", table_image, "table_image"),
        (g + "/tables/{table:\\d+}/replay/{move:\\d{1,9}}.png", replay_image, "replay_image"),
        (g + "/tournaments/{tournament:\\d+}", tournament, "tournament"),
        (g + "/tournaments/{tournament:\\d+}/part", tournament_part, "tournament_part"),
        (g + "/tournaments/{tournament:\\d+}/bracket.png", bracket, "bracket"),
        (g + "/tournaments/{tournament:\\d+}/export.{fmt:csv|json}", export, "export"),
        (g + "/leaderboard/{game:[a-z_]+}.csv", leaderboard_csv, "leaderboard_csv"),
        (g + "/leaderboard/{game:[a-z_]+}", leaderboard, "leaderboard"),
        (g + "/players/{user:\\d+}", player, "player"),
        (g + "/{kind:tables|tournaments}/{id:\\d+}/live", live, "live"),
        ("/healthz", healthz, "healthz"),
        ("/metrics", metrics_page, "metrics"),
    ]
    for path, handler, name in routes:
        app.router.add_get(path, handler, name=name)
    app.on_shutdown.append(_close_streams)
    return app


async def _close_streams(app: web.Application) -> None:
    await app[WATCHER].close()


class WebServer:
    """The app on a TCP port, started and stopped by its owner (the bot, or ``python -m web``)."""

    def __init__(self, app: web.Application, host: str, port: int) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # a free port was asked for: report the one we got
            server = site._server
            sockets = getattr(server, "sockets", None) or []
            if sockets:
                self.port = sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
