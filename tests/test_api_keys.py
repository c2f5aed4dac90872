"""API keys over real HTTP: none on loopback, required on any other address (or when the operator
says so), 401 without one or with a wrong or revoked one, another key's run not found; only a hash
kept, in files or in a real Redis; made, listed and revoked on the command line; never logged."""

from __future__ import annotations

import hashlib
import logging

import pytest

from finsearch.cli import main
from finsearch.hosting import api_keys
from finsearch.hosting.api_keys import FileApiKeyStore, RedisApiKeyStore
from finsearch.service.callers import keys_required, loopback_only
from finsearch.settings import Settings
from tests.api_kit import NOW, QUESTION, served_api

ASK = {"question": QUESTION, "now": NOW}


@pytest.mark.parametrize("host, required", [("127.0.0.1", False), ("localhost", False), ("::1", False),
                                            ("127.0.0.2", False), ("0.0.0.0", True), ("::", True),
                                            ("192.0.2.10", True), ("api.example.com", True)])
def test_keys_are_needed_unless_the_server_listens_on_loopback_only(host, required):
    assert loopback_only(host) is not required
    assert keys_required(host, Settings()) is required
    assert keys_required(host, Settings(api_keys_required=True)) is True
    assert keys_required("127.0.0.1", Settings(trusted_proxies=1)) is True    # a proxy in front: callers are elsewhere


def test_on_loopback_no_key_is_needed_but_a_call_through_a_proxy_needs_one(demo_settings):
    with served_api(demo_settings) as api, api.client() as client:
        assert client.post("/v1/ask", json=ASK).status_code == 200
        proxied = client.post("/v1/ask", json=ASK, headers={"X-Forwarded-For": "203.0.113.7"})
        wrong = client.post("/v1/ask", json=ASK, headers={"Authorization": "Bearer fsk_000000000000_" + "A" * 43})
    assert proxied.status_code == 401 and "needs an API key" in proxied.json()["error"]
    assert wrong.status_code == 401 and "not valid" in wrong.json()["error"]      # a key sent is always checked


def test_a_server_on_every_address_refuses_a_call_without_a_key(demo_settings):
    with served_api(demo_settings, host="0.0.0.0") as api, api.client() as client:
        refused = client.post("/v1/ask", json=ASK)
        looked = client.get("/v1/runs/AAAAAAAAAAAAAAAA")
    for answer in (refused, looked):
        assert answer.status_code == 401 and answer.headers["WWW-Authenticate"] == "Bearer"
        assert answer.json()["error"].startswith("this server needs an API key: send the header 'Authorization: Bearer")


def _every_stored_byte(settings: Settings) -> bytes:
    return b"".join(p.read_bytes() for p in settings.data_dir.rglob("*") if p.is_file())


def test_keys_admit_their_holder_revoked_ones_are_refused_and_only_a_hash_is_kept(demo_settings, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    settings = demo_settings.replace(api_keys_required=True)
    store = FileApiKeyStore(settings.data_dir)
    mine, my_key = api_keys.create(store, "analyst bot")
    theirs, their_key = api_keys.create(store, "another team")
    with served_api(settings) as api:
        with api.client() as anonymous:
            assert anonymous.post("/v1/ask", json=ASK).status_code == 401
        with api.client(my_key) as me, api.client(their_key) as them:
            answered = me.post("/v1/ask", json=ASK)
            assert answered.status_code == 200
            run_id = answered.json()["run_id"]
            assert me.get(f"/v1/runs/{run_id}").status_code == 200
            assert them.get(f"/v1/runs/{run_id}").status_code == 404      # another key's run: not found
            assert api.state.store.owner_of(run_id) == f"key:{mine.key_id}"
            assert api_keys.revoke(store, mine.key_id)
            revoked = me.get(f"/v1/runs/{run_id}")
            assert revoked.status_code == 401 and "not valid" in revoked.json()["error"]
            assert them.post("/v1/ask", json=ASK).status_code == 200
    kept = _every_stored_byte(settings)
    assert my_key.encode() not in kept and their_key.encode() not in kept
    assert hashlib.sha256(their_key.encode()).hexdigest().encode() in kept
    printed = capsys.readouterr()
    served = "\n".join([r.getMessage() for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
                       + [printed.out, printed.err])
    assert "POST /v1/ask" in served                  # the server's log is there, and holds no key
    assert my_key not in served and their_key not in served and "Bearer fsk" not in served


def test_keys_in_redis_are_shared_by_servers_and_kept_as_hashes(demo_settings, redis_server):
    settings = demo_settings.replace(redis_url=redis_server.url, api_keys_required=True)
    kept, key = api_keys.create(RedisApiKeyStore(redis_server.url), "in redis")
    with served_api(settings) as one, served_api(settings) as other:
        with one.client(key) as first, other.client(key) as second:
            run_id = first.post("/v1/ask", json=ASK).json()["run_id"]
            assert second.get(f"/v1/runs/{run_id}").status_code == 200          # one store, one set of keys
            assert api_keys.revoke(RedisApiKeyStore(redis_server.url), kept.key_id)
            assert second.get(f"/v1/runs/{run_id}").status_code == 401
    assert key not in redis_server.values()
    assert not list(settings.data_dir.glob("api_keys/*"))          # nothing of it in files


def test_the_operator_makes_lists_and_revokes_keys_on_the_command_line(sample_app_env, capsys):
    assert main(["api-key", "create", "--label", "dashboard\x1b[2J"]) == 0
    made = capsys.readouterr()
    key = made.out.strip()
    assert api_keys.KEY_PATTERN.match(key) and key not in made.err
    key_id = key.split("_")[1]
    assert main(["api-key", "list"]) == 0
    listed = capsys.readouterr().out
    assert listed.startswith(key_id) and "dashboard" in listed and "\x1b" not in listed and key not in listed
    assert main(["api-key", "revoke", key_id]) == 0
    assert main(["api-key", "list"]) == 0 and capsys.readouterr().out == ""
    assert main(["api-key", "revoke", key_id]) == 2
    assert main(["api-key", "revoke", "../../etc"]) == 2
    assert "is not a key id" in capsys.readouterr().err
