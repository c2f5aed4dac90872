"""Limits a script cannot shed (issue 31 item 3): a question is counted for the visitor and for the
network it asks from, so dropping the cookie (a new identity every time) does not reset the count;
the network is the peer's address (IPv4) or its /64 (IPv6), X-Forwarded-For is read only as far as
proxies the operator trusts wrote it; every refusal says, in the question's language, when it
resets. On both counter backends: files, and a real Redis shared by replicas."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from finsearch.errors import ConfigError
from finsearch.hosting.counters import open_counter
from finsearch.hosting.identity import anonymous_owner, new_token
from finsearch.hosting.limits import RunSlots, admit
from finsearch.hosting.network import Peer, client_network
from finsearch.settings import from_env

# 14:40 UTC: an hour's window ends at 15:00, in 20 minutes.
AT_1440 = datetime(2024, 10, 15, 14, 40, tzinfo=timezone.utc).timestamp()
LOOPBACK = Peer("127.0.0.1")


def fresh_visitor() -> str:
    """What a cookie-less request becomes: a new anonymous identity, every time."""
    return anonymous_owner(new_token())


def test_three_cookieless_visitors_from_one_network_get_one_answer(backend):
    limited = backend.settings.replace(question_limit=1, network_question_limit=1, question_window_s=3600)
    counter, slots = open_counter(limited), RunSlots()
    first, second, third = fresh_visitor(), fresh_visitor(), fresh_visitor()
    assert admit(first, limited, counter, slots, peer=LOOPBACK, question="How is AAPL?", now=AT_1440) is None
    refusal = admit(second, limited, counter, slots, peer=LOOPBACK, question="How is AAPL?", now=AT_1440)
    assert refusal is not None and refusal.reason == "network"
    assert refusal.message == ("Your network has asked the most questions this server allows from one network "
                               "(1 in 1 hour, whoever asked them). You can ask again in 20 minutes (at 15:00 UTC).")
    assert refusal.resets_at == datetime(2024, 10, 15, 15, 0, tzinfo=timezone.utc).timestamp()
    chinese = admit(third, limited, counter, slots, peer=LOOPBACK, question="贵州茅台最近怎么样？", now=AT_1440 + 60)
    assert chinese is not None and chinese.message == (
        "您所在的网络已达到本服务器对单个网络允许的提问次数上限（1 小时内 1 个问题，不论由谁提出）。"
        "19 分钟后（UTC 15:00）可以再次提问。")
    assert admit(fresh_visitor(), limited, counter, slots, peer=Peer("198.51.100.4"), question="How is AAPL?",
                 now=AT_1440) is None, "another network still may"
    next_hour = AT_1440 + 20 * 60
    assert admit(third, limited, counter, slots, peer=LOOPBACK, question="How is AAPL?", now=next_hour) is None


def test_the_visitor_limit_still_speaks_first_and_does_not_spend_the_networks_allowance(backend):
    limited = backend.settings.replace(question_limit=1, network_question_limit=2, question_window_s=3600)
    counter, slots = open_counter(limited), RunSlots()
    alice = fresh_visitor()
    assert admit(alice, limited, counter, slots, peer=LOOPBACK, now=AT_1440) is None
    for _ in range(3):                                  # Alice asking again and again: her own limit
        refusal = admit(alice, limited, counter, slots, peer=LOOPBACK, now=AT_1440)
        assert refusal.reason == "questions"
        assert refusal.message == ("You have asked the most questions this server allows (1 in 1 hour). "
                                   "You can ask again in 20 minutes (at 15:00 UTC).")
    assert admit(fresh_visitor(), limited, counter, slots, peer=LOOPBACK, now=AT_1440) is None, \
        "her neighbour still has the network's second question"
    assert admit(fresh_visitor(), limited, counter, slots, peer=LOOPBACK, now=AT_1440).reason == "network"


def test_a_networks_allowance_is_five_visitors_by_default_and_zero_switches_it_off(backend):
    limited = backend.settings.replace(question_limit=1, question_window_s=3600)
    counter, slots = open_counter(limited), RunSlots()
    assert limited.network_limit == 5
    answered = [admit(fresh_visitor(), limited, counter, slots, peer=LOOPBACK, now=AT_1440) for _ in range(6)]
    assert answered[:5] == [None] * 5 and answered[5].reason == "network"
    off = limited.replace(network_question_limit=0)
    assert admit(fresh_visitor(), off, counter, slots, peer=LOOPBACK, now=AT_1440) is None
    assert admit(fresh_visitor(), limited, counter, slots, peer=None, now=AT_1440) is None, \
        "no connection to read (bare mode): the visitor's limit alone"


def test_counters_never_hold_an_address_or_a_token(backend):
    limited = backend.settings.replace(question_limit=3, network_question_limit=3)
    token = new_token()
    assert admit(anonymous_owner(token), limited, open_counter(limited), RunSlots(), peer=Peer("203.0.113.77"),
                 now=AT_1440) is None
    if backend.server is not None:
        held = backend.server.values()
    else:
        folder = limited.data_dir / "limits"
        held = " ".join(f"{p.name} {p.read_text()}" for p in folder.iterdir())
    assert held and "203.0.113.77" not in held and token not in held and "net:" not in held


@pytest.mark.parametrize(("address", "network"), [
    ("203.0.113.7", "net:203.0.113.7"),
    ("::ffff:203.0.113.7", "net:203.0.113.7"),                       # IPv4 carried in IPv6: the IPv4 address
    ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "net:2001:db8:1:2::/64"),
    ("2001:db8:1:2::1", "net:2001:db8:1:2::/64"),                    # the same /64: one network
    ("2001:db8:1:3::1", "net:2001:db8:1:3::/64"),                    # the next /64: another
    ("fe80::1%eth0", "net:fe80::/64"),
    ("not an address", None),
])
def test_a_network_is_an_ipv4_address_or_an_ipv6_64(address, network):
    assert client_network(Peer(address)) == network


def test_two_addresses_in_one_ipv6_64_share_one_allowance(settings):
    limited = settings.replace(question_limit=1, network_question_limit=1)
    counter, slots = open_counter(limited), RunSlots()
    assert admit(fresh_visitor(), limited, counter, slots, peer=Peer("2001:db8:7:7::1"), now=AT_1440) is None
    assert admit(fresh_visitor(), limited, counter, slots, peer=Peer("2001:db8:7:7:ffff::2"),
                 now=AT_1440).reason == "network", "a new address from the same /64 is the same network"
    assert admit(fresh_visitor(), limited, counter, slots, peer=Peer("2001:db8:7:8::1"), now=AT_1440) is None


FORGED = "6.6.6.6, 7.7.7.7"          # what a client may write itself


@pytest.mark.parametrize(("trusted", "peer", "network"), [
    (0, Peer("203.0.113.7", FORGED), "net:203.0.113.7"),                  # by default the header is ignored
    (1, Peer("10.0.0.2", "6.6.6.6, 198.51.100.9"), "net:198.51.100.9"),   # one proxy: the address it appended
    (2, Peer("10.0.0.2", "6.6.6.6, 198.51.100.9, 10.0.0.1"), "net:198.51.100.9"),
    (2, Peer("10.0.0.2", "198.51.100.9"), "net:198.51.100.9"),            # fewer hops than proxies: the leftmost
    (1, Peer("10.0.0.2", None), "net:10.0.0.2"),                          # no header: the peer
    (("10.0.0.0/8",), Peer("10.0.0.2", "6.6.6.6, 198.51.100.9, 10.0.0.1"), "net:198.51.100.9"),
    (("10.0.0.0/8",), Peer("203.0.113.7", FORGED), "net:203.0.113.7"),    # an untrusted peer's header: ignored
    (("10.0.0.0/8",), Peer("10.0.0.2", "garbage, 198.51.100.9"), "net:198.51.100.9"),
    (("127.0.0.1/32",), Peer("127.0.0.1", "[2001:db8::5]:443"), "net:2001:db8::/64"),
    (("::1/128",), Peer("127.0.0.1", "198.51.100.9:5123"), "net:198.51.100.9"),   # loopback trusts loopback
])
def test_x_forwarded_for_is_read_only_as_far_as_trusted_proxies_wrote_it(trusted, peer, network):
    assert client_network(peer, trusted) == network


def test_a_script_forging_x_forwarded_for_stays_one_network(settings):
    """Without a trusted proxy, a client that writes a new X-Forwarded-For for every question (and drops
    its cookie) is still counted by the address it connects from."""
    limited = settings.replace(question_limit=1, network_question_limit=1)
    counter, slots = open_counter(limited), RunSlots()
    asked = [admit(fresh_visitor(), limited, counter, slots, peer=Peer("127.0.0.1", f"198.51.100.{i}"),
                   now=AT_1440) for i in range(3)]
    assert asked[0] is None and [r.reason for r in asked[1:]] == ["network", "network"]


@pytest.mark.parametrize(("env", "field", "value"), [
    ({"FINSEARCH_NETWORK_QUESTION_LIMIT": "300"}, "network_question_limit", 300),
    ({"FINSEARCH_NETWORK_QUESTION_LIMIT": "0"}, "network_limit", 0),
    ({"FINSEARCH_QUESTION_LIMIT": "10"}, "network_limit", 50),
    ({"FINSEARCH_TRUSTED_PROXIES": "2"}, "trusted_proxies", 2),
    ({"FINSEARCH_TRUSTED_PROXIES": "10.0.0.5, 172.16.0.0/12 ::1"}, "trusted_proxies",
     ("10.0.0.5/32", "172.16.0.0/12", "::1/128")),
    ({}, "trusted_proxies", 0),
    ({"FINSEARCH_MODEL_CALLS_PER_MINUTE": "30"}, "model_calls_per_minute", 30),
    ({"FINSEARCH_MODEL_CALLS_PER_DAY": "2000"}, "model_calls_per_day", 2000),
])
def test_the_new_limits_read_from_the_environment(env, field, value):
    assert getattr(from_env(env), field) == value


def test_a_bad_trusted_proxy_is_a_config_error_naming_it():
    with pytest.raises(ConfigError, match="FINSEARCH_TRUSTED_PROXIES wants .* not 'proxy.example'"):
        from_env({"FINSEARCH_TRUSTED_PROXIES": "10.0.0.1, proxy.example"})
