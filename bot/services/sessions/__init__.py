"""Club sessions (issue #18): see ``service`` for the lifecycle; the texts are in
``bot.messages.sessions``, the grouping in ``engines.sessions``."""

from bot.services.sessions.core import JOB_DEADLINE, JOB_OPEN_BOARD, ThreadOpener
from bot.services.sessions.options import SessionOptions, read_options
from bot.services.sessions.service import SessionService
from bot.services.sessions.snapshots import (
    Explained,
    Member,
    SessionResults,
    SessionSnapshot,
    SignedUp,
    Swapped,
)

__all__ = [
    "JOB_DEADLINE",
    "JOB_OPEN_BOARD",
    "Explained",
    "Member",
    "SessionOptions",
    "SessionResults",
    "SessionService",
    "SessionSnapshot",
    "SignedUp",
    "Swapped",
    "ThreadOpener",
    "read_options",
]
