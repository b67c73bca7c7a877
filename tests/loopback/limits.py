"""Discord's documented limits, checked the way Discord checks them.

Each ``check_*`` function returns a list of :class:`Problem`; an empty list means
Discord would accept the payload. ``form_error`` turns problems into the body of
Discord's 400 "Invalid Form Body" (code 50035) so a bot sees the same error it
would get from the real API.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

# Message limits
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_EMBED_FIELD_NAME = 256
MAX_EMBED_FIELD_VALUE = 1024
MAX_EMBED_FOOTER = 2048
MAX_EMBED_AUTHOR = 256
MAX_ATTACHMENTS = 10
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
# Components
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_SELECT_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
# Modals
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_TEXT_INPUT_LABEL = 45
MAX_TEXT_INPUT_VALUE = 4000
# Application commands
MAX_COMMAND_NAME = 32
MAX_COMMAND_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_STRING_VALUE = 100
MAX_GLOBAL_CHAT_COMMANDS = 100
MAX_CONTEXT_MENU_COMMANDS = 5
MAX_COMMAND_TOTAL_CHARS = 4000

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15
SENDABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2 | (1 << 13)

SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
STRING, INTEGER, NUMBER = 3, 4, 10
BUTTON_TYPE, ACTION_ROW_TYPE, TEXT_INPUT_TYPE, LABEL_TYPE = 2, 1, 4, 18
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE, PREMIUM_STYLE = 5, 6


@dataclass(frozen=True)
class Problem:
    path: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "(body)"
        return f"{where}: {self.message}"


def form_error(problems: Iterable[Problem]) -> dict[str, Any]:
    """Discord's nested error body: every path segment nests one level deeper."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for segment in problem.path:
            node = node.setdefault(str(segment), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}


def _too_long(path: tuple[str | int, ...], value: Any, limit: int) -> list[Problem]:
    if isinstance(value, str) and len(value) > limit:
        return [Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


# ---------------------------------------------------------------- messages


def embed_characters(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards the 6,000 per-message embed budget."""
    total = _length(embed.get("title")) + _length(embed.get("description"))
    for field in embed.get("fields") or []:
        total += _length(field.get("name")) + _length(field.get("value"))
    total += _length((embed.get("footer") or {}).get("text"))
    total += _length((embed.get("author") or {}).get("name"))
    return total


def check_embed(index: int, embed: dict[str, Any]) -> list[Problem]:
    base: tuple[str | int, ...] = ("embeds", index)
    problems = _too_long(base + ("title",), embed.get("title"), MAX_EMBED_TITLE)
    problems += _too_long(base + ("description",), embed.get("description"), MAX_EMBED_DESCRIPTION)
    fields = embed.get("fields") or []
    if len(fields) > MAX_EMBED_FIELDS:
        problems.append(
            Problem(
                base + ("fields",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_EMBED_FIELDS} or fewer in length.",
            )
        )
    for i, field in enumerate(fields):
        name, value = field.get("name"), field.get("value")
        if not isinstance(name, str) or not name:
            problems.append(
                Problem(
                    base + ("fields", i, "name"), "BASE_TYPE_REQUIRED", "This field is required"
                )
            )
        if not isinstance(value, str) or not value:
            problems.append(
                Problem(
                    base + ("fields", i, "value"), "BASE_TYPE_REQUIRED", "This field is required"
                )
            )
        problems += _too_long(base + ("fields", i, "name"), name, MAX_EMBED_FIELD_NAME)
        problems += _too_long(base + ("fields", i, "value"), value, MAX_EMBED_FIELD_VALUE)
    problems += _too_long(
        base + ("footer", "text"), (embed.get("footer") or {}).get("text"), MAX_EMBED_FOOTER
    )
    problems += _too_long(
        base + ("author", "name"), (embed.get("author") or {}).get("name"), MAX_EMBED_AUTHOR
    )
    return problems


def check_embeds(embeds: list[dict[str, Any]]) -> list[Problem]:
    if len(embeds) > MAX_EMBEDS:
        return [
            Problem(
                ("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length."
            )
        ]
    problems: list[Problem] = []
    for i, embed in enumerate(embeds):
        problems += check_embed(i, embed)
    total = sum(embed_characters(e) for e in embeds)
    if total > MAX_EMBED_TOTAL:
        problems.append(
            Problem(
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL} ({total})",
            )
        )
    return problems


def _check_button(path: tuple[str | int, ...], button: dict[str, Any]) -> list[Problem]:
    problems = _too_long(path + ("label",), button.get("label"), MAX_BUTTON_LABEL)
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url"):
            problems.append(
                Problem(path + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
            )
        if button.get("custom_id"):
            problems.append(
                Problem(
                    path + ("custom_id",),
                    "BUTTON_LINK_CUSTOM_ID",
                    "Link buttons cannot have a custom_id",
                )
            )
    elif style != PREMIUM_STYLE and not button.get("custom_id"):
        problems.append(
            Problem(path + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")
        )
    if not button.get("label") and not button.get("emoji") and style != PREMIUM_STYLE:
        problems.append(
            Problem(path, "BUTTON_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji")
        )
    return problems


def _check_select(path: tuple[str | int, ...], select: dict[str, Any]) -> list[Problem]:
    problems = _too_long(path + ("placeholder",), select.get("placeholder"), MAX_PLACEHOLDER)
    options = select.get("options")
    if select.get("type") == 3:
        options = options or []
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            problems.append(
                Problem(
                    path + ("options",),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                )
            )
        for i, option in enumerate(options):
            for key in ("label", "value", "description"):
                problems += _too_long(
                    path + ("options", i, key), option.get(key), MAX_SELECT_OPTION_TEXT
                )
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not (0 <= low <= MAX_SELECT_OPTIONS and 1 <= high <= MAX_SELECT_OPTIONS and low <= high):
        problems.append(
            Problem(
                path + ("max_values",), "SELECT_VALUES_RANGE", "min_values/max_values out of range"
            )
        )
    if options is not None and select.get("type") == 3 and high > len(options):
        problems.append(
            Problem(
                path + ("max_values",),
                "SELECT_VALUES_RANGE",
                "max_values exceeds the number of options",
            )
        )
    return problems


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first: rows, their children, sections' accessories, labels' inputs."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


def check_components(components: list[dict[str, Any]], flags: int) -> list[Problem]:
    problems: list[Problem] = []
    if flags & COMPONENTS_V2:
        every = list(walk_components(components))
        if len(every) > MAX_V2_COMPONENTS:
            problems.append(
                Problem(
                    ("components",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_V2_COMPONENTS} or fewer in total.",
                )
            )
        text = sum(_length(c.get("content")) for c in every if c.get("type") == 10)
        if text > MAX_V2_TEXT:
            problems.append(
                Problem(
                    ("components",),
                    "MAX_TEXT_LENGTH",
                    f"Text displays total {text} > {MAX_V2_TEXT}",
                )
            )
    else:
        if len(components) > MAX_ACTION_ROWS:
            problems.append(
                Problem(
                    ("components",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_ACTION_ROWS} or fewer in length.",
                )
            )
        for r, row in enumerate(components):
            problems += _check_action_row(("components", r), row)
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if len(custom_id) > MAX_CUSTOM_ID:
            problems.append(
                Problem(
                    ("components", "custom_id"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"custom_id {custom_id[:20]!r}… longer than {MAX_CUSTOM_ID}",
                )
            )
        if custom_id in seen:
            problems.append(
                Problem(
                    ("components", "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"custom_id {custom_id!r} used twice",
                )
            )
        seen.add(custom_id)
    for component in walk_components(components):
        if component.get("type") == BUTTON_TYPE:
            problems += _check_button(("components", "button"), component)
        elif component.get("type") in SELECT_TYPES:
            problems += _check_select(("components", "select"), component)
    return problems


def _check_action_row(path: tuple[str | int, ...], row: dict[str, Any]) -> list[Problem]:
    if row.get("type") != ACTION_ROW_TYPE:
        return [
            Problem(
                path + ("type",),
                "COMPONENT_LAYOUT_INVALID",
                "Top-level components must be action rows",
            )
        ]
    children = row.get("components") or []
    if not children:
        return [
            Problem(
                path + ("components",),
                "BASE_TYPE_BAD_LENGTH",
                "Action rows need at least one component",
            )
        ]
    kinds = {c.get("type") for c in children}
    if kinds == {BUTTON_TYPE}:
        if len(children) > MAX_ROW_BUTTONS:
            return [
                Problem(
                    path + ("components",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_ROW_BUTTONS} or fewer in length.",
                )
            ]
        return []
    if len(children) == 1 and kinds <= SELECT_TYPES:
        return []
    return [
        Problem(
            path + ("components",),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "A select menu must be alone in its row",
        )
    ]


def check_message(payload: dict[str, Any], *, files: int) -> list[Problem]:
    """Limits of a message create/edit body (channel post, interaction response or webhook)."""
    problems = _too_long(("content",), payload.get("content"), MAX_CONTENT)
    embeds = payload.get("embeds") or []
    problems += check_embeds(embeds)
    flags = payload.get("flags") or 0
    problems += check_components(payload.get("components") or [], flags)
    attachments = payload.get("attachments")
    count = max(files, len(attachments) if isinstance(attachments, list) else 0)
    if count > MAX_ATTACHMENTS:
        problems.append(
            Problem(
                ("attachments",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_ATTACHMENTS} or fewer in length.",
            )
        )
    problems += check_allowed_mentions(payload.get("allowed_mentions"))
    return problems


def check_allowed_mentions(allowed: Any) -> list[Problem]:
    if not isinstance(allowed, dict):
        return []
    parse = allowed.get("parse") or []
    problems = []
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            problems.append(
                Problem(
                    ("allowed_mentions", kind),
                    "MUTUALLY_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                )
            )
        if len(allowed.get(kind) or []) > 100:
            problems.append(
                Problem(
                    ("allowed_mentions", kind),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                )
            )
    return problems


def is_empty_message(payload: dict[str, Any], *, files: int) -> bool:
    return not (
        payload.get("content")
        or payload.get("embeds")
        or files
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
    )


# ---------------------------------------------------------------- interaction callbacks


def check_choices(choices: Any) -> list[Problem]:
    if not isinstance(choices, list):
        return [Problem(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")]
    problems = []
    if len(choices) > MAX_CHOICES:
        problems.append(
            Problem(
                ("data", "choices"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CHOICES} or fewer in length.",
            )
        )
    for i, choice in enumerate(choices):
        problems += _check_choice(("data", "choices", i), choice)
    return problems


def _check_choice(path: tuple[str | int, ...], choice: dict[str, Any]) -> list[Problem]:
    name, value = choice.get("name"), choice.get("value")
    problems = []
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_NAME:
        problems.append(
            Problem(
                path + ("name",),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_CHOICE_NAME} in length.",
            )
        )
    if isinstance(value, str) and len(value) > MAX_CHOICE_STRING_VALUE:
        problems.append(
            Problem(
                path + ("value",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CHOICE_STRING_VALUE} or fewer in length.",
            )
        )
    if value is None:
        problems.append(Problem(path + ("value",), "BASE_TYPE_REQUIRED", "This field is required"))
    return problems


def check_modal(data: dict[str, Any]) -> list[Problem]:
    problems = []
    title = data.get("title")
    if not isinstance(title, str) or not 1 <= len(title) <= MAX_MODAL_TITLE:
        problems.append(
            Problem(
                ("data", "title"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_MODAL_TITLE} in length.",
            )
        )
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        problems.append(
            Problem(
                ("data", "custom_id"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_CUSTOM_ID} in length.",
            )
        )
    components = data.get("components") or []
    if not 1 <= len(components) <= MAX_MODAL_COMPONENTS:
        problems.append(
            Problem(
                ("data", "components"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_MODAL_COMPONENTS} in length.",
            )
        )
    for component in walk_components(components):
        if component.get("type") == TEXT_INPUT_TYPE:
            problems += _too_long(
                ("data", "components", "label"), component.get("label"), MAX_TEXT_INPUT_LABEL
            )
            problems += _too_long(
                ("data", "components", "value"), component.get("value"), MAX_TEXT_INPUT_VALUE
            )
            problems += _too_long(
                ("data", "components", "placeholder"), component.get("placeholder"), 100
            )
        elif component.get("type") == LABEL_TYPE:
            problems += _too_long(
                ("data", "components", "label"), component.get("label"), MAX_TEXT_INPUT_LABEL
            )
    return problems


# ---------------------------------------------------------------- application commands


def _name_char_ok(ch: str) -> bool:
    if ch in "-_":
        return True
    category = unicodedata.category(ch)
    if category[0] in "LN":
        return True
    # Discord also admits the marks of the Devanagari and Thai scripts
    return category[0] == "M" and ("\u0900" <= ch <= "\u097f" or "\u0e00" <= ch <= "\u0e7f")


def valid_chat_name(name: Any) -> bool:
    return (
        isinstance(name, str)
        and 1 <= len(name) <= MAX_COMMAND_NAME
        and all(_name_char_ok(ch) for ch in name)
        and name == name.lower()
    )


def _check_name(path: tuple[str | int, ...], name: Any) -> list[Problem]:
    if valid_chat_name(name):
        return []
    return [
        Problem(
            path + ("name",),
            "APPLICATION_COMMAND_INVALID_NAME",
            f"Command name is invalid: {name!r}",
        )
    ]


def _check_description(path: tuple[str | int, ...], description: Any) -> list[Problem]:
    if isinstance(description, str) and 1 <= len(description) <= MAX_COMMAND_DESCRIPTION:
        return []
    return [
        Problem(
            path + ("description",),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {MAX_COMMAND_DESCRIPTION} in length.",
        )
    ]


def _command_chars(node: dict[str, Any]) -> int:
    total = _length(node.get("name")) + _length(node.get("description"))
    for choice in node.get("choices") or []:
        total += _length(choice.get("name")) + _length(str(choice.get("value", "")))
    for option in node.get("options") or []:
        total += _command_chars(option)
    return total


def _check_options(
    path: tuple[str | int, ...], options: list[dict[str, Any]], depth: int
) -> list[Problem]:
    problems: list[Problem] = []
    if len(options) > MAX_OPTIONS:
        problems.append(
            Problem(
                path + ("options",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_OPTIONS} or fewer in length.",
            )
        )
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(
            Problem(
                path + ("options",),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        )
    kinds = [o.get("type") for o in options]
    nested = [k in (SUBCOMMAND, SUBCOMMAND_GROUP) for k in kinds]
    if any(nested) and not all(nested):
        problems.append(
            Problem(
                path + ("options",),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-commands cannot be mixed with other options",
            )
        )
    seen_optional = False
    for i, option in enumerate(options):
        here = path + ("options", i)
        problems += _check_option(here, option, depth)
        if option.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP):
            continue
        if option.get("required"):
            if seen_optional:
                problems.append(
                    Problem(
                        here + ("required",),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
    return problems


def _check_option(path: tuple[str | int, ...], option: dict[str, Any], depth: int) -> list[Problem]:
    problems = _check_name(path, option.get("name")) + _check_description(
        path, option.get("description")
    )
    kind = option.get("type")
    if kind not in range(1, 12):
        return problems + [
            Problem(
                path + ("type",), "BASE_TYPE_CHOICES", f"Value must be one of 1..11 (got {kind!r})."
            )
        ]
    if kind == SUBCOMMAND_GROUP:
        if depth != 0:
            problems.append(
                Problem(
                    path + ("type",),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command groups cannot be nested",
                )
            )
        children = option.get("options") or []
        if any(c.get("type") != SUBCOMMAND for c in children):
            problems.append(
                Problem(
                    path + ("options",),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Groups may only contain sub-commands",
                )
            )
        problems += _check_options(path, children, depth + 1)
    elif kind == SUBCOMMAND:
        children = option.get("options") or []
        if any(c.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP) for c in children):
            problems.append(
                Problem(
                    path + ("options",),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-commands cannot contain sub-commands",
                )
            )
        problems += _check_options(path, children, depth + 1)
    else:
        problems += _check_leaf_option(path, option, kind)
    return problems


def _check_leaf_option(
    path: tuple[str | int, ...], option: dict[str, Any], kind: int
) -> list[Problem]:
    problems: list[Problem] = []
    choices = option.get("choices") or []
    if len(choices) > MAX_CHOICES:
        problems.append(
            Problem(
                path + ("choices",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CHOICES} or fewer in length.",
            )
        )
    if choices and kind not in (STRING, INTEGER, NUMBER):
        problems.append(
            Problem(
                path + ("choices",),
                "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                "Choices only exist for string, integer and number options",
            )
        )
    for i, choice in enumerate(choices):
        problems += _check_choice(path + ("choices", i), choice)
    if choices and option.get("autocomplete"):
        problems.append(
            Problem(
                path + ("autocomplete",),
                "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES",
                "Autocomplete and choices are mutually exclusive",
            )
        )
    if option.get("autocomplete") and kind not in (STRING, INTEGER, NUMBER):
        problems.append(
            Problem(
                path + ("autocomplete",),
                "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                "Autocomplete only exists for string, integer and number options",
            )
        )
    for key in ("min_length", "max_length"):
        value = option.get(key)
        if value is not None and (kind != STRING or not 0 <= value <= 6000):
            problems.append(
                Problem(
                    path + (key,),
                    "NUMBER_TYPE_MAX",
                    f"{key} must be 0..6000 and only on string options",
                )
            )
    for key in ("min_value", "max_value"):
        if option.get(key) is not None and kind not in (INTEGER, NUMBER):
            problems.append(
                Problem(
                    path + (key,),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    f"{key} only exists for integer and number options",
                )
            )
    return problems


def check_command(index: int, command: dict[str, Any]) -> list[Problem]:
    path: tuple[str | int, ...] = (index,)
    kind = command.get("type", 1)
    if kind == 1:
        problems = _check_name(path, command.get("name")) + _check_description(
            path, command.get("description")
        )
        problems += _check_options(path, command.get("options") or [], 0)
        if _command_chars(command) > MAX_COMMAND_TOTAL_CHARS:
            problems.append(
                Problem(
                    path,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({MAX_COMMAND_TOTAL_CHARS})",
                )
            )
        return problems
    if kind in (2, 3):
        name = command.get("name")
        problems = []
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_COMMAND_NAME:
            problems.append(
                Problem(
                    path + ("name",),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_COMMAND_NAME} in length.",
                )
            )
        if command.get("description"):
            problems.append(
                Problem(
                    path + ("description",),
                    "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                    "Context menu commands cannot have a description",
                )
            )
        if command.get("options"):
            problems.append(
                Problem(
                    path + ("options",),
                    "APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS",
                    "Context menu commands cannot have options",
                )
            )
        return problems
    return [
        Problem(
            path + ("type",),
            "BASE_TYPE_CHOICES",
            f"Value must be one of (1, 2, 3, 4) (got {kind!r}).",
        )
    ]


def check_command_set(commands: list[dict[str, Any]]) -> list[Problem]:
    """Checks a bulk overwrite: each command, plus the per-application counts and name clashes."""
    problems: list[Problem] = []
    for i, command in enumerate(commands):
        problems += check_command(i, command)
    by_type: dict[int, list[str]] = {}
    for command in commands:
        by_type.setdefault(command.get("type", 1), []).append(command.get("name"))
    for kind, names in by_type.items():
        limit = MAX_GLOBAL_CHAT_COMMANDS if kind == 1 else MAX_CONTEXT_MENU_COMMANDS
        if len(names) > limit:
            problems.append(
                Problem(
                    (),
                    "APPLICATION_COMMANDS_TOO_MANY",
                    f"Maximum number of type-{kind} commands reached ({limit})",
                )
            )
        if len(set(names)) != len(names):
            problems.append(
                Problem(
                    (),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {sorted(names)}",
                )
            )
    return problems
