"""The operator's model budget (issue 31 item 3): calls a minute and a day on the server's own model
account, checked before each model call, shared by replicas through Redis. The call past the budget
is never sent (the loopback model logs every call it gets); the stage falls back to the rules and
the answer's notes say the budget is used up and when it resets, in the answer's language. A
visitor's own key or server is not counted."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from finsearch import pipeline
from finsearch.errors import ModelBudgetSpent
from finsearch.model import budget
from finsearch.model.budget import ModelBudget
from finsearch.model.endpoint import for_visitor
from finsearch.model.loopback import Reply
from finsearch.settings import from_env
from tests.conftest import DEMO_PACK

# 14:40:15 UTC: this minute's budget resets at 14:41 (in under a minute); today's at 00:00.
AT = datetime(2024, 10, 15, 14, 40, 15, tzinfo=timezone.utc).timestamp()
QUESTION = "Why did NVDA fall last week?"
PLAN = Reply(content='{"nodes": [{"id": "n1", "source": "price_history", "depends_on": [], '
                     '"sub_query": "NVDA price last week", "args": {"ticker": "NVDA", "start": "2024-10-07", '
                     '"end": "2024-10-11"}}]}')
ANSWER = Reply(stream_pieces=["NVDA fell last week [1]."])


@pytest.fixture
def clock(monkeypatch):
    """The budget's clock, held still (a run never straddles a minute) and moved by the test."""
    now = {"t": AT}
    monkeypatch.setattr(budget, "clock", lambda: now["t"])
    return now


def test_a_budget_refuses_the_call_past_it_and_says_when_it_resets(backend, clock):
    settings = backend.settings.replace(llm="openai", base_url="http://127.0.0.1:9/v1", api_key="operator-key",
                                        model_calls_per_minute=2, model_calls_per_day=3)
    spending = ModelBudget.of(settings)
    spending.spend()
    spending.spend()
    with pytest.raises(ModelBudgetSpent) as spent:
        spending.spend()
    assert (spent.value.period, spent.value.calls) == ("minute", 2)
    assert spent.value.resets_at == datetime(2024, 10, 15, 14, 41, tzinfo=timezone.utc).timestamp()
    assert str(spent.value) == "the server's model budget is used up (2 calls a minute); it resets at 14:41 UTC"
    clock["t"] = AT + 60                                  # the next minute: one more call is left for today
    ModelBudget.of(settings).spend()
    with pytest.raises(ModelBudgetSpent) as spent:
        ModelBudget.of(settings).spend()
    assert (spent.value.period, spent.value.calls) == ("day", 3)
    assert spent.value.resets_at == datetime(2024, 10, 16, tzinfo=timezone.utc).timestamp()
    assert budget.spent_note(spent.value, "en", now=AT + 60) == (
        "The server's model budget is used up (3 model calls a day), so the rest of this answer was written by "
        "the rules without the model. It resets in 10 hours (at 00:00 UTC).")
    assert budget.spent_note(spent.value, "zh", now=AT + 60) == (
        "服务器的模型调用额度已用完（每天 3 次），本回答其余部分由规则生成，未调用模型。"
        "额度将在 10 小时后（UTC 00:00）恢复。")


def test_only_the_operators_account_is_budgeted(settings):
    server = settings.replace(llm="openai", base_url="https://models.operator.example/v1", api_key="operator-key",
                              model_calls_per_minute=5)
    assert ModelBudget.of(server) is not None, "the operator's server and key"
    assert ModelBudget.of(server.replace(model_calls_per_minute=0)) is None, "0: no budget"
    own_key = for_visitor(server, None, "visitor-key", "off").settings
    assert ModelBudget.of(own_key) is None, "the visitor's key pays for the visitor's calls"
    own_server = for_visitor(server, "https://api.visitor.example/v1", "visitor-key", "public").settings
    assert ModelBudget.of(own_server) is None, "a visitor's own server"
    refused = for_visitor(server, "https://api.visitor.example/v1", None, "off").settings
    assert refused.api_key == "operator-key" and ModelBudget.of(refused) is not None, \
        "a refused server falls back to the operator's: budgeted"
    keyless = server.replace(api_key=None)                # the operator's own local model, no key
    assert ModelBudget.of(for_visitor(keyless, None, "any-key", "off").settings) is not None, \
        "a key typed for the operator's keyless server does not spare the operator's budget"


def _model_settings(base, fake_llm, **budget_settings):
    return base.replace(llm="openai", base_url=fake_llm.base_url, api_key="test-key", model="fake-model",
                        llm_timeout_s=3.0, pack=DEMO_PACK, offline=True, **budget_settings)


def test_the_call_past_the_budget_is_never_made_and_the_answer_says_so(backend, fake_llm, clock):
    fake_llm.on("plan", PLAN)
    fake_llm.on("answer", ANSWER)
    settings = _model_settings(backend.settings, fake_llm, model_calls_per_minute=1)
    result = pipeline.ask(QUESTION, settings=settings)
    assert fake_llm.kinds() == ["plan"], "the answer's call would have been the second this minute"
    assert result.answer.writer == "heuristic" and result.stats.llm_calls == 1
    note = ("The server's model budget is used up (1 model call a minute), so the rest of this answer was written "
            "by the rules without the model. It resets in 1 minute (at 14:41 UTC).")
    assert note in result.notes

    again = pipeline.ask("贵州茅台最近一个月表现如何？", settings=settings)       # the same minute: no call at all
    assert fake_llm.kinds() == ["plan"] and again.stats.llm_calls == 0 and again.planner == "heuristic"
    assert ("服务器的模型调用额度已用完（每分钟 1 次），本回答其余部分由规则生成，未调用模型。"
            "额度将在 1 分钟后（UTC 14:41）恢复。") in again.notes

    clock["t"] = AT + 60                                  # the next minute: the model is called again
    pipeline.ask(QUESTION, settings=settings)
    assert fake_llm.kinds() == ["plan", "plan"]


def test_replicas_spend_one_budget_through_redis(redis_server, fake_llm, clock, tmp_path):
    fake_llm.on("plan", PLAN)
    fake_llm.on("answer", ANSWER)
    replicas = [_model_settings(from_env({}, cache_dir=tmp_path / f"cache{i}", data_dir=tmp_path / f"data{i}",
                                         now=datetime(2024, 10, 15, 20, tzinfo=timezone.utc), node_timeout_s=5.0),
                                fake_llm, model_calls_per_minute=3, redis_url=redis_server.url) for i in (1, 2)]
    first = pipeline.ask(QUESTION, settings=replicas[0])
    assert fake_llm.kinds() == ["plan", "answer"] and first.answer.writer == "llm"
    # Another replica, another data folder: one budget (asked in other words: the same question would be
    # answered from the answer cache the replicas share, with no model call at all).
    second = pipeline.ask("Why did NVDA drop last week?", settings=replicas[1])
    assert fake_llm.kinds() == ["plan", "answer", "plan"], "the third call of the minute was the last"
    assert second.answer.writer == "heuristic"
    assert any("(3 model calls a minute)" in note for note in second.notes)
