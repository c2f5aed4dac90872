"""What an answer cost (issue 33 §3): model calls and tokens per stage, through the real LLMClient
against the loopback OpenAI-compatible server, priced from FINSEARCH_MODEL_PRICES; carried by
`ask --json`, the text mode, the stored records (old ones still load) and the evaluation's summary.

Prices here are made up for the arithmetic (the project ships none): $2.50 / $10 per million
tokens in / out for the run's model, $1 / $4 for the judge's."""

import json

import pytest

from finsearch import pipeline
from finsearch.errors import ConfigError
from finsearch.evaluate.summary import markdown, summarise_rows
from finsearch.model.loopback import Reply
from finsearch.model.prices import ModelPrice, parse_prices, price_for
from finsearch.model.usage import ModelUsage, StageUsage
from finsearch.model.usage_text import stage_lines, usage_line
from finsearch.research.record import from_record as report_from_record
from finsearch.research.record import to_record as report_to_record
from finsearch.research.run import report
from finsearch.result import RunResult
from finsearch.settings import from_env
from finsearch.store.runs import summary_from_json, summary_json, summary_of
from tests.test_cli import NOW as CLI_NOW
from tests.test_cli import cli
from tests.test_pipeline import PLAN, script
from tests.test_research import NOW as REPORT_NOW
from tests.test_research import NVIDIA
from tests.test_research import PACK as REPORT_PACK

PRICES = '{"fake-model": {"input": 2.5, "output": 10}, "judge-model": {"input": 1, "output": 4}}'
QUESTION = "Why did NVDA fall last week?"
ANSWER = ["NVDA fell about 7% last week [", "1]; the biggest drop was on Oct 11 [2]."]


def scripted(fake_llm, *, send_usage: bool = True) -> None:
    """The plan (1,200 tokens in, 150 out) and the answer (3,000 in, 400 out); the rules rewrite."""
    script(fake_llm, Reply(stream_pieces=ANSWER, prompt_tokens=3000, completion_tokens=400, send_usage=send_usage))
    fake_llm.on("plan", Reply(content=json.dumps(PLAN), prompt_tokens=1200, completion_tokens=150,
                              send_usage=send_usage))


def priced(settings, table: str = PRICES):
    return settings.replace(model_prices=parse_prices(table))


def test_a_run_counts_each_stage_and_prices_it(llm_settings, fake_llm, demo_settings):
    scripted(fake_llm)
    result = pipeline.ask(QUESTION, settings=priced(llm_settings.replace(pack=demo_settings.pack, offline=True)))
    assert fake_llm.kinds() == ["plan", "answer"]
    usage = result.usage
    # plan: 1,200 × 2.5 + 150 × 10 = 4,500 millionths; answer: 3,000 × 2.5 + 400 × 10 = 11,500.
    assert usage.by_stage == (StageUsage("plan", "fake-model", 1, 1200, 150, False, 0.0045),
                              StageUsage("answer", "fake-model", 1, 3000, 400, False, 0.0115))
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens, usage.cost_usd) == (2, 4200, 550, 0.016)
    assert result.stats.llm_calls == 2 and result.stats.prompt_tokens == 4200, "the stats agree"
    out = result.to_dict()
    assert out["usage"] == {"calls": 2, "prompt_tokens": 4200, "completion_tokens": 550, "estimated": False,
                            "cost_usd": 0.016, "by_stage": [
                                {"stage": "plan", "model": "fake-model", "calls": 1, "prompt_tokens": 1200,
                                 "completion_tokens": 150, "estimated": False, "cost_usd": 0.0045},
                                {"stage": "answer", "model": "fake-model", "calls": 1, "prompt_tokens": 3000,
                                 "completion_tokens": 400, "estimated": False, "cost_usd": 0.0115}]}
    assert usage_line(usage, "en") == "2 model calls · 4,200 tokens in / 550 out · $0.0160"
    assert stage_lines(usage, "en") == ["plan: 1 call · 1,200 in / 150 out · $0.0045",
                                        "answer: 1 call · 3,000 in / 400 out · $0.0115"]
    assert usage_line(usage, "zh") == "调用模型 2 次 · 输入 4,200 / 输出 550 token · 0.0160 美元"


def test_an_unpriced_model_shows_tokens_only(llm_settings, fake_llm, demo_settings):
    scripted(fake_llm)
    settings = priced(llm_settings.replace(pack=demo_settings.pack, offline=True),
                      '{"gpt-4o": {"input": 1, "output": 1}}')
    usage = pipeline.ask(QUESTION, settings=settings).usage
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens) == (2, 4200, 550)
    assert usage.cost_usd is None and all(s.cost_usd is None for s in usage.by_stage)
    assert usage_line(usage, "en") == "2 model calls · 4,200 tokens in / 550 out"


def test_a_server_that_reports_no_usage_gives_estimated_counts_marked_so(llm_settings, fake_llm, demo_settings):
    scripted(fake_llm, send_usage=False)
    usage = pipeline.ask(QUESTION, settings=priced(llm_settings.replace(pack=demo_settings.pack, offline=True))).usage
    assert usage.estimated and all(s.estimated for s in usage.by_stage)
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0
    assert 1200 not in {s.prompt_tokens for s in usage.by_stage}, "not the counts the server would have said"
    assert usage_line(usage, "en").startswith("2 model calls · ≈")
    assert stage_lines(usage, "en")[-1] == "≈ estimated from the text: the model server reported no token counts"


def test_the_judge_is_a_stage_of_its_own_priced_as_its_own_model(llm_settings, fake_llm, demo_settings):
    scripted(fake_llm)
    verdict = {"presentation": {k: 3 for k in ("conclusion_first", "clear_structure", "key_insights_emphasised",
                                                "tables_for_dense_data", "aligned_comparisons",
                                                "consistent_formatting", "claim_evidence_chain",
                                                "risks_and_limitations")},
               "entailment": [{"sentence": 0, "verdict": "supported"}]}
    fake_llm.on("judge", Reply(content=json.dumps(verdict), prompt_tokens=2000, completion_tokens=100))
    settings = priced(llm_settings.replace(pack=demo_settings.pack, offline=True, judge=True,
                                           judge_model="judge-model"))
    result = pipeline.ask(QUESTION, settings=settings)
    judge = result.usage.by_stage[-1]
    # 2,000 × $1 + 100 × $4 per million = $0.0024, on top of the run's $0.016.
    assert judge == StageUsage("judge", "judge-model", 1, 2000, 100, False, 0.0024)
    assert result.usage.cost_usd == 0.0184 and result.usage.calls == 3
    assert result.stats.llm_calls == 2, "the stats stay the run's own"
    assert stage_lines(result.usage, "en")[-1] == "judge (judge-model): 1 call · 2,000 in / 100 out · $0.0024"


def test_ask_json_and_its_text_mode_carry_the_usage(tmp_path, fake_llm):
    scripted(fake_llm)
    env = {"OPENAI_BASE_URL": fake_llm.base_url, "OPENAI_API_KEY": "test-key", "FINSEARCH_MODEL": "fake-model",
           "FINSEARCH_MODEL_PRICES": PRICES}
    done = cli("ask", QUESTION, "--now", CLI_NOW, "--offline", "--json", tmp_path=tmp_path, extra_env=env)
    assert done.returncode == 0, done.stderr
    usage = json.loads(done.stdout)["usage"]
    assert (usage["calls"], usage["prompt_tokens"], usage["completion_tokens"], usage["cost_usd"]) == (2, 4200, 550,
                                                                                                       0.016)
    assert [s["stage"] for s in usage["by_stage"]] == ["plan", "answer"]
    # A cache of its own: asked again in the same one, the kept answer would be given, with no model call.
    text = cli("ask", QUESTION, "--now", CLI_NOW, "--offline", tmp_path=tmp_path / "text", extra_env=env)
    assert ("Model use: 2 model calls · 4,200 tokens in / 550 out · $0.0160 (plan: 1 call · 1,200 in / 150 out · "
            "$0.0045; answer: 1 call · 3,000 in / 400 out · $0.0115)") in text.stdout
    heuristic = cli("ask", QUESTION, "--now", CLI_NOW, "--offline", "--json", tmp_path=tmp_path)
    assert json.loads(heuristic.stdout)["usage"] == {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0,
                                                     "estimated": False, "cost_usd": None, "by_stage": []}


def test_a_stored_run_keeps_its_usage_and_an_old_record_still_loads(llm_settings, fake_llm, demo_settings):
    scripted(fake_llm)
    result = pipeline.ask(QUESTION, settings=priced(llm_settings.replace(pack=demo_settings.pack, offline=True)))
    record = json.loads(json.dumps(result.to_record()))
    assert RunResult.from_record(record).usage == result.usage
    summary = summary_of(record, 1.0)
    assert summary.usage == result.usage and summary_from_json(summary_json(summary)) == summary, "History's row"
    del record["usage"]                                     # a run stored before usage was kept
    old = RunResult.from_record(record)
    assert old.usage is None and old.to_dict()["usage"] is None and usage_line(old.usage, "en") is None
    assert summary_of(record, 1.0).usage is None


def test_a_reports_usage_splits_outline_plans_sections_and_summary(llm_settings, fake_llm):
    outline_json = {"type": "company", "sections": [
        {"title": "Results", "key_questions": ["What were NVIDIA's latest revenue, net income and EPS?"]},
        {"title": "Valuation", "key_questions": ["What are NVIDIA's market cap and P/E ratio?"]}]}
    fake_llm.on("outline", Reply(content=json.dumps(outline_json), prompt_tokens=1000, completion_tokens=200))
    fake_llm.on("plan", Reply(content="{}", prompt_tokens=500, completion_tokens=10))
    fake_llm.on("section", Reply(content="NVIDIA's figures are in the cited source [1].", prompt_tokens=3000,
                                 completion_tokens=50))
    fake_llm.on("summary", Reply(content="- The results and the valuation are both covered [1][2].",
                                 prompt_tokens=1500, completion_tokens=80))
    settings = priced(llm_settings.replace(pack=REPORT_PACK, offline=True, now=REPORT_NOW))
    done = report(NVIDIA, settings=settings, now=REPORT_NOW)
    assert sorted(fake_llm.kinds()) == ["outline", "plan", "plan", "section", "section", "summary"]
    # outline 1,000 × 2.5 + 200 × 10; plans 2 × (500 × 2.5 + 10 × 10); sections 2 × (3,000 × 2.5 + 50 × 10);
    # summary 1,500 × 2.5 + 80 × 10 (millionths of a dollar).
    assert done.usage.by_stage == (StageUsage("plan", "fake-model", 2, 1000, 20, False, 0.0027),
                                   StageUsage("outline", "fake-model", 1, 1000, 200, False, 0.0045),
                                   StageUsage("section", "fake-model", 2, 6000, 100, False, 0.016),
                                   StageUsage("summary", "fake-model", 1, 1500, 80, False, 0.00455))
    assert done.usage.cost_usd == 0.02775 and done.stats.llm_calls == 6
    assert done.to_dict()["usage"]["cost_usd"] == 0.02775
    back = report_from_record(json.loads(json.dumps(report_to_record(done))))
    assert back.usage == done.usage
    assert summary_of(report_to_record(done), 1.0).usage == done.usage
    old = report_to_record(done)
    del old["usage"]
    assert report_from_record(old).usage is None


def test_an_outline_written_for_approval_is_counted_in_its_report(llm_settings, fake_llm):
    from finsearch.research.run import outline_for

    fake_llm.on("outline", Reply(content=json.dumps({"type": "company", "sections": [
        {"title": "Results", "key_questions": ["What were NVIDIA's latest revenue, net income and EPS?"]}]}),
        prompt_tokens=1000, completion_tokens=200))
    settings = priced(llm_settings.replace(pack=REPORT_PACK, offline=True, now=REPORT_NOW))
    outline = outline_for(NVIDIA, settings=settings, now=REPORT_NOW)
    done = report(NVIDIA, settings=settings, now=REPORT_NOW, outline=outline)
    assert fake_llm.kinds().count("outline") == 1
    assert [s for s in done.usage.by_stage if s.stage == "outline"] == [
        StageUsage("outline", "fake-model", 1, 1000, 200, False, 0.0045)]


def test_the_price_table_setting():
    table = from_env({"FINSEARCH_MODEL_PRICES": '{"gpt-4o-mini": {"input": 0.15, "output": 0.6}}'}).model_prices
    assert table == (ModelPrice("gpt-4o-mini", 0.15, 0.6),)
    assert price_for(table, "gpt-4o-mini") == price_for(table, "openai/gpt-4o-mini") == table[0]
    assert price_for(table, "gpt-4o") is None and price_for(table, "gpt-4o-mini-2024") is None
    assert from_env({}).model_prices == (), "no prices ship"


def test_the_price_table_from_a_file(tmp_path):
    path = tmp_path / "prices.json"
    path.write_text('{"local/qwen2.5": {"input": 0, "output": 0}}', "utf-8")
    assert from_env({"FINSEARCH_MODEL_PRICES": str(path)}).model_prices == (ModelPrice("local/qwen2.5", 0, 0),)


@pytest.mark.parametrize("value, says", [
    ("{not json", "FINSEARCH_MODEL_PRICES is not valid JSON"),
    ("[1, 2]", "must be a JSON object of model → prices"),
    ('{"gpt-4o": 0.15}', 'give each model its "input" and "output" prices'),
    ('{"gpt-4o": {"input": 1}}', 'give each model its "input" and "output" prices'),
    ('{"gpt-4o": {"input": -1, "output": 2}}', "input price must be a number of US dollars per million tokens"),
    ('{"gpt-4o": {"input": "cheap", "output": 2}}', "input price must be a number"),
    ('{"gpt-4o": {"input": 1, "output": true}}', "output price must be a number"),
    ("/no/such/prices.json", "neither a JSON object nor a readable JSON file"),
])
def test_a_bad_price_table_is_a_clear_config_error(value, says):
    with pytest.raises(ConfigError) as raised:
        from_env({"FINSEARCH_MODEL_PRICES": value})
    assert says in str(raised.value)


def _row(variant_usage: ModelUsage | None, **extra) -> dict:
    usage = variant_usage.to_json() if variant_usage is not None else None
    return {"id": extra.pop("id"), "correct": True, "llm_calls": usage and usage["calls"], "usage": usage, **extra}


def test_the_eval_summary_sums_tokens_and_cost_per_variant():
    price = ModelPrice("m", 2.5, 10)
    one = ModelUsage().counted("plan", "m", calls=1, prompt_tokens=1200, completion_tokens=150, price=price)
    two = one.counted("answer", "m", calls=1, prompt_tokens=3000, completion_tokens=400, price=price)
    rows = [_row(one, id="a"), _row(two, id="b"),
            {"id": "c", "correct": False, "llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}]
    summary = summarise_rows(rows)
    # a: 1,200 / 150, $0.0045; b: 4,200 / 550, $0.016; c: the rules alone.
    assert (summary["prompt_tokens_total"], summary["completion_tokens_total"], summary["cost_usd_total"]) == (
        5400, 700, 0.0205)
    unpriced = ModelUsage().counted("plan", "x", calls=1, prompt_tokens=100, completion_tokens=10)
    partly = summarise_rows([*rows, _row(unpriced, id="d")])
    assert partly["prompt_tokens_total"] == 5500 and partly["cost_usd_total"] is None, "no partial sum as a cost"
    # Rows written before usage was kept: their own token counts, no cost.
    old = summarise_rows([{"id": "e", "correct": True, "llm_calls": 2, "prompt_tokens": 900, "completion_tokens": 90}])
    assert (old["prompt_tokens_total"], old["completion_tokens_total"], old["cost_usd_total"]) == (900, 90, None)
    table = markdown({"format": "mcq", "dataset": "d", "variants": {"full": summary}})
    assert "| tokens in (sum) | tokens out (sum) | cost (USD) |" in table
    assert "| 5400 | 700 | 0.0205 |" in table
