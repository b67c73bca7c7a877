"""What tests hold on to: interaction handles, their responses, and violations."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import limits
from .records import ChannelRecord, MessageRecord, UserRecord

if TYPE_CHECKING:
    from .server import LoopbackDiscord

# Interaction types and callback types (Discord's numbering)
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
(
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    UPDATE_MESSAGE,
    AUTOCOMPLETE_RESULT,
    MODAL,
) = (
    4,
    5,
    6,
    7,
    8,
    9,
)

RESPONSE_DEADLINE_S = 3.0
# How long the harness waits for the answer after a deferral (a test's own timeout if longer)
ANSWER_TIMEOUT_S = 30.0
TOKEN_LIFETIME_S = 15 * 60.0


class LoopbackTimeout(AssertionError):
    """The bot did not do what the test waited for in time."""


class Signal:
    """Wakes every waiter whenever something changes; waiters re-check their own condition.

    Waiters also re-check every ``POLL_S`` so conditions over state the server does
    not own (the bot's own lists, say) are noticed promptly too.
    """

    POLL_S = 0.02

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] = []

    def notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_until(self, condition: Callable[[], Any], timeout: float, what: str) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = condition()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise LoopbackTimeout(f"timed out after {timeout:.1f}s waiting for {what}")
            waiter = loop.create_future()
            self._waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, min(remaining, self.POLL_S))
            except TimeoutError:
                pass
            finally:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)


@dataclass
class Violation:
    """A rule of Discord's that the bot broke (recorded even when Discord would only warn)."""

    kind: str
    detail: str
    method: str = ""
    path: str = ""
    at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))

    def __str__(self) -> str:
        where = f" [{self.method} {self.path}]" if self.method else ""
        return f"{self.kind}: {self.detail}{where}"


@dataclass
class RequestLog:
    """One REST request the server answered (for asserting retries and call counts)."""

    method: str
    path: str
    status: int


@dataclass
class Rejection:
    """A response attempt the server refused (late, repeated, invalid)."""

    status: int
    code: int
    message: str


@dataclass
class ResponseRecord:
    """The initial response to an interaction, as the bot sent it."""

    type: int
    data: dict[str, Any]
    files: list[tuple[str, bytes]] = field(default_factory=list)
    message: MessageRecord | None = None

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.data.get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.data.get("components") or []

    @property
    def flags(self) -> int:
        return self.data.get("flags") or 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & limits.EPHEMERAL)

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.data.get("allowed_mentions")

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.data.get("choices") or []

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.data if self.type == MODAL else None

    @property
    def deferred(self) -> bool:
        return self.type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE)


class InteractionHandle:
    """One interaction the harness sent, and everything the bot did in answer.

    ``response`` is the initial callback (None until the bot answers); ``original``
    is the live original-response message (after edits); ``followups`` are the
    webhook followups in order; ``rejected`` lists refused attempts.
    """

    def __init__(
        self,
        server: LoopbackDiscord,
        *,
        id: int,
        token: str,
        type: int,
        user: UserRecord,
        channel: ChannelRecord,
        payload: dict[str, Any],
        source_message: MessageRecord | None,
        created: float,
    ) -> None:
        self._server = server
        self.id = id
        self.token = token
        self.type = type
        self.user = user
        self.channel = channel
        self.payload = payload
        self.source_message = source_message
        self.created = created
        self.response: ResponseRecord | None = None
        # The loop time (as ``created``) when the initial response arrived: ack latency.
        self.responded: float | None = None
        self.rejected: list[Rejection] = []
        self.followups: list[MessageRecord] = []
        self.original_id: int | None = None
        self.opened_by: InteractionHandle | None = None  # a modal submit: what opened the modal
        self.original_edits = 0
        self.timed_out = False
        self._log: list[MessageRecord] = []
        self._cursor = 0
        self.changed = Signal()

    def __repr__(self) -> str:
        kind = self.response.type if self.response else None
        return f"<InteractionHandle id={self.id} type={self.type} response={kind} followups={len(self.followups)}>"

    @property
    def data(self) -> dict[str, Any]:
        return self.payload.get("data") or {}

    @property
    def age(self) -> float:
        return asyncio.get_running_loop().time() - self.created

    @property
    def original(self) -> MessageRecord | None:
        return None if self.original_id is None else self._server.messages.get(self.original_id)

    @property
    def answer(self) -> ResponseRecord | MessageRecord | None:
        """What the member finally sees: the latest message this interaction produced
        that is not deleted (a direct reply, the message that replaced a deferred
        reply's "thinking…", an edit the interaction made, a follow-up), as the
        interaction left it (a snapshot: later edits by others are in ``dc.messages``).
        Without one it is the response itself (a modal, choices, a deferral not
        answered yet), and None before any response. Both records read alike:
        ``.content .embeds .components .files .ephemeral .flags .allowed_mentions``.
        """
        for snapshot in reversed(self._log):
            live = self._server.messages.get(snapshot.id, snapshot)
            if not live.deleted:
                return snapshot
        return self.response

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.response.choices if self.response else []

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.response.modal if self.response else None

    @property
    def messages(self) -> list[MessageRecord]:
        """Snapshots of every message this interaction produced, in order: the reply, its edits, followups.

        A deferred reply's "thinking…" placeholder is not among them.
        """
        return list(self._log)

    def pretend_age(self, seconds: float) -> None:
        """Moves the creation time back, e.g. to test the 15-minute token lifetime."""
        self.created -= seconds

    def _record(self, message: MessageRecord) -> None:
        # A snapshot: later edits change the live record, not what was seen at this point
        self._log.append(dataclasses.replace(message))
        self.changed.notify()

    async def wait_response(self, timeout: float = 5.0) -> ResponseRecord:
        return await self.changed.wait_until(
            lambda: self.response, timeout, f"a response to interaction {self.id}"
        )

    async def wait_done(self, timeout: float = 5.0) -> MessageRecord | None:
        """Waits until the answer is complete: a deferred reply edited or followed up.

        Returns the original message, or when it was deleted (a refusal after a public
        "thinking…" follows up privately) the message that took its place; None for
        responses without one, like modals.
        """
        response = await self.wait_response(timeout)
        if response.type == DEFERRED_CHANNEL_MESSAGE:
            await self.changed.wait_until(
                lambda: self.original_edits > 0 or self.followups,
                timeout,
                f"interaction {self.id} to finish deferring",
            )
        elif response.type == DEFERRED_UPDATE:
            await self.changed.wait_until(
                lambda: self.original_edits > 0 or self.followups,
                timeout,
                f"interaction {self.id} to update its message",
            )
        original = self.original
        if original is not None and original.deleted:
            answer = self.answer
            return answer if isinstance(answer, MessageRecord) else None
        return original

    async def next_message(self, timeout: float = 5.0) -> MessageRecord:
        """The next snapshot from ``messages`` that this method has not returned yet."""
        await self.changed.wait_until(
            lambda: len(self._log) > self._cursor, timeout, f"a message from interaction {self.id}"
        )
        message = self._log[self._cursor]
        self._cursor += 1
        return message
