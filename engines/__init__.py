"""Pure game rules. Standard library and python-chess only: no I/O, no asyncio,
no global randomness or wall clock (callers pass an RNG and the time in)."""
