"""CPU-heavy work the bot's worker processes run (``bot.offload``): pure functions of
plain data, kept apart from ``bot.services`` so that a worker imports no database
layer and no discord. Renders are ``bot.render``'s ``…_png`` functions."""
