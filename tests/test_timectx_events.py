"""Time expressions anchored on events, relative to now = Tue 2024-10-15 20:00 UTC.

Dates are those of the events table (finsearch/plan/timectx/events.py), written out here by
hand: FOMC cut 2024-09-18, PBOC/SCIO press conference 2024-09-24, US elections 2020-11-03
and 2024-11-05, halving 2024-04-20, S&P 500 pandemic crash 2020-02-20 … 2020-03-23."""

from datetime import date, datetime, timezone

import pytest

from finsearch.plan.analysis import analyse
from finsearch.plan.timectx import events, resolve
from finsearch.timecontext import TimeContext

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)

SINCE_EVENT = [
    # the Fed's cut of 2024-09-18
    ("How has NVDA done since the Fed cut?", "2024-09-18"),
    ("tesla since the fed cut rates", "2024-09-18"),
    ("AAPL since the rate cut", "2024-09-18"),
    ("How has gold done since the Fed's September rate cut?", "2024-09-18"),
    ("gold after the 50bp cut", "2024-09-18"),
    ("S&P 500 since the September 2024 rate cut", "2024-09-18"),
    ("small caps since the Fed started cutting", "2024-09-18"),
    ("banks following the FOMC's jumbo cut", "2024-09-18"),
    ("自9月降息以来英伟达涨了多少", "2024-09-18"),
    ("美联储降息以来黄金走势", "2024-09-18"),
    ("美联储9月降息后美股表现", "2024-09-18"),
    ("9月美联储降息以来纳指", "2024-09-18"),
    ("自从美联储首次降息以来", "2024-09-18"),
    # the last hike of the 2022-23 cycle
    ("regional banks since the last rate hike", "2023-07-26"),
    ("美联储最后一次加息以来", "2023-07-26"),
    # a rate cut in a question about China is the PBOC's (2024-09-24)
    ("How did Chinese stocks do since the PBOC cut?", "2024-09-24"),
    ("A股 since the rate cut", "2024-09-24"),
    ("央行降息以来A股表现", "2024-09-24"),
    ("降息后上证指数", "2024-09-24"),
    # China's stimulus of 2024-09-24
    ("CSI 300 after China's stimulus", "2024-09-24"),
    ("Hang Seng after the stimulus", "2024-09-24"),
    ("KWEB since the stimulus announcement", "2024-09-24"),
    ("刺激政策出台以来恒生科技涨了多少", "2024-09-24"),
    ("924以来A股涨幅", "2024-09-24"),
    ("9·24行情以来券商股", "2024-09-24"),
    ("一揽子政策出台后沪深300", "2024-09-24"),
    # the 2024 election is still to come on 2024-10-15: "since" means 2020's
    ("How did stocks do after the election", "2020-11-03"),
    ("TSLA since the presidential election", "2020-11-03"),
    ("美国大选后特斯拉", "2020-11-03"),
    # halvings
    ("bitcoin since the halving", "2024-04-20"),
    ("bitcoin post-halving", "2024-04-20"),
    ("BTC since the 2020 halving", "2020-05-11"),
    ("比特币减半以来", "2024-04-20"),
    ("减半后比特币走势", "2024-04-20"),
    # crashes and crises
    ("SPY since the crash", "2020-02-20"),
    ("S&P 500 since COVID", "2020-02-20"),
    ("Nasdaq since the pandemic", "2020-02-20"),
    ("SPY since the 2008 crash", "2008-09-15"),
    ("banks since the financial crisis", "2008-09-15"),
    ("疫情以来茅台", "2020-02-20"),
    ("新冠以来纳指", "2020-02-20"),
    ("2008年金融危机以来", "2008-09-15"),
    ("KRE since the SVB collapse", "2023-03-10"),
    ("硅谷银行倒闭后地区银行", "2023-03-10"),
    ("regional banks since silicon valley bank failed", "2023-03-10"),   # the verb, in any tense
    ("COIN since FTX went bust", "2022-11-11"),
    ("UBS since Credit Suisse collapsed", "2023-03-19"),
    ("oil since the invasion of Ukraine", "2022-02-24"),
    ("俄乌冲突以来原油", "2022-02-24"),
    ("俄乌开打以来黄金", "2022-02-24"),
    ("疫情大跌以来纳指", "2020-02-20"),
    ("HSTECH since 9/24", "2024-09-24"),
    # technology and crypto milestones
    ("NVDA since ChatGPT launched", "2022-11-30"),
    ("ChatGPT发布以来英伟达", "2022-11-30"),
    ("bitcoin since the spot bitcoin ETF approval", "2024-01-10"),
    ("现货比特币ETF获批以来", "2024-01-10"),
    ("比特币现货ETF上市以来IBIT", "2024-01-10"),                          # 现货 after the coin's name
    ("自从美国批准比特币ETF以来", "2024-01-10"),
    ("bitcoin since the SEC approved spot ETFs for bitcoin", "2024-01-10"),
]


@pytest.mark.parametrize(("question", "start"), SINCE_EVENT, ids=[c[0] for c in SINCE_EVENT])
def test_since_an_event_runs_from_its_date_to_today(question, start):
    ctx = resolve(question, NOW)
    assert (ctx.start.isoformat(), ctx.end.isoformat()) == (start, "2024-10-15")
    assert ctx.explicit and ctx.anchor is None and not ctx.forward


@pytest.mark.parametrize(("question", "start", "end"), [
    ("during the covid crash, how did AMZN do", "2020-02-20", "2020-03-23"),
    ("疫情期间的美股", "2020-02-20", "2020-03-23"),
])
def test_during_an_event_is_the_event_itself(question, start, end):
    ctx = resolve(question, NOW)
    assert (ctx.start.isoformat(), ctx.end.isoformat()) == (start, end)


@pytest.mark.parametrize("question", [
    "stocks ahead of the election", "what happens to bonds before the election", "大选前美股走势"])
def test_before_a_coming_event_looks_ahead_to_it(question):
    ctx = resolve(question, NOW)
    assert (ctx.start, ctx.end, ctx.forward) == (date(2024, 10, 15), date(2024, 11, 5), True)


@pytest.mark.parametrize("question", [
    "NVDA since DeepSeek",                  # 2025-01-27: after now
    "stocks since Liberation Day",          # 2025-04-02: after now
    "what did the fed cut do",              # no "since": not a time expression
    "election polls and stocks",
    "The Fed may cut rates",
    "政策发布以来",                          # which policy? no date in the words
    "数据发布后",
])
def test_events_after_now_or_without_since_give_no_window(question):
    assert not resolve(question, NOW).explicit


def test_the_event_after_now_is_found_once_it_happened():
    later = datetime(2025, 1, 10, 12, 0, tzinfo=timezone.utc)
    ctx = resolve("How has TSLA done since the election?", later)
    assert (ctx.start, ctx.end) == (date(2024, 11, 5), date(2025, 1, 10))
    ctx = resolve("since the Fed cut", later)
    assert ctx.start == date(2024, 12, 18)


def test_a_recurring_event_past_the_table_is_marked_provisional():
    # On 2026-12-01 a cut after the table's last one (2025-12-10) may be missing.
    ctx = resolve("since the Fed cut", datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))
    assert (ctx.start, ctx.end, ctx.anchor) == (date(2025, 12, 10), date(2026, 12, 1), "fed_cut")
    # A one-off event cannot have a later one.
    ctx = resolve("since ChatGPT launched", datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))
    assert (ctx.start, ctx.anchor) == (date(2022, 11, 30), None)


def test_every_event_has_a_source_and_is_unique():
    seen = set()
    for event in events.EVENTS:
        assert event.source.strip() and event.start <= event.end
        assert (event.kind, event.place, event.start) not in seen
        seen.add((event.kind, event.place, event.start))
    assert all(e.place for e in events.EVENTS if e.kind == "election")


# Elections from the table: India's counting day 2024-06-04, the UK's polling day 2024-07-04,
# Germany's Bundestag 2021-09-26, Japan's lower house 2021-10-31 (2024-10-27 is still to come).
ELECTIONS = [
    ("nifty since the election in june", "2024-06-04"),     # the market's place, in the month named
    ("how has the sensex done since the election", "2024-06-04"),
    ("Indian stocks since the election", "2024-06-04"),      # a place the question names
    ("since the Indian election", "2024-06-04"),
    ("FTSE 100 since the election", "2024-07-04"),
    ("gilts since the UK general election", "2024-07-04"),
    ("EWG since the German election", "2021-09-26"),         # an ETF trades in New York; the words say Germany
    ("Nikkei since the election", "2021-10-31"),
    ("TAIEX since the Taiwan election", "2024-01-13"),
    ("CAC 40 since the French election", "2024-07-07"),
    ("since the European elections", "2024-06-09"),
    ("nasdaq since the election", "2020-11-03"),             # the US presidential election by default
    ("印度大选以来Nifty", "2024-06-04"),
    ("英国大选以来富时100", "2024-07-04"),
    ("日经指数自日本众议院选举以来", "2021-10-31"),
    ("自2020年美国大选以来特斯拉涨了多少", "2020-11-03"),
    ("FTSE since Brexit", "2016-06-23"),
    ("英国脱欧以来英镑", "2016-06-23"),
]


@pytest.mark.parametrize(("question", "start"), ELECTIONS, ids=[c[0] for c in ELECTIONS])
def test_an_election_is_the_one_of_the_place_the_question_is_about(question, start):
    tc = analyse(question, NOW).time_context
    assert (tc.start.isoformat(), tc.end.isoformat()) == (start, "2024-10-15")


def test_an_election_the_place_never_held_then_gives_no_window():
    # (India voted in May 2019 and June 2024: only "in November" is left, as a month)
    assert resolve("since the Indian election in November", NOW).label == "in November"
    # A vote that is not a national election is not read as one.
    assert not resolve("董事会选举以来", NOW).explicit


def test_ahead_of_an_election_is_the_next_one_of_its_place():
    tc = analyse("Nikkei ahead of the election", NOW).time_context
    assert (tc.start, tc.end, tc.forward) == (date(2024, 10, 15), date(2024, 10, 27), True)


LATER = datetime(2025, 12, 20, 12, 0, tzinfo=timezone.utc)

FIRST_OF_A_RUN = [
    # the first event after the last one of the opposite kind; the latest otherwise
    ("nasdaq since the fed started hiking in 2022", NOW, "2022-03-16"),
    ("since the Fed began hiking", NOW, "2022-03-16"),
    ("自美联储开始加息以来纳指", NOW, "2022-03-16"),
    ("since the Fed's first cut", LATER, "2024-09-18"),
    ("SPY since the Fed started cutting", LATER, "2024-09-18"),
    ("自美联储首次降息以来", LATER, "2024-09-18"),
    ("since the fed's first cut in 2019", LATER, "2019-07-31"),
    ("since the Fed cut", LATER, "2025-12-10"),
    ("自美联储降息以来", LATER, "2025-12-10"),
    ("stocks since the last rate hike", LATER, "2023-07-26"),
    # one-off events once they have happened
    ("stocks since Liberation Day tariffs", LATER, "2025-04-02"),
    ("NVDA since DeepSeek", LATER, "2025-01-27"),
    ("since the election", LATER, "2024-11-05"),
    ("KOSPI since the election", LATER, "2025-06-03"),
]


# Other central banks by name (ECB cuts 2024-06-06 … 2025-06-05, BOJ hikes 2024-03-19 … 2025-12-19), the
# FOMC's meetings, and one-off events of the table.
OTHER_EVENTS = [
    ("EURUSD since the ECB cut", LATER, "2025-06-05"),
    ("DAX since the ECB started cutting", LATER, "2024-06-06"),
    ("欧洲央行降息以来欧元", LATER, "2025-06-05"),
    ("Nikkei since the BOJ hike", LATER, "2025-12-19"),
    ("日元自日本央行加息以来", NOW, "2024-07-31"),
    ("SPY since the last Fed meeting", NOW, "2024-09-18"),
    ("自美联储议息会议以来", LATER, "2025-12-10"),
    ("since Jackson Hole", NOW, "2024-08-23"),
    ("bitcoin since FTX collapsed", NOW, "2022-11-11"),
    ("ETH since the merge", NOW, "2022-09-15"),
    ("UBS since Credit Suisse collapsed", NOW, "2023-03-19"),
    ("自新国九条发布以来A股", NOW, "2024-04-12"),
    ("人民币自811汇改以来", NOW, "2015-08-11"),
    ("Nikkei since the carry trade unwind", NOW, "2024-08-05"),
]


@pytest.mark.parametrize(("question", "now", "start"), OTHER_EVENTS, ids=[c[0] for c in OTHER_EVENTS])
def test_other_central_banks_and_events_by_name(question, now, start):
    tc = analyse(question, now).time_context
    assert (tc.start.isoformat(), tc.end) == (start, now.date())


@pytest.mark.parametrize(("question", "now", "start"), FIRST_OF_A_RUN, ids=[c[0] for c in FIRST_OF_A_RUN])
def test_the_first_of_a_run_and_events_after_the_tables_now(question, now, start):
    tc = analyse(question, now).time_context
    assert (tc.start.isoformat(), tc.end) == (start, now.date())


@pytest.mark.parametrize(("question", "ticker"), [
    ("KRE since the SVB collapse", "KRE"), ("NVDA since DeepSeek", "NVDA"), ("英伟达自DeepSeek发布以来", "NVDA"),
    ("NVDA since ChatGPT launched", "NVDA")])
def test_a_name_inside_an_events_words_dates_the_question_and_is_not_asked_about(question, ticker):
    assert [e.ticker for e in analyse(question, LATER).entities] == [ticker]


COMPANY_ANCHORS = [
    ("TSLA since earnings", "earnings", "2024-07-15"),
    ("AAPL since its last earnings", "earnings", "2024-07-15"),
    ("MSFT after earnings", "earnings", "2024-07-15"),
    ("NFLX since their Q2 earnings report", "earnings", "2024-07-15"),
    ("NVDA since it reported", "earnings", "2024-07-15"),
    ("财报后苹果股价", "earnings", "2024-07-15"),
    ("自上次财报发布以来", "earnings", "2024-07-15"),
    ("茅台业绩发布后", "earnings", "2024-07-15"),
    ("NFLX since the last report", "earnings", "2024-07-15"),
    ("AAPL since its Q3 report", "earnings", "2024-07-15"),
    ("META since the print", "earnings", "2024-07-15"),
    ("JPM since third-quarter results", "earnings", "2024-07-15"),
    ("MSFT since reporting", "earnings", "2024-07-15"),
    ("特斯拉财报出来后涨了多少", "earnings", "2024-07-15"),
    ("腾讯业绩说明会后", "earnings", "2024-07-15"),
    ("自上次财报以来", "earnings", "2024-07-15"),
    ("AMD since last quarter's earnings", "earnings", "2024-07-15"),
    ("since the most recent earnings", "earnings", "2024-07-15"),
    ("小米自二季报发布以来涨了多少", "earnings", "2024-07-15"),
    ("AAPL since the iPhone 16 launch", "launch", "2024-07-15"),
    ("since launch", "launch", "2024-07-15"),
    ("发布会后苹果", "launch", "2024-07-15"),
    ("新品上市后小米", "launch", "2024-07-15"),
    ("ARM since its IPO", "ipo", "2023-10-15"),
    ("RDDT since going public", "ipo", "2023-10-15"),
    ("自上市以来涨了多少", "ipo", "2023-10-15"),
    ("NVDA since the 10-for-1 split", "split", "2024-07-15"),
    ("拆股以来英伟达", "split", "2024-07-15"),
]


@pytest.mark.parametrize(("question", "anchor", "start"), COMPANY_ANCHORS, ids=[c[0] for c in COMPANY_ANCHORS])
def test_a_company_event_gives_a_provisional_window_marked_with_its_anchor(question, anchor, start):
    ctx = resolve(question, NOW)
    assert (ctx.start.isoformat(), ctx.end.isoformat(), ctx.anchor) == (start, "2024-10-15", anchor)


@pytest.mark.parametrize("question", ["SPY since the jobs report", "since the CPI print", "since the report"])
def test_a_report_that_is_not_the_companys_own_is_no_earnings_anchor(question):
    assert resolve(question, NOW).anchor is None


@pytest.mark.parametrize("question", [
    "When is AAPL's next earnings report?", "TSLA upcoming earnings", "NVDA next earnings date",
    "下次财报什么时候", "下季度财报", "即将发布的财报", "TSLA ahead of earnings", "财报前特斯拉期权"])
def test_next_earnings_looks_ahead_a_quarter_anchored_on_earnings(question):
    ctx = resolve(question, NOW)
    assert (ctx.start.isoformat(), ctx.end.isoformat(), ctx.forward, ctx.anchor) == \
        ("2024-10-15", "2025-01-15", True, "earnings")


def test_the_provisional_window_is_told_to_the_reader():
    en = analyse("How has TSLA done since earnings?", NOW)
    assert en.notes == ("“since earnings” is read as 2024-07-15 to 2024-10-15 for now; its exact date "
                        "is not confirmed.",)
    zh = analyse("特斯拉财报后股价表现如何", NOW)
    assert zh.notes == ("“财报后”暂按 2024-07-15 至 2024-10-15 查找，确切日期尚未确认。",)
    assert analyse("How has NVDA done since the Fed cut?", NOW).notes == ()


def test_the_json_carries_anchor_and_forward_only_when_set():
    plain = resolve("Why did NVDA fall last week?", NOW)
    assert plain.to_dict() == {"start": "2024-10-07", "end": "2024-10-13", "label": "last week"}
    anchored = resolve("TSLA since earnings", NOW)
    assert anchored.to_dict() == {"start": "2024-07-15", "end": "2024-10-15", "label": "since earnings",
                                  "anchor": "earnings"}
    ahead = resolve("AAPL next earnings", NOW)
    assert ahead.to_dict() == {"start": "2024-10-15", "end": "2025-01-15", "label": "next earnings",
                               "forward": True, "anchor": "earnings"}
    assert TimeContext.from_dict(ahead.to_dict()) == ahead
