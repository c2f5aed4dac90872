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
        "An older quote of $42.06 dates from 2025-06-12, 8 days before the close of 2025-06-20 [1][2]."]


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


def test_an_english_reply_to_tariffs_is_told_in_chinese_by_its_points():
    # "丰田对关税有什么回应？" said only that Toyota responded, as a wire reported: not what it said.
    held = story("Carmaker says it will keep US prices unchanged for now", "2025-06-18T09:00:00Z",
                 "The company said it would absorb the tariff cost through August.", "Harbor Newswire")
    assert lead("丰田对关税有什么回应？", [held], "TM") == [
        "丰田（TM）在 2025-06-18 的说明中表示：将自行消化相关成本，暂时维持价格不变 [1]。"]


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
    # the lead gave the quote's price and day: the detail adds only its change and market cap
    assert english.count("$94.37") == 1
    assert "Walmart (WMT) moved -0.27% on 2025-09-23, market cap $810.00B [2]." in english
    chinese = pipeline.ask("沃尔玛现在股价多少？", settings=settings).answer.markdown.replace("\\", "")
    assert "最新价 94.37美元" not in chinese
    assert chinese.count("94.37美元") == 1
    assert "沃尔玛（WMT）2025-09-23 当日 -0.27%，市值 8,100亿美元 [2]。" in chinese


def _falling_prices(ticker):
    closes = [("2025-06-12", 30.0), ("2025-06-13", 30.1), ("2025-06-16", 28.9), ("2025-06-17", 28.2),
              ("2025-06-18", 27.6), ("2025-06-19", 27.7), ("2025-06-20", 27.8)]
    rows = [[d, c, c, c, c, 1000] for d, c in closes]
    moves = sorted(({"date": d, "change_pct": round((c / p - 1) * 100, 2)}
                    for (_, p), (d, c) in zip(closes, closes[1:], strict=False)), key=lambda m: -abs(m["change_pct"]))
    return Evidence.from_untrusted({"title": "prices", "period": {"start": "2025-05-20", "end": "2025-06-20"},
                                    "data": {"ticker": ticker, "currency": "USD", "rows": rows,
                                             "stats": {"focus": {"start": "2025-05-20", "end": "2025-06-20"},
                                                       "biggest_moves": moves, "return_pct": -7.3}}},
                                   source="price_history", kind="finance")


def test_the_case_against_worry_is_the_companys_own_answer_to_the_blow_and_a_story_in_another_language():
    # "Should I be worried about Honda?" said the case for worry (a fall after tariffs) and nothing against
    # it, though the story it cited says the company shifts production to limit tariff costs; and a Chinese
    # story calling the impact limited was left out of an English answer.
    tariffs = story("Carmaker to shift more production to the US to limit tariff costs", "2025-06-16T05:00:00Z",
                    "It builds about two-thirds of the cars it sells in the US locally.", "Harbor Newswire")
    said = lead("Should I be worried about Honda?", [_falling_prices("HMC"), tariffs], "HMC")
    assert said[0].startswith("The case for worry about Honda Motor (HMC): it fell")
    assert said[1] == ("The case against: Harbor Newswire wrote: “Carmaker to shift more production to the US to "
                       "limit tariff costs” [2].")
    calm = story("机构：关税影响有限 无需过度恐慌", "2025-06-17T09:00:00Z", "短期情绪冲击大于基本面影响。",
                 "中国证券报")
    slump = story("Carmaker shares slide as tariffs bite", "2025-06-16T21:00:00Z", "", "Ledger Wire")
    said = lead("Should I be worried about Honda?", [_falling_prices("HMC"), slump, calm], "HMC")
    assert "The case against: China Securities Journal played the fall down on 2025-06-17 [3]." in said


def test_a_case_for_or_against_worry_quotes_the_storys_sentence_with_the_figures_not_its_headline():
    beat = story("美团一季度业绩超预期 核心本地商业经营利润大增", "2025-06-16T10:30:00Z",
                 "美团第一季度营收866亿元，同比增长18%，高于市场预期的851亿元；经调整净利润109亿元。", "财经观察网")
    said = lead("我该担心美团吗？", [beat], "3690.HK")
    assert said[0] == "利好：财经观察网写道：“美团第一季度营收866亿元，同比增长18%，高于市场预期的851亿元” [1]。"
