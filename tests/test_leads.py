"""Leads by intent on planted evidence (finsearch.answer.lead and its writers): what the first
paragraph says when the data is partial, stale or in another language. Expected sentences are
written out by hand."""

from __future__ import annotations

from datetime import UTC, date, datetime

from finsearch.answer.lead import opening
from finsearch.answer.view import AnswerView
from finsearch.evidence import Evidence
from finsearch.graph import NodeStatus, SearchGraph, SearchNode
from finsearch.plan.analysis import analyse
from finsearch.timecontext import TimeContext

NOW = datetime(2025, 6, 20, 20, 30, tzinfo=UTC)
TC = TimeContext(date(2025, 6, 20), date(2025, 6, 20), "today", explicit=False)


def finance(source, ticker, data, published="2025-06-20T20:00:00Z"):
    return Evidence.from_untrusted({"title": f"{ticker} {source}", "published": published,
                                    "data": {"ticker": ticker, **data}}, source=source, kind="finance")


def story(title, published, snippet="", publisher="Wire", source="news"):
    return Evidence.from_untrusted({"title": title, "url": f"https://e.test/{abs(hash(title))}", "publisher": publisher,
                                    "published": published, "snippet": snippet}, source=source, kind="news")


def lead(question, items, ticker):
    analysis = analyse(question, NOW)
    node = SearchNode("n1", "all", "news", {"ticker": ticker}, TC, status=NodeStatus.DONE, evidence=tuple(items))
    graph = SearchGraph.build(question, TC, [node])
    names = {e.ticker: e.display(analysis.language) for e in analysis.entities if e.ticker}
    return list(opening(AnswerView.of(analysis, list(items), graph, names, "today", NOW)).sentences)


def test_a_brokers_target_in_a_story_answers_when_no_analyst_data_was_found():
    quote = finance("quote", "ADBE", {"currency": "USD", "last": 423.78, "as_of": "2025-06-20T20:00:00Z"})
    downgrade = story("Jefferies downgrades Adobe to hold, cuts target to $450", "2025-06-18T12:30:00Z")
    assert lead("What is the analyst price target for Adobe?", [quote, downgrade], "ADBE") == [
        "No analysts' consensus target for Adobe (ADBE) was found; Wire reported a target of $450.00 on 2025-06-18: "
        "“Jefferies downgrades Adobe to hold, cuts target to $450” [2]."]


def test_the_price_now_is_the_freshest_close_and_the_old_quote_says_its_age():
    rows = [["2025-06-18", 41.0, 41.0, 41.0, 41.0, 1], ["2025-06-20", 43.0, 43.0, 43.0, 43.0, 1]]
    history = finance("price_history", "VZ", {"currency": "USD", "rows": rows, "stats": {}}, published=None)
    quote = finance("quote", "VZ", {"currency": "USD", "last": 42.06, "as_of": "2025-06-12T20:00:00Z"},
                    published="2025-06-12T20:00:00Z")
    assert lead("What is Verizon's stock price right now?", [history, quote], "VZ") == [
        "Verizon (VZ) closed at $43.00 on 2025-06-20 [1].",
        "An older quote of $42.06 dates from 2025-06-12, 8 days before that [2]."]


def test_a_payout_question_without_a_payout_ratio_says_what_was_read():
    dividends = finance("dividends", "KO", {"currency": "USD", "dividends": [{"date": "2025-06-13", "amount": 0.51}],
                                            "trailing_yield_pct": 2.9})
    news = story("Coca-Cola raises its dividend for the 63rd year", "2025-02-11T12:00:00Z")
    assert lead("What is Coca-Cola's payout ratio?", [dividends, news], "KO")[0] == (
        "No payout ratio for Coca-Cola (KO) was found in what was read (dividend history and news; 2 in all).")


def test_a_yes_or_no_comparison_is_answered_yes_or_no_with_both_values():
    a = finance("profile", "ADBE", {"ratios": {"trailing_pe": 31.5}})
    b = finance("profile", "CRM", {"ratios": {"trailing_pe": 42.8}})
    sentences = lead("Is Salesforce cheaper than Adobe on P/E?", [a, b], "ADBE")
    assert sentences[0] == ("No. On trailing P/E, Adobe (ADBE) is cheaper at 31.50, against Salesforce (CRM) at "
                            "42.80 [1][2].")


def test_a_ranking_names_the_instruments_that_lack_the_metric():
    a = finance("dividends", "VZ", {"trailing_yield_pct": 6.27, "dividends": []})
    b = finance("dividends", "T", {"trailing_yield_pct": 4.66, "dividends": []})
    sentences = lead("Compare the dividend yields of Verizon, AT&T and Tesla", [a, b], "VZ")
    assert sentences[:2] == ["By dividend yield, Verizon (VZ) is higher at 6.27%, against AT&T (T) at 4.66% [1][2].",
                             "No dividend yield was found for Tesla (TSLA)."]


def test_a_reply_in_chinese_is_told_in_english_by_its_points():
    notice = story("五粮液关于投资者关注事项的说明公告", "2025-04-09T16:00:00Z",
                   "相关政策尚处于征求意见阶段，公司目前生产经营正常，不存在应披露而未披露的重大信息。",
                   "巨潮资讯 cninfo", source="cn_announcements")
    sentences = lead("Did Wuliangye respond to the tax news?", [notice], "000858.SZ")
    # Stamped 16:00 UTC: midnight of 2025-04-10 in Beijing, the day the References list shows too.
    assert sentences == ["In its statement of 2025-04-10, Wuliangye (000858.SZ) said its operations are normal, the "
                         "policy is still a draft open for comment, it has no undisclosed material information [1]."]


PROBES = __import__("pathlib").Path(__file__).resolve().parent / "probes" / "packs"


def test_a_quote_newer_closes_left_behind_is_no_last_trade_anywhere_in_the_answer(tmp_path):
    # The lead gave the newer close and the quote's age; the detail below it still said "last traded at
    # $94.37 … as of 2025-09-23", three days before the close it had just given.
    from finsearch import pipeline
    from finsearch.settings import from_env

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic",
                        now=datetime(2025, 9, 26, 20, 30, tzinfo=UTC)).replace(pack=PROBES / "us_valuation",
                                                                                offline=True)
    english = pipeline.ask("What is Walmart trading at?", settings=settings).answer.markdown.replace("\\", "")
    assert english.startswith("Walmart (WMT) closed at $95.99 on 2025-09-26 [1].")
    assert "last traded at $94.37" not in english
    assert "Walmart (WMT) was quoted at $94.37 (-0.27% on the day), market cap $810.00B on 2025-09-23 [2]." in english
    chinese = pipeline.ask("沃尔玛现在股价多少？", settings=settings).answer.markdown.replace("\\", "")
    assert "最新价 94.37美元" not in chinese
    assert "沃尔玛（WMT）在 2025-09-23 的报价为 94.37美元（当日 -0.27%），市值 8,100亿美元 [2]。" in chinese
