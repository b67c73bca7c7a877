"""A member's own Boggle board (issue #28): the ``boggle`` kind of ``bot.web.boards``.

The link names a round (``subject_id``) and a member of its club. The state is
the grid as the engine has it (a Qu or Th cell is one cell; each cell with its
neighbours from the engine, so the page extends a traced word only through
adjacent cells without knowing the rules), the round's status and end (for the
countdown, with the server's time so a slow clock does not matter), this
member's own list as saved so far (never anyone else's), with what the rules
already say of a word (not on the grid, too short: never whether it is a word),
the pair note of a games event's round played in pairs, and once the round is
scored, its results as the club page shows them (and that page's address when
the club's page is on).

The one action, ``words``, takes words off the member's list and adds others
(``{"remove": [...], "add": [...]}``, a correction being both): a change rather
than the whole list, so what the member DMs meanwhile is never lost. It goes
through ``Submissions.submit_page``, the same list as the DMs and the Submit
words form, refused with the round's own words once it no longer takes lists.

A page's ``version`` is the round's version plus the entries of its member's own
list (their pair's, in a round played in pairs: ``RoundChanges.of``): it moves on
when the round opens, closes or is scored, and when that list changes by DM, form
or page, but not when another member's does. One reader per round reads every
list's count at once (``version``); each page's stream pushes only its own
(``page_version``), so thirty members typing make no one else's page ask again,
and a push never says that anyone else is playing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from bot.errors import InvalidInputError
from bot.messages.boggle import page as say
from bot.services import ServiceContext
from bot.services.board_links import BoardSession, Kind
from bot.services.boggle import BoggleService, RoundInfo
from bot.services.boggle.board import PageList, RoundChanges
from bot.services.boggle.submissions import MAX_PAGE_WORDS, MAX_WORDS_PER_LIST
from bot.services.web import WebService
from bot.web.boards import BAD_BODY, Action
from bot.web.data import ClubPages
from engines.boggle import Grid, find_path
from engines.boggle.grid import printed_face

MAX_WORD_CHARS = 64


class BoggleBoard:
    """The Boggle board page's state and actions (a ``bot.web.boards.BoardKind``)."""

    kind: Kind = "boggle"

    def __init__(self, ctx: ServiceContext, service: BoggleService | None = None) -> None:
        self.ctx = ctx
        self.service = service or BoggleService(ctx)
        self.pages = ClubPages(ctx)
        self.web = WebService(ctx)

    async def version(self, subject_id: int) -> RoundChanges:
        return await self.service.board.changes(subject_id)

    async def page_version(self, session: BoardSession) -> Callable[[RoundChanges], int]:
        """What one member's page makes of ``version``: its own list's part only."""
        grant = session.grant
        players = await self.service.board.players_of(grant.subject_id, grant.user_id)
        return lambda changes: changes.of(players)

    async def state(self, session: BoardSession) -> Mapping[str, Any]:
        grant = session.grant
        # Read the version first: a change made between the two reads shows as a
        # newer version, and the page asks again.
        version = await self.service.board.version(grant.subject_id, grant.user_id)
        view = await self.service.board.view(grant.subject_id, grant.guild_id, grant.user_id)
        return {"version": version, **await self._state(view, session)}

    def actions(self) -> Mapping[str, Action]:
        return {"words": self.words}

    async def words(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"remove": ["rat"], "add": ["rate"]}``: those words off the member's list,
        then these on it (either may be left out)."""
        add, remove = _words(body.get("add")), _words(body.get("remove"))
        grant = session.grant
        receipt, words = await self.service.submissions.submit_page(
            round_id=grant.subject_id,
            user_id=grant.user_id,
            add=add,
            remove=remove,
        )
        view = await self.service.board.view(grant.subject_id, grant.guild_id, grant.user_id)
        return {
            "added": receipt.new_words,
            "removed": receipt.removed_words,
            "note": say.change_note(
                receipt.not_letters, receipt.too_long, receipt.longest, receipt.full
            ),
            "words": _word_list(words, view),
            "pair_note": say.pair_note(view.pairs, view.counting, view.partner_name),
        }

    async def _state(self, view: PageList, session: BoardSession) -> dict[str, Any]:
        info = view.info
        taking = info.status == "open" and info.ends_at is not None and view.now < info.ends_at
        grid = Grid.parse(info.grid) if info.grid else None
        return {
            "round": {
                "id": info.id,
                "number": info.number,
                "status": info.status,
                "min_length": info.min_length,
                "ends_at": info.ends_at.isoformat() if info.ends_at else None,
                # What the countdown counts to: in a round played in the room, pens
                # down while the players write on paper, then the end of the time to
                # type the lists (``ends_at``); elsewhere the round's end.
                "countdown_to": _countdown_to(info, view.now),
            },
            "now": view.now.isoformat(),
            "taking": taking,
            "title": say.title(info.number),
            "status_text": say.status_text(
                info.status, info.number, info.opens_at, taking, session.zone
            ),
            "width": grid.width if grid else 0,
            "cells": _cells(grid) if grid else [],
            "words": _word_list(view.words, view),
            "max_words": MAX_WORDS_PER_LIST,
            "pair_note": say.pair_note(view.pairs, view.counting, view.partner_name),
            "results": await self._results(session) if info.status == "scored" else None,
        }

    async def _results(self, session: BoardSession) -> dict[str, Any]:
        """The scored round as the club page shows it, and that page's address (when on)."""
        grant = session.grant
        page = await self.pages.boggle(grant.guild_id, grant.subject_id)
        club = await self.web.page(grant.guild_id)
        return {
            "players": [
                {
                    "rank": p.rank,
                    "name": p.name,
                    "points": say.points(p.total),
                    "words": p.words,
                }
                for p in page.players
            ],
            "missed": page.missed,
            "words_on_grid": page.words_on_grid,
            "url": f"{club.path}boggle/{grant.subject_id}" if club.path else None,
        }


def _countdown_to(info: RoundInfo, now: datetime) -> str | None:
    pens_down = info.countdown_ends_at
    if info.entry_s and pens_down is not None and now < pens_down:
        return pens_down.isoformat()
    return info.ends_at.isoformat() if info.ends_at else None


def _cells(grid: Grid) -> list[dict[str, Any]]:
    return [
        {
            "face": printed_face(face),
            "label": say.cell_label(
                index // grid.width + 1, index % grid.width + 1, printed_face(face)
            ),
            "next": list(grid.neighbours(index)),
        }
        for index, face in enumerate(grid.cells)
    ]


def _word_list(words: tuple[str, ...] | list[str], view: PageList) -> list[dict[str, str]]:
    """The member's list, each word with what the rules already say of it."""
    grid = Grid.parse(view.info.grid) if view.info.grid else None
    return [
        {
            "word": word,
            "note": say.word_note(
                grid is None or find_path(grid, word) is not None,
                len(word) >= view.info.min_length,
            ),
        }
        for word in words
    ]


def _words(value: object) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_PAGE_WORDS:
        raise InvalidInputError(BAD_BODY)
    if not all(isinstance(w, str) and 0 < len(w) <= MAX_WORD_CHARS for w in value):
        raise InvalidInputError(BAD_BODY)
    return value
