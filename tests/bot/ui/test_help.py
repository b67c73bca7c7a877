"""/help against the real command tree: every command it names exists, with
the options it shows, and every command group is mentioned."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.messages.i18n import _, available_languages, use_language
from bot.ui.help import HELP_SECTIONS, PAGE_KEYS, help_embed, page_of

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
CODE = re.compile(r"`([^`]+)`")
OPTION = re.compile(r"^([a-z0-9_-]+)(?::\S*)?$")


def _find(tree: dict[str, dict[str, Any]], words: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The command a mention names, and the words after its name (its options)."""
    node = tree.get(words[0])
    assert node is not None, f"/{words[0]} is not a command"
    rest = words[1:]
    while True:
        children = {
            o["name"]: o
            for o in node.get("options", [])
            if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
        }
        if not children:
            return node, rest
        assert rest and rest[0] in children, (
            f"/{' '.join(words)}: {node['name']} has {sorted(children)}, not {rest[:1]}"
        )
        node, rest = children[rest[0]], rest[1:]


def _mentions(text: str) -> list[tuple[str, list[str]]]:
    """(command words, option words) for each `code` span: `/cmd sub opt:value word`,
    or `opt:value` alone, which belongs to the command named last."""
    found: list[tuple[str, list[str]]] = []
    for span in CODE.findall(text):
        if span.startswith("/"):
            found.append((span, span[1:].split()))
        elif ":" in span and found:
            found.append((f"{found[-1][0]} … {span}", [*found[-1][1], *span.split()]))
    return found


def _help_text() -> str:
    return "\n".join(text for _, text in HELP_SECTIONS)


def test_every_command_named_in_help_exists_with_those_options(
    command_tree: dict[str, dict[str, Any]],
) -> None:
    mentions = _mentions(_help_text())
    assert len(mentions) > 10  # the parser found the commands
    for shown, words in mentions:
        command, rest = _find(command_tree, words)
        options = {o["name"] for o in command.get("options", [])}
        in_value = False  # a value may hold spaces: `words:QI ZA` is one option
        for word in rest:
            match = OPTION.match(word)
            if in_value and ":" not in word and word not in options:
                continue
            in_value = ":" in word
            assert match and match[1] in options, (
                f"{shown}: /{' '.join(words)} has no option {word!r} (it has {sorted(options)})"
            )


def test_help_mentions_every_command_group(command_tree: dict[str, dict[str, Any]]) -> None:
    named = {words[0] for _, words in _mentions(_help_text())}
    assert set(command_tree) - {"help"} <= named, (
        f"/help says nothing of {sorted(set(command_tree) - named - {'help'})}"
    )


def test_the_walker_catches_a_wrong_command_or_option(
    command_tree: dict[str, dict[str, Any]],
) -> None:
    with pytest.raises(AssertionError):
        _find(command_tree, ["henyo", "events", "open"])
    command, rest = _find(command_tree, ["chess", "new", "opponent:@member", "clock:3d"])
    assert rest == ["opponent:@member", "clock:3d"] and "clock" not in {
        o["name"] for o in command["options"]
    }


@pytest.mark.parametrize("language", sorted(available_languages()))
def test_each_help_page_fits_discord_s_limits_in_every_language(language: str) -> None:
    shown: list[str] = []
    with use_language(language):
        for page in PAGE_KEYS:
            embed = help_embed(page)
            assert len(embed) <= 6000, f"/help's {page} page: {len(embed)} characters"
            assert all(
                len(field.value or "") <= 1024 and len(field.name or "") <= 256
                for field in embed.fields
            )
            assert embed.fields, f"/help's {page} page is empty"
            shown.append(" ".join(field.value or "" for field in embed.fields))
        sections = [(page_of(name), _(text)) for name, text in HELP_SECTIONS]
    # Every section is on its page, whole (a long one goes on in a second field).
    for page, section in sections:
        text = shown[PAGE_KEYS.index(page)]
        assert " ".join(section.split()) in " ".join(text.split())


def test_every_page_a_section_names_is_a_page() -> None:
    assert {page_of(name) for name, _text in HELP_SECTIONS} == set(PAGE_KEYS)
