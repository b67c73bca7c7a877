"""``/help``'s words: one section per game, what a member types to play it.

Every text is a message id (``N_``): ``bot.ui.help`` shows it through ``_()``,
so a new section is translated once it is marked here and in the catalogue.

/help shows one page of sections at a time, with a button for each page:
Discord caps a message's embeds at 6,000 characters in all, and the whole of
/help (Filipino runs longer than English) no longer fits in one. A section is
on the page ``HELP_PAGE_OF`` names for its title, else on the club's page."""

from __future__ import annotations

from bot.messages.i18n import N_

HELP_TITLE = N_("clubbot — the club's games")
HELP_DESCRIPTION = N_(
    "Scrabble, chess, Word Boggle and Library Henyo, with a leaderboard that remembers."
)
HELP_FOOTER = N_("Private things (your rack, a secret word) are only ever shown to you.")

# (key, button label): the first is the page /help opens on.
HELP_PAGES: list[tuple[str, str]] = [
    ("play", N_("Playing")),
    ("club", N_("Club nights")),
    ("admin", N_("Running the club")),
]
HELP_DEFAULT_PAGE = "club"  # a section not named below
HELP_PAGE_OF: dict[str, str] = {
    "Scrabble": "play",
    "Word tools": "play",
    "Puzzles": "play",
    "Chess": "play",
    "Word Boggle": "play",
    "Library Henyo": "play",
    "Finding a game": "play",
    "Leaderboard": "play",
    "Club sessions": "club",
    "Tournaments": "club",
    "Leagues": "club",
    "Games events": "club",
    "Agreeing a time": "club",
    "For admins and moderators": "admin",
}

HELP_SECTIONS: list[tuple[str, str]] = [
    (
        N_("Scrabble"),
        N_(
            "`/scrabble new opponent:@member` starts a game of 2–4 seats in its own thread; any seat may be "
            "a pair (`partner`, `opponent_partner`, `opponent2_partner`, `opponent3_partner`). "
            "Play with `/scrabble play word position`, see your tiles with `/scrabble rack` (only you see them). "
            "`/scrabble exchange`, `/scrabble pass`, `/scrabble challenge` and `/scrabble resign` do what they say; "
            "`/scrabble games` lists your games and "
            "`/scrabble export` gives a finished game's GCG record. "
            "To play the computer, name me: `/scrabble new opponent:@me level:casual` (or equity, strong). "
            "`/scrabble new hints:True` makes a game where `/scrabble hint` shows your best plays (not rated). "
            "`/scrabble analyse` shows a finished game's plays beside the best ones. "
            "`/scrabble check words:QI ZA` says whether words are valid (not for the players of a game "
            "made with `/scrabble new lookups:False`)."
        ),
    ),
    (
        N_("Club sessions"),
        N_(
            "A moderator opens a practice night with `/scrabble session open`; press **Sign up** or use "
            "`/scrabble session signup partner:@member` to play with someone. `/scrabble session start` forms "
            "boards of 4 pairs (a moderator may `/scrabble session swap` two members), run again it opens every "
            "board in its thread; one deadline ends them all and `/scrabble session results` ranks every pair. "
            "After each play, press **Explain** to explain your word. Played on real boards "
            "(`/scrabble session open where:room`), each pair enters its plays with "
            "`/tally play word:QUIZ position:8H` and the bot keeps the score."
        ),
    ),
    (
        N_("Word tools"),
        N_(
            "`/word anagram letters:AEINRST?` lists the words your letters make (`?` is a blank, two "
            "at most; `all_letters:True` for only those using them all), `/word hooks word:CARE` the "
            "letters that go before or after a word, `/word pattern pattern:?A?E` the words that fit "
            "(`?` one letter, `*` any run) and `/word check` is `/scrabble check`. Answers are private, "
            "on the club's word list; not for the players of a running game made with "
            "`/scrabble new lookups:False`."
        ),
    ),
    (
        N_("Puzzles"),
        N_(
            "`/puzzle` gives you a position from the club's finished Scrabble games, privately: find "
            "the play that scores the most, then press **Answer** (word and position; 3 tries) or "
            "**Show solution**. `/puzzle game:chess` gives a chess position where one move wins "
            "clearly: answer move by move (SAN or UCI), the bot replying; one wrong move ends it. "
            "Chess puzzles need Stockfish: without it an admin must install it and set "
            "`STOCKFISH_PATH`. `/leaderboard game:puzzle` ranks puzzle ratings; `/stats` shows your "
            "streak of days with a puzzle solved."
        ),
    ),
    (
        N_("Chess"),
        N_(
            "`/chess new opponent:@member time:3d` for correspondence or `time:10+5` for a live clock. "
            "Move with `/chess move` (SAN like `Nf3` or UCI like `g1f3`; suggestions as you type). "
            "Going away? `/chess vacation` pauses your correspondence clocks. With Stockfish installed you can "
            "play the computer and `/chess analyse` a finished game."
        ),
    ),
    (
        N_("Word Boggle"),
        N_(
            "A moderator starts a round with `/boggle start` or a weekly one with `/boggle schedule`. "
            "DM me your words (or press **Submit words**) before the timer ends. Shared words are cancelled! "
            "`/boggle results` shows the last round and the season. "
            "`/boggle daily`: the day's grid, your own 3 minutes."
        ),
    ),
    (
        N_("Library Henyo"),
        N_(
            "A moderator opens an event with `/henyo event open` and hosts it; pairs join with "
            "`/henyo register partner:@member`, and the host starts each pair's round with `/henyo start`. "
            "A one-off round needs no event: `/henyo start guesser:@member answerer:@member`. "
            "The answerer may only say **Oo**, **Hindi** or **Pwede** (politely **Opo**, **Oo po**, "
            "**Hindi po**, **Pwede po**; `strict:True` takes the bare words only) — anything else costs "
            "a penalty (5 seconds unless the event sets another)."
        ),
    ),
    (
        N_("Tournaments"),
        N_(
            "A moderator's `/tournament new` makes a chess or Scrabble tournament (round robin, Swiss or "
            "knockout); "
            "members enter with its **Join** button or `/tournament join`, then the director runs "
            "`/tournament start`. I pair every round, make each game its thread, and post the standings "
            "after every round; `/tournament standings`, `/tournament log` and `/tournament export` read it. "
            "Directors `pair`, `adjudicate`, `void`, `withdraw`, `extend`, `pause` and `resume`."
        ),
    ),
    (
        N_("Leagues"),
        N_(
            "A Scrabble or correspondence chess league in seasons (4 weeks by default): "
            "`/league new` makes it, members `/league join` (with a `partner` in a league of pairs) "
            "and the director runs `/league start`. Divisions are placed by rating and each plays "
            "a round robin, every game at once in its thread; `/league standings` and "
            "`/league season` read it. At the season's end the top of each division moves up, the "
            "bottom down, and the next season opens for sign-up. `/league withdraw` leaves "
            "(unplayed games are forfeited); directors change `/league settings`."
        ),
    ),
    (
        N_("Games events"),
        N_(
            'The library\'s "Play games and win prizes": a moderator hosts `/event open` (Henyo, Boggle, '
            "Scrabble, chess; the first 5 pairs play, later pairs wait and move up). Register with the "
            "button or `/event register partner:@member`; `/event withdraw` leaves. The host runs each "
            "game with `/event round game:henyo` and writes prizes with `/event prize`; "
            "`/event standings` shows every game and `/event close` crowns the winners."
        ),
    ),
    (
        N_("Agreeing a time"),
        N_(
            "In a league or tournament game on a long clock, `/schedule propose when:Sat 3pm` proposes "
            "up to 3 times (the club's time zone); your opponent accepts one with its button or "
            "`/schedule accept`. Both of you get a reminder an hour before."
        ),
    ),
    (
        N_("Finding a game"),
        N_(
            "`/scrabble seek` or `/chess seek` posts a challenge anyone may accept (admins: "
            "`/club setup seek_role:@role` to mention a role, `clear:seek_role` to stop). "
            "**Rematch** on a finished game plays it again. `/mygames` lists what waits on you."
        ),
    ),
    (
        N_("Leaderboard"),
        N_(
            "`/leaderboard` shows ratings and points by game and period; `/stats` shows a member's record."
        ),
    ),
    (
        N_("For admins and moderators"),
        N_(
            "Server admins (Manage Server) use `/club setup` to set the moderator role, the club's time zone, "
            "the default games channel, the bot's language (`language:` English or Filipino) and the daily "
            "puzzle (`puzzle_channel`, `puzzle_time`: a time or `off`). Moderators run Boggle rounds, open Henyo events and download "
            "the club's results and games with `/club export`. `/club web` opens the club's "
            "read-only web page (games, standings, events) at a secret address."
        ),
    ),
]
