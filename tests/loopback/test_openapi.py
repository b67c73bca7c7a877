"""The loopback checks each request against Discord's published OpenAPI spec.

Requests go over HTTP to a running loopback, as the bot's would; each break of the
spec is a recorded violation naming the route, where in the body, and the schema rule.
"""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.loopback import LoopbackDiscord, openapi
from tests.loopback.openapi import DiscordSpec, SpecUnavailable, discord_spec


@pytest.fixture
def games(loopback: LoopbackDiscord) -> Any:
    guild = loopback.add_guild("Library Club")
    return loopback.add_text_channel(guild, "games")


async def _send(
    dc: LoopbackDiscord,
    method: str,
    path: str,
    *,
    body: Any = None,
    form: aiohttp.FormData | None = None,
    params: dict[str, str] | None = None,
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {dc.token}"}
    async with (
        aiohttp.ClientSession(headers=headers) as http,
        http.request(method, dc.base_url + path, json=body, data=form, params=params) as response,
    ):
        text = await response.text()
        return response.status, json.loads(text) if text else None


def _details(dc: LoopbackDiscord, kind: str) -> list[str]:
    return [v.detail for v in dc.violations if v.kind == kind]


async def test_a_valid_message_passes_and_is_posted(loopback, games):
    body = {
        "content": "Round 3 starts",
        "embeds": [{"title": "Standings", "fields": [{"name": "Alice", "value": "42"}]}],
        "allowed_mentions": {"parse": [], "users": [123]},  # ids as integers, as discord.py
        "components": [
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": "Join", "custom_id": "join"}],
            }
        ],
    }

    status, answer = await _send(loopback, "POST", f"/channels/{games.id}/messages", body=body)

    assert status == 200 and answer["content"] == "Round 3 starts"
    assert loopback.violations == []
    assert [m.content for m in loopback.messages_in(games)] == ["Round 3 starts"]


async def test_a_route_discord_does_not_have_is_a_violation(loopback, games):
    loopback.expect_violation("spec_route", count=1)

    status, _ = await _send(loopback, "GET", f"/channels/{games.id}/scoreboard")

    assert status == 404
    (detail,) = _details(loopback, "spec_route")
    assert f"/channels/{games.id}/scoreboard" in detail and "no such route" in detail


async def test_a_method_the_route_lacks_is_a_violation(loopback, games):
    loopback.expect_violation("spec_route", count=1)

    status, _ = await _send(loopback, "PUT", f"/channels/{games.id}/messages", body={})

    assert status == 405
    (detail,) = _details(loopback, "spec_route")
    assert "/channels/{channel_id}/messages has no PUT (it has GET, POST)" in detail


async def test_a_field_of_the_wrong_type_is_refused_and_named(loopback, games):
    loopback.expect_violation("spec_request", count=1)

    status, answer = await _send(
        loopback, "POST", f"/channels/{games.id}/messages", body={"content": "hi", "tts": "yes"}
    )

    assert (status, answer["code"]) == (400, 50035)
    assert "SPEC_INVALID" in json.dumps(answer["errors"]["tts"])
    (detail,) = _details(loopback, "spec_request")
    assert detail.startswith("POST /channels/{channel_id}/messages: body $.tts:")
    assert "is not of type ['boolean', 'null']" in detail
    assert loopback.messages_in(games) == []


async def test_an_over_long_field_only_the_spec_knows_is_refused(loopback, games):
    # the loopback's own rules have no nonce limit; Discord's spec caps it at 25
    loopback.expect_violation("spec_request", count=1)

    status, _ = await _send(
        loopback,
        "POST",
        f"/channels/{games.id}/messages",
        body={"content": "hi", "nonce": "n" * 26},
    )

    assert status == 400
    (detail,) = _details(loopback, "spec_request")
    assert "body $.nonce:" in detail and "fails maxLength=25 (it is 26)" in detail


async def test_a_nested_over_long_field_is_found_inside_the_component_union(loopback, games):
    loopback.expect_violation("spec_request", count=1)
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "c" * 101}

    await _send(
        loopback,
        "POST",
        f"/channels/{games.id}/messages",
        body={"components": [{"type": 1, "components": [button]}]},
    )

    (detail,) = _details(loopback, "spec_request")
    assert "body $.components[0].components[0].custom_id:" in detail
    assert "fails maxLength=100 (it is 101)" in detail


async def test_a_multipart_payload_json_is_checked_like_a_json_body(loopback, games):
    loopback.expect_violation("spec_request", count=1)
    form = aiohttp.FormData()
    payload = {"content": "board", "attachments": [{"id": 0, "description": "d" * 1025}]}
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    form.add_field("files[0]", b"\x89PNG", filename="board.png", content_type="image/png")

    status, _ = await _send(loopback, "POST", f"/channels/{games.id}/messages", form=form)

    assert status == 400
    (detail,) = _details(loopback, "spec_request")
    assert "body $.attachments[0].description:" in detail and "maxLength=1024" in detail


async def test_query_parameters_are_checked(loopback, games):
    loopback.expect_violation("spec_request", count=2)

    await _send(
        loopback,
        "GET",
        f"/channels/{games.id}/messages",
        params={"limit": "500", "newest": "1"},
    )

    details = _details(loopback, "spec_request")
    assert any("query limit='500'" in d and "maximum=100" in d for d in details)
    assert any("unknown query parameter 'newest'" in d for d in details)


def test_boolean_query_strings_read_as_discord_reads_them() -> None:
    spec = discord_spec()
    path = "/interactions/1/token/callback"
    body = {"type": 5}
    for value in ("true", "True", "1", "false", "False", "0"):
        assert spec.check("POST", path, {"with_response": value}, body, has_body=True) == []
    (problem,) = spec.check("POST", path, {"with_response": "yes"}, body, has_body=True)
    assert "query with_response='yes'" in problem.message


def test_a_path_parameter_must_fit_its_schema() -> None:
    (problem,) = discord_spec().check(
        "DELETE", "/channels/123/messages/latest", {}, None, has_body=False
    )
    assert problem.kind == "spec_request" and "message_id='latest'" in problem.message


def test_the_snowflake_exception_lets_integers_through_and_nothing_else() -> None:
    spec = discord_spec()
    ok = spec.check("POST", "/users/@me/channels", {}, {"recipient_id": 42}, has_body=True)
    negative = spec.check("POST", "/users/@me/channels", {}, {"recipient_id": -1}, has_body=True)
    word = spec.check("POST", "/users/@me/channels", {}, {"recipient_id": "me"}, has_body=True)
    assert ok == [] and len(negative) == 1 and len(word) == 1


def test_a_body_found_valid_once_is_remembered_yet_each_other_body_is_still_checked() -> None:
    spec = discord_spec()
    path = "/channels/123456789012345678/messages"
    body = {"content": "Round 3", "message_reference": {"message_id": "123456789012345678"}}
    assert spec.check("POST", path, {}, body, has_body=True) == []
    # The same body with other ids is the same answer; a changed field is checked afresh.
    other_ids = {"content": "Round 3", "message_reference": {"message_id": "987654321098765432"}}
    assert spec.check("POST", path, {}, other_ids, has_body=True) == []
    wrong_type = {**body, "content": ["Round 3"]}
    bad_id = {"content": "Round 3", "message_reference": {"message_id": "0123456789012345678"}}
    assert len(spec.check("POST", path, {}, wrong_type, has_body=True)) == 1
    assert len(spec.check("POST", path, {}, bad_id, has_body=True)) == 1
    assert spec.check("POST", path, {}, body, has_body=True) == []


def test_an_answer_discord_would_not_give_is_flagged_as_the_loopbacks_fault() -> None:
    (problem,) = discord_spec().check_response(
        "GET", "/users/@me", 200, {"id": "1", "username": "clubbot"}
    )
    assert problem.kind == "loopback_response"
    assert "is a required property" in problem.message and "tests/loopback" in problem.message


def test_a_spec_file_that_is_not_the_pinned_one_fails_loudly(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(openapi, "SPEC_FILE", tmp_path / "openapi.json")
    with pytest.raises(SpecUnavailable, match="missing"):
        openapi._read_spec()
    (tmp_path / "openapi.json").write_text('{"openapi": "3.1.0", "paths": {}}')
    with pytest.raises(SpecUnavailable, match="not the pinned Discord spec"):
        openapi._read_spec()


def test_the_spec_is_read_once_per_process() -> None:
    assert discord_spec() is discord_spec()
    assert isinstance(discord_spec(), DiscordSpec)


async def test_a_loopback_without_its_spec_does_not_start(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(openapi, "SPEC_FILE", tmp_path / "openapi.json")
    discord_spec.cache_clear()
    try:
        with pytest.raises(SpecUnavailable, match="spec is missing at"):
            await LoopbackDiscord().start()
    finally:
        monkeypatch.undo()
        discord_spec.cache_clear()
    assert discord_spec().doc["openapi"] == "3.1.0"


async def test_a_sampling_loopback_checks_each_routes_first_requests_then_one_in_n(loopback, games):
    """The load benchmark's loopback checks a sample (``spec_check_every``): every one of a
    route's first ``SPEC_FIRST`` requests, then one in n; the others are served as sent."""
    from tests.loopback.rest import SPEC_FIRST

    loopback.spec_check_every = 5
    bad = {"content": "hi", "tts": "yes"}
    path = f"/channels/{games.id}/messages"
    loopback.expect_violation("spec_request", count=SPEC_FIRST + 3)
    statuses = [(await _send(loopback, "POST", path, body=bad))[0] for _ in range(SPEC_FIRST + 10)]

    # seen counts 0..SPEC_FIRST-1 checked; after them 20 and 25 (one in five)
    checked = [n < SPEC_FIRST or n % 5 == 0 for n in range(SPEC_FIRST + 10)]
    assert statuses == [400 if c else 200 for c in checked]
    assert len(_details(loopback, "spec_request")) == SPEC_FIRST + 2
    # another route keeps its own count: its first request is checked
    status, _ = await _send(loopback, "PATCH", f"/channels/{games.id}", body={"name": 7})
    assert status == 400
