"""discord.py's rate-limit buckets are looked through once in a while, not for each new
one (``bot.gateway.ratelimits``, issue #32), and idle ones are still forgotten."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.gateway.ratelimits import prune_buckets_every


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def http():
    client = discord.http.HTTPClient(asyncio.get_running_loop())
    yield client
    await client.close()


def idle(http, count: int, prefix: str) -> None:
    """``count`` buckets idle for more than discord.py's five minutes."""
    for k in range(count):
        bucket = http.get_ratelimit(f"{prefix}{k}")
        bucket._last_request -= 400


def looks(http, monkeypatch) -> list[int]:
    """Counts each look at a bucket's idleness."""
    seen: list[int] = []
    original = discord.http.Ratelimit.is_inactive

    def counted(self) -> bool:
        seen.append(1)
        return original(self)

    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counted)
    return seen


async def test_new_buckets_look_through_the_others_once_a_period_and_idle_ones_go(
    http, monkeypatch
):
    clock = Clock()
    assert prune_buckets_every(http, 30.0, clock=clock)
    idle(http, 300, "old:")
    seen = looks(http, monkeypatch)

    for k in range(200):  # 200 new buckets (threads, DM channels) in 20 s
        http.get_ratelimit(f"new:{k}")
        clock.now += 0.1
    assert seen == []  # none looked at: the period's look-through was at the first bucket
    assert sum(key.startswith("old:") for key in http._buckets) == 300

    clock.now += 30
    http.get_ratelimit("later")
    # one look through them all: the idle ones are forgotten, the recent ones kept
    assert len(seen) == 300 + 200 + 1
    assert not any(key.startswith("old:") for key in http._buckets)
    assert sum(key.startswith("new:") for key in http._buckets) == 200


async def test_discord_py_alone_looks_through_every_bucket_for_each_new_one(http, monkeypatch):
    """What the pruning saves: without it, each new bucket past 256 costs a look at all."""
    for k in range(300):
        http.get_ratelimit(f"recent:{k}")
    seen = looks(http, monkeypatch)

    for k in range(10):
        http.get_ratelimit(f"new:{k}")

    assert len(seen) == sum(300 + k + 1 for k in range(10))


def test_a_discord_py_without_the_method_is_left_as_it_is(caplog) -> None:
    class Other:
        pass

    other = Other()
    assert not prune_buckets_every(other)
    assert "rate-limit buckets are as it keeps them" in caplog.text
    assert not hasattr(other, "_try_clear_expired_ratelimits")
