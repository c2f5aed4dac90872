"""The evidence reader and what it reads out (finsearch.answer.reader, quantities, stated, asked):
sentences of snippets, figures with their units, guidance against consensus, results against
estimates, a company's reply, and what a question asks beyond its intents. Expected values are
written out by hand."""

from __future__ import annotations

import pytest

from finsearch.answer.asked import asked
from finsearch.answer.quantities import quantities
from finsearch.answer.reader import Passage, Reader, sentences
from finsearch.answer.stated import guidance_in, is_guidance, reply_points, results_vs_expected
from finsearch.evidence import Evidence


def story(title, snippet="", published="2025-03-13T20:00:00Z"):
    return Evidence.from_untrusted({"title": title, "url": "https://e.test/x", "publisher": "Wire",
                                    "published": published, "snippet": snippet}, source="news", kind="news")


def passage(text, language="en"):
    return Passage(story("t"), text, False, language, None, "ADBE")


def test_a_snippet_splits_into_sentences_but_not_at_decimals_or_abbreviations():
    text = "Revenue was $5.71 billion. The U.S. may widen curbs. Apple Inc. said so. 营收增长。利润下降！"
    assert sentences(text) == [
        "Revenue was $5.71 billion.", "The U.S. may widen curbs.", "Apple Inc. said so.", "营收增长。", "利润下降！"]


def test_the_reader_finds_the_snippet_sentence_that_answers_before_the_headline():
    item = story("Adobe's annual forecast underwhelms",
                 "Adobe forecast fiscal 2025 revenue of $23.30 billion to $23.55 billion, below the consensus "
                 "estimate of $23.70 billion. The chief executive said AI would help.")
    reader = Reader([(item, "ADBE")], "en")
    assert [p.text for p in reader.passages] == [
        "Adobe's annual forecast underwhelms",
        "Adobe forecast fiscal 2025 revenue of $23.30 billion to $23.55 billion, below the consensus estimate of "
        "$23.70 billion.",
        "The chief executive said AI would help."]
    import re
    best = reader.find([item], re.compile(r"forecast", re.I), "what guidance did Adobe give")
    assert best[0].text.startswith("Adobe forecast fiscal 2025 revenue")


@pytest.mark.parametrize("text, lines", [
    ("Adobe reported revenue of $5.71 billion and adjusted earnings of $5.08 a share, ahead of the $5.66 billion "
     "and $4.97 analysts expected.", [("revenue", 5.71e9, 5.66e9, "beat"), ("eps", 5.08, 4.97, "beat")]),
    ("Meituan reported revenue of 86.6 billion yuan, above the 85.1 billion yuan analysts expected.",
     [("revenue", 86.6e9, 85.1e9, "beat")]),
    ("美团第一季度营收866亿元，同比增长18%，高于市场预期的851亿元。", [("revenue", 866e8, 851e8, "beat")]),
    ("Net profit of $1.2 billion fell short of the $1.4 billion consensus.", [("profit", 1.2e9, 1.4e9, "missed")]),
    # a forecast against the consensus is guidance, not results; a preview states no results
    ("Adobe forecast revenue of $23.30 billion, below the consensus estimate of $23.70 billion.", []),
    ("Analysts expect revenue of $5.66 billion and adjusted earnings of $4.97 a share.", []),
])
def test_results_against_what_was_expected(text, lines):
    found = results_vs_expected([passage(text, "zh" if "营收" in text else "en")])
    assert [(v.line, round(v.reported.value, 2), round(v.expected.value, 2), v.verdict) for v in found] == lines


@pytest.mark.parametrize("text, expected", [
    ("Adobe forecast fiscal 2025 revenue of $23.30 billion to $23.55 billion, below the consensus estimate of "
     "$23.70 billion.", (23.3e9, 23.55e9, 23.7e9, "below")),
    ("Walmart kept its full-year earnings forecast of $2.52 to $2.62 a share.", (2.52, 2.62, None, None)),
    ("公司预计全年营收为900亿元至950亿元，高于市场一致预期的880亿元。", (900e8, 950e8, 880e8, "above")),
])
def test_a_guidance_range_and_the_consensus_it_is_set_against(text, expected):
    found = guidance_in([passage(text, "zh" if "公司" in text else "en")])
    got = (round(found.low.value, 2), round(found.high.value, 2) if found.high else None,
           round(found.consensus.value, 2) if found.consensus else None, found.verdict)
    assert got == expected


def test_what_analysts_expect_is_not_the_companys_guidance():
    assert not is_guidance("Analysts expect revenue of $5.66 billion, according to consensus estimates.")
    assert not is_guidance("Meituan's profit beats forecasts on strong food delivery.")
    assert is_guidance("The company guided fiscal revenue to $23.3 billion.")


def test_the_points_of_a_companys_reply():
    assert reply_points("相关政策尚处于征求意见阶段，公司目前生产经营正常，不存在应披露而未披露的重大信息。") == [
        "normal", "draft", "no_undisclosed"]
    assert reply_points("The company denied the report and said operations were normal.") == ["normal", "denied"]
    # a company's answer to a tariff or a cost shock
    assert reply_points("Toyota says it will keep US prices unchanged for now") == ["prices_held"]
    assert reply_points("Toyota said it would absorb the tariff cost through May.") == ["absorb"]
    assert reply_points("公司表示将自行消化关税成本，暂不调价。") == ["prices_held", "absorb"]
    assert reply_points("Prices of imported cars are expected to rise.") == []


def finance(source, data, published="2025-06-20T20:00:00Z"):
    return Evidence.from_untrusted({"title": source, "published": published, "data": data},
                                   source=source, kind="finance")


def test_quantities_from_payloads_in_their_units():
    found = quantities([
        finance("profile", {"ticker": "VZ", "ratios": {"trailing_pe": 10.2, "forward_pe": 9.1, "payout_ratio": 0.645,
                                                       "dividend_yield": 6.27}}),
        finance("cn_dividends", {"ticker": "600900.SS", "plans": [
            {"plan": "10派9.43元(含税)", "board_date": "2025-04-28", "payout_ratio": "70.32%"}]}),
        finance("profile", {"ticker": "T", "ratios": {"payout_ratio": 68.3, "profit_margin": 13.4}}),
    ], [])
    got = {(q.ticker, q.kind): (q.value, q.per_ten) for q in found}
    assert got[("VZ", "payout_ratio")] == (64.5, False)          # Yahoo's fraction, in percent
    assert got[("T", "payout_ratio")] == (68.3, False)           # already percent beside a percent margin
    assert got[("600900.SS", "payout_ratio")] == (70.32, False)
    assert got[("600900.SS", "dividend_per_share")] == (pytest.approx(0.943), True)
    assert got[("VZ", "pe_forward")] == (9.1, False)


@pytest.mark.parametrize("text, kind, value", [
    ("The payout ratio is about 64% of earnings.", "payout_ratio", 64.0),
    ("It pays out 70.3% of its net profit.", "payout_ratio", 70.3),
    ("长江电力现金分红占归母净利润的70.32%。", "payout_ratio", 70.32),
    ("股息率3.4%，处于行业前列。", "dividend_yield", 3.4),
    ("Adobe now trades at about 21 times forward earnings.", "pe_forward", 21.0),
    ("The stock trades at 52 times earnings.", "pe_trailing", 52.0),
    ("市盈率仅8.5倍。", "pe_trailing", 8.5),
    ("Jefferies downgrades Adobe to hold, cuts target to $450", "target_one", 450.0),
    ("Morgan Stanley raised its price target on Nvidia to $1,200 from $1,000.", "target_one", 1200.0),
    ("麦格理将美团目标价上调至180港元。", "target_one", 180.0),
])
def test_quantities_stated_in_sentences(text, kind, value):
    found = quantities([], [passage(text, "zh" if "率" in text or "价" in text else "en")])
    assert (kind, value) in [(q.kind, q.value) for q in found]


@pytest.mark.parametrize("question, metric, ascending, yes_no, now", [
    ("Compare the dividend yields of Verizon, AT&T and T-Mobile", "dividend_yield", False, False, False),
    ("Which is cheapest on P/E: Verizon, AT&T or T-Mobile?", "pe_trailing", True, False, False),
    ("Is Costco more expensive than Walmart on P/E?", "pe_trailing", False, True, False),
    ("Is Adobe cheaper than Salesforce?", "pe_trailing", True, True, False),
    ("What is Verizon's payout ratio?", "payout_ratio", False, False, False),
    ("Is AT&T's dividend safe?", "payout_ratio", False, False, False),
    # the ratio asked in words: "pay out" read as a yield led with a yield derived from the latest plan
    ("How much of its profit does Wuliangye pay out as dividends?", "payout_ratio", False, False, False),
    ("What share of its earnings does Verizon pay out?", "payout_ratio", False, False, False),
    ("长江电力把利润的多少拿来分红？", "payout_ratio", False, False, False),
    ("Does Verizon pay a dividend?", "dividend_yield", False, False, False),
    ("How much does Verizon pay out per share?", None, False, False, False),
    ("Does Verizon pay out most of its earnings?", "payout_ratio", False, False, False),
    ("威瑞森和AT&T哪个股息率更高？", "dividend_yield", False, False, False),
    ("What is Verizon's stock price right now?", None, False, False, True),
    ("美团还有多大上涨空间？", "upside", False, False, False),
    # "是不是更贵" asks from the top: the answer to "Costco … 和沃尔玛比贵吗" is yes when Costco's P/E is higher
    ("Costco的市盈率是多少？和沃尔玛比贵吗？", "pe_trailing", False, True, False),
])
def test_what_a_question_asks_beyond_its_intents(question, metric, ascending, yes_no, now):
    got = asked(question)
    assert (got.metric, got.ascending, got.yes_no, got.now) == (metric, ascending, yes_no, now)


@pytest.mark.parametrize(("text", "about", "en", "zh"), [
    ("Operating profit fell to ¥1.2 trillion as the yen strengthened.", "TM", "¥1.20T", "1.20万亿日元"),
    ("Sales rose to ¥3 trillion.", "6758.T", "¥3.00T", "3.00万亿日元"),      # a Tokyo listing counts in yen
    ("营收达¥1,500亿", "600519.SS", "¥150.00B", "1,500亿元"),
    ("Net income of 1.3 trillion yen.", "TM", "¥1.30T", "1.30万亿日元"),
])
def test_the_yen_sign_is_the_yen_where_the_story_is_in_yen(text, about, en, zh):
    from finsearch.answer.figures import figures_in
    from finsearch.answer.stated import amount

    said = Passage(story("t", snippet=text), text, False, "en", None, about)
    figure = next(f for f in figures_in(text) if f.kind != "date")
    assert (amount("en", figure, said), amount("zh", figure, said)) == (en, zh)


def _plans(*plans):
    return Evidence.from_untrusted({"title": "000858.SZ 分红 / dividend plans", "url": "https://e.test/bonus",
                                    "published": "2025-03-27T16:00:00Z", "data": {"ticker": "000858.SZ",
                                                                                   "plans": list(plans)}},
                                   source="cn_dividends", kind="finance")


def test_a_twice_a_year_payer_pays_its_whole_years_plans_and_the_audit_traces_the_sum():
    from finsearch.answer.figures import Figure, derived, values_in

    final = {"period": "2024年报", "board_date": "2025-03-28", "plan": "10派31.69元(含税)", "progress": "董事会预案"}
    interim = {"period": "2024中报", "board_date": "2024-11-14", "plan": "10派25.76元(含税)", "progress": "实施方案"}
    older = {"period": "2023年报", "board_date": "2024-04-25", "plan": "10派47.82元(含税)", "progress": "实施方案"}
    item = _plans(final, interim, older)
    (paid,) = [q for q in quantities([item], []) if q.kind == "dividend_per_share"]
    assert (round(paid.value, 3), paid.year) == (5.745, "2024")           # 3.169 + 2.576, not the older year's
    (alone,) = [q for q in quantities([_plans(final, older)], []) if q.kind == "dividend_per_share"]
    assert (round(alone.value, 4), alone.year) == (3.169, None)            # one plan of its year: that plan
    held = values_in(item)
    assert 5.745 in [round(v, 3) for v in held.levels]
    held.levels.append(125.82)                                               # the quote's price beside it
    assert derived(Figure("4.57%", "percent", 4.57, 0.005), held)
