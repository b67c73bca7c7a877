"""A member's Scrabble board page (issue #28) through aiohttp's test client, on the real
services and database: the state shows the member's own rack and never another
seat's (partners of a pair both see theirs), the preview is the engine's words and
score and changes nothing, plays put down tile by tile are the slash command's play
(through the tiles already on the board, where typing a part of the word would be
refused), exchange, pass, challenge and resign are the commands' own, a change
made on a board that has changed since is refused with nothing changed, and a
Filipino club's page refuses in Filipino."""

from __future__ import annotations

import json

from bot.messages import i18n
from bot.services.club import ClubService
from engines.text import as_sentence
from tests.bot.services.scrabble_support import BOB, CAROL, DAVE, GUILD, engine_of
from tests.bot.web import scrabble_pages
from tests.bot.web.scrabble_pages import Scrabble, tiles, unlimited

web_ctx = scrabble_pages.web_ctx  # fixtures, found by their names in this module
scrabble_web = scrabble_pages.scrabble_web

MOVER_RACK, OTHER_RACK = "CATERSX", "ZEBRAQU"


async def _dealt(scrabble: Scrabble) -> tuple[int, int, int]:
    """A game whose mover holds MOVER_RACK and the other seat OTHER_RACK; its id, the
    mover's member and the other seat's."""
    unlimited(scrabble)
    game_id = await scrabble.new_game()
    seat, mover = await scrabble.mover(game_id)
    other_seat = 1 - seat
    await scrabble.set_racks(game_id, {seat: MOVER_RACK, other_seat: OTHER_RACK})
    return game_id, mover, await scrabble.member(game_id, other_seat)


async def test_the_state_shows_the_board_and_the_members_own_rack_and_never_the_other_seats(
    scrabble_web: Scrabble,
) -> None:
    game_id, mover, other = await _dealt(scrabble_web)
    mine = await (await scrabble_web.open(mover, game_id)).state()
    assert mine["rack"] == MOVER_RACK and mine["my_turn"] and mine["status"] == "active"
    assert mine["board"] == ["." * 15] * 15 and mine["last"] == []
    assert mine["premiums"][7][7] == "D" and mine["premiums"][0][0] == "T"
    assert mine["premiums"][5][1] == "t" and mine["premiums"][0][3] == "d"
    assert mine["bag"] == 86 and len(mine["unseen"]) == 93
    engine = await engine_of(scrabble_web.ctx, game_id)
    assert mine["unseen"] == "".join(sorted(engine.unseen_tiles(engine.current_seat)))
    assert mine["can"] == {
        "play": True,
        "exchange": True,
        "pass": True,
        "challenge": False,
        "accept": False,
        "resign": True,
    }
    assert mine["status_text"] == "Your turn." and mine["last_text"] == "No tiles on the board yet."
    assert [s["score"] for s in mine["seats"]] == [0, 0]
    assert mine["points"]["1"] == "1 point" and mine["points"]["10"] == "10 points"
    text = json.dumps(mine)
    assert OTHER_RACK not in text and "racks" not in text

    theirs = await (await scrabble_web.open(other, game_id)).state()
    assert theirs["rack"] == OTHER_RACK and not theirs["my_turn"]
    assert not theirs["can"]["play"] and not theirs["can"]["exchange"] and theirs["can"]["resign"]
    mover_name = next(s["name"] for s in theirs["seats"] if s["to_play"])
    assert theirs["status_text"] == f"{mover_name} to play."
    assert MOVER_RACK not in json.dumps(theirs)
    assert theirs["version"] == mine["version"]


async def test_partners_of_a_pair_both_see_their_pairs_rack_and_the_other_pair_does_not(
    scrabble_web: Scrabble,
) -> None:
    game_id = await scrabble_web.new_game(BOB, partner=CAROL, opponent_partner=DAVE)
    engine = await engine_of(scrabble_web.ctx, game_id)
    async with scrabble_web.ctx.reader() as uow:
        seats = {row.user_id: row.seat for row in (await uow.games.get(game_id)).seats}
    for user, seat in seats.items():
        state = await (await scrabble_web.open(user, game_id)).state()
        assert state["rack"] == engine.racks[seat] and state["seat"] == seat
        assert engine.racks[1 - seat] not in json.dumps(state)


async def test_a_preview_is_the_engines_words_and_score_and_changes_nothing(
    scrabble_web: Scrabble,
) -> None:
    game_id, mover, _ = await _dealt(scrabble_web)
    page = await scrabble_web.open(mover, game_id)
    before = await scrabble_web.row(game_id)
    status, answer = await page.post(
        "preview", {"tiles": tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))}
    )
    assert status == 200 and answer["legal"], answer
    assert answer["words"] == [{"word": "CAT", "score": 10}] and answer["score"] == 10
    assert answer["position"] == "8H" and answer["text"] == "CAT 10: 10 points."
    assert answer["version"] == before.version
    # A blank as E: no points for it; the rack's one blank is asked for, not an E.
    await scrabble_web.set_racks(game_id, {(await scrabble_web.mover(game_id))[0]: "CAT?RSX"})
    status, answer = await page.post(
        "preview", {"tiles": tiles((6, 7, "C"), (7, 7, "A"), (8, 7, "T"), (9, 7, "E", True))}
    )
    assert answer["legal"] and answer["words"] == [{"word": "CATE", "score": 10}], answer
    refusals = {
        "the first play must cover the centre square H8": tiles((0, 0, "C"), (0, 1, "A")),
        "there is a gap at J8": tiles((7, 7, "C"), (7, 8, "A"), (7, 10, "T")),
        "words must be in one row or column": tiles((7, 7, "C"), (8, 8, "A")),
    }
    for english, body in refusals.items():
        status, answer = await page.post("preview", {"tiles": body})
        assert status == 200 and answer == {
            "ok": True,
            "legal": False,
            "code": answer["code"],
            "message": as_sentence(english),
            "version": answer["version"],
        }, answer
    status, answer = await page.post("preview", {"tiles": tiles((7, 7, "Q"), (7, 8, "I"))})
    assert not answer["legal"] and "Q" in answer["message"], answer  # not on the rack
    after = await scrabble_web.row(game_id)
    assert (after.moves, after.status) == (before.moves, before.status)


async def test_a_play_from_the_page_is_the_slash_commands_and_scores_what_its_preview_said(
    scrabble_web: Scrabble,
) -> None:
    game_id, mover, other = await _dealt(scrabble_web)
    page = await scrabble_web.open(mover, game_id)
    placed = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))
    preview = (await page.post("preview", {"tiles": placed}))[1]
    before = await scrabble_web.row(game_id)
    answer = await page.change("play", tiles=placed)
    assert answer["message"].startswith(f"You played CAT at 8H for {preview['score']}.")
    state = answer["state"]
    assert state["board"][7][7:10] == "CAT" and state["last"] == ["H8", "I8", "J8"]
    assert state["version"] == before.version + 1 and not state["my_turn"]
    assert len(state["rack"]) == 7 and state["rack"].startswith("ERSX")
    assert state["last_text"].startswith("Last play: ") and "CAT at 8H for 10" in state["last_text"]
    row = await scrabble_web.row(game_id)
    assert (row.version, row.moves) == (before.version + 1, 1)
    async with scrabble_web.ctx.reader() as uow:
        moves = [(m.notation, m.score, m.user_id) for m in await uow.moves.for_game(game_id)]
    assert moves == [("8H CAT", 10, mover)]
    assert "played **CAT** at 8H for 10" in (await scrabble_web.thread_posts())[-1]

    # Bob puts B before CAT and E after it: the whole word BCATE, read off the board
    # (typed as "B" or "BE" in the slash command it would be refused as a run-on).
    theirs = await scrabble_web.open(other, game_id)
    placed = tiles((7, 6, "B"), (7, 10, "E"))
    preview = (await theirs.post("preview", {"tiles": placed}))[1]
    assert preview["words"] == [{"word": "BCATE", "score": 9}] and preview["position"] == "8G"
    answer = await theirs.change("play", tiles=placed)
    assert answer["message"].startswith("You played BCATE at 8G for 9.")
    assert "played **BCATE** at 8G for 9" in (await scrabble_web.thread_posts())[-1]
    async with scrabble_web.ctx.reader() as uow:  # GCG's notation: "." a tile played through
        notations = [m.notation for m in await uow.moves.for_game(game_id)]
    assert notations == ["8H CAT", "8G B...E"]


async def test_a_change_on_a_board_that_changed_since_is_refused_and_nothing_changes(
    scrabble_web: Scrabble,
) -> None:
    game_id, mover, _ = await _dealt(scrabble_web)
    page = await scrabble_web.open(mover, game_id)
    seen = (await page.state())["version"]
    # Meanwhile the mover passes in Discord (the cog calls the same service).
    await scrabble_web.service.moves.pass_turn(game_id, mover)
    before = await scrabble_web.row(game_id)
    posts = await scrabble_web.thread_posts()
    assert before.version == seen + 1
    for action, body in (
        ("play", {"tiles": tiles((7, 7, "C"), (7, 8, "A"))}),
        ("exchange", {"tiles": "X"}),
        ("pass", {}),
        ("challenge", {}),
        ("resign", {}),
    ):
        status, answer = await page.post(action, {**body, "version": seen})
        assert status == 409 and answer == {
            "ok": False,
            "code": "stale_board",
            "message": "The board changed: look again.",
        }, (action, answer)
    assert await scrabble_web.row(game_id) == before
    assert await scrabble_web.thread_posts() == posts


async def test_exchange_pass_challenge_and_resign_from_the_page_are_the_commands_own(
    scrabble_web: Scrabble,
) -> None:
    game_id, mover, other = await _dealt(scrabble_web)
    mine, theirs = await scrabble_web.open(mover, game_id), await scrabble_web.open(other, game_id)
    answer = await mine.change("exchange", tiles="XS")
    assert answer["message"].startswith("You exchanged 2 tiles and drew ")
    assert sorted(answer["state"]["rack"]) != sorted(MOVER_RACK)
    assert (await scrabble_web.row(game_id)).engine["moves"][-1]["type"] == "exchange"
    answer = await theirs.change("pass")
    assert answer["message"] == "You passed." and not answer["state"]["my_turn"]

    # A phony played, challenged off from the other page.
    scrabble_web.words.phonies.add("CAT")
    rack = (await mine.state())["rack"]
    await scrabble_web.set_racks(
        game_id, {(await scrabble_web.mover(game_id))[0]: "CAT" + rack[3:]}
    )
    await mine.change("play", tiles=tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T")))
    state = await theirs.state()
    assert state["can"]["challenge"] and not (await mine.state())["can"]["challenge"]
    answer = await theirs.change("challenge")
    assert answer["message"] == "Your challenge succeeded: CAT is not in the word list."
    assert answer["state"]["board"][7] == "." * 15
    assert "challenged off" in (await mine.state())["last_text"]

    answer = await theirs.change("resign")
    assert answer["finished"] and answer["message"] == "You resigned from the game."
    assert answer["state"]["status"] == "finished" and not any(answer["state"]["can"].values())
    assert answer["state"]["status_text"] == "The game is over."
    assert (await scrabble_web.row(game_id)).status == "finished"
    # A game over: its pages show the end, read-only, and every change is refused.
    final = await mine.state()
    assert final["status"] == "finished" and not any(final["can"].values())
    assert final["result_text"] == answer["state"]["result_text"] != ""
    assert [seat["score"] for seat in final["seats"]] == [
        seat["score"] for seat in answer["state"]["seats"]
    ]
    before = await scrabble_web.row(game_id)
    response = await scrabble_web.client.post(
        f"{mine.path}/pass",
        json={"version": final["version"]},
        cookies=mine.cookies,
        headers={"X-CSRF-Token": mine.csrf},
    )
    assert response.status == 409
    assert (await scrabble_web.row(game_id)).version == before.version


async def test_bad_requests_and_moves_out_of_turn_are_refused_and_change_nothing(
    scrabble_web: Scrabble,
) -> None:
    game_id, mover, other = await _dealt(scrabble_web)
    page = await scrabble_web.open(mover, game_id)
    version = (await page.state())["version"]
    before = await scrabble_web.row(game_id)
    good = tiles((7, 7, "C"), (7, 8, "A"))
    for action, body in (
        ("play", {"tiles": good}),  # no version
        ("play", {"tiles": good, "version": str(version)}),
        ("play", {"tiles": "CA", "version": version}),
        ("play", {"tiles": [], "version": version}),
        ("play", {"tiles": tiles((15, 0, "C"), (7, 8, "A")), "version": version}),
        ("play", {"tiles": tiles((7, 7, "1"), (7, 8, "A")), "version": version}),
        ("play", {"tiles": tiles((7, 7, "CA")), "version": version}),
        (
            "play",
            {"tiles": [{"row": 7, "col": 7, "letter": "C", "blank": "no"}], "version": version},
        ),
        ("play", {"tiles": tiles(*[(7, c, "A") for c in range(10)]), "version": version}),
        ("exchange", {"tiles": 3, "version": version}),
        ("exchange", {"tiles": "Q", "version": version}),  # not on the rack
        ("play", {"tiles": tiles((7, 7, "Z"), (7, 8, "A")), "version": version}),
        ("challenge", {"version": version}),  # nothing to challenge
    ):
        status, answer = await page.post(action, body)
        assert status == 409 and not answer["ok"] and answer["message"], (body, answer)
    theirs = await scrabble_web.open(other, game_id)
    status, answer = await theirs.post("pass", {"version": version})
    assert status == 409 and answer["message"].startswith("It's not your turn: it's ")
    assert await scrabble_web.row(game_id) == before


async def test_a_filipino_club_s_board_speaks_and_refuses_in_filipino(
    scrabble_web: Scrabble,
) -> None:
    game_id, mover, _ = await _dealt(scrabble_web)
    await ClubService(scrabble_web.ctx).setup(GUILD, "Club", language="fil")
    fil = i18n.translations("fil")
    page = await scrabble_web.open(mover, game_id)
    assert '<html lang="fil">' in page.html
    assert f'data-empty="{fil.gettext("empty")}"' in page.html and "bakante" in page.html
    assert f">{fil.gettext('Recall tiles')}<" in page.html
    state = await page.state()
    assert state["status_text"] == fil.gettext("Your turn.") != "Your turn."
    status, answer = await page.post("preview", {"tiles": tiles((0, 0, "C"), (0, 1, "A"))})
    centre = fil.gettext("the first play must cover the centre square {square}")
    assert (
        answer["message"]
        == as_sentence(centre.format(square="H8"))
        != as_sentence("the first play must cover the centre square H8")
    )
    status, answer = await page.post("preview", {"tiles": tiles((7, 7, "C"), (7, 8, "A"))})
    assert (
        answer["text"]
        == "CA 8: " + fil.ngettext("{count} point", "{count} points", 8).format(count=8) + "."
    )
    seen = state["version"]
    await scrabble_web.service.moves.pass_turn(game_id, mover)
    before = await scrabble_web.row(game_id)
    status, answer = await page.post("pass", {"version": seen})
    assert status == 409 and answer["message"] == "Nagbago ang board: tingnan ulit."
    assert await scrabble_web.row(game_id) == before


async def test_the_page_and_its_files_weigh_under_the_budget(scrabble_web: Scrabble) -> None:
    """The issue's budget: a board page at most 150 KB before images (the HTML as
    served, its module, the shared module and the style sheets)."""
    game_id, mover, _ = await _dealt(scrabble_web)
    page = await scrabble_web.open(mover, game_id)
    total = len(page.html.encode())
    for path in (
        "/static/board/scrabble.js",
        "/static/board/common.js",
        "/static/board/scrabble.css",
        "/static/style.css",
    ):
        response = await scrabble_web.client.get(path)
        assert response.status == 200, path
        total += len(await response.read())
    assert total < 150_000, total
