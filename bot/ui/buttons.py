"""One registry routing persistent buttons to the cog that handles them.

A game's buttons are ``DynamicItem``s (their custom ids carry the game, so they
work after a restart). Each game names a typed ``ButtonRoute`` for its handler
(a Protocol of the methods its buttons call); its cog binds itself to the route
at load, and a button's callback goes through ``dispatch``, which finds the
handler for the client that received the click and turns any failure into the
one private error reply.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

import discord

from bot.messages.errors import not_available
from bot.ui.errors import handle_interaction_error, reply_privately

H = TypeVar("H")


@dataclass(frozen=True, eq=False)
class ButtonRoute(Generic[H]):
    """The route of one game's buttons; ``H`` is the handler's Protocol."""

    game: str  # as members read it: "Scrabble", "chess"


class ButtonRegistry:
    def __init__(self) -> None:
        self._handlers: dict[ButtonRoute[Any], object] = {}

    def bind(self, route: ButtonRoute[H], handler: H) -> None:
        self._handlers[route] = handler

    def get(self, route: ButtonRoute[H]) -> H | None:
        # bind() is the only writer and is typed by the route, so the value is an H.
        return cast("H | None", self._handlers.get(route))


_registries: weakref.WeakKeyDictionary[discord.Client, ButtonRegistry] = weakref.WeakKeyDictionary()


def buttons_of(client: discord.Client) -> ButtonRegistry:
    """The registry of this client (made on first use)."""
    registry = _registries.get(client)
    if registry is None:
        registry = _registries[client] = ButtonRegistry()
    return registry


async def dispatch(
    interaction: discord.Interaction,
    route: ButtonRoute[H],
    call: Callable[[H], Awaitable[None]],
    *,
    where: str,
) -> None:
    """Run ``call`` with the handler bound to ``route``; every failure reaches the
    member privately (dynamic items bypass ``View.on_error``)."""
    try:
        handler = buttons_of(interaction.client).get(route)
        if handler is None:
            await reply_privately(interaction, not_available(route.game))
            return
        await call(handler)
    except Exception as error:
        await handle_interaction_error(interaction, error, where=where)
