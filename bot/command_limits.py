"""Check a slash-command tree against Discord's limits before Discord does."""

from __future__ import annotations

import re
from typing import Any

from bot.messages.limits import (
    CHOICE_NAME_CHARS,
    CHOICES,
    COMMAND_DESCRIPTION_CHARS,
    COMMAND_OPTIONS,
    COMMAND_TOTAL_CHARS,
    TOP_LEVEL_COMMANDS,
)

NAME_RE = re.compile(r"^[-_a-z0-9]{1,32}$")
MAX_TOP_LEVEL = TOP_LEVEL_COMMANDS
MAX_OPTIONS = COMMAND_OPTIONS
MAX_CHOICES = CHOICES
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2


def validate_commands(payloads: list[dict[str, Any]]) -> list[str]:
    """Problems found in the JSON Discord would receive; empty when all is well."""
    problems: list[str] = []
    chat = [p for p in payloads if p.get("type", 1) == 1]
    if len(chat) > MAX_TOP_LEVEL:
        problems.append(f"{len(chat)} top-level slash commands (Discord allows {MAX_TOP_LEVEL})")
    seen: set[str] = set()
    for payload in chat:
        if payload["name"] in seen:
            problems.append(f"/{payload['name']} is defined twice")
        seen.add(payload["name"])
        _check(payload, f"/{payload['name']}", problems, top=True)
        size = command_chars(payload)
        if size > COMMAND_TOTAL_CHARS:
            problems.append(
                f"/{payload['name']}: {size} characters of names, descriptions and choices "
                f"(Discord allows {COMMAND_TOTAL_CHARS} per top-level command)"
            )
    return problems


def command_chars(node: dict[str, Any]) -> int:
    """What Discord counts toward a command's size: every name, description and choice."""
    total = len(node.get("name") or "") + len(node.get("description") or "")
    for choice in node.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total + sum(command_chars(option) for option in node.get("options") or [])


def _check(node: dict[str, Any], path: str, problems: list[str], top: bool = False) -> None:
    name = node.get("name", "")
    if not NAME_RE.match(name):
        problems.append(f"{path}: name {name!r} must match {NAME_RE.pattern}")
    desc = node.get("description", "")
    if not 1 <= len(desc) <= COMMAND_DESCRIPTION_CHARS:
        problems.append(
            f"{path}: description must be 1-{COMMAND_DESCRIPTION_CHARS} characters (has {len(desc)})"
        )
    options = node.get("options") or []
    if len(options) > MAX_OPTIONS:
        problems.append(f"{path}: {len(options)} options (at most {MAX_OPTIONS})")
    seen_optional = False
    names: set[str] = set()
    for opt in options:
        opt_path = f"{path} {opt.get('name')}"
        if opt.get("name") in names:
            problems.append(f"{opt_path}: duplicate option name")
        names.add(opt.get("name", ""))
        if opt.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP):
            _check(opt, opt_path, problems)
            continue
        _check(opt, opt_path, problems)
        if opt.get("required"):
            if seen_optional:
                problems.append(f"{opt_path}: required options must come before optional ones")
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(f"{opt_path}: {len(choices)} choices (at most {MAX_CHOICES})")
        for choice in choices:
            if not 1 <= len(str(choice.get("name", ""))) <= CHOICE_NAME_CHARS:
                problems.append(f"{opt_path}: choice name must be 1-{CHOICE_NAME_CHARS} characters")
        if choices and opt.get("autocomplete"):
            problems.append(f"{opt_path}: an option can't have both choices and autocomplete")


def count_commands(payloads: list[dict[str, Any]]) -> int:
    """Every invocable command (leaf subcommands count one each)."""

    def leaves(node: dict[str, Any]) -> int:
        subs = [
            o for o in node.get("options") or [] if o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP)
        ]
        return sum(leaves(s) for s in subs) if subs else 1

    return sum(leaves(p) for p in payloads)
