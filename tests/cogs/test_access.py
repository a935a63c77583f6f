"""cogs/access.py: after a refusal, one request an hour to that channel; none to a server that left."""

from __future__ import annotations

from cogs.access import PROBE_EVERY, LostChannels


def test_a_refused_channel_gets_one_probe_an_hour_until_a_post_succeeds() -> None:
    now = [1000.0]
    access = LostChannels(lambda: now[0])
    assert access.claim(1, 10) and access.claim(1, 10), "a channel that never refused is not limited"
    access.refused(10)
    assert not access.claim(1, 10) and access.claim(1, 11), "only the refusing channel waits"
    now[0] += PROBE_EVERY - 1
    assert not access.claim(1, 10)
    now[0] += 1
    assert access.claim(1, 10), "the hourly probe"
    assert not access.claim(1, 10), "one probe, not one per caller"
    now[0] += PROBE_EVERY
    assert access.claim(1, 10)
    assert access.succeeded(10) and not access.succeeded(10)
    assert access.claim(1, 10) and access.claim(1, 10), "free again once a post went through"


def test_a_server_that_removed_the_bot_gets_nothing_until_it_comes_back() -> None:
    access = LostChannels(lambda: 0.0)
    access.gone_guilds.add(1)
    assert not access.claim(1, 10) and access.claim(2, 20)
    access.gone_guilds.discard(1)
    assert access.claim(1, 10)
