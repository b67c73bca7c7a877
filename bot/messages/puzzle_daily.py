"""The words of the club's daily puzzle: its post in the puzzle channel (the position
and "find the best play", never an answer), its Solve button, and the daily puzzle's
line of ``/club setup`` and its refusals."""

from __future__ import annotations

from datetime import datetime

from bot.messages.i18n import N_, _

SOLVE_LABEL = N_("Solve")
OFF_WORDS = ("off", "none", "no", "stop")  # puzzle_time:off (and its other spellings)
NEEDS_A_CHANNEL = N_(
    "The daily puzzle needs a channel to be posted in: give `puzzle_channel` too "
    "(or set the games channel)."
)


def post_text(game: str, game_number: int, move: int, rack: str | None, when: datetime) -> str:
    """The day's post: which game the position is from, the rack (a Scrabble
    puzzle's), and how to answer privately. ``game`` is the game's name as members
    read it (Scrabble, chess)."""
    lines = [
        _("🧩 **The daily puzzle** for {date}").format(date=f"<t:{int(when.timestamp())}:D>"),
        _("A position from {game} #{number} (move {move}).").format(
            game=game, number=game_number, move=move
        ),
    ]
    if rack:
        lines.append(_("Rack: `{rack}`").format(rack=" ".join(rack)))
    lines.append(
        _(
            "Find the best play! Press **Solve** to answer privately: your answers "
            "and the solution are only for you."
        )
    )
    return "\n".join(lines)


def setting_line(channel_id: int | None, at: str | None, next_at: datetime | None = None) -> str:
    """``/club setup``'s line for the daily puzzle: where and when (and the next post,
    when it was just set), or off."""
    if channel_id and at:
        line = _("Daily puzzle: {channel} at {time} (club time)").format(
            channel=f"<#{channel_id}>", time=at
        )
        if next_at is not None:
            line += " " + _("(next: {when})").format(when=f"<t:{int(next_at.timestamp())}:f>")
        return line
    return _("Daily puzzle: off")


def game_name(kind: str) -> str:
    """A puzzle kind as members read it."""
    return {"scrabble": "Scrabble", "chess": _("chess")}.get(kind, kind)


__all__ = [
    "NEEDS_A_CHANNEL",
    "OFF_WORDS",
    "SOLVE_LABEL",
    "game_name",
    "post_text",
    "setting_line",
]
