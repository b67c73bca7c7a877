"""The word tools through their service on a real database: anagrams, hooks and
patterns on a small word list, the answers' order and limits, refusals of text that
can't be read, another list by name, and the lookups rule of Scrabble games."""

from __future__ import annotations

import random

import pytest

from bot.errors import InvalidInputError
from bot.messages import words as msg
from bot.messages.i18n import use_language
from bot.services.scrabble import LexiconCache, ScrabbleService
from bot.services.word_tools import WordTools
from engines.lexicon import Lexicon
from tests.bot.services.scrabble_support import ALICE, BOB, ERIN, GUILD, request, started

SMALL = Lexicon.from_words(
    ["at", "ta", "ate", "eat", "tea", "eta", "rate", "tear", "tare", "stare", "tears", "aster"]
    + ["rates", "treats", "care", "scare", "cares", "cared", "carer", "qi", "qis", "zax"],
    name="small",
)


@pytest.fixture
def tools(ctx) -> WordTools:
    service = ScrabbleService(
        ctx,
        rng=random.Random(5),
        lexicons=LexiconCache(lambda name: SMALL),
        definitions=lambda: None,
    )
    return WordTools(service)


async def test_anagrams_come_longest_first_with_blanks_in_lower_case(tools):
    text = await tools.anagram(guild_id=GUILD, user_id=ERIN.user_id, letters="stare")
    lines = text.splitlines()
    assert lines[0] == ("**Anagrams of `STARE`** in `default`: 13 words, the longest first.")
    assert lines[1] == "**5 letters** (4): ASTER, RATES, STARE, TEARS"
    assert lines[2] == "**4 letters** (3): RATE, TARE, TEAR"
    assert lines[-1] == "**2 letters** (2): AT, TA"
    text = await tools.anagram(
        guild_id=GUILD, user_id=ERIN.user_id, letters="care?", full_only=True
    )
    assert "using every letter" in text and "A blank's letter is in lower case." in text
    assert "**5 letters** (4): CAREd, CAREr, CAREs, sCARE" in text
    text = await tools.anagram(guild_id=GUILD, user_id=ERIN.user_id, letters="QZX", full_only=True)
    assert text == (
        "No word in `default` uses all of `QZX`: leave out `all_letters` to see the shorter words."
    )


async def test_a_long_answer_lists_what_fits_and_says_how_many_were_left_out(tools, monkeypatch):
    monkeypatch.setattr(msg, "_LISTED_CHARS", 60)
    text = await tools.anagram(guild_id=GUILD, user_id=ERIN.user_id, letters="stare")
    assert "**5 letters** (4): ASTER, RATES, STARE, TEARS" in text
    assert "…and 9 more words not listed." in text
    assert "`all_letters:True` lists only the words that use every letter." in text


async def test_hooks_say_whether_the_word_is_valid_and_show_its_hooks(tools):
    text = await tools.hooks(guild_id=GUILD, user_id=ERIN.user_id, word="care")
    assert text.splitlines() == [
        "**Hooks of CARE** in `default`:",
        "✅ CARE is a word.",
        "Front hooks: **S**CARE",
        "Back hooks: CARE**D**, CARE**R**, CARE**S**",
    ]
    text = await tools.hooks(guild_id=GUILD, user_id=ERIN.user_id, word="ARE")
    assert "❌ ARE is not in the list." in text and "No back hooks." in text


async def test_patterns_match_one_letter_and_any_run(tools):
    text = await tools.pattern(guild_id=GUILD, user_id=ERIN.user_id, pattern="?a?e")
    assert text.splitlines() == [
        "**Words matching `?A?E`** in `default`: 3 words, the longest first.",
        "**4 letters** (3): CARE, RATE, TARE",
    ]
    text = await tools.pattern(guild_id=GUILD, user_id=ERIN.user_id, pattern="*s")
    assert "**6 letters** (1): TREATS" in text and "**3 letters** (1): QIS" in text
    text = await tools.pattern(guild_id=GUILD, user_id=ERIN.user_id, pattern="x*")
    assert text == "No word in `default` matches `X*`."


async def test_the_answers_speak_filipino_for_a_filipino_club(tools):
    with use_language("fil"):
        text = await tools.hooks(guild_id=GUILD, user_id=ERIN.user_id, word="care")
    assert "Mga hook sa unahan: **S**CARE" in text


@pytest.mark.parametrize(
    ("tool", "text", "says"),
    [
        ("anagram", "AB3", "Letters are A to Z, with `?` for a blank: `AB3` has others."),
        ("anagram", "AB???", "At most 2 blanks"),
        ("anagram", "ABCDEFGHIJKLMNOP", "At most 15 letters"),
        ("hooks", "e-mail", "A word is letters A to Z: `E-MAIL` has others."),
        ("pattern", "  ", "Give a pattern"),
        ("pattern", "**", "`*` alone is every word"),
        ("pattern", "<@123>", "A pattern is letters A to Z"),
    ],
)
async def test_text_that_can_t_be_read_is_refused_and_nothing_is_searched(tools, tool, text, says):
    field = {"anagram": "letters", "hooks": "word", "pattern": "pattern"}[tool]
    with pytest.raises(InvalidInputError) as refused:
        await getattr(tools, tool)(guild_id=GUILD, user_id=ERIN.user_id, **{field: text})
    assert says in refused.value.message
    assert refused.value.text is not None  # its template, for the club's language


async def test_another_list_is_one_the_club_knows_and_never_a_path(tools):
    text = await tools.pattern(
        guild_id=GUILD, user_id=ERIN.user_id, pattern="Q*", word_list="default"
    )
    assert "QIS, QI" in text or "QIS" in text
    with pytest.raises(InvalidInputError, match="know that word list"):
        await tools.pattern(
            guild_id=GUILD, user_id=ERIN.user_id, pattern="Q*", word_list="/etc/passwd"
        )


async def test_players_of_a_running_game_with_lookups_off_are_refused_every_tool(tools, ctx):
    game_id = await started(tools.scrabble, request(BOB, lookups=False))
    async with ctx.uow() as uow:
        number = (await uow.games.get(game_id)).number
    for member in (ALICE, BOB):
        for call in (
            tools.anagram(guild_id=GUILD, user_id=member.user_id, letters="AEINRST"),
            tools.hooks(guild_id=GUILD, user_id=member.user_id, word="CARE"),
            tools.pattern(guild_id=GUILD, user_id=member.user_id, pattern="?A?E"),
            tools.check(guild_id=GUILD, user_id=member.user_id, text="QI"),
        ):
            with pytest.raises(InvalidInputError, match=f"off in Scrabble #{number}"):
                await call
    # A member not seated there may; and the players may once it is over.
    assert "CARE" in await tools.pattern(guild_id=GUILD, user_id=ERIN.user_id, pattern="?A?E")
    await tools.scrabble.moves.resign(game_id, BOB.user_id)
    assert "CARE" in await tools.pattern(guild_id=GUILD, user_id=ALICE.user_id, pattern="?A?E")
    assert "✅ **QI**" in await tools.check(guild_id=GUILD, user_id=ALICE.user_id, text="QI")
