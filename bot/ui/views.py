"""A message's buttons, when it has any, and what discord.py keeps of them."""

from __future__ import annotations

from typing import Any, TypedDict

import discord


class ViewKwargs(TypedDict, total=False):
    view: discord.ui.View


def view_kwargs(view: discord.ui.View | None) -> ViewKwargs:
    """``view=`` for a new message, or nothing: sending one takes no ``view=None``."""
    return {} if view is None else {"view": view}


def routed_by_custom_id(view: Any) -> bool:
    """Whether nothing of ``view`` needs the view object once it is sent: every
    button or select on it is a ``DynamicItem`` (discord.py finds its class by the
    custom id's pattern, registered with ``add_dynamic_items``) or a link."""
    if getattr(view, "__discord_ui_modal__", False):
        return False
    return all(
        isinstance(item, discord.ui.DynamicItem) or not item.is_dispatchable()
        for item in view.walk_children()
    )


def keep_only_listening_views(client: discord.Client) -> None:
    """discord.py keeps every view it sends or edits in (``ConnectionState.store_view``):
    a private answer's view for 15 minutes, with a timer task each, and a view without
    a timeout for as long as the process lives. The bot's buttons are nearly all
    routed by their custom id (``bot.ui.buttons``): such a view is only the message's
    components, and keeping it is memory growing with every /help, board link and
    invitation. So such a view is not kept (its items' classes are registered, as
    keeping it would have); a view with a callback of its own, or a form, still is."""
    state = client._connection
    store_view = state.store_view

    def store_listening_view(view: Any, message_id: int | None = None) -> None:
        if routed_by_custom_id(view):
            dynamic = {
                type(item)
                for item in view.walk_children()
                if isinstance(item, discord.ui.DynamicItem)
            }
            if dynamic:
                state.store_dynamic_items(*dynamic)
            return
        store_view(view, message_id)

    state.store_view = store_listening_view  # type: ignore[method-assign]
