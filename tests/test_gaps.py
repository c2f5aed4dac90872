"""What an answer says it could not find: one human sentence per missing piece, by failure
kind, in the answer's language; unknown symbols; what the offline sample holds. Expected
sentences are written out by hand."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone

import pytest

from finsearch import pipeline
from finsearch.answer.gaps import gap_sentences, suggestions
from finsearch.answer.generator import AnswerWriter
from finsearch.catalogue import CATALOGUE
from finsearch.errors import FailureKind, NoData, RateLimited, Refused, TimedOut, Unreachable
from finsearch.evidence import Evidence
from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.phrases import LANGUAGES, phrasebook
from finsearch.plan.analysis import analyse
from finsearch.sources.hub import DataHub
from finsearch.sources.replay import write_recording

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)
EN = analyse("What do analysts say about NVDA?", NOW)
ZH = analyse("英伟达的分析师目标价是多少？", NOW)
QUOTE = Evidence.from_untrusted({"title": "NVDA quote", "published": "2024-10-15T20:00:00Z",
                                 "data": {"ticker": "NVDA", "currency": "USD", "last": 131.6}},
                                source="quote", kind="finance")


def graph_with(analysis, *failed: tuple[str, dict, FailureKind | None, str], quote_found: bool = True):
    """A quote for NVDA that was found (so NVDA is a real ticker), and the failed nodes given
    as (source, args, kind, the developer's reason)."""
    graph = SearchGraph(analysis.question, analysis.time_context)
    nodes = [SearchNode("n1", "q", "quote", {"ticker": "NVDA"}, analysis.time_context,
                        status=NodeStatus.DONE, evidence=(QUOTE,))] if quote_found else []
    for i, (source, args, kind, reason) in enumerate(failed, start=2):
        nodes.append(SearchNode(f"n{i}", "q", source, args, analysis.time_context,
                                status=NodeStatus.FAILED, error=reason, failure=kind))
    for node in nodes:
        graph._insert(node)
    return graph


@pytest.mark.parametrize(("kind", "en", "zh"), [
    (FailureKind.NO_DATA, "Found no analyst data for NVIDIA (NVDA).", "未找到英伟达（NVDA）的分析师数据。"),
    (FailureKind.UNKNOWN_SYMBOL, "Found no analyst data for NVIDIA (NVDA).", "未找到英伟达（NVDA）的分析师数据。"),
    (FailureKind.NOT_IN_PACK, "The recorded data holds no analyst data for NVIDIA (NVDA).",
     "回放数据中没有英伟达（NVDA）的分析师数据。"),
    (FailureKind.NOT_CACHED, "The offline cache holds no analyst data for NVIDIA (NVDA); go online to fetch it.",
     "离线缓存中没有英伟达（NVDA）的分析师数据，联网后即可获取。"),
    (FailureKind.UNREACHABLE, "The data provider could not be reached, so no analyst data came back for "
                              "NVIDIA (NVDA).", "无法连接数据源，未能获取英伟达（NVDA）的分析师数据。"),
    (FailureKind.RATE_LIMITED, "The data provider is limiting requests, so no analyst data came back for "
                               "NVIDIA (NVDA); try again in a minute.",
     "数据源限制了请求频率，未能获取英伟达（NVDA）的分析师数据，请稍后再试。"),
    (FailureKind.TIMED_OUT, "The data provider did not answer in time, so no analyst data came back for "
                            "NVIDIA (NVDA).", "数据源未及时响应，未能获取英伟达（NVDA）的分析师数据。"),
    (FailureKind.REFUSED, "The data provider refused the request, so no analyst data came back for NVIDIA (NVDA).",
     "数据源拒绝了请求，未能获取英伟达（NVDA）的分析师数据。"),
    (FailureKind.STOPPED, "Stopped before the analyst data for NVIDIA (NVDA) came back.",
     "已停止，未获取英伟达（NVDA）的分析师数据。"),
    (FailureKind.OUT_OF_TIME, "This question's time ran out before the analyst data for NVIDIA (NVDA) came back.",
     "本问题的时间已用完，未能获取英伟达（NVDA）的分析师数据。"),
    (FailureKind.SKIPPED, "The analyst data for NVIDIA (NVDA) was not searched, as the step it needed did not run.",
     "所依赖的步骤未执行，未查询英伟达（NVDA）的分析师数据。"),
    (FailureKind.FAILED, "The analyst data for NVIDIA (NVDA) could not be fetched (the source failed).",
     "数据源出错，未能获取英伟达（NVDA）的分析师数据。"),
    (FailureKind.SWITCHED_OFF, "Searching analyst data is switched off in settings, so none came back for "
                               "NVIDIA (NVDA).", "设置中已关闭分析师数据搜索，未获取英伟达（NVDA）的分析师数据。"),
    (None, "The analyst data for NVIDIA (NVDA) could not be fetched (the source failed).",   # a stored old run
     "数据源出错，未能获取英伟达（NVDA）的分析师数据。"),
])
def test_one_sentence_per_failure_kind_in_both_languages(kind, en, zh):
    failed = ("analyst", {"ticker": "NVDA"}, kind, "internal: KeyError('recommendationMean')")
    assert gap_sentences(graph_with(EN, failed), EN) == [en]
    assert gap_sentences(graph_with(ZH, failed), ZH) == [zh]


def test_every_failure_kind_and_every_source_has_its_wording():
    for language in LANGUAGES:
        book = phrasebook(language)
        never_said = {"gap.unknown_symbol", "gap.not_in_pack", "gap.left_out"}
        assert {f"gap.{k.value}" for k in FailureKind} - never_said <= set(book)
        assert {f"data.{source}" for source in CATALOGUE} <= set(book)


def test_pieces_missing_the_same_way_make_one_sentence():
    graph = graph_with(EN, ("analyst", {"ticker": "NVDA"}, FailureKind.NO_DATA, "r1"),
                       ("earnings", {"ticker": "NVDA"}, FailureKind.NO_DATA, "r2"),
                       ("profile", {"ticker": "AAPL"}, FailureKind.TIMED_OUT, "r3"),
                       ("profile", {"ticker": "MSFT"}, FailureKind.TIMED_OUT, "r4"),
                       ("web_search", {"query": "chip export curbs"}, FailureKind.NO_DATA, "r5"))
    assert gap_sentences(graph, EN) == [
        "Found no analyst data or earnings data for NVIDIA (NVDA).",
        "The data provider did not answer in time, so no profile data came back for Apple (AAPL) or Microsoft (MSFT).",
        "Found no web results for “chip export curbs”."]


def test_an_unknown_symbol_is_said_once_with_near_symbols():
    analysis = analyse("How is NVDQ doing?", NOW)
    graph = graph_with(analysis, ("price_history", {"ticker": "NVDQ"}, FailureKind.NO_DATA, "no data for NVDQ"),
                       ("news", {"ticker": "NVDQ"}, FailureKind.NO_DATA, "no news found for NVDQ"),
                       ("quote", {"ticker": "NVDQ"}, FailureKind.UNKNOWN_SYMBOL, "Yahoo does not know NVDQ"),
                       quote_found=False)
    assert gap_sentences(graph, analysis) == ["NVDQ is not a known symbol (did you mean NVIDIA (NVDA)?)."]
    zh = analyse("NVDQ最近怎么样？", NOW)
    assert gap_sentences(graph, zh) == ["NVDQ不是已知的证券代码（您要找的是否是NVIDIA（NVDA）？）。"]
    assert [i.ticker for i in suggestions("APPL")] == ["AAPL", "APP"]
    assert suggestions("ZZZZQ") == []


def test_a_symbol_is_not_called_unknown_without_the_evidence():
    # A known ticker with no data anywhere, and an unknown one whose sources could not be reached.
    analysis = analyse("Compare AMD and ZZZZQ", NOW)
    graph = graph_with(analysis, ("quote", {"ticker": "AMD"}, FailureKind.NO_DATA, "r1"),
                       ("quote", {"ticker": "ZZZZQ"}, FailureKind.UNREACHABLE, "r2"), quote_found=False)
    assert gap_sentences(graph, analysis) == [
        "Found no quotes for Advanced Micro Devices (AMD).",
        "The data provider could not be reached, so no quotes came back for ZZZZQ."]


def test_the_offline_sample_says_what_it_holds(demo_settings):
    result = pipeline.ask("How is AMD doing?", settings=demo_settings)
    assert result.answer.markdown.split("\n\n")[0] == (
        "The offline sample has no price history, quotes, news or web results for Advanced Micro Devices (AMD). "
        "The sample holds only quotes, price history and news for AAPL, MSFT, NVDA, TSLA and 600519.SS; "
        "web results for NVDA.")
    zh = pipeline.ask("贵州茅台市值多少", settings=demo_settings)
    # An A-share's valuation also asks for its P/E against its industry's (cninfo), which the sample lacks.
    assert "离线示例数据中没有贵州茅台（600519.SS）的公司资料或行业估值对比。示例数据只有AAPL、MSFT、NVDA、TSLA和" \
           "600519.SS的报价、历史行情和新闻；NVDA的网页搜索结果。" in zh.answer.markdown


def test_the_sample_coverage_comes_from_the_pack_itself(tmp_path, settings):
    (tmp_path / "_pack.json").write_text(json.dumps({"label": "tiny sample", "sample": True}), "utf-8")
    write_recording(tmp_path, "quote", {"ticker": "XOM"},
                    [{"title": "XOM quote", "published": "2024-10-15T20:00:00Z",
                      "data": {"ticker": "XOM", "currency": "USD", "last": 120.5}}], NOW)
    result = pipeline.ask("Exxon market cap and valuation", settings=settings.replace(pack=tmp_path, offline=True))
    assert "The sample holds only quotes for XOM." in result.answer.markdown


def test_an_unknown_symbol_on_the_demo_pack(demo_settings):
    assert pipeline.ask("How is ZZZZQ doing?", settings=demo_settings).answer.markdown.split("\n\n")[0] == \
        "ZZZZQ is not a known symbol."
    assert pipeline.ask("ZZZZQ最近怎么样？", settings=demo_settings).answer.markdown.split("\n\n")[0] == \
        "ZZZZQ不是已知的证券代码。"


@pytest.mark.parametrize("question", [
    "贵州茅台市值多少", "特斯拉上周为什么跌", "How is ZZZZQ doing?", "How is AMD doing?",
    "Which is bigger by market cap, Apple or Microsoft?", "茅台最近一个月表现如何？"])
def test_no_answer_carries_an_internal_reason(demo_settings, question):
    result = pipeline.ask(question, settings=demo_settings)
    failed = [n for n in result.graph if n.status is not NodeStatus.DONE]
    assert all(n.error and n.failure for n in failed)                # the reason stays on the node
    text = result.answer.markdown
    assert "not in replay pack" not in text and "replay" not in text.lower()
    assert not any(n.error in text for n in failed)


@pytest.mark.parametrize(("error", "kind", "said"), [
    (RateLimited("Yahoo Finance rate-limited the request; retried 3 times"), FailureKind.RATE_LIMITED,
     "is limiting requests"),
    (TimedOut("Yahoo Finance did not answer within 5 s"), FailureKind.TIMED_OUT, "did not answer in time"),
    (Refused("Yahoo Finance refused the request (it did not accept the session)"), FailureKind.REFUSED,
     "refused the request, so"),
    (Unreachable("cannot reach Yahoo Finance (is the network down?)"), FailureKind.UNREACHABLE,
     "could not be reached"),
    (NoData("no data for NVDA from Yahoo Finance"), FailureKind.NO_DATA, "Found no"),
    (RuntimeError("curl: (35) OpenSSL SSL_connect: SSL_ERROR_SYSCALL"), FailureKind.FAILED,
     "could not be fetched (the source failed)"),
])
def test_the_executor_keeps_the_kind_and_the_answer_says_it(settings, error, kind, said):
    class Failing:
        def fetch(self, source, args):
            raise error

    hub = DataHub(settings, adapters={source: Failing() for source in CATALOGUE})
    result = pipeline.ask("How is NVDA doing?", settings=settings, hub=hub)
    history = next(n for n in result.graph if n.source == "price_history")
    assert history.failure is kind and history.error
    assert said in result.answer.markdown
    assert str(error) not in result.answer.markdown and "RuntimeError" not in result.answer.markdown
    assert SearchNode.from_dict(history.to_dict()).failure is kind      # stored runs keep it


def test_the_model_is_told_the_gaps_in_the_same_words():
    graph = graph_with(EN, ("analyst", {"ticker": "NVDA"}, FailureKind.NOT_IN_PACK,
                            "not in replay pack: no analyst call for NVDA"))
    prompt = AnswerWriter(EN, graph, NOW)._messages()[1]["content"]
    assert "- The recorded data holds no analyst data for NVIDIA (NVDA)." in prompt
    assert "not in replay pack" not in prompt


def test_reference_titles_of_computed_data_follow_the_answer_language(demo_settings):
    zh = pipeline.ask("茅台最近一个月表现如何？", settings=demo_settings).answer
    titles = [r.title for r in zh.references]
    assert titles[0] == "茅台（600519.SS）日线行情（2024-09-15 至 2024-10-15）"
    assert "茅台（600519.SS）最新行情" in titles
    assert "贵州茅台随消费板块大涨，刺激政策提振市场信心（示例）" in titles       # news as published
    assert "市值 1.96万亿元" in zh.markdown and "¥" not in zh.markdown
    cap = pipeline.ask("贵州茅台市值多少", settings=demo_settings).answer
    assert [r.title for r in cap.references] == ["贵州茅台（600519.SS）最新行情"]
    tesla = pipeline.ask("特斯拉上周为什么跌", settings=demo_settings).answer
    assert "市值 7,050亿美元" in tesla.markdown and "$" not in tesla.markdown
    assert "特斯拉（TSLA）最新行情" in [r.title for r in tesla.references if r.url is None]
    en = pipeline.ask("Which is bigger by market cap, Apple or Microsoft?", settings=demo_settings).answer
    assert [r.title for r in en.references][:2] == ["Apple (AAPL) quote", "Microsoft (MSFT) quote"]


def test_what_a_query_said_is_escaped_in_the_gap():
    graph = graph_with(EN, ("web_search", {"query": "[click](javascript:alert(1)) **now**"},
                            FailureKind.NO_DATA, "no web results"))
    writer = AnswerWriter(EN, graph, NOW)
    list(writer.stream())
    text = writer.answer.markdown
    assert "Found no web results for “\\[click\\](javascript:alert(1)) \\*\\*now\\*\\*”." in text
    assert not re.search(r"(?<!\\)\]\(", text), "no live link"


def test_a_source_switched_off_in_settings_is_said_so(demo_settings):
    result = pipeline.ask("How is NVDA doing?", settings=demo_settings.replace(disabled_sources=frozenset({"quote"})))
    quote = next(n for n in result.graph if n.source == "quote")
    assert quote.failure is FailureKind.SWITCHED_OFF and "switched off" in quote.error
    assert "Searching quotes is switched off in settings, so none came back for NVIDIA (NVDA)." in \
        result.answer.markdown


def test_a_missing_piece_the_opening_already_names_is_not_said_twice(demo_settings):
    answer = pipeline.ask("NVDA analyst targets", settings=demo_settings).answer.markdown
    assert answer.startswith("No analyst data was found for NVIDIA (NVDA), so there is no target to report.")
    assert answer.count("analyst data") == 1
    assert "The sample holds only quotes, price history and news for AAPL" in answer  # what the sample has, still


PROBES = __import__("pathlib").Path(__file__).resolve().parent / "probes" / "packs"


@pytest.mark.parametrize(("question", "yields", "missing", "contradicting"), [
    ("Compare the dividend yields of Costco and Walmart", "Walmart (WMT) is higher at 0.92%",
     "no dividend history for Costco (COST) or Walmart (WMT)", "dividend data"),
    ("Costco和沃尔玛的股息率对比", "沃尔玛（WMT）更高，为 0.92%", "Costco（COST）或沃尔玛（WMT）的分红历史",
     "分红数据"),
])
def test_a_missing_dividend_history_is_named_as_such_beside_yields_another_source_gave(
        tmp_path, question, yields, missing, contradicting):
    # The profile gave both yields; the payment history was not in the pack. The gap said "no
    # dividend data for Costco or Walmart" right after the yields it had just ranked.
    from finsearch.settings import from_env

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic",
                        now=datetime(2025, 9, 26, 20, 30, tzinfo=timezone.utc)).replace(
        pack=PROBES / "us_valuation", offline=True)
    markdown = pipeline.ask(question, settings=settings).answer.markdown.replace("\\", "")
    assert yields in markdown.split("\n\n", 1)[0]
    assert missing in markdown
    assert contradicting not in markdown
