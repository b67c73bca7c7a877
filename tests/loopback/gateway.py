"""The gateway websocket: HELLO, IDENTIFY/READY, heartbeats, RESUME, and dispatch.

Each IDENTIFY creates a :class:`GatewaySession` that keeps every event it was
sent with its sequence number, so a RESUME can replay what a dropped
connection missed. A :class:`GatewayConnection` is one websocket; its writer
task sends the session's events in order, which lets the rest of the server
dispatch synchronously.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import LoopbackDiscord

_log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE, RESUME = 0, 1, 2, 3, 4, 6
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11

# Gateway intents (https://discord.com/developers/docs/topics/gateway#gateway-intents)
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
DIRECT_MESSAGE_REACTIONS = 1 << 13
MESSAGE_CONTENT = 1 << 15
PRIVILEGED = GUILD_MEMBERS | MESSAGE_CONTENT | GUILD_PRESENCES

# Close codes after which Discord lets the client resume
RESUMABLE_DROP, SESSION_TIMED_OUT = 4000, 4009
CLIENT_ENDS_SESSION = (1000, 1001)


def _zstd_compressor() -> Callable[[bytes], bytes] | None:
    """A per-connection streaming zstd compressor, if a zstd module is importable."""
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:
        stream = zstandard.ZstdCompressor().compressobj()
        return lambda data: stream.compress(data) + stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
    try:
        from compression.zstd import ZstdCompressor  # type: ignore[import-not-found]
    except ImportError:
        return None
    compressor = ZstdCompressor()
    return lambda data: compressor.compress(data, mode=ZstdCompressor.FLUSH_BLOCK)


def _zlib_compressor() -> Callable[[bytes], bytes]:
    stream = zlib.compressobj()
    # Z_SYNC_FLUSH ends each message with 00 00 ff ff, which is how clients find message ends
    return lambda data: stream.compress(data) + stream.flush(zlib.Z_SYNC_FLUSH)


class GatewaySession:
    """One identified gateway session (a shard of the bot)."""

    def __init__(self, *, shard: tuple[int, int], intents: int) -> None:
        self.id = secrets.token_hex(16)
        self.shard = shard
        self.intents = intents
        self.events: list[dict[str, Any]] = []
        self.connection: GatewayConnection | None = None
        self.valid = True
        self.resumes = 0

    def __repr__(self) -> str:
        state = "connected" if self.connection else ("resumable" if self.valid else "invalid")
        return (
            f"<GatewaySession {self.id[:8]} shard={self.shard} events={len(self.events)} {state}>"
        )

    @property
    def seq(self) -> int:
        return len(self.events)

    def handles_guild(self, guild_id: int | None) -> bool:
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0  # Discord sends DMs to shard 0
        return (guild_id >> 22) % shard_count == shard_id

    def has(self, intent: int) -> bool:
        return bool(self.intents & intent)

    def append(self, event: str, data: dict[str, Any]) -> int:
        seq = len(self.events) + 1
        self.events.append({"op": DISPATCH, "t": event, "s": seq, "d": data})
        if self.connection is not None:
            self.connection.wake()
        return seq

    def sent_names(self) -> list[str]:
        return [e["t"] for e in self.events]


class GatewayConnection:
    """One websocket; sends a session's events from ``cursor`` onwards, in order."""

    def __init__(
        self, ws: web.WebSocketResponse, compress: Callable[[bytes], bytes] | None
    ) -> None:
        self.ws = ws
        self._compress = compress
        self._send_lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self.session: GatewaySession | None = None
        self.cursor = 0
        self.dropped_by_server = False
        self._writer: asyncio.Task[None] | None = None
        # Closing the socket a newer connection took the session from (kept so it runs to the end).
        self.closing: asyncio.Future[bool] | None = None

    def wake(self) -> None:
        self._wake.set()

    async def send(self, payload: dict[str, Any]) -> None:
        raw = json.dumps(payload, separators=(",", ":"))
        async with self._send_lock:
            if self.ws.closed:
                return
            # A socket the client is closing just drops what we send, as Discord's would
            with contextlib.suppress(ConnectionError, RuntimeError):
                if self._compress is None:
                    await self.ws.send_str(raw)
                else:
                    await self.ws.send_bytes(self._compress(raw.encode()))

    def attach(self, session: GatewaySession, cursor: int) -> None:
        previous = session.connection
        if previous is not None and previous is not self:
            previous.detach()
            previous.dropped_by_server = True
            previous.closing = asyncio.ensure_future(previous.ws.close(code=RESUMABLE_DROP))
        self.session = session
        self.cursor = cursor
        session.connection = self
        self._writer = asyncio.create_task(
            self._write_loop(), name=f"loopback gateway writer {session.id[:8]}"
        )
        self.wake()

    def detach(self) -> None:
        if self.session is not None and self.session.connection is self:
            self.session.connection = None
        self.session = None
        if self._writer is not None:
            self._writer.cancel()
            self._writer = None

    async def _write_loop(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self.session is not None and self.cursor < len(self.session.events):
                    payload = self.session.events[self.cursor]
                    self.cursor += 1
                    await self.send(payload)
        except (ConnectionError, RuntimeError) as exc:
            _log.debug("gateway writer stopped: %s", exc)


class Gateway:
    """The gateway endpoint and the sessions it has identified."""

    def __init__(self, server: LoopbackDiscord, *, heartbeat_interval: float) -> None:
        self._server = server
        self.heartbeat_interval = heartbeat_interval
        self.sessions: list[GatewaySession] = []
        self.connections: set[GatewayConnection] = set()
        self.ack_delay = 0.0
        self.frames_received: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ routing

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions if s.valid]

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        return [s for s in self.live_sessions() if s.handles_guild(guild_id)]

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: int | None,
        intent: int | None,
        shape: Callable[[GatewaySession, dict[str, Any]], dict[str, Any] | None] | None = None,
    ) -> int:
        """Queues an event for every session that would receive it; returns how many do."""
        delivered = 0
        for session in self.sessions_for(guild_id):
            if intent is not None and not session.has(intent):
                continue
            shaped = data if shape is None else shape(session, data)
            if shaped is None:
                continue
            session.append(event, shaped)
            delivered += 1
        return delivered

    # ------------------------------------------------------------------ websocket

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        connection = GatewayConnection(ws, self._compressor_for(request.query.get("compress")))
        self.connections.add(connection)
        try:
            await connection.send(
                {
                    "op": HELLO,
                    "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)},
                    "s": None,
                    "t": None,
                }
            )
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._on_frame(connection, json.loads(message.data))
                elif message.type is WSMsgType.ERROR:
                    break
        finally:
            self._on_closed(connection, ws.close_code)
        return ws

    @staticmethod
    def _compressor_for(kind: str | None) -> Callable[[bytes], bytes] | None:
        if kind == "zlib-stream":
            return _zlib_compressor()
        if kind == "zstd-stream":
            # Without a zstd module we answer uncompressed text, which clients accept too
            return _zstd_compressor()
        return None

    def _on_closed(self, connection: GatewayConnection, code: int | None) -> None:
        self.connections.discard(connection)
        session = connection.session
        connection.detach()
        if session is not None and not connection.dropped_by_server and code in CLIENT_ENDS_SESSION:
            # A client closing with 1000/1001 ends its session: it cannot be resumed
            session.valid = False
        self._server.changed.notify()

    async def _on_frame(self, connection: GatewayConnection, frame: dict[str, Any]) -> None:
        self.frames_received.append(frame)
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            await self._ack(connection)
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif op == REQUEST_MEMBERS:
            self._request_members(connection, data or {})
        elif op in (PRESENCE, VOICE_STATE):
            pass
        else:
            await connection.ws.close(code=4001, message=b"Unknown opcode")

    async def _ack(self, connection: GatewayConnection) -> None:
        if self.ack_delay > 0:
            asyncio.get_running_loop().call_later(
                self.ack_delay,
                lambda: asyncio.ensure_future(connection.send({"op": HEARTBEAT_ACK, "d": None})),
            )
            return
        await connection.send({"op": HEARTBEAT_ACK, "d": None})

    async def _identify(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        server = self._server
        if connection.session is not None:
            await connection.ws.close(code=4005, message=b"Already authenticated")
            return
        if data.get("token") != server.token:
            await connection.ws.close(code=4004, message=b"Authentication failed")
            return
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not (0 <= shard_id < shard_count):
            await connection.ws.close(code=4010, message=b"Invalid shard")
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            await connection.ws.close(code=4013, message=b"Invalid intent(s)")
            return
        if intents & PRIVILEGED & ~server.privileged_intents:
            await connection.ws.close(code=4014, message=b"Disallowed intent(s)")
            return
        session = GatewaySession(shard=(shard_id, shard_count), intents=intents)
        self.sessions.append(session)
        guilds = [g for g in server.guilds.values() if session.handles_guild(g.id)]
        session.append("READY", server.ready_payload(session, guilds))
        for guild in guilds:
            if session.has(GUILDS):
                session.append("GUILD_CREATE", server.guild_create_payload(guild, session))
        connection.attach(session, 0)
        server.changed.notify()

    async def _resume(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        session = next((s for s in self.live_sessions() if s.id == data.get("session_id")), None)
        if session is None or data.get("token") != self._server.token:
            await asyncio.sleep(0.05)  # Discord waits a moment before refusing a resume
            await connection.send({"op": INVALID_SESSION, "d": False})
            return
        seq = data.get("seq") or 0
        session.resumes += 1
        connection.attach(session, min(seq, len(session.events)))
        session.append("RESUMED", {})
        self._server.changed.notify()

    def _request_members(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        session = connection.session
        if session is None:
            return
        guild = self._server.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        query = (data.get("query") or "").lower()
        wanted = {int(u) for u in data.get("user_ids") or []}
        limit = data.get("limit") or len(guild.members)
        members = [
            m
            for m in guild.members.values()
            if (not wanted or m.id in wanted) and m.user.name.lower().startswith(query)
        ][:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(u) for u in wanted - {m.id for m in members}],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.append("GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ faults

    async def drop(self, *, resume: bool = True, shard: int | None = None) -> int:
        """Closes matching connections; their sessions stay resumable when ``resume``."""
        dropped = 0
        for session in list(self.live_sessions()):
            if shard is not None and session.shard[0] != shard:
                continue
            connection = session.connection
            if not resume:
                session.valid = False
            if connection is None:
                continue
            connection.dropped_by_server = True
            connection.detach()
            with contextlib.suppress(ConnectionError, RuntimeError):
                await connection.ws.close(code=RESUMABLE_DROP if resume else SESSION_TIMED_OUT)
            dropped += 1
        self._server.changed.notify()
        return dropped

    async def close_all(self) -> None:
        for connection in list(self.connections):
            connection.dropped_by_server = True
            connection.detach()
            with contextlib.suppress(ConnectionError, RuntimeError):
                await connection.ws.close(code=1001)
