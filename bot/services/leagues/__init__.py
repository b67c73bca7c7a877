"""Leagues (issue #30): seasons of asynchronous Scrabble or correspondence chess in
divisions by rating, with promotion and relegation.

- ``options``: what a league is made with, checked; its job names.
- ``service``: ``LeagueService``: make, join, settings, start a season, withdraw,
  adjudicate, standings and a season's summary; and the season's end (its jobs).

Each division of a season is a tournament (``bot.services.tournaments``) whose
round robin is one round of every game at once: its games, threads, results,
standings, forfeits and deadline rule are the tournament's own. The league keeps
the seasons, places the divisions (``engines.leagues``) and rolls a season over.
"""
