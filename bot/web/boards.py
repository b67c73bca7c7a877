"""A member's own board in the browser (issue #28): the private link, the session
it opens, the page's state and actions, and the pushed updates.

The bot gives a member a link ``/p/<token>`` (``bot.services.board_links``).
Opening it puts the token in an HTTP-only, same-site cookie scoped to that one
board's path and redirects to ``/board/<kind>/<id>``, so the address bar keeps
no secret after the first load and one member's boards of several games each
have their own cookie. Every request of the page checks the cookie's token
afresh (``BoardLinks.session``): a link revoked by ``/club web rotate``, a game
over, a member no longer seated, all stop it at once.

Each kind of board (``scrabble``, ``chess``, ``boggle``, ``puzzle``, ``boggle_daily``…)
is a :class:`BoardKind` registered with :class:`BoardRoutes`; for each the routes are:

- ``GET  /board/<kind>/<id>``: the page (its template, ``board_<kind>.html``, unless
  the kind names another with an optional ``template(state)`` method);
- ``GET  /board/<kind>/<id>/state``: what this member may see, as JSON;
- ``POST /board/<kind>/<id>/<action>``: a change (a play, a move…), with the
  session's CSRF token in the ``X-CSRF-Token`` header, a JSON body, at most
  ``RATE`` a second per member; the answer is JSON: ``{"ok": true, ...}`` or
  ``{"ok": false, "code": ..., "message": ...}`` (a refusal, in the club's
  language, 409; a refused session 403; too fast 429);
- ``GET  /board/<kind>/<id>/events``: server-sent events, one ``version`` event
  whenever the board changed (``data`` is the new version), whoever changed it;
  for a kind with ``page_version`` (Boggle), whenever what that member's page
  shows changed.

Why the events read the database: a move made in Discord may be made by another
process (several share one database, see the README), and SQLite has no
``LISTEN``; one reader per board being watched asks for its version every
``WATCH_S`` (one indexed row), and an action on this server wakes it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web
from jinja2 import Environment

from bot.errors import ClubError, GameNotFoundError
from bot.messages.errors import game_not_found, refusal
from bot.messages.i18n import N_, _, language_of, set_language
from bot.messages.web import LINK_FORGED, LINK_NOT_YOURS
from bot.services import ServiceContext
from bot.services.board_links import LINK_PATH, BoardLinks, BoardSession, Kind, LinkRefused, parse

log = logging.getLogger(__name__)

KINDS: tuple[Kind, ...] = ("scrabble", "chess", "boggle", "screen")
BOARD_PREFIX = "/board/"
RATE = 5  # state-changing requests a second, per member (a burst of RATE, then RATE/s)
WATCH_S = 0.25  # how often a watched board's version is read
HEARTBEAT_S = 15.0  # a comment line keeps proxies from closing a quiet stream
MAX_BODY = 8192
LINK_REFUSED_TITLE = N_("This board cannot be opened")
TOO_FAST = N_("Slow down: that was a lot of changes at once. Try again in a moment.")
BAD_BODY = N_("That request is not one this board reads.")
NO_CSRF = N_("This page is out of date: reload it and try again.")

Action = Callable[[BoardSession, dict[str, Any]], Awaitable[Mapping[str, Any]]]


def _same(version: Any) -> Any:
    """A page's version when its kind has no ``page_version``: the board's."""
    return version


class BoardKind(Protocol):
    """One kind of board as the web server serves it."""

    kind: Kind

    async def state(self, session: BoardSession) -> Mapping[str, Any]:
        """Everything the page draws, for this member only: never another seat's rack,
        a Henyo secret or another member's unfinished Boggle list. It includes
        ``version`` (see :meth:`version`)."""
        ...

    async def version(self, subject_id: int) -> Any:
        """A number that changes whenever anything on the board changes (a game's
        ``games.version``): the pushed events carry it and the page asks for the state.
        A kind whose pages each show something of their own (a Boggle list) reads
        here what all of them watch, and says with ``page_version(session)`` (an
        optional method: the function of this value that is one page's version, an
        int, the ``version`` of that page's state) which part each page follows."""
        ...

    def actions(self) -> Mapping[str, Action]:
        """The changes the page may ask for, by name (``play``, ``pass``…): each takes
        the session and the request's JSON object and answers a JSON object, raising
        ``ClubError`` to refuse (nothing changed)."""
        ...


def board_path(kind: Kind, subject_id: int) -> str:
    """The board page's path (also the cookie's)."""
    return f"{BOARD_PREFIX}{kind}/{subject_id}"


def cookie_name(kind: Kind, subject_id: int) -> str:
    return f"board_{kind}_{subject_id}"


class RateLimit:
    """A token bucket per member: ``rate`` requests at once, then ``rate`` a second."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self._buckets: dict[tuple[int, int], tuple[float, float]] = {}

    def allow(self, key: tuple[int, int]) -> bool:
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.rate, now))
        tokens = min(self.rate, tokens + (now - then) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > 10_000:  # forget members idle for a while
            cutoff = now - 60
            self._buckets = {k: v for k, v in self._buckets.items() if v[1] > cutoff}
        return True


@dataclass
class _Watched:
    version: Any = None  # what the board kind's ``version`` read last
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    listeners: int = 0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class BoardWatch:
    """Who is watching which board, and one reader per watched board (see the module)."""

    def __init__(self, kinds: Mapping[Kind, BoardKind], every: float = WATCH_S) -> None:
        self.kinds = kinds
        self.every = every
        self._boards: dict[tuple[Kind, int], _Watched] = {}
        self.closing = asyncio.Event()

    def poke(self, kind: Kind, subject_id: int) -> None:
        """Read the board's version now (a change was just made here)."""
        watched = self._boards.get((kind, subject_id))
        if watched is not None:
            watched.wake.set()

    async def close(self) -> None:
        """Every open stream ends now (the server is stopping)."""
        self.closing.set()
        for watched in list(self._boards.values()):
            async with watched.changed:
                watched.changed.notify_all()

    @contextlib.asynccontextmanager
    async def watching(self, kind: Kind, subject_id: int) -> Any:
        key = (kind, subject_id)
        watched = self._boards.setdefault(key, _Watched())
        watched.listeners += 1
        if watched.task is None:
            watched.task = asyncio.create_task(self._read(key, watched))
        try:
            yield watched
        finally:
            watched.listeners -= 1
            if watched.listeners == 0:
                self._boards.pop(key, None)
                if watched.task is not None:
                    watched.task.cancel()

    async def _read(self, key: tuple[Kind, int], watched: _Watched) -> None:
        kind, subject_id = key
        # A kind may be read less often than a board (the room's screen computes its
        # version from everything it shows: bot/web/screen.py).
        every = getattr(self.kinds[kind], "watch_every", None) or self.every
        while True:
            version: int | None
            try:
                version = await self.kinds[kind].version(subject_id)
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup: the page keeps its stream, we try again
                log.warning("board watch: reading %s %d failed", kind, subject_id, exc_info=True)
                version = watched.version
            if version != watched.version:
                async with watched.changed:
                    watched.version = version
                    watched.changed.notify_all()
            watched.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(watched.wake.wait(), max(every, self.every))


class BoardRoutes:
    """The board routes of the web app (see the module docstring)."""

    def __init__(
        self,
        ctx: ServiceContext,
        env: Environment,
        kinds: Mapping[Kind, BoardKind] | None = None,
        *,
        rate: float = RATE,
        watch_every: float = WATCH_S,
    ) -> None:
        self.ctx = ctx
        self.env = env
        self.links = BoardLinks(ctx)
        self.kinds: dict[Kind, BoardKind] = dict(kinds or {})
        self.limit = RateLimit(rate)
        self.watch = BoardWatch(self.kinds, watch_every)

    def add(self, board: BoardKind) -> None:
        self.kinds[board.kind] = board

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get(f"{LINK_PATH}{{token}}", self.open_link),
            web.get(f"{BOARD_PREFIX}{{kind}}/{{id}}", self.page),
            web.get(f"{BOARD_PREFIX}{{kind}}/{{id}}/state", self.state),
            web.get(f"{BOARD_PREFIX}{{kind}}/{{id}}/events", self.events),
            web.post(f"{BOARD_PREFIX}{{kind}}/{{id}}/{{action}}", self.act),
        ]

    async def on_shutdown(self, app: web.Application) -> None:
        """Open event streams end (the page reconnects to whichever server is next)."""
        await self.watch.close()

    # ------------------------------------------------------------------ the link

    async def open_link(self, request: web.Request) -> web.StreamResponse:
        """A member's link: its token goes into the board's cookie, and the page opens."""
        token = request.match_info["token"]
        try:
            session = await self.links.session(token)
        except LinkRefused as refused:
            parsed = parse(token)
            return await self._refused_page(refused, parsed[0].guild_id if parsed else None)
        grant = session.grant
        path = board_path(grant.kind, grant.subject_id)
        response = web.HTTPSeeOther(path)
        response.set_cookie(
            cookie_name(grant.kind, grant.subject_id),
            token,
            path=path,
            max_age=max(0, grant.expires_at - int(self.ctx.clock().timestamp())),
            httponly=True,
            samesite="Lax",
            secure=request.secure or (self.ctx.settings.web_base_url or "").startswith("https:"),
        )
        raise response

    async def _refused_page(self, refused: LinkRefused, guild_id: int | None) -> web.Response:
        if guild_id is not None:
            async with self.ctx.reader() as uow:
                guild = await uow.guilds.get(guild_id)
                # Read while the row is loaded: the read's rollback expires it.
                language = language_of(guild.settings) if guild is not None else None
            if language is not None:
                set_language(language, guild_id)
        html = self.env.get_template("error.html").render(
            title=_(LINK_REFUSED_TITLE), text=refusal(refused), status=403
        )
        return web.Response(text=html, status=403, content_type="text/html", charset="utf-8")

    # ------------------------------------------------------------------ the session

    def _board(self, request: web.Request) -> tuple[BoardKind, Kind, int]:
        kind_name = request.match_info["kind"]
        text = request.match_info["id"]
        board = self.kinds.get(kind_name)  # type: ignore[call-overload]
        # A game's or round's id, or a club's (the room's screen: a Discord snowflake).
        if board is None or not text.isascii() or not text.isdigit() or len(text) > 20:
            raise web.HTTPNotFound()
        return board, board.kind, int(text)

    async def _session(self, request: web.Request, kind: Kind, subject_id: int) -> BoardSession:
        """The board's session from its cookie, checked now; the club's language for
        the rest of the request. ``LinkRefused`` when there is none or it no longer
        opens this board."""
        token = request.cookies.get(cookie_name(kind, subject_id))
        if not token:
            raise LinkRefused(LINK_FORGED, code="link_missing")
        session = await self.links.session(token)
        set_language(session.language, session.grant.guild_id)
        if not session.grant.allows(kind, subject_id):
            raise LinkRefused(LINK_NOT_YOURS, code="link_not_yours")
        return session

    # ------------------------------------------------------------------ the page

    async def page(self, request: web.Request) -> web.StreamResponse:
        board, kind, subject_id = self._board(request)
        try:
            session = await self._session(request, kind, subject_id)
        except LinkRefused as refused:
            claimed = parse(request.cookies.get(cookie_name(kind, subject_id), ""))
            return await self._refused_page(refused, claimed[0].guild_id if claimed else None)
        state = await board.state(session)
        # ``state_json`` goes in a ``data-state`` attribute (autoescaped, so a name
        # like ``</script>`` stays text): the page's module reads it before its first
        # ``/state``.
        # A kind may draw its pages with another kind's template (the daily Boggle grid
        # is the Boggle board) or pick one by the state (a puzzle: its game's board).
        template = getattr(board, "template", None)
        name = template(state) if template is not None else f"board_{kind}.html"
        html = self.env.get_template(name).render(
            session=session,
            state=state,
            state_json=json.dumps(state, ensure_ascii=False),
            path=board_path(kind, subject_id),
            club=session.guild_name,
        )
        return web.Response(
            text=html,
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    async def state(self, request: web.Request) -> web.Response:
        board, kind, subject_id = self._board(request)
        try:
            session = await self._session(request, kind, subject_id)
        except LinkRefused as refused:
            return self._json_refusal(refused, 403)
        return self._json(await board.state(session))

    # ------------------------------------------------------------------ changes

    async def act(self, request: web.Request) -> web.Response:
        board, kind, subject_id = self._board(request)
        action = board.actions().get(request.match_info["action"])
        if action is None:
            raise web.HTTPNotFound()
        try:
            session = await self._session(request, kind, subject_id)
        except LinkRefused as refused:
            return self._json_refusal(refused, 403)
        origin = request.headers.get("Origin")
        if not session.csrf_ok(request.headers.get("X-CSRF-Token")) or (
            origin is not None and origin != _origin(request)
        ):
            return self._json_error("csrf", _(NO_CSRF), 403)
        if not self.limit.allow((session.grant.guild_id, session.grant.user_id)):
            return self._json_error("too_fast", _(TOO_FAST), 429)
        try:
            body = await _json_body(request)
        except ValueError:
            return self._json_error("bad_request", _(BAD_BODY), 400)
        try:
            answer = await action(session, body)
        except GameNotFoundError as error:
            return self._json_error(error.code, game_not_found(error), 409)
        except ClubError as error:
            return self._json_refusal(error, 409)
        finally:
            self.watch.poke(kind, subject_id)
        return self._json({"ok": True, **answer})

    # ------------------------------------------------------------------ pushed updates

    async def events(self, request: web.Request) -> web.StreamResponse:
        _unused, kind, subject_id = self._board(request)
        try:
            session = await self._session(request, kind, subject_id)
        except LinkRefused as refused:
            return self._json_refusal(refused, 403)
        personal = getattr(self.kinds[kind], "page_version", None)
        mine: Callable[[Any], Any] = await personal(session) if personal else _same
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        await response.write(b"retry: 1000\n\n")
        # A page closed (or a server stopping) ends its stream: the next write finds the
        # connection gone, which is the end of this answer, not a failure.
        with contextlib.suppress(ConnectionResetError):
            await self._stream(response, kind, subject_id, mine)
        return response

    async def _stream(
        self,
        response: web.StreamResponse,
        kind: Kind,
        subject_id: int,
        mine: Callable[[Any], Any] = _same,
    ) -> None:
        """Pushes the page's version (``mine`` of the board's) each time it changes; a
        change of the board that leaves it as it was is not this page's news."""
        sent: int | None = None
        async with self.watch.watching(kind, subject_id) as watched:

            def news() -> bool:
                shared = watched.version
                return self.watch.closing.is_set() or (shared is not None and mine(shared) != sent)

            while not self.watch.closing.is_set():
                async with watched.changed:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(watched.changed.wait_for(news), HEARTBEAT_S)
                    shared = watched.version
                version = mine(shared) if shared is not None else None
                if version is not None and version != sent:
                    await response.write(f"event: version\ndata: {version}\n\n".encode())
                    sent = version
                else:
                    await response.write(b": still here\n\n")

    # ------------------------------------------------------------------ answers

    @staticmethod
    def _json(data: Mapping[str, Any], status: int = 200) -> web.Response:
        return web.json_response(
            dict(data),
            status=status,
            headers={"Cache-Control": "no-store"},
            dumps=lambda d: json.dumps(d, ensure_ascii=False),
        )

    def _json_error(self, code: str, message: str, status: int) -> web.Response:
        return self._json({"ok": False, "code": code, "message": message}, status)

    def _json_refusal(self, error: ClubError, status: int) -> web.Response:
        return self._json_error(error.code, refusal(error), status)


def _origin(request: web.Request) -> str:
    return f"{request.scheme}://{request.host}"


async def _json_body(request: web.Request) -> dict[str, Any]:
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise ValueError("too long")
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise ValueError("too long")
    if not raw:
        return {}
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return data
