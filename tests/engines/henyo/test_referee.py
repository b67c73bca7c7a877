from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.henyo.referee import Reply, judge_answer, parse_reply


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("oo", Reply.OO),
        ("Oo", Reply.OO),
        ("OO", Reply.OO),
        ("  hindi ", Reply.HINDI),
        ("Hindi.", Reply.HINDI),
        ("PWEDE!", Reply.PWEDE),
        ("pwede?!", Reply.PWEDE),
        ("oo...", Reply.OO),
        ("hindi ?", Reply.HINDI),
        ("Pwede…", Reply.PWEDE),  # a phone's ellipsis: one character, as "Pwede..." is three
        ("oo…!", Reply.OO),
    ],
)
def test_allowed_replies_match_in_any_case_with_spaces_and_trailing_marks(
    text: str, reply: Reply
) -> None:
    verdict = judge_answer(text)
    assert verdict.allowed and not verdict.penalty
    assert verdict.reply is reply


@pytest.mark.parametrize(
    "text",
    [
        "siguro",
        "hindi, pero malapit",
        "puwede",
        "yes",
        "o",
        "¿oo",
        "oo 🙂",
        "",
        "...",
        "…",
        "oo,",
        "!oo",
        "hin di",
    ],
)
def test_anything_else_is_a_penalty(text: str) -> None:
    verdict = judge_answer(text)
    assert verdict.penalty and verdict.reply is None


def test_an_attachment_is_a_penalty_even_with_an_allowed_caption() -> None:
    assert judge_answer("oo", has_attachments=True).penalty
    assert judge_answer("Opo", has_attachments=True).penalty


# What an answerer types to be polite: "po" adds respect, not information (RULES.md).
POLITE = [
    ("Opo", Reply.OO),
    ("opo", Reply.OO),
    ("opo!", Reply.OO),
    ("OPO", Reply.OO),
    ("Oo po", Reply.OO),
    ("oo po.", Reply.OO),
    ("  Oo  po ", Reply.OO),
    ("Hindi po", Reply.HINDI),
    ("hindi po?", Reply.HINDI),
    ("Pwede po…", Reply.PWEDE),
    ("PWEDE PO", Reply.PWEDE),
    ("pwede po...", Reply.PWEDE),
]

# Near the polite forms but other replies: information beyond yes/no/could be.
NEAR_MISSES = [
    "po",
    "Po.",
    "Oo po po",
    "Hindi po ba",
    "opo oo",
    "oo opo",
    "opo po",
    "Oo, po",
    "oopo",
    "hindipo",
    "po oo",
    "Pwede po siguro",
    "Hindi po!?,",
]


@pytest.mark.parametrize(("text", "reply"), POLITE)
def test_the_polite_forms_are_the_same_three_answers(text: str, reply: Reply) -> None:
    verdict = judge_answer(text)
    assert verdict.allowed and not verdict.penalty
    assert verdict.reply is reply
    assert parse_reply(text) is reply


@pytest.mark.parametrize(("text", "reply"), POLITE)
def test_a_strict_round_penalises_the_polite_forms(text: str, reply: Reply) -> None:
    verdict = judge_answer(text, strict=True)
    assert verdict.penalty and verdict.reply is None
    assert parse_reply(text, strict=True) is None


@pytest.mark.parametrize("text", ["Oo", "hindi.", "Pwede…", " PWEDE?! "])
def test_a_strict_round_still_takes_the_bare_words(text: str) -> None:
    assert judge_answer(text, strict=True).allowed


@pytest.mark.parametrize("text", NEAR_MISSES)
@pytest.mark.parametrize("strict", [False, True])
def test_near_misses_of_the_polite_forms_are_penalties(text: str, strict: bool) -> None:
    verdict = judge_answer(text, strict=strict)
    assert verdict.penalty and verdict.reply is None


def test_replies_have_a_label_and_a_meaning() -> None:
    assert [(r.label, r.meaning) for r in Reply] == [
        ("Oo", "yes"),
        ("Hindi", "no"),
        ("Pwede", "could be"),
    ]


@settings(max_examples=150)
@given(
    st.sampled_from(["oo", "hindi", "pwede"]),
    st.sampled_from([str.upper, str.lower, str.title, str.capitalize]),
    st.text(alphabet=" \t", max_size=3),
    st.text(alphabet=" \t", max_size=3),
    st.text(alphabet=".!?…", max_size=4),
)
def test_any_dressing_of_an_allowed_reply_is_allowed(
    word: str, case, before: str, after: str, marks: str
) -> None:
    assert parse_reply(before + case(word) + marks + after) is Reply(word)


@settings(max_examples=150)
@given(
    st.sampled_from(
        [
            ("opo", Reply.OO),
            ("oo po", Reply.OO),
            ("hindi po", Reply.HINDI),
            ("pwede po", Reply.PWEDE),
        ]
    ),
    st.sampled_from([str.upper, str.lower, str.title, str.capitalize]),
    st.text(alphabet=" \t", max_size=3),
    st.text(alphabet=" \t", min_size=1, max_size=3),
    st.text(alphabet=".!?…", max_size=4),
)
def test_any_dressing_of_a_polite_form_is_allowed_unless_strict(
    form: tuple[str, Reply], case, before: str, gap: str, marks: str
) -> None:
    text, reply = form
    typed = before + case(text).replace(" ", gap) + marks
    assert parse_reply(typed) is reply
    assert parse_reply(typed, strict=True) is None


@settings(max_examples=150)
@given(st.text(max_size=20))
def test_a_strict_penalty_exactly_when_the_text_is_not_a_bare_word(text: str) -> None:
    core = text.strip().rstrip(".!?…").strip().lower()
    assert judge_answer(text, strict=True).penalty == (core not in {"oo", "hindi", "pwede"})


@settings(max_examples=300)
@given(st.text(alphabet="ohindpwe .!?…O", max_size=12))
def test_a_penalty_exactly_when_the_text_is_not_a_reply_or_its_polite_form(text: str) -> None:
    words = text.strip().rstrip(".!?…").lower().split()
    allowed = {("oo",), ("hindi",), ("pwede",), ("opo",), ("oo", "po"), ("hindi", "po")}
    allowed.add(("pwede", "po"))
    assert judge_answer(text).penalty == (tuple(words) not in allowed)
