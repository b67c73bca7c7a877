"""Puzzles in the club's language: the position, its buttons and form, a refused play
(the engine's own reason), a solve, the solution and /stats in Filipino, and nothing of
them escaping the catalogue (the pseudo-locale)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.messages import catalogue, i18n
from engines.scrabble.board import typed_notation
from tests.e2e.languages import PSEUDO, english_leaks, install_pseudo, labels, speak
from tests.e2e.test_puzzles import finished_game, puzzles_stored
from tests.e2e.test_scrabble import reply_text


@pytest.fixture
def pseudo() -> Iterator[None]:
    install_pseudo()
    yield
    i18n.uninstall(PSEUDO)


async def solve_and_miss(club: Any, code: str) -> dict[str, Any]:
    """What carol and dave see of a puzzle each: carol a refused play then the best one,
    dave the solution asked for; and carol's /stats."""
    await club.start()
    await finished_game(club)  # (the game's own words are its tests' business)
    await speak(club, code)
    dc = club.dc
    carol, dave = club.members["carol"], club.members["dave"]
    seen: dict[str, Any] = {}
    ix = await dc.slash(carol, club.channel, "puzzle")
    await ix.wait_done()
    seen["puzzle"] = shown = ix.followups[-1] if ix.followups else ix.answer
    answer_id = next(c for c in shown.custom_ids if c.startswith("puzzle:answer:"))
    puzzle = next(p for p in puzzles_stored(club) if p["id"] == int(answer_id.split(":")[2]))
    opened = await dc.click(carol, shown, answer_id)
    seen["form"] = opened.response.modal
    refused = await dc.submit_modal(carol, opened, {"puzzle:word": "zzzz", "puzzle:position": "8H"})
    seen["refused"] = await reply_text(refused)
    position, _word, spelled, _score = puzzle["top"][0]
    opened = await dc.click(carol, shown, answer_id)
    solved = await dc.submit_modal(
        carol, opened, {"puzzle:word": typed_notation(spelled), "puzzle:position": position}
    )
    seen["solved"] = await reply_text(solved)
    seen["words"] = [p[2] for p in puzzle["top"]] + [puzzle["played"], puzzle["who"]]
    ix = await dc.slash(dave, club.channel, "puzzle")
    await ix.wait_done()
    theirs = ix.followups[-1] if ix.followups else ix.answer
    given_up = await dc.click(
        dave, theirs, next(c for c in theirs.custom_ids if c.startswith("puzzle:solution:"))
    )
    seen["given_up"] = await reply_text(given_up)
    seen["words"] += [p[2] for p in puzzle_of(club, theirs)["top"]]
    seen["words"] += [puzzle_of(club, theirs)["played"], puzzle_of(club, theirs)["who"]]
    ix = await dc.slash(carol, club.channel, "stats")
    await ix.wait_done()
    seen["stats"] = (ix.followups[-1] if ix.followups else ix.answer).embeds[0]
    return seen


def puzzle_of(club: Any, shown: Any) -> dict[str, Any]:
    answer_id = next(c for c in shown.custom_ids if c.startswith("puzzle:answer:"))
    return next(p for p in puzzles_stored(club) if p["id"] == int(answer_id.split(":")[2]))


async def test_a_filipino_club_solves_puzzles_in_filipino(club: Any) -> None:
    seen = await solve_and_miss(club, "fil")
    assert seen["puzzle"].content.startswith("**Puzzle ") and " mula sa Scrabble #" in (
        seen["puzzle"].content
    )
    assert labels(seen["puzzle"].components) == ["Sagot", "Ipakita ang sagot"]
    assert seen["form"]["title"] == "Ang sagot mo"
    assert seen["refused"].startswith("Hindi puwede ang tirang iyan:")
    assert "2 na subok pa" in seen["refused"] or "2 subok pa" in seen["refused"]
    assert (
        seen["solved"].startswith("✅ Lutas!")
        and "**Mga pinakamagandang tira:**" in (seen["solved"])
    )
    assert seen["given_up"].startswith("Hiningi mo ang sagot.")
    fields = {f["name"]: f["value"] for f in seen["stats"]["fields"]}
    assert "nalutas" in fields["Mga puzzle"]
    texts = [seen[k] for k in ("refused", "solved", "given_up")] + [seen["puzzle"].content]
    runs = english_leaks(club.dc, "fil")
    assert [leak for leak in runs if any(text in leak for text in texts)] == []


async def test_in_the_pseudo_locale_nothing_of_puzzles_escapes_the_catalogue(
    club: Any, pseudo: None
) -> None:
    seen = await solve_and_miss(club, PSEUDO)
    allowed = [*club.members, *seen["words"]]
    texts = [
        seen["puzzle"].content,
        *labels(seen["puzzle"].components),
        seen["form"]["title"],
        seen["refused"],
        seen["solved"],
        seen["given_up"],
        *(f["name"] + " " + f["value"] for f in seen["stats"]["fields"] if "uzzle" in f["name"]),
    ]
    left = [_outside(text, allowed) for text in texts]
    assert [text for text in left if re.search(r"[^\W\d_]", text)] == []


def _outside(text: str, allowed: list[str]) -> str:
    """What of ``text`` is outside the pseudo-locale's brackets, names and notation aside."""
    left = catalogue.undecorated(text)
    for word in sorted(allowed, key=len, reverse=True):
        left = re.sub(re.escape(word), " ", left, flags=re.IGNORECASE)
    # A square (8H, H8) or a rack's and a play's letters in code spans are notation.
    return re.sub(r"\b[A-O]?\d{1,2}[A-O]?\b|`[^`]*`", " ", left)
