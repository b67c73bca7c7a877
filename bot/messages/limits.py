"""Discord's limits, in one place (https://discord.com/developers/docs/resources/message)."""

from __future__ import annotations

MESSAGE_CHARS = 2000  # a message's content
EMBED_DESCRIPTION_CHARS = 4096
EMBED_FIELD_VALUE_CHARS = 1024
EMBEDS_PER_MESSAGE = 10
EMBEDS_TOTAL_CHARS = 6000  # all of a message's embeds together
FILES_PER_MESSAGE = 10
ALT_TEXT_CHARS = 1024  # an attachment's description
CHOICES = 25  # autocomplete choices, and an option's fixed choices
CHOICE_NAME_CHARS = 100
CHOICE_VALUE_CHARS = 100
BUTTON_LABEL_CHARS = 80
BUTTON_URL_CHARS = 512  # a link button's address
CUSTOM_ID_CHARS = 100
MODAL_INPUT_CHARS = 4000
THREAD_NAME_CHARS = 100
COMMAND_DESCRIPTION_CHARS = 100
TOP_LEVEL_COMMANDS = 100
COMMAND_OPTIONS = 25
# A top-level command's names, descriptions and choices together, its subcommands' included.
COMMAND_TOTAL_CHARS = 4000
# Room kept below MESSAGE_CHARS for a prefix added on the way out (a mention, a fallback).
MESSAGE_MARGIN = 10
