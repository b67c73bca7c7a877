from __future__ import annotations

import discord
from discord import app_commands

from bot.command_limits import count_commands, validate_commands


def _cmd(name="play", description="Play a word", options=None):
    return {"name": name, "description": description, "type": 1, "options": options or []}


def _opt(name, required=False, choices=None, type_=3, **extra):
    return {
        "name": name,
        "description": f"The {name}",
        "type": type_,
        "required": required,
        "choices": choices or [],
        **extra,
    }


def test_a_valid_tree_has_no_problems() -> None:
    tree = [_cmd(options=[_opt("word", True), _opt("position", True), _opt("direction")])]
    assert validate_commands(tree) == []


def test_names_descriptions_and_counts_are_checked() -> None:
    problems = validate_commands(
        [
            _cmd(name="Play Word"),
            _cmd(name="x", description=""),
            _cmd(name="y", description="d" * 101),
            _cmd(name="many", options=[_opt(f"o{i}") for i in range(26)]),
            _cmd(
                name="choices",
                options=[_opt("c", choices=[{"name": str(i), "value": i} for i in range(26)])],
            ),
        ]
    )
    text = "\n".join(problems)
    assert "'Play Word' must match" in text
    assert "/x: description must be 1-100" in text
    assert "/y: description must be 1-100 characters (has 101)" in text
    assert "26 options" in text
    assert "26 choices" in text


def test_a_command_over_discord_s_total_size_is_reported() -> None:
    long = "d" * 100
    options = [{**_opt(f"o{i}"), "description": long} for i in range(20)]
    sub = [{**_cmd(name=f"s{i}", options=options), "type": 1} for i in range(2)]
    problems = validate_commands([_cmd(name="big", options=sub)])
    assert any("/big:" in p and "Discord allows 4000" in p for p in problems), problems
    assert validate_commands([_cmd(name="small", options=sub[:1])]) == []


def test_the_bot_s_commands_fit_discord_s_total_size(command_tree) -> None:
    assert [p for p in validate_commands(list(command_tree.values())) if "allows 4000" in p] == []


def test_required_options_must_come_first() -> None:
    problems = validate_commands([_cmd(options=[_opt("direction"), _opt("word", True)])])
    assert problems == ["/play word: required options must come before optional ones"]


def test_more_than_100_top_level_commands_is_reported() -> None:
    problems = validate_commands([_cmd(name=f"c{i}") for i in range(101)])
    assert any("101 top-level" in p for p in problems)


def test_the_validator_reads_discord_py_trees() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    group = app_commands.Group(name="scrabble", description="Scrabble")

    @group.command(name="play", description="Play a word")
    async def play(interaction: discord.Interaction, word: str, position: str) -> None: ...

    @group.command(name="pass", description="Pass")
    async def pass_(interaction: discord.Interaction) -> None: ...

    tree.add_command(group)
    payloads = [c.to_dict(tree) for c in tree.get_commands()]
    assert validate_commands(payloads) == []
    assert count_commands(payloads) == 2
