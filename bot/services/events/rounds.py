"""Starting a game's round for the event's pairs, through that game's own machinery.

Each start is one transaction holding the event's round row (unique per event
and game) and what plays it, and it claims the event's version first: two hosts
starting the same round at once start it once, and the other is told.

- Henyo: a Henyo event in the event's channel whose sign-up list holds the
  pairs, in order (the registering member guesses, the partner answers);
  ``/henyo start`` then runs each pair's word as in any Henyo event.
- Boggle: a round opened by Boggle's own start, in pairs (``boggle.pairs``).
- Scrabble and chess: a tournament of the pairs, seeded and paired by the
  tournament's own code (round robin by default; its director, the host, may
  set pairings with ``/tournament pair``). In chess a pair is one side of the
  board: either partner moves for it, and both are rated on the pair's mean.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from bot.db.models_boggle import BoggleRoundRecord
from bot.db.models_events import GamesEventRecord, GamesEventRoundRecord
from bot.db.models_tournaments import TournamentRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages import events as msg
from bot.messages.i18n import _
from bot.messages.post import Post
from bot.services import signups
from bot.services.boggle import BoggleService
from bot.services.events.options import OWNER
from bot.services.henyo.options import event_options
from bot.services.henyo.pairs import add_pair, new_event
from bot.services.tournaments import options as topts
from bot.services.tournaments import pairing
from bot.services.tournaments.service import TournamentService

# Re-reads and claims the event inside another service's transaction: the event
# and its playing pairs.
Claim = Callable[[UnitOfWork], Awaitable[tuple[GamesEventRecord, Sequence[signups.Entrant]]]]


async def add_round(
    uow: UnitOfWork,
    event: GamesEventRecord,
    game: str,
    ref_id: int,
    playing: Sequence[signups.Entrant],
    started_by: int,
    now: datetime,
) -> GamesEventRoundRecord:
    """Store the event's round of ``game``: the pairs playing it and ``ref_id``, the game's
    own record (Henyo event, Boggle round or tournament). One round per game: a second
    breaks the (event, game) key at the flush."""
    row = GamesEventRoundRecord(
        event_id=event.id,
        game=game,
        ref_id=ref_id,
        pairs=[[e.user_id, e.partner_id] for e in playing],
        started_by=started_by,
        created_at=now,
    )
    uow.events.add(row)
    await uow.events.flush()  # the (event, game) key: one round per game
    return row


async def close_signups(uow: UnitOfWork, event: GamesEventRecord) -> None:
    """The pairs are fixed once a round starts: later sign-ups are refused."""
    lst = await signups.list_for(uow, OWNER, event.id)
    await signups.close(uow, lst)


async def start_henyo(
    uow: UnitOfWork,
    event: GamesEventRecord,
    playing: Sequence[signups.Entrant],
    started_by: int,
    now: datetime,
    referee: str | None = None,
) -> int:
    """Open a Henyo event in the event's channel with the pairs in order and store the round;
    the Henyo event's id. Refused while the channel has an open Henyo event. ``referee``:
    ``host`` plays its words aloud, refereed from the host's console (typed by default)."""
    busy = await uow.henyo.open_event_in_channel(event.channel_id)
    if busy is not None:
        raise InvalidInputError(_(msg.HENYO_EVENT_HERE))
    options = event_options(
        pairs=len(playing),
        time_limit=None,
        penalty=None,
        categories=None,
        language=None,
        referee=referee,
    )
    henyo, lst = await new_event(
        uow,
        guild_id=event.guild_id,
        channel_id=event.channel_id,
        host_id=event.host_id,
        options=options,
        now=now,
    )
    for entry in playing:
        assert entry.partner_id is not None
        await add_pair(uow, henyo, lst, user_id=entry.user_id, partner_id=entry.partner_id, now=now)
    await add_round(uow, event, "henyo", henyo.id, playing, started_by, now)
    return henyo.id


async def start_boggle(
    boggle: BoggleService,
    *,
    guild_id: int,
    guild_name: str,
    channel_id: int,
    started_by: int,
    duration: str | None,
    claim: Claim,
) -> int:
    """Boggle's own start, with the event's round stored in its transaction
    (``claim`` re-reads and claims the event there, giving the pairs)."""

    async def within(uow: UnitOfWork, record: BoggleRoundRecord) -> None:
        event, playing = await claim(uow)
        await add_round(uow, event, "boggle", record.id, playing, started_by, record.created_at)
        uow.outbox.to_channel(channel_id, Post(content=msg.boggle_round(len(playing))))

    info = await boggle.starting.start_round(
        guild_id=guild_id,
        guild_name=guild_name,
        channel_id=channel_id,
        started_by=started_by,
        duration=duration,
        within=within,
    )
    return info.id


async def start_tournament(
    tournaments: TournamentService,
    uow: UnitOfWork,
    event: GamesEventRecord,
    game: str,
    fmt: str,
    rounds: int | None,
    playing: Sequence[signups.Entrant],
    started_by: int,
) -> int:
    """A tournament of the pairs, made and started in this transaction."""
    core, life = tournaments.core, tournaments.lifecycle
    kind = topts.read_kind(game)
    fmt_ = topts.read_format(fmt)
    planned = topts.read_rounds(fmt_, rounds)
    deadline = topts.read_deadline(None, kind)
    now = core.now()
    t = TournamentRecord(
        guild_id=event.guild_id,
        channel_id=event.channel_id,
        name=msg.tournament_name(event.name, game)[:100],
        game_kind=kind,
        format=fmt_,
        rounds=planned,
        options={
            "seed": core.rng.randrange(2**31),
            "time_control": None,
            "deadline_seconds": int(deadline.total_seconds()),
            "rated": True,
            "entry": "named",
            "checkin": False,
            "team_size": 2,
            "games_event_id": event.id,
        },
        status="running",
        current_round=0,
        created_by=event.host_id,
        version=1,
        created_at=now,
        started_at=now,
    )
    uow.tournaments.add(t)
    await uow.tournaments.flush()
    if len(playing) < topts.MIN_ENTRANTS:
        raise InvalidInputError(msg.too_few_pairs(len(playing), topts.MIN_ENTRANTS))
    lst = await signups.open_list(
        uow,
        guild_id=event.guild_id,
        owner_kind="tournament",
        owner_id=t.id,
        team_size=2,
        now=now,
    )
    await signups.close(uow, lst)
    entrants = await life.seed_entrants(uow, t, playing)
    t.rounds = pairing.planned_rounds(t, len(entrants))
    core.log(uow, t, started_by, "start", entrants=len(entrants), rounds=t.rounds)
    await add_round(uow, event, game, t.id, playing, started_by, now)
    await life.pair_round(uow, t, 1, actor_id=started_by)
    return t.id
