"""Tournaments for chess and Scrabble: round robin, Swiss and knockout.

- ``options``: what a tournament is made with, checked; job names and keys.
- ``hooks``: the one call a game's finish makes (``game_finished``), kept light
  so the games import it without importing the tournaments.
- ``games``: a round's games, made through the games' own services (seated and
  accepted), their threads, and their results read back.
- ``pairing``: records to the pure engine (``engines.pairings``) and back.
- ``core``: loading, checks, the log, the announcements of a round.
- ``entry``: create, join, leave, check in (the club's one sign-up list);
- ``lifecycle``: start, pairing and advancing rounds; ``round_jobs``: the jobs
  that run the rounds; ``director``: set a pairing, adjudicate, void, withdraw,
  extend, pause, resume; ``reading``: standings, the log, exports.
- ``service``: ``TournamentService``, which holds them.

This package's ``__init__`` imports nothing, so the chess and Scrabble finish
paths can import ``hooks`` without a cycle.
"""
