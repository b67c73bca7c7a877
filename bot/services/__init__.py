"""Use cases, one package per game and per club feature. Each owns its transaction
(one unit of work per command) and the clock and RNG it hands to engines. No
discord and no sqlalchemy import: services use repositories on the unit of work
and return plain results."""

from bot.context import ServiceContext

__all__ = ["ServiceContext"]
