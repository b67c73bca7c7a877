"""Games events (the library's "Play games and win prizes"), across games.

A host opens an event for some of Henyo, Boggle, Scrabble and chess; pairs
register on the club's one sign-up list (the first ``pairs`` play, later ones
wait and move up on a withdrawal, and are told); the host then runs each game's
round for the event's pairs, through that game's own machinery:

- Henyo: a Henyo event whose teams are the event's pairs, so ``/henyo start``
  runs each pair's word exactly as in any Henyo event;
- Boggle: a Boggle round played in pairs: either partner's DM counts for the
  pair, and the pair's list is the list of whichever partner sent words last;
- Scrabble and chess: a small tournament (round robin by default) of the pairs,
  paired by the tournament engine; at the chess board a pair is its first member.

The host writes prize lines; closing posts each game's standings and winners
and keeps them in the leaderboard's history (``results`` rows of kind 'event',
and Henyo's own event win for the Henyo round).

- ``options``: what a host types, checked; ``snapshots``: what the use cases return;
- ``standings``: each game's table read from the game's own records;
- ``rounds``: starting a game's round; ``service``: ``EventService``.

This package's ``__init__`` imports nothing, so the Boggle closing path can
look the pairs up without a cycle.
"""
