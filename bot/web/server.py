"""The web server: the club's pages at their secret path, ``/healthz``, ``/metrics``
and the static files, with the headers every response carries.

Pages are server-rendered HTML (Jinja2, autoescaped: a member named
``<script>`` shows as text) that work without JavaScript; ``live.js`` only
refreshes a live game's board in place. Board images are drawn by the same
renderers as Discord's, in a worker thread, cached by their content's hash,
and sent with an ``ETag`` so a browser asks again cheaply.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from aiohttp import web
from jinja2 import Environment, FileSystemLoader, select_autoescape

from bot.errors import ClubError, NotFoundError
from bot.messages.i18n import N_, _, babel_locale, ngettext, pgettext, set_language, use_language
from bot.messages.web import PAGE_NOTE, format_name, local_time, status_name, times_note
from bot.offload import draw
from bot.render.chess import chess_board_png
from bot.render.scrabble import scrabble_board_png
from bot.services import ServiceContext
from bot.services.leaderboard import KINDS, PERIODS
from bot.services.scrabble.snapshots import BoardPicture
from bot.services.web import PAGE_PREFIX, WebService
from bot.web.board_kinds import board_kinds
from bot.web.boards import MAX_BODY, BoardRoutes
from bot.web.data import BoardImage, ClubPages, GamePage
from bot.web.metrics import CONTENT_TYPE, Metrics
from bot.web.paper import PAPERS, SESSION_SHEETS, TOURNAMENT_SHEETS, PrintPages, paper_of

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"
SCRABBLE_PX = 750
CHESS_PX = 480
MAX_QUERY_CHARS = 256
MAX_QUERY_PARAMS = 4
MAX_STEP = 10_000
LIVE_POLL_MS = 2000
HEALTH_TIMEOUT = 3.0
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
ID = re.compile(r"[0-9]{1,9}")

CSP = (
    "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the path is the secret: never send it on
    "X-Frame-Options": "DENY",
    "X-Robots-Tag": "noindex, nofollow",
    "Cross-Origin-Resource-Policy": "same-origin",
}

CLUB = web.AppKey("club", tuple)
BAD_REQUEST = N_("Bad request")
BAD_QUERY = N_("That address's query is not one we read.")
NOT_FOUND = N_("Not found")
NO_PAGE = N_("There is no page at this address.")
FAILED = N_("Something went wrong")
TRY_LATER = N_("Please try again later.")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
UTC_ZONE = ZoneInfo("UTC")
# The time zone of the request's club (set with its language in ``_club``):
# the page's times are shown in it.
_zone: ContextVar[ZoneInfo] = ContextVar("page_zone", default=UTC_ZONE)


@contextmanager
def use_zone(zone: ZoneInfo) -> Iterator[None]:
    token = _zone.set(zone)
    try:
        yield
    finally:
        _zone.reset(token)


def when(moment: datetime | None) -> str:
    """A time on the page, in the request's club's time zone (UTC until it is known)."""
    return local_time(moment, _zone.get()) if moment else ""


def page_note() -> str:
    return f"{_(PAGE_NOTE)} {times_note(_zone.get())}"


class BadRequest(Exception):
    """A malformed or oversized query: the page answers 400."""


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    # The page's words go through the bot's catalogue, in the language the request
    # set (the club's): ``{{ _("Live games") }}``, ``ngettext(...).format(count=n)``.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=_, ngettext=ngettext, pgettext=pgettext, newstyle=False
    )
    env.globals["page_lang"] = page_lang
    env.globals["page_note"] = page_note
    env.globals["times_note"] = times_note
    env.filters["when"] = when
    env.filters["status"] = status_name
    env.filters["format_name"] = format_name
    return env


def page_lang() -> str:
    """The ``<html lang>`` of the active language (BCP 47: ``fil``, ``pt-BR``)."""
    return str(babel_locale()).replace("_", "-")


async def board_png(image: BoardImage) -> bytes:
    """The board's PNG, drawn in a worker process or found drawn already
    (``bot.offload.draw``: the bot's one image cache, keyed by the picture's content)."""
    if image.kind == "chess":
        args = image.args
        return await draw(
            chess_board_png,
            str(args["fen"]),
            args.get("last_move") or None,
            str(args.get("orientation", "white")),
            CHESS_PX,
        )
    picture = BoardPicture.from_args(image.args)
    return await draw(scrabble_board_png, picture.rows, picture.last, picture.header, SCRABBLE_PX)


def _query(request: web.Request, allowed: tuple[str, ...]) -> dict[str, str]:
    """The query's parameters; too long, repeated, or unknown ones are a bad request."""
    raw = request.query_string
    if len(raw) > MAX_QUERY_CHARS or len(request.query) > MAX_QUERY_PARAMS:
        raise BadRequest("query too long")
    out: dict[str, str] = {}
    for key in request.query:
        if key not in allowed or len(request.query.getall(key)) > 1:
            raise BadRequest(f"unexpected query parameter {key!r}")
        out[key] = request.query[key]
    return out


def _step(query: dict[str, str]) -> int | None:
    text = query.get("step")
    if text is None or text == "":
        return None
    if not ID.fullmatch(text) or int(text) > MAX_STEP:
        raise BadRequest("step must be a move number")
    return int(text)


def _id(request: web.Request, name: str) -> int:
    text = request.match_info[name]
    if not ID.fullmatch(text):
        raise web.HTTPNotFound()
    return int(text)


class WebApp:
    """The routes of one bot's web server."""

    def __init__(
        self,
        ctx: ServiceContext,
        metrics: Metrics | None = None,
        gateway_ok: Callable[[], bool] = lambda: True,
        *,
        poll_ms: int = LIVE_POLL_MS,
    ) -> None:
        self.ctx = ctx
        self.metrics = metrics or Metrics()
        self.gateway_ok = gateway_ok
        self.poll_ms = poll_ms
        self.pages = ClubPages(ctx)
        self.paper = PrintPages(ctx, self.pages)
        self.web = WebService(ctx)
        self.env = _environment()
        self.boards = BoardRoutes(ctx, self.env, board_kinds(ctx))

    def app(self) -> web.Application:
        app = web.Application(
            middlewares=[self._headers, self._language, self._errors],
            client_max_size=MAX_BODY,
            handler_args={"max_line_size": 2048, "max_field_size": 4096},
        )
        club = f"{PAGE_PREFIX}{{token}}"
        app.add_routes(
            [
                web.get("/healthz", self.healthz),
                web.get("/metrics", self.metrics_page),
                web.get(club, self.club_redirect),
                web.get(f"{club}/", self.home),
                web.get(f"{club}/games/{{game}}", self.game),
                web.get(f"{club}/games/{{game}}/board.png", self.board),
                web.get(f"{club}/games/{{game}}/live.json", self.live),
                web.get(f"{club}/games/{{game}}/download", self.download),
                web.get(f"{club}/boggle/{{round}}", self.boggle),
                web.get(f"{club}/henyo/{{event}}", self.henyo),
                web.get(f"{club}/tournaments/{{tournament}}", self.tournament),
                web.get(f"{club}/events/{{event}}", self.games_event),
                web.get(f"{club}/sessions/{{session}}", self.club_session),
                web.get(
                    f"{club}/tournaments/{{tournament}}/print/{{sheet}}", self.print_tournament
                ),
                web.get(f"{club}/sessions/{{session}}/print/{{sheet}}", self.print_session),
                web.get(f"{club}/events/{{event}}/print", self.print_event),
                *self.boards.routes(),
                web.static("/static", STATIC, append_version=False),
            ]
        )
        app.on_shutdown.append(self.boards.on_shutdown)
        return app

    # ------------------------------------------------------------------ middlewares

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:  # a redirect, or a method not allowed
            self._stamp(request, exc)
            raise
        self._stamp(request, response)
        return response

    def _stamp(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        if request.path.startswith("/static/"):
            response.headers["Cache-Control"] = "public, max-age=3600"
        elif "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = "private, no-cache"
        resource = request.match_info.route.resource
        route = resource.canonical.replace("{token}", "*") if resource is not None else "unmatched"
        self.metrics.web_requests.labels(route=route, status=str(response.status)).inc()

    @web.middleware
    async def _language(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """English and UTC until the request's club is known (``_club`` sets its
        language and time zone), and nothing of one request's left for the next
        on the connection."""
        with use_language(None), use_zone(UTC_ZONE):
            return await handler(request)

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except BadRequest:
            return self._error_page(400, BAD_REQUEST, BAD_QUERY)
        except (NotFoundError, web.HTTPNotFound):
            return self._error_page(404, NOT_FOUND, NO_PAGE)
        except web.HTTPException:
            raise
        except ClubError as exc:
            log.info("web page refused: %s", exc)
            return self._error_page(404, NOT_FOUND, NO_PAGE)
        except Exception:
            log.exception("web page failed: %s", request.path.split("/")[1:2])
            return self._error_page(500, FAILED, TRY_LATER)

    def _error_page(self, status: int, title: str, text: str) -> web.Response:
        """``title`` and ``text``: message ids, in the club's language once it is known."""
        html = self.env.get_template("error.html").render(
            title=_(title), text=_(text), status=status
        )
        return web.Response(text=html, status=status, content_type="text/html", charset="utf-8")

    def _html(self, template: str, **context: Any) -> web.Response:
        html = self.env.get_template(template).render(**context)
        return web.Response(text=html, content_type="text/html", charset="utf-8")

    async def _club(self, request: web.Request) -> tuple[int, str, str]:
        token = request.match_info["token"]
        if not TOKEN.fullmatch(token):
            raise web.HTTPNotFound()
        club = await self.web.club_for(token)
        if club is None:
            raise web.HTTPNotFound()
        # The one place a page's language and time zone are chosen: its club's,
        # for the rest of the request (``_language`` puts them back after it).
        set_language(club.language, club.guild_id)
        _zone.set(club.zone)
        return club.guild_id, club.name, f"{PAGE_PREFIX}{token}/"

    # ------------------------------------------------------------------ operations

    async def healthz(self, request: web.Request) -> web.Response:
        _query(request, ())
        database = "ok"
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT):
                async with self.ctx.reader() as uow:
                    await uow.web.ping()
        except Exception as exc:  # any failure to reach it is "unreachable"
            log.warning("health check: database unreachable (%s)", type(exc).__name__)
            database = "unreachable"
        gateway = "connected" if self.gateway_ok() else "disconnected"
        ok = database == "ok" and gateway == "connected"
        return web.json_response(
            {"status": "ok" if ok else "failing", "database": database, "gateway": gateway},
            status=200 if ok else 503,
            headers={"Cache-Control": "no-store"},
        )

    async def metrics_page(self, request: web.Request) -> web.Response:
        _query(request, ())
        try:
            await self.metrics.refresh(self.ctx)
        except Exception:
            log.exception("metrics: reading the gauges failed")
        return web.Response(
            body=self.metrics.render(),
            headers={"Content-Type": CONTENT_TYPE, "Cache-Control": "no-store"},
        )

    # ------------------------------------------------------------------ pages

    async def club_redirect(self, request: web.Request) -> web.StreamResponse:
        _, _, base = await self._club(request)
        raise web.HTTPFound(base)

    async def home(self, request: web.Request) -> web.Response:
        query = _query(request, ("game", "period"))
        game = query.get("game") or "all"
        period = query.get("period") or "all"
        if game not in (*KINDS, "all") or period not in PERIODS:
            raise BadRequest("unknown game or period")
        guild_id, name, base = await self._club(request)
        home = await self.pages.home(guild_id, name, game, period)
        return self._html("home.html", home=home, base=base, game=game, period=period)

    async def _game(self, request: web.Request, step: int | None) -> tuple[GamePage, str]:
        guild_id, _, base = await self._club(request)
        page = await self.pages.game(guild_id, _id(request, "game"), step)
        return page, base

    async def game(self, request: web.Request) -> web.Response:
        step = _step(_query(request, ("step",)))
        page, base = await self._game(request, step)
        if page.live:
            step = None  # a live game always shows its latest move
            if page.step != page.steps:
                page, base = await self._game(request, None)
        return self._html("game.html", page=page, base=base, poll_ms=self.poll_ms)

    async def live(self, request: web.Request) -> web.Response:
        _query(request, ())
        page, base = await self._game(request, None)
        html = self.env.get_template("_board.html").render(page=page, base=base)
        return web.json_response(
            {"step": page.step, "status": page.status, "html": html},
            headers={"Cache-Control": "no-store"},
        )

    async def board(self, request: web.Request) -> web.StreamResponse:
        step = _step(_query(request, ("step",)))
        page, _ = await self._game(request, step)
        etag = page.board.key
        if etag in request.headers.get("If-None-Match", "").replace('"', "").split(", "):
            return web.Response(status=304, headers=self._image_headers(etag, page))
        data = await board_png(page.board)
        return web.Response(
            body=data, content_type="image/png", headers=self._image_headers(etag, page)
        )

    @staticmethod
    def _image_headers(etag: str, page: GamePage) -> dict[str, str]:
        # A finished game's position never changes; a live one's newest may
        # (a name, a clock line), so it is revalidated.
        age = 86400 if not page.live else 0
        return {"ETag": f'"{etag}"', "Cache-Control": f"private, max-age={age}"}

    async def download(self, request: web.Request) -> web.Response:
        _query(request, ())
        guild_id, _, _ = await self._club(request)
        filename, text = await self.pages.export(guild_id, _id(request, "game"))
        media = "application/x-chess-pgn" if filename.endswith(".pgn") else "text/plain"
        return web.Response(
            text=text,
            content_type=media,
            charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def boggle(self, request: web.Request) -> web.Response:
        _query(request, ())
        guild_id, name, base = await self._club(request)
        page = await self.pages.boggle(guild_id, _id(request, "round"))
        return self._html("boggle.html", page=page, base=base, club=name)

    async def henyo(self, request: web.Request) -> web.Response:
        _query(request, ())
        guild_id, name, base = await self._club(request)
        page = await self.pages.henyo_event(guild_id, _id(request, "event"))
        return self._html("henyo.html", page=page, base=base, club=name)

    async def tournament(self, request: web.Request) -> web.Response:
        _query(request, ())
        guild_id, name, base = await self._club(request)
        page = await self.pages.tournament(guild_id, _id(request, "tournament"))
        return self._html("tournament.html", page=page, base=base, club=name)

    async def games_event(self, request: web.Request) -> web.Response:
        _query(request, ())
        guild_id, name, base = await self._club(request)
        page = await self.pages.games_event(guild_id, _id(request, "event"))
        return self._html("event.html", page=page, base=base, club=name)

    async def club_session(self, request: web.Request) -> web.Response:
        _query(request, ())
        guild_id, name, base = await self._club(request)
        page = await self.pages.club_session(guild_id, _id(request, "session"))
        return self._html("session.html", page=page, base=base, club=name)

    # ------------------------------------------------------------------ printed pages

    def _printed(
        self, request: web.Request, query: dict[str, str], template: str, **context: Any
    ) -> web.Response:
        """A page to print (``bot.web.paper``) on the paper asked for, else the club's
        (read after ``_club``: its time zone), with the links that switch the paper."""
        try:
            size = paper_of(query.get("paper"), _zone.get())
        except ValueError:
            raise BadRequest("unknown paper") from None
        papers = [
            (value, label, str(request.rel_url.update_query(paper=value)))
            for value, label in zip(PAPERS, (_("A4"), _("Letter")), strict=True)
        ]
        return self._html(template, size=size, papers=papers, **context)

    async def print_tournament(self, request: web.Request) -> web.Response:
        query = _query(request, ("round", "paper"))
        sheet = request.match_info["sheet"]
        if sheet not in TOURNAMENT_SHEETS:
            raise web.HTTPNotFound()
        text = query.get("round") or ""
        if text and (not ID.fullmatch(text) or int(text) > MAX_STEP):
            raise BadRequest("round must be a number")
        guild_id, name, base = await self._club(request)
        tournament_id = _id(request, "tournament")
        paper = await self.paper.tournament(guild_id, tournament_id, int(text) if text else None)
        round_links = [
            (number, str(request.rel_url.update_query(round=number))) for number in paper.rounds
        ]
        return self._printed(
            request,
            query,
            "print_tournament.html",
            paper=paper,
            sheet=sheet,
            club=name,
            back=f"{base}tournaments/{tournament_id}",
            round_links=round_links,
        )

    async def print_session(self, request: web.Request) -> web.Response:
        query = _query(request, ("paper",))
        sheet = request.match_info["sheet"]
        if sheet not in SESSION_SHEETS:
            raise web.HTTPNotFound()
        guild_id, name, base = await self._club(request)
        session_id = _id(request, "session")
        paper = await self.paper.session(guild_id, session_id)
        return self._printed(
            request,
            query,
            "print_session.html",
            paper=paper,
            sheet=sheet,
            club=name,
            back=f"{base}sessions/{session_id}",
        )

    async def print_event(self, request: web.Request) -> web.Response:
        query = _query(request, ("paper",))
        guild_id, name, base = await self._club(request)
        event_id = _id(request, "event")
        page = await self.pages.games_event(guild_id, event_id)
        return self._printed(
            request,
            query,
            "print_event.html",
            page=page,
            club=name,
            back=f"{base}events/{event_id}",
        )


class WebServer:
    """The web app listening on ``host:port`` (port 0: any free port, see ``port``)."""

    def __init__(
        self,
        ctx: ServiceContext,
        metrics: Metrics,
        gateway_ok: Callable[[], bool],
        *,
        host: str,
        port: int,
    ) -> None:
        self.handler = WebApp(ctx, metrics, gateway_ok)
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> bool:
        """Listen; False (logged) when the address cannot be had, e.g. a port in use:
        the bot goes on without its page rather than stopping every game."""
        self._runner = web.AppRunner(self.handler.app(), access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            log.error(
                "web page NOT started: cannot listen on %s:%d (%s); check WEB_HOST and WEB_PORT",
                self.host,
                self.port,
                exc.strerror or exc,
            )
            await self._runner.cleanup()
            self._runner = None
            return False
        addresses = self._runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        log.info("web page serving on http://%s:%d", self.host, self.port)
        return True

    @property
    def running(self) -> bool:
        return self._runner is not None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def stop(self) -> None:
        if self._runner is not None:
            started = time.monotonic()
            await self._runner.cleanup()
            self._runner = None
            log.info("web page stopped in %.2f s", time.monotonic() - started)
