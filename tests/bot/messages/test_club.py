"""The club's words: /club setup's summary and time-zone answers, /club export's note."""

from __future__ import annotations

from bot.messages.club import export_note, settings_summary, unknown_timezone


def test_the_settings_summary_shows_the_role_and_channel_as_mentions_or_not_set() -> None:
    assert settings_summary(None, "UTC", None) == (
        "**Club settings**\nModerator role: not set (Manage Server only)\n"
        "Time zone: `UTC`\nGames channel: not set\nLanguage: English\n"
        "Open challenges mention: nobody"
    )
    assert settings_summary(5, "Asia/Manila", 7).splitlines()[1:] == [
        "Moderator role: <@&5>",
        "Time zone: `Asia/Manila`",
        "Games channel: <#7>",
        "Language: English",
        "Open challenges mention: nobody",
    ]


def test_an_unknown_zone_names_the_likely_ones_and_echoes_only_safe_text() -> None:
    assert unknown_timezone("Asia/Manilla", ["Asia/Manila"], abbreviation=False) == (
        "I don't know the time zone `Asia/Manilla`. Did you mean `Asia/Manila`? "
        "(Pick one from the list as you type.)"
    )
    assert unknown_timezone("pst", ["A", "B", "C"], abbreviation=True).startswith(
        "`pst` is an abbreviation; the bot needs the zone of a place. Did you mean `A`, `B` or `C`?"
    )
    assert unknown_timezone(None, [], abbreviation=False).startswith(
        "I don't know that time zone. Zones are written Region/City"
    )


def test_the_export_note_counts_what_the_archive_holds() -> None:
    assert export_note({"results": 4, "ratings": 2, "games": 1}) == (
        "The club's data: 4 results, 2 standings, 1 finished games (GCG and PGN)."
    )
