"""What a question asks for, in the many ways people type it (English and Chinese), and
the sources the rule-based planner sends it to. now = Tue 2024-10-15 20:00 UTC."""

from __future__ import annotations

import pytest

from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan
from tests.conftest import NOW


def sources(question: str) -> set[str]:
    return {n.source for n in heuristic_plan(analyse(question, NOW), NOW)}


# Guidance is said on calls and in releases, not in the statements: news, plus the estimates.
@pytest.mark.parametrize("question", [
    "What is Apple's guidance for next quarter?", "NVDA outlook", "nvidia outlook for 2025?",
    "Did Microsoft raise its forecast?", "Tesla full-year guidance", "did AMD cut guidance",
    "Has Meta reaffirmed its outlook?", "Amazon guided lower?", "what did Nvidia guide for Q4",
    "苹果的业绩指引", "英伟达下季度展望", "特斯拉业绩预告", "腾讯对明年的展望如何？", "比亚迪全年指引上调了吗",
    "宁德时代的业绩指引是多少",
])
def test_guidance_needs_the_news_and_the_estimates_not_the_statements(question):
    planned = sources(question)
    assert {"news", "earnings"} <= planned and "financials" not in planned, planned


@pytest.mark.parametrize("question", [
    "Did NVDA beat or miss?", "Did Apple beat estimates?", "Did Tesla miss expectations last quarter?",
    "MSFT earnings beat?", "Did Amazon top the consensus?", "Netflix results above expectations?",
    "was Meta's EPS surprise positive", "AMD fell short of estimates?",
    "英伟达财报超预期吗？", "苹果业绩不及预期？", "特斯拉这季度低于预期吗", "腾讯业绩好于预期吗？",
    "茅台三季报符合预期吗", "比亚迪是不是爆雷了",
])
def test_beat_or_miss_needs_the_estimates_and_the_news(question):
    assert {"earnings", "news"} <= sources(question)


@pytest.mark.parametrize("question", [
    "Who owns Tesla?", "Biggest shareholders of NVDA", "who holds the most Apple stock",
    "Microsoft institutional ownership", "Top owners of Palantir", "Does Berkshire own Apple? AAPL holders",
    "Tencent insiders", "Which funds have a stake in AMD?",
    "苹果十大股东", "谁持有英伟达最多", "茅台的大股东是谁", "腾讯前十大股东", "哪些基金重仓宁德时代", "特斯拉机构持仓",
    "比亚迪持股最多的机构",
])
def test_who_owns_it_plans_the_holders(question):
    # An A-share's holders come from Sina's top-10 list, everyone else's from Yahoo.
    a_share = any(name in question for name in ("茅台", "宁德时代", "比亚迪"))
    assert ("cn_top_holders" if a_share else "holders") in sources(question)


# A US listing's insiders trade in its Form 4s; the price is there for context.
@pytest.mark.parametrize("question", [
    "NVDA insiders", "Any insider selling at NVDA lately?", "Who bought AAPL shares among insiders?",
    "Did Tesla's CEO sell shares recently?", "英伟达高管最近减持了吗", "苹果内部人交易", "特斯拉董监高买卖",
])
def test_insider_trades_of_a_us_listing_plan_its_form_4s(question):
    planned = sources(question)
    assert {"sec_insiders", "quote"} <= planned and "holders" not in planned


# "What did Berkshire buy?" is Berkshire's own 13F, never BRK-B's price, holders or news.
@pytest.mark.parametrize("question, filer", [
    ("What did Berkshire buy last quarter?", "Berkshire Hathaway Inc"), ("伯克希尔持仓", "Berkshire Hathaway Inc"),
    ("伯克希尔最新13F持仓", "Berkshire Hathaway Inc"), ("What does Bridgewater hold?", "Bridgewater Associates, LP"),
    ("桥水基金最新持仓", "Bridgewater Associates, LP"), ("Michael Burry's latest 13F", "Scion Asset Management, LLC"),
])
def test_an_institutions_holdings_plan_its_13f(question, filer):
    nodes = heuristic_plan(analyse(question, NOW), NOW)
    assert [(n.source, n.args) for n in nodes] == [("sec_13f", {"filer": filer})]


def test_holdings_of_a_company_no_13f_filer_is_not_a_13f_question():
    assert "sec_13f" not in sources("What are Apple's holdings of treasuries?")
    assert sources("Who owns Berkshire?") == {"holders"}
    assert "sec_13f" not in sources("Vanguard S&P 500 ETF holdings")        # the fund's, not Vanguard's 13F


@pytest.mark.parametrize("question", [
    "Is NVDA expensive?", "Is Tesla overvalued?", "Is Apple cheap right now?", "is Microsoft undervalued",
    "Is Palantir in a bubble?", "Is Amazon fairly valued?", "Nvidia valuation stretched?",
    "茅台贵不贵？", "英伟达估值高吗", "特斯拉是不是高估了", "腾讯现在便宜吗", "苹果估值合理吗", "比亚迪被低估了吗",
])
def test_is_it_expensive_plans_the_ratios_and_the_analysts(question):
    assert {"quote", "profile", "analyst"} <= sources(question)


@pytest.mark.parametrize("question", [
    "Should I buy NVDA?", "Is Tesla a good buy?", "Should we sell Apple now?", "is amd worth buying",
    "Is it time to buy Microsoft?", "buy or sell Palantir?", "Should I buy the dip in Nvidia?",
    "现在该买苹果吗？", "英伟达值得买吗", "特斯拉能买吗", "茅台可以抄底吗", "腾讯要不要买", "比亚迪该不该加仓",
])
def test_should_i_buy_gathers_analysts_price_and_news_and_says_it_is_not_advice(question):
    analysis = analyse(question, NOW)
    assert {"analyst", "quote", "news"} <= sources(question)
    assert any("not give investment advice" in n or "不提供投资建议" in n for n in analysis.notes), analysis.notes


def test_a_question_that_asks_no_advice_gets_no_such_note():
    assert analyse("Why did NVDA fall last week?", NOW).notes == ()


@pytest.mark.parametrize("question", [
    "Apple dividend history", "How much does Coca-Cola pay in dividends?", "KO ex-dividend date",
    "Microsoft dividend payout over the years",
    "腾讯派息", "茅台分红记录", "工商银行历年股息", "中国移动什么时候除息",
])
def test_dividend_history_plans_the_dividends(question):
    assert "dividends" in sources(question)


@pytest.mark.parametrize("question", [
    "When does NVDA report earnings?", "When is Apple's next earnings date?", "Tesla earnings date",
    "when will Microsoft report results", "Next earnings for AMD?", "Amazon earnings call date",
    "茅台财报什么时候出？", "英伟达什么时候发财报", "腾讯业绩什么时候公布", "苹果下次财报日期", "特斯拉季报哪天发布",
])
def test_when_does_it_report_plans_the_earnings_dates_not_the_statements(question):
    planned = sources(question)
    assert "earnings" in planned and "financials" not in planned, planned


@pytest.mark.parametrize("question", [
    "Is NVDA near its 52-week high?", "Tesla 52-week low", "Apple all-time high?", "MSFT 52 week range",
    "Did Nvidia hit a record high?", "Is AMD making new lows?",
    "英伟达创52周新高了吗", "茅台52周最低价", "腾讯创新高了吗", "特斯拉历史新高是多少", "比亚迪年内高点",
])
def test_a_52_week_high_plans_the_quote_and_a_year_of_prices(question):
    nodes = heuristic_plan(analyse(question, NOW), NOW)
    assert {"quote", "price_history"} <= {n.source for n in nodes}
    history = next(n for n in nodes if n.source == "price_history")
    assert (history.args["start"], history.args["end"]) == ("2023-10-16", "2024-10-15")


def test_the_new_readings_whole_plans_in_both_languages():
    def plan(question):
        return [(n.source, n.sub_query, n.args) for n in heuristic_plan(analyse(question, NOW), NOW)]

    assert plan("What is Apple's guidance?") == [
        ("earnings", "Apple (AAPL) earnings: estimates vs reported", {"ticker": "AAPL"}),
        ("news", "Apple (AAPL) guidance and outlook (news)",
         {"ticker": "AAPL", "query": "Apple guidance outlook", "lang": "en"}),
    ]
    assert plan("英伟达财报超预期吗？") == [
        ("financials", "英伟达（NVDA）季度财务报表", {"ticker": "NVDA", "statement": "all", "freq": "quarterly"}),
        ("earnings", "英伟达（NVDA）业绩：预期与实际", {"ticker": "NVDA"}),
        ("news", "英伟达（NVDA）业绩是否超预期（新闻）",
         {"ticker": "NVDA", "query": "英伟达 财报 业绩 预期", "lang": "zh"}),
    ]
    assert plan("Should I buy TSLA?") == [
        ("news", "Latest news on Tesla (TSLA)", {"ticker": "TSLA", "query": "Tesla stock", "lang": "en"}),
        ("analyst", "Tesla (TSLA) analyst targets and ratings", {"ticker": "TSLA"}),
        ("quote", "Tesla (TSLA) latest quote", {"ticker": "TSLA"}),
    ]


@pytest.mark.parametrize("question", ["Should I buy bitcoin?", "比特币值得买吗", "Gold outlook", "Is gold expensive?"])
def test_instruments_without_statements_or_analysts_get_a_price_question(question):
    planned = sources(question)
    assert "price_history" in planned and not planned & {"analyst", "earnings", "profile", "financials"}, planned


# Written after the tests above passed, in other words, to see the families hold (two rounds:
# 30 of 39 and then 33 of 36 planned right on first run; the patterns were widened by family).
MORE_PHRASINGS = [
    ("What did Apple say about next quarter's outlook?", {"news","earnings"}),
    ("Nvidia forward guidance", {"news","earnings"}),
    ("Tesla delivery forecast for 2025", {"news","earnings"}),
    ("微软给出的下季度指引怎么样", {"news","earnings"}),
    ("特斯拉管理层对明年有什么展望", {"news","earnings"}),
    ("Did Nvidia crush estimates?", {"earnings","news"}),
    ("Apple Q3 results vs expectations", {"earnings","news"}),
    ("did tesla earnings disappoint", {"earnings","news"}),
    ("阿里巴巴财报超出预期了吗", {"earnings","news"}),
    ("腾讯二季度业绩有没有超预期", {"earnings","news"}),
    ("Who are Nvidia's major shareholders?", {"holders"}),
    ("How much of Tesla does Elon Musk own?", {"holders"}),
    ("AAPL top institutional holders", {"holders"}),
    ("茅台股东结构", {"cn_top_holders"}),
    ("谁是比亚迪最大的股东", {"cn_top_holders"}),
    ("Is Nvidia stock too expensive?", {"quote","profile","analyst"}),
    ("Is TSLA overpriced?", {"quote","profile","analyst"}),
    ("Are Apple shares undervalued at this price?", {"quote","profile","analyst"}),
    ("茅台现在估值贵吗", {"quote","profile","analyst"}),
    ("英伟达的估值是不是太高了", {"quote","profile","analyst"}),
    ("Should I invest in Nvidia?", {"analyst","quote","news"}),
    ("Is now a good time to buy Apple?", {"analyst","quote","news"}),
    ("Would you buy Tesla here?", {"analyst","quote","news"}),
    ("现在适合买入腾讯吗", {"analyst","quote","news"}),
    ("茅台还能买吗？", {"analyst","quote","news"}),
    ("Does Apple pay a dividend?", {"dividends"}),
    ("Microsoft dividend increases history", {"dividends"}),
    ("中国平安每年分红多少", {"dividends"}),
    ("招商银行派息历史", {"dividends"}),
    ("When are Nvidia earnings?", {"earnings"}),
    ("What date does Tesla report Q3?", {"earnings"}),
    ("Apple earnings release date", {"earnings"}),
    ("腾讯什么时候公布三季度业绩", {"earnings"}),
    ("茅台年报发布时间", {"earnings"}),
    ("How far is Tesla from its 52-week high?", {"quote","price_history"}),
    ("Apple's 52-week range", {"quote","price_history"}),
    ("Is Nvidia at an all-time high?", {"quote","price_history"}),
    ("腾讯离52周高点还有多远", {"quote","price_history"}),
    ("比特币创历史新高了吗", {"quote","price_history"}),
    ("Amazon's Q4 outlook", {"news","earnings"}),
    ("did AMD lower guidance?", {"news","earnings"}),
    ("What is Meta guiding for capex?", {"news","earnings"}),
    ("苹果对下季度营收的指引", {"news","earnings"}),
    ("英伟达给出了什么业绩展望", {"news","earnings"}),
    ("How did Netflix do vs estimates?", {"earnings","news"}),
    ("Did Microsoft's earnings beat?", {"earnings","news"}),
    ("Was Tesla's quarter a miss?", {"earnings","news"}),
    ("英伟达业绩是否超出市场预期", {"earnings","news"}),
    ("苹果财报低于分析师预期吗", {"earnings","news"}),
    ("Which hedge funds own Nvidia?", {"holders"}),
    ("What percent of Apple do institutions hold?", {"holders"}),
    ("Palantir insider selling", {"sec_insiders"}),
    ("腾讯的主要股东有哪些", {"holders"}),
    ("哪些机构持有茅台", {"cn_top_holders"}),
    ("Is Microsoft stock overvalued right now?", {"quote","profile","analyst"}),
    ("Is AMD cheap compared to its history?", {"quote","profile","analyst"}),
    ("Netflix valuation too high?", {"quote","profile","analyst"}),
    ("比亚迪现在贵吗", {"quote","profile","analyst"}),
    ("腾讯估值便宜吗", {"quote","profile","analyst"}),
    ("Should I sell my Tesla shares?", {"analyst","quote","news"}),
    ("Is Palantir a buy?", {"analyst","quote","news"}),
    ("Good time to buy Amazon?", {"analyst","quote","news"}),
    ("比亚迪现在可以上车吗", {"analyst","quote","news"}),
    ("英伟达要不要卖掉", {"analyst","quote","news"}),
    ("Coca-Cola dividend payments over the last 10 years", {"dividends"}),
    ("When is Apple's next dividend?", {"dividends"}),
    ("腾讯今年派息多少", {"dividends"}),
    ("When do Microsoft earnings come out?", {"earnings"}),
    ("Netflix next report date", {"earnings"}),
    ("英伟达下一次财报是什么时候", {"earnings"}),
    ("阿里巴巴季报几号发布", {"earnings"}),
    ("Where is AMD versus its 52 week low?", {"quote","price_history"}),
    ("Did Microsoft set a new high?", {"quote","price_history"}),
    ("茅台离历史高点多远", {"quote","price_history"}),
    ("苹果今年创了几次新高", {"quote","price_history"}),
]


@pytest.mark.parametrize("question, planned", MORE_PHRASINGS)
def test_more_phrasings_of_the_same_families(question, planned):
    got = sources(question)
    assert planned <= got, got
    if planned == {"earnings"}:
        assert "financials" not in got


@pytest.mark.parametrize("question", [
    "Apple's own chips and NVDA stock", "Why did NVDA fall last week?", "NVDA price", "How is Tesla doing?",
    "微软今年走势", "Did the S&P 500 beat gold this year?", "Did NVDA beat the S&P 500 this year?",
    "When did Tesla announce the robotaxi?", "Microsoft's investment in OpenAI", "I own AAPL, why did it fall?",
    "Nvidia revenue last quarter", "腾讯最近一个月走势", "茅台的营收是多少", "What is Tesla's market cap?",
    "AMD news today", "比亚迪最新消息",
])
def test_ordinary_questions_are_not_read_as_the_new_intents(question):
    intents = analyse(question, NOW).intents
    assert not intents & {"guidance", "surprise", "calendar", "holders", "expensive", "advice", "high_low"}, intents


def test_the_words_of_an_anchor_date_the_question_and_ask_for_nothing():
    analysis = analyse("tsla since earnings", NOW)
    assert analysis.time_context.anchor == "earnings" and "fundamentals" not in analysis.intents
    sources = {n.source for n in heuristic_plan(analysis, NOW)}
    assert {"price_history", "earnings"} <= sources and "financials" not in sources   # earnings dates the report


@pytest.mark.parametrize(("question", "start", "end"), [
    ("russell 2000 past month", "2024-09-15", "2024-10-15"),        # not the year 2000
    ("美国10年期国债收益率最近一周", "2024-10-08", "2024-10-15"),     # not ten years
])
def test_a_number_in_an_instruments_name_is_not_a_date(question, start, end):
    tc = analyse(question, NOW).time_context
    assert (tc.start.isoformat(), tc.end.isoformat()) == (start, end)


@pytest.mark.parametrize("question", ["隆基绿能上半年亏损多少", "宁王三季报", "贵州茅台年报"])
def test_chinese_report_words_ask_for_the_statements(question):
    assert "fundamentals" in analyse(question, NOW).intents


@pytest.mark.parametrize("question", ["did the mounjaro maker beat earnings?", "did amazon beat on revenue",
                                      "Apple topped its quarter?"])
def test_beating_earnings_revenue_or_the_quarter_is_a_surprise_question(question):
    assert {"earnings", "news"} <= sources(question)


@pytest.mark.parametrize("question", ["宁德时代是做什么的", "寒武纪是一家什么公司", "what does palantir make",
                                      "what kind of company is Arista"])
def test_what_a_company_does_asks_for_its_profile(question):
    assert "profile" in sources(question)


@pytest.mark.parametrize("question", ["what did nvidia say about next quarter", "英伟达管理层对未来的预期",
                                      "what does apple expect for the coming quarter", "茅台对全年的预期"])
def test_what_management_expects_is_guidance(question):
    assert {"news", "earnings"} <= sources(question)


@pytest.mark.parametrize(("question", "source"), [
    ("特斯拉高管减持", "sec_insiders"), ("茅台大股东增持", "cn_top_holders"), ("tesla insider ownership", "holders")])
def test_insiders_trading_ask_for_their_form_4s_and_owning_for_the_holders(question, source):
    assert source in sources(question)


@pytest.mark.parametrize("question", [
    "What's behind Adobe's slide on March 14?", "What sent Adobe shares down on Friday?", "What drove Toyota lower?",
    "What caused the selloff in Nvidia?", "Adobe 3月14日为啥跌这么多？", "是什么导致英伟达股价走低？",
    "茅台今天咋跌了"])
def test_the_cause_asked_in_other_words_is_a_why_question(question):
    # These were read as a price question (or as nothing): the answer listed the day's move and the
    # headlines, never the cause its own stories gave.
    analysis = analyse(question, NOW)
    assert "why" in analysis.intents and "news" in sources(question)


@pytest.mark.parametrize("question", ["Adobe's slide deck from the investor day", "What is Apple's price target?"])
def test_words_near_a_cause_that_ask_none(question):
    assert "why" not in analyse(question, NOW).intents
