"""The club's read-only web page, ``/healthz`` and ``/metrics``: an aiohttp server in
the bot's process (``bot.web.server``), off unless ``WEB_PORT`` is set."""
