"""The words of the button that opens a member's own board (issue #28)."""

from __future__ import annotations

from bot.messages.i18n import N_

# A link button on a private answer or a DM (bot.ui.board_link translates it).
OPEN_BOARD = N_("Open the board")
