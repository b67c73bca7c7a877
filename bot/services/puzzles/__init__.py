"""Puzzles from the club's own games (issue #31): Scrabble positions where the best play
beat the move made, and (with Stockfish) chess positions where one clearly winning move
was missed, found when a game finishes, solved with ``/puzzle``, rated by Glicko-2, with
a streak of days.

- ``hooks``: the one call a game's finish makes (``game_finished``), kept light so the
  games' services import it without the rest;
- ``service``: ``PuzzleService``, the use cases;
- ``chess``: the chess search (``find_chess_puzzles``) and the job's chess part.
"""
