"""Discord commands. Thin: parse options, call a service, render the reply.
Cogs never touch sqlalchemy or bot.db; nothing imports cogs."""
