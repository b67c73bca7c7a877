"""Every user-facing string the bot writes, built from plain data (no discord).

Services use it for outbox rows and ``bot/ui`` for replies, so a message reads
the same whichever path sends it, and a second language plugs in here.

- ``limits``: Discord's length limits, in one place.
- ``text``: member-supplied text made safe to show (``plain``), clipping, times.
- ``post``: the typed shape of an outbox message (content, files with alt text,
  a view to attach).
- one module per game for that game's messages.
"""
