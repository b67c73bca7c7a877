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
        "oo po",
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
@given(st.text(max_size=20))
def test_a_penalty_exactly_when_the_text_is_not_an_allowed_reply(text: str) -> None:
    core = text.strip().rstrip(".!?…").strip().lower()
    assert judge_answer(text).penalty == (core not in {"oo", "hindi", "pwede"})
