"""The operator's API key goes only to the operator's model server, whatever a visitor
types into Settings; visitors' own servers are refused, allowed public-only, or allowed
outright, as the operator decides. Two real loopback OpenAI-compatible servers stand for
the operator's and a visitor's; the app runs through AppTest, the calls through the SDK."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from finsearch.errors import LLMError
from finsearch.model.endpoint import check_visitor_url, for_visitor, is_internal_host
from finsearch.model.llm import LLMClient
from finsearch.model.loopback import LoopbackModel, Reply
from finsearch.settings import from_env
from tests.app_kit import APP, settle
from tests.test_pipeline import PLAN

OPERATOR_KEY = "sk-operator-SECRET-7f3a"


def answering() -> LoopbackModel:
    """A started model server that plans, keeps the rule-based rewrites, answers and judges."""
    server = LoopbackModel()
    server.on("plan", Reply(content=json.dumps(PLAN)))
    server.on("rewrite", Reply(content="no change"))
    server.on("judge", Reply(content=json.dumps({"presentation": {}, "entailment": []})))
    server.on("answer", Reply(stream_pieces=["NVIDIA fell last week [1]."]))
    return server.start()


@pytest.fixture
def servers():
    operator, visitor = answering(), answering()
    yield operator, visitor
    operator.stop()
    visitor.stop()


@pytest.fixture
def app_env(monkeypatch, sample_app_env, servers):
    operator, _ = servers
    monkeypatch.setenv("OPENAI_API_KEY", OPERATOR_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", operator.base_url)
    return monkeypatch


def visit_settings(base_url: str | None = None, key: str | None = None, judge: bool = False) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.switch_page("pages/settings.py").run()
    assert not at.exception
    url_box = next(t for t in at.text_input if t.label.startswith("Base URL"))
    if base_url is not None and not url_box.disabled:
        url_box.input(base_url).run()
    if key:
        at.text_input(key="api-key-entry").input(key).run()
    if judge:
        next(t for t in at.toggle if t.label.startswith("LLM judge")).set_value(True).run()
    return at


def ask(at: AppTest, question: str = "Why did NVDA fall last week?") -> AppTest:
    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value(question).run()
    return settle(at, 40)


def bearer(server: LoopbackModel) -> set[str]:
    return {h.get("authorization", "") for h in server.headers}


def test_a_visitors_server_never_receives_the_operators_key(app_env, servers):
    operator, visitor = servers
    app_env.setenv("FINSEARCH_VISITOR_MODEL_SERVERS", "any")
    at = ask(visit_settings(visitor.base_url, judge=True))
    result = at.session_state["finsearch_chat"].turns[0].result
    assert result.answer.writer == "llm" and result.judgement is not None
    assert visitor.requests and not operator.requests
    assert bearer(visitor) == {"Bearer not-needed"}, "no key at all, never the operator's"
    assert all(OPERATOR_KEY not in json.dumps(h) for h in visitor.headers)
    judge_calls = [b for b, kind in zip(visitor.requests, visitor.kinds(), strict=True) if kind == "judge"]
    assert judge_calls, "the judge used the visitor's server too"


def test_a_visitors_own_key_goes_to_their_server(app_env, servers):
    operator, visitor = servers
    app_env.setenv("FINSEARCH_VISITOR_MODEL_SERVERS", "any")
    ask(visit_settings(visitor.base_url, key="sk-visitor-1"))
    assert bearer(visitor) == {"Bearer sk-visitor-1"} and not operator.requests


def test_public_only_refuses_a_loopback_server_and_uses_the_operators(app_env, servers):
    operator, visitor = servers
    app_env.setenv("FINSEARCH_VISITOR_MODEL_SERVERS", "public")
    at = visit_settings(visitor.base_url)
    assert any("loopback or private address" in w.value for w in at.warning)
    ask(at)
    assert not visitor.requests, "the server did not POST to the visitor's loopback URL"
    assert operator.requests and bearer(operator) == {f"Bearer {OPERATOR_KEY}"}


def test_by_default_a_hosted_app_offers_no_base_url_and_ignores_a_forged_one(app_env, servers):
    operator, visitor = servers
    at = visit_settings()
    url_box = next(t for t in at.text_input if t.label.startswith("Base URL"))
    assert url_box.disabled and url_box.value == "" and operator.base_url not in (url_box.placeholder or "")
    at.session_state["finsearch_settings"].overrides["base_url"] = visitor.base_url    # a forged session value
    ask(at)
    assert not visitor.requests and operator.requests


def test_the_operators_organisation_and_project_stay_home(app_env, servers):
    operator, visitor = servers
    app_env.setenv("FINSEARCH_VISITOR_MODEL_SERVERS", "any")
    app_env.setenv("OPENAI_ORG_ID", "org-operator-secret")
    app_env.setenv("OPENAI_PROJECT_ID", "proj-operator-secret")
    ask(visit_settings(visitor.base_url, key="sk-visitor-2"))
    assert visitor.requests
    assert not [h for h in visitor.headers if "openai-organization" in h or "openai-project" in h]


def test_the_key_is_never_shown_back(app_env, servers):
    app_env.setenv("FINSEARCH_VISITOR_MODEL_SERVERS", "any")
    at = ask(visit_settings(servers[1].base_url, key="sk-visitor-SHOWN-9"))
    at.switch_page("pages/settings.py").run()
    shown = [m.value for m in at.markdown] + [c.value for c in at.caption] + [t.value or "" for t in at.text_input]
    assert not any("SHOWN-9" in s or OPERATOR_KEY in s for s in shown)


# -- the rule itself, without the app ----------------------------------------------------------

SERVER = from_env({"OPENAI_API_KEY": OPERATOR_KEY, "OPENAI_BASE_URL": "https://models.example.com/v1"})


@pytest.mark.parametrize(("url", "key", "policy", "base_url", "api_key", "refused"), [
    (None, None, "off", "https://models.example.com/v1", OPERATOR_KEY, False),
    ("https://models.example.com/v1/", None, "public", "https://models.example.com/v1", OPERATOR_KEY, False),
    ("https://other.example/v1", None, "off", "https://models.example.com/v1", OPERATOR_KEY, True),
    ("https://other.example/v1", None, "public", "https://other.example/v1", None, False),
    ("https://other.example/v1", "sk-mine", "public", "https://other.example/v1", "sk-mine", False),
    ("http://127.0.0.1:8080/v1", None, "public", "https://models.example.com/v1", OPERATOR_KEY, True),
    ("http://127.0.0.1:8080/v1", None, "any", "http://127.0.0.1:8080/v1", None, False),
])
def test_which_server_and_key(url, key, policy, base_url, api_key, refused):
    endpoint = for_visitor(SERVER, url, key, policy)
    assert endpoint.settings.base_url == base_url and endpoint.settings.api_key == api_key
    assert bool(endpoint.refusal) is refused


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST.", "api.localhost", "127.0.0.1", "127.1", "2130706433",
                                  "0x7f.1", "0.0.0.0", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254",
                                  "[::1]", "::ffff:127.0.0.1", "fd00::1", "100.64.0.1", "::127.0.0.1",
                                  "::ffff:0:127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "fec0::1"])
def test_internal_hosts_are_recognised(host):
    assert is_internal_host(host)


@pytest.mark.parametrize("host", ["api.openai.com", "8.8.8.8", "models.example.com", "2606:4700::1111"])
def test_public_hosts_pass(host):
    assert not is_internal_host(host)


@pytest.mark.parametrize(("url", "message"), [
    ("ftp://models.example.com", "must start with http"),
    ("https://user:pw@models.example.com/v1", "key field, not in the base URL"),
    ("http://[::1]:99999/v1", "not a valid URL"),
    ("http://a..b/v1", "not a valid URL"),
    ("http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54:1/v1",        # full-width "localhost"
     "localhost is a loopback or private address"),
])
def test_unusable_urls_are_refused_with_a_reason(url, message):
    assert message in check_visitor_url(url, "public")


def test_the_guard_refuses_internal_addresses_at_connect_time(fake_llm, llm_settings):
    """Even a name the settings check cannot judge is checked on its resolved addresses."""
    guarded = llm_settings.replace(model_guard=True, base_url=fake_llm.base_url.replace("127.0.0.1", "localhost"))
    with LLMClient(guarded) as client, pytest.raises(LLMError, match="loopback or private address"):
        client.complete([{"role": "user", "content": "hi"}])
    assert not fake_llm.requests
