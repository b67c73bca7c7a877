"""discord.py views, embeds and message builders."""
