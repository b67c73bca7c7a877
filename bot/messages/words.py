"""``/word anagram``, ``/word hooks`` and ``/word pattern``: the words found, longest
first and then in alphabetical order, grouped by length, as many as fit a message,
with how many were left out.

What the member typed is echoed only once read (letters A–Z, ``?`` and ``*``) and in
code spans, so ``*`` is never markdown; the words found are letters only.
"""

from __future__ import annotations

from bot.messages.i18n import _, ngettext
from bot.messages.limits import MESSAGE_CHARS, MESSAGE_MARGIN
from bot.messages.scrabble.names import lexicon_display_name
from bot.messages.text import number, plain
from engines.scrabble.wordfind import Found, Hooks

SEARCH_LIMIT = 200  # words a search sends back; a reply lists as many as fit
_LISTED_CHARS = MESSAGE_CHARS - MESSAGE_MARGIN - 400  # room left for the header and footer


def _where(word_list: str) -> str:
    return f"`{plain(lexicon_display_name(word_list))}`"


def _groups(found: Found) -> tuple[list[str], int]:
    """One line per length (its count, then its words as far as they fit) and how many
    words were listed."""
    counts = dict(found.lengths)
    lines: list[str] = []
    size = listed = 0
    current: int | None = None
    for word in found.words:
        if len(word) != current:
            current = len(word)
            heading = _("**{length} letters** ({count}):").format(
                length=current, count=number(counts.get(current, 0))
            )
            if size + len(heading) + 2 + len(word) > _LISTED_CHARS:
                break
            lines.append(heading + " " + word)
            size += len(lines[-1]) + 1
        else:
            if size + len(word) + 2 > _LISTED_CHARS:
                break
            lines[-1] += ", " + word
            size += len(word) + 2
        listed += 1
    return lines, listed


def _more(left_out: int) -> str:
    return ngettext(
        "…and {count} more word not listed.", "…and {count} more words not listed.", left_out
    ).format(count=number(left_out))


def _found_in(found: Found) -> str:
    return ngettext("{count} word", "{count} words", found.total).format(count=number(found.total))


def anagrams(found: Found, *, word_list: str, full_only: bool) -> str:
    letters = f"`{found.query}`"
    if not found.total:
        if full_only:
            return _(
                "No word in {where} uses all of {letters}: leave out `all_letters` "
                "to see the shorter words."
            ).format(where=_where(word_list), letters=letters)
        return _("No word in {where} can be made from {letters}.").format(
            where=_where(word_list), letters=letters
        )
    if full_only:
        header = _("**Anagrams of {letters}** using every letter, in {where}: {found}.")
    else:
        header = _("**Anagrams of {letters}** in {where}: {found}, the longest first.")
    lines = [header.format(letters=letters, where=_where(word_list), found=_found_in(found))]
    if "?" in found.query:
        lines.append(_("A blank's letter is in lower case."))
    body, listed = _groups(found)
    lines.extend(body)
    if found.total > listed:
        lines.append(_more(found.total - listed))
        if not full_only:
            lines.append(_("`all_letters:True` lists only the words that use every letter."))
    return "\n".join(lines)


def pattern(found: Found, *, word_list: str) -> str:
    shown = f"`{found.query}`"
    if not found.total:
        return _("No word in {where} matches {pattern}.").format(
            where=_where(word_list), pattern=shown
        )
    lines = [
        _("**Words matching {pattern}** in {where}: {found}, the longest first.").format(
            pattern=shown, where=_where(word_list), found=_found_in(found)
        )
    ]
    body, listed = _groups(found)
    lines.extend(body)
    if found.total > listed:
        lines.append(_more(found.total - listed))
    return "\n".join(lines)


def _hooked(word: str, letters: str, *, front: bool) -> str:
    return ", ".join(
        f"**{letter}**{word}" if front else f"{word}**{letter}**" for letter in letters
    )


def hooks(found: Hooks, *, word_list: str) -> str:
    word = found.word
    lines = [
        _("**Hooks of {word}** in {where}:").format(word=word, where=_where(word_list)),
        (
            "✅ " + _("{word} is a word.").format(word=word)
            if found.valid
            else "❌ " + _("{word} is not in the list.").format(word=word)
        ),
    ]
    if found.front:
        lines.append(_("Front hooks: {words}").format(words=_hooked(word, found.front, front=True)))
    else:
        lines.append(_("No front hooks."))
    if found.back:
        lines.append(_("Back hooks: {words}").format(words=_hooked(word, found.back, front=False)))
    else:
        lines.append(_("No back hooks."))
    return "\n".join(lines)
