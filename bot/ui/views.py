"""A message's buttons, when it has any."""

from __future__ import annotations

from typing import TypedDict

import discord


class ViewKwargs(TypedDict, total=False):
    view: discord.ui.View


def view_kwargs(view: discord.ui.View | None) -> ViewKwargs:
    """``view=`` for a new message, or nothing: sending one takes no ``view=None``."""
    return {} if view is None else {"view": view}
