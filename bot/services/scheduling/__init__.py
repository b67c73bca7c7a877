"""Times: agreeing a game's time (``agreements``: ``/schedule``) and the server's
scheduled events of sessions, tournament rounds and league seasons (``events``, called
from their services through ``hooks``) (issue #30).

Nothing is imported here, so a service calling the hooks loads only what they need.
"""
