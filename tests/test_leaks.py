"""The tests' one leak check (tests/leaks.py): a secret is found as a word, never inside one."""

from __future__ import annotations

import pytest

from tests.leaks import REDACTED, redact, secret_pattern, shown_secrets, shows_secret


@pytest.mark.parametrize(
    "text",
    [
        "the word was ATE.",
        "Ate!",
        "**ate**",
        "psst… a-t-e",  # spelled out with breaks is still the word
        "line one\nate\nline three",
    ],
)
def test_a_three_letter_secret_that_really_leaks_is_caught(text: str) -> None:
    assert shows_secret(text, "ate")


@pytest.mark.parametrize(
    "text",
    [
        "logging in using static token",  # discord.py's own log line
        "static gateway",
        "the rack was ordered; a game was created",
        "date: late",
        "",
        None,
    ],
)
def test_a_three_letter_secret_inside_longer_words_is_not_a_leak(text: str | None) -> None:
    assert not shows_secret(text, "ate")


def test_secrets_are_read_as_the_henyo_referee_reads_a_guess() -> None:
    assert shows_secret("psst: MAPUA LIBRARY", "Mapúa Library")  # case and accents
    assert shows_secret("it is an icecream", "ice cream")  # spacing
    assert shows_secret("Ice-Cream!", "ice cream")  # punctuation
    assert shows_secret("un niño", "nino")
    assert not shows_secret("nice creamy", "ice cream")


def test_racks_and_tokens_are_found_however_they_are_spaced() -> None:
    assert shows_secret("rack: A E I N R S T", "AEINRST")
    assert shows_secret("your tiles AEINRST", "aeinrst")
    assert not shows_secret("AEINRSTX", "AEINRST")
    assert shows_secret("auth rel-ab12.Xy_z failed", "rel-ab12.Xy_z")


def test_several_secrets_at_once_even_when_one_holds_another() -> None:
    assert shown_secrets("ice cream time", ["cream", "ice cream", "cone"]) == ["cream", "ice cream"]


def test_secrets_too_short_to_tell_from_text_are_not_looked_for() -> None:
    assert secret_pattern(["ab", "?"]) is None
    assert not shows_secret("ab ab", "ab")


def test_a_redacted_line_never_shows_the_secret() -> None:
    pattern = secret_pattern(["ate", "Sampaguita"])
    assert pattern is not None
    line = redact("the words were ATE and sampaguita, in a static list", pattern)
    assert line == f"the words were {REDACTED} and {REDACTED} in a static list"
    assert not shown_secrets(line, ["ate", "Sampaguita"])


@pytest.mark.parametrize("secret", ["library", "clock", "Library"])
def test_the_bots_own_fixed_wording_does_not_show_a_secret_it_happens_to_hold(secret: str) -> None:
    # Printed whatever the word is: the Henyo round's announcement.
    text = "🎯 **Library Henyo — round 3**\nThe clock is running — go!"
    assert not shows_secret(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "🎯 **Library Henyo — round 3**\nThe secret word is: **library**",
        "The clock is running — go! (psst: library)",
        "Library",  # a phrase that is the secret alone is the secret
    ],
)
def test_the_secret_beside_the_fixed_wording_still_shows(text: str) -> None:
    assert shows_secret(text, "library")
