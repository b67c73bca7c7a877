"""A member's own Boggle board (issue #28): the ``boggle`` kind of ``bot.web.boards``,
and the daily grid's (``boggle_daily``, ``DailyBoggleBoard``: the same page, the
member's own countdown of the day's grid).

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

from collections.abc import Callable, Mapping, Sequence
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
from engines.boggle import Grid, find_path, read_words
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


class DailyBoggleBoard:
    """The daily grid on the Boggle board page (``boggle_daily``, issue #31): the link
    names the day's grid and a member who opened it (``/boggle daily``). The page is the
    round's (its template and module), drawn from the same state: the countdown is the
    member's own (``ends_at`` of their play, stored when they opened the grid), the list
    theirs, kept as their DMs and the Submit words form keep it
    (``DailyGrid.submit_page``), refused once their countdown is over. No results here:
    the day's are posted in the club's channel at midnight."""

    kind: Kind = "boggle_daily"

    def __init__(self, ctx: ServiceContext, service: BoggleService | None = None) -> None:
        self.ctx = ctx
        self.service = service or BoggleService(ctx)

    def template(self, state: Mapping[str, Any]) -> str:
        return "board_boggle.html"

    async def version(self, subject_id: int) -> RoundChanges:
        return await self.service.daily.changes(subject_id)

    async def page_version(self, session: BoardSession) -> Callable[[RoundChanges], int]:
        """One member's page follows their own list (and the day's status) only."""
        mine = (session.grant.user_id,)
        return lambda changes: changes.of(mine)

    async def state(self, session: BoardSession) -> Mapping[str, Any]:
        grant = session.grant
        # The version first: a change between the two reads shows as a newer version.
        version = (await self.version(grant.subject_id)).of((grant.user_id,))
        page = await self.service.daily.page(
            daily_id=grant.subject_id, guild_id=grant.guild_id, user_id=grant.user_id
        )
        info = page.info
        taking = page.status == "open" and page.now < info.ends_at
        grid = Grid.parse(info.grid)
        return {
            "version": version,
            "daily": True,
            "round": {
                "id": info.id,
                "number": 0,
                "status": page.status if page.status != "open" or taking else "closed",
                "min_length": info.min_length,
                "ends_at": info.ends_at.isoformat(),
                "countdown_to": info.ends_at.isoformat(),
            },
            "now": page.now.isoformat(),
            "taking": taking,
            "title": say.daily_title(info.day),
            "status_text": say.daily_status(page.status, taking, info.day_ends_at, session.zone),
            "width": grid.width,
            "cells": _cells(grid),
            "words": _noted(page.words, info.grid, info.min_length),
            "max_words": MAX_WORDS_PER_LIST,
            "pair_note": "",
            "results": None,
        }

    def actions(self) -> Mapping[str, Action]:
        return {"words": self.words}

    async def words(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"remove": ["rat"], "add": ["rate"]}``, as the round's page sends it."""
        add, remove = _words(body.get("add")), _words(body.get("remove"))
        grant = session.grant
        receipt, words = await self.service.daily.submit_page(
            daily_id=grant.subject_id, user_id=grant.user_id, add=add, remove=remove
        )
        page = await self.service.daily.page(
            daily_id=grant.subject_id, guild_id=grant.guild_id, user_id=grant.user_id
        )
        grid = Grid.parse(page.info.grid)
        read = read_words(" ".join(add), grid.letters)  # what the list left out, and why
        return {
            "added": receipt.new_words,
            "note": say.change_note(read.not_letters, read.too_long, grid.letters, receipt.full),
            "words": _noted(words, page.info.grid, page.info.min_length),
            "pair_note": "",
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


def _word_list(words: Sequence[str], view: PageList) -> list[dict[str, str]]:
    """The member's list, each word with what the rules already say of it."""
    return _noted(words, view.info.grid, view.info.min_length)


def _noted(words: Sequence[str], grid_text: str | None, min_length: int) -> list[dict[str, str]]:
    grid = Grid.parse(grid_text) if grid_text else None
    return [
        {
            "word": word,
            "note": say.word_note(
                grid is None or find_path(grid, word) is not None,
                len(word) >= min_length,
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
