"""Writes the development probe packs (tests/probes/packs/<name>/): five invented stories
the answer engine is tuned against. The held-back packs are in packs_heldback.py.

    python -m tests.probes.packs_dev

    us_guidance     Adobe beat on revenue and EPS, then fell 9.4 % on Friday 2025-03-14 on a
                    full-year forecast below consensus (the reason in snippets, not the big day's
                    headline); a downgrade the same morning; Salesforce rose that day.
    cn_policy       五粮液 fell three sessions in a row (04-07 … 04-09) after a consumption-tax
                    draft published on Saturday 04-05; Chinese news, one English wire story, the
                    company's reply on 04-09 and a brokers' "impact is limited" story.
    us_dividends    Verizon, AT&T and T-Mobile: yields, payout ratios, P/Es; Verizon's quote is
                    eight days old (its bars run to today); no analyst data for T-Mobile.
    hk_results      美团 rose 11.8 % on 2025-05-27 after first-quarter results beat (EPS and
                    revenue vs consensus in Chinese and English stories); analysts' targets.
    cn_dividend     长江电力: a dividend plan with its payout ratio, a trailing yield, a P/E above
                    its industry's, EPS in the financial abstract.
"""

from __future__ import annotations

from tests.probes.kit import Pack, bars, finance, price_history, quote, story

WIRE, DAILY, YPACK = "Ledger Wire", "Market Daily Probe", "Probe market data"


def us_guidance() -> None:
    pack = Pack("us_guidance", "2025-03-18T21:00:00Z", "Adobe's guidance sell-off, Salesforce beside it")
    adbe = bars("2024-12-02", "2025-03-18", 538.0, {"2025-03-14": -9.42, "2024-12-12": -13.7},
                holidays=("2024-12-25", "2025-01-01", "2025-01-09", "2025-01-20", "2025-02-17"))
    crm = bars("2024-12-02", "2025-03-18", 330.0, {"2025-03-14": 2.13, "2025-02-27": -4.0},
               holidays=("2024-12-25", "2025-01-01", "2025-01-09", "2025-01-20", "2025-02-17"), phase=5)
    price_history(pack, "ADBE", "Adobe Inc.", "USD", adbe, YPACK)
    price_history(pack, "CRM", "Salesforce, Inc.", "USD", crm, YPACK)
    quote(pack, "ADBE", "Adobe Inc.", "USD", adbe, "2025-03-18T20:00:00Z", 1.71e11, YPACK)
    quote(pack, "CRM", "Salesforce, Inc.", "USD", crm, "2025-03-18T20:00:00Z", 2.71e11, YPACK)
    pack.record("earnings", {"ticker": "ADBE"}, [finance("ADBE", "ADBE earnings", "2025-03-13T20:05:00Z", YPACK, {
        "next_date": "2025-06-12",
        "history": [{"date": "2025-03-13T20:05:00Z", "eps_estimate": 4.97, "eps_reported": 5.08, "surprise_pct": 2.21},
                    {"date": "2024-12-11T21:05:00Z", "eps_estimate": 4.67, "eps_reported": 4.81, "surprise_pct": 3.0},
                    {"date": "2024-09-12T20:05:00Z", "eps_estimate": 4.53, "eps_reported": 4.65,
                     "surprise_pct": 2.65}]},
        snippet="ADBE: last reported EPS 5.08 on 2025-03-13 vs estimate 4.97 (surprise 2.21%); next report 2025-06-12",
        url="https://finance.yahoo.com/quote/ADBE/analysis")])
    pack.record("analyst", {"ticker": "ADBE"}, [finance("ADBE", "ADBE analyst ratings and price targets",
                                                        "2025-03-18T21:00:00Z", YPACK, {
        "currency": "USD", "targets": {"low": 400.0, "mean": 540.0, "median": 550.0, "high": 700.0, "current": None},
        "recommendations": {"strong_buy": 8, "buy": 17, "hold": 11, "sell": 2, "strong_sell": 1},
        "changes": [{"date": "2025-03-14", "firm": "Jefferies", "action": "downgrade", "from": "Buy", "to": "Hold"},
                    {"date": "2025-03-14", "firm": "Morgan Stanley", "action": "maintain", "from": "Overweight",
                     "to": "Overweight"},
                    {"date": "2025-01-06", "firm": "Redburn", "action": "downgrade", "from": "Neutral",
                     "to": "Sell"}]},
        snippet="ADBE: mean target 540.0 USD (low 400.0, high 700.0); latest: Jefferies downgrade to Hold on "
                "2025-03-14",
        url="https://finance.yahoo.com/quote/ADBE/analysis")])
    for ticker, name, trailing, forward, cap in (("ADBE", "Adobe Inc.", 31.5, 20.9, 1.71e11),
                                                 ("CRM", "Salesforce, Inc.", 42.8, 26.1, 2.71e11)):
        pack.record("profile", {"ticker": ticker}, [finance(ticker, f"{ticker} company profile", "2025-03-18T21:00:00Z",
                                                            YPACK, {
            "name": name, "sector": "Technology", "industry": "Software - Application",
            "employees": 30709 if ticker == "ADBE" else 76453,
            "summary": f"{name} makes software for businesses (invented for the probe pack).", "website": None,
            "officers": [], "ratios": {"trailing_pe": trailing, "forward_pe": forward, "price_to_book": 12.3,
                                       "beta": 1.28, "shares_outstanding": 4.26e8, "market_cap": cap,
                                       "profit_margin": 25.9, "dividend_yield": None}},
            snippet=f"{name}: Technology / Software - Application; trailing P/E {trailing}",
            url=f"https://finance.yahoo.com/quote/{ticker}/profile")])
    pack.record("financials", {"ticker": "ADBE", "statement": "all", "freq": "quarterly"}, [finance(
        "ADBE", "ADBE financials Q1 FY2025", None, YPACK, {
            "currency": "USD", "freq": "quarterly", "statement": "all", "period_label": "Q1 FY2025",
            "lines": {"revenue": 5.714e9, "gross_profit": 5.07e9, "operating_income": 2.08e9, "net_income": 1.81e9,
                      "eps": 4.14, "free_cash_flow": 2.15e9}},
        snippet="ADBE Q1 FY2025: revenue 5.71B", period={"start": "2024-11-30", "end": "2025-02-28"})])
    adbe_news = [
        story("Adobe unveils Firefly video model for enterprise customers", "2025-02-20T14:00:00Z", WIRE,
              "The company said business customers can generate video clips inside its apps.", "adbe-firefly"),
        story("What to expect from Adobe's first-quarter report", "2025-03-12T20:05:00Z", DAILY,
              "Analysts expect revenue of $5.66 billion and adjusted earnings of $4.97 a share, according to "
              "consensus estimates.", "adbe-preview"),
        story("Adobe tops first-quarter estimates as Firefly subscriptions grow", "2025-03-13T20:15:00Z", WIRE,
              "Adobe reported revenue of $5.71 billion and adjusted earnings of $5.08 a share, ahead of the "
              "$5.66 billion and $4.97 analysts expected.", "adbe-q1"),
        story("Adobe's annual forecast underwhelms as AI payoff takes longer", "2025-03-13T20:40:00Z", WIRE,
              "Adobe forecast fiscal 2025 revenue of $23.30 billion to $23.55 billion, below the consensus estimate "
              "of $23.70 billion. The chief executive said AI-driven products would contribute more in the second "
              "half of the year.", "adbe-guide"),
        story("Jefferies downgrades Adobe to hold, cuts target to $450", "2025-03-14T12:30:00Z", DAILY,
              "The broker said competition from generative AI start-ups could slow growth in Creative Cloud.",
              "adbe-downgrade"),
        story("Adobe posts its worst day in more than two years", "2025-03-14T21:10:00Z", DAILY,
              "The stock fell 9.4% on Friday after the software maker's full-year revenue forecast came in below "
              "Wall Street expectations, overshadowing a first-quarter beat.", "adbe-worst"),
        story("Adobe's sell-off leaves it at its cheapest valuation in a decade", "2025-03-17T15:00:00Z", WIRE,
              "Adobe now trades at about 21 times forward earnings, against a five-year average of 35, and some "
              "investors see the drop as an entry point.", "adbe-cheap"),
    ]
    pack.record("news", {"ticker": "ADBE", "query": "Adobe stock", "lang": "en"}, adbe_news)
    pack.record("web_search", {"ticker": "ADBE", "query": "why did Adobe stock fall", "lang": "en"}, [
        story("Why Adobe stock is falling today", "2025-03-14T17:00:00Z", "probe-investing.example",
              "Shares slid after management guided fiscal 2025 revenue to $23.3 billion to $23.55 billion, short of "
              "the $23.7 billion analysts had modeled.", "web-adbe")])
    pack.record("news", {"ticker": "CRM", "query": "Salesforce stock", "lang": "en"}, [
        story("Salesforce gains as investors favour software with steadier outlooks", "2025-03-14T20:30:00Z", WIRE,
              "Salesforce rose 2.1% on Friday while Adobe slumped, as investors rotated toward software makers "
              "that kept their forecasts.", "crm-gain"),
        story("Salesforce shares drop after cautious revenue outlook", "2025-02-27T21:00:00Z", WIRE,
              "Salesforce forecast first-quarter revenue below estimates.", "crm-drop"),
    ])


def cn_policy() -> None:
    pack = Pack("cn_policy", "2025-04-10T08:00:00Z", "五粮液 after a consumption-tax draft")
    holidays = ("2025-01-28", "2025-01-29", "2025-01-30", "2025-01-31", "2025-02-03", "2025-02-04", "2025-04-04")
    rows = bars("2025-01-02", "2025-04-10", 133.0, {"2025-04-07": -4.85, "2025-04-08": -3.12, "2025-04-09": -2.06,
                                                   "2025-04-10": 0.81, "2025-02-21": 3.3}, holidays=holidays, phase=3)
    price_history(pack, "000858.SZ", "五粮液", "CNY", rows, YPACK)
    quote(pack, "000858.SZ", "五粮液", "CNY", rows, "2025-04-10T07:00:00Z", 4.92e11, YPACK)
    pack.record("cn_industry_compare", {"ticker": "000858.SZ"}, [finance(
        "000858.SZ", "000858.SZ 行业估值对比 / valuation against its industry (酒、饮料和精制茶制造业)", None,
        "巨潮资讯 cninfo; 百度股市通 Baidu Gushitong", {
            "name": "五粮液", "classification": "证监会行业分类", "industry": "酒、饮料和精制茶制造业",
            "industry_code": "C15", "as_of": "2025-04-09", "companies": 48, "companies_counted": 44,
            "industry_pe_weighted": 22.4, "industry_pe_median": 31.0, "pe_static": 17.6, "pe_ttm": 16.9, "pb": 3.9,
            "valued_on": "2025-04-09"},
        snippet="五粮液 static P/E 17.6 vs 酒、饮料和精制茶制造业 weighted 22.4, median 31.0",
        url="https://webapi.cninfo.com.cn/#/thematicStatistics", period={"start": "2025-04-09", "end": "2025-04-09"})])
    pack.record("cn_dividends", {"ticker": "000858.SZ"}, [finance(
        "000858.SZ", "000858.SZ 分红 / dividend plans", "2025-03-27T16:00:00Z", "同花顺 10jqka", {
            "plans": [{"period": "2024年报", "board_date": "2025-03-28", "plan": "10派31.69元(含税)",
                       "record_date": None, "ex_date": None, "progress": "董事会预案", "payout_ratio": "60.00%"},
                      {"period": "2024中报", "board_date": "2024-11-14", "plan": "10派25.76元(含税)",
                       "record_date": "2025-01-16", "ex_date": "2025-01-17", "progress": "实施方案",
                       "payout_ratio": "58.72%"}]},
        snippet="2024年报 10派31.69元(含税) (董事会预案); 2024中报 10派25.76元(含税) (实施方案)",
        url="https://basic.10jqka.com.cn/new/000858/bonus.html")])
    cn_news = [
        story("五粮液2024年营收增长7% 净利润稳健", "2025-03-28T11:00:00Z", "证券时报网",
              "五粮液发布2024年年报，全年营业收入同比增长7.1%，归母净利润同比增长5.4%。", "wly-annual"),
        story("财政部发布消费税征收环节后移征求意见稿 白酒等品目在列", "2025-04-05T10:20:00Z", "证券时报网",
              "征求意见稿提出，拟将高档白酒等品目的消费税征收环节由生产环节后移至批发环节，意见反馈截止日期为5月5日。"
              "业内人士认为，此举或增加酒企税负。", "tax-draft"),
        story("白酒板块集体重挫 五粮液跌近5%", "2025-04-07T07:30:00Z", "上海证券报",
              "周一白酒板块大幅下跌，五粮液收跌4.85%，贵州茅台、泸州老窖跟跌。"
              "市场担忧消费税改革将压缩酒企利润。", "baijiu-slump"),
        story("五粮液连续两日下跌 机构：税改影响有限 无需过度恐慌", "2025-04-08T09:10:00Z", "中国证券报",
              "多家券商研报认为，消费税后移对头部酒企利润影响约3%至5%，短期情绪冲击大于基本面影响。", "brokers-calm"),
        story("五粮液回应消费税改革：政策尚在征求意见阶段 公司经营正常", "2025-04-09T12:00:00Z", "证券时报网",
              "五粮液在投资者互动平台表示，消费税改革目前仍处于征求意见阶段，公司将密切关注政策进展，目前生产经营一切正常。",
              "wly-reply"),
    ]
    for source in ("cn_stock_news",):
        pack.record(source, {"ticker": "000858.SZ", "start": "2025-04-03", "end": "2025-04-10"}, cn_news)
    pack.record("news", {"ticker": "000858.SZ", "query": "五粮液 股票", "lang": "zh"}, cn_news[1:4])
    pack.record("news", {"ticker": "000858.SZ", "query": "Wuliangye stock", "lang": "en"}, [
        story("Chinese liquor stocks slump as Beijing floats consumption tax overhaul", "2025-04-07T08:00:00Z", WIRE,
              "Shares of baijiu makers including Wuliangye fell sharply on Monday after the finance ministry published "
              "a draft on Saturday that would move the consumption tax on liquor to the wholesale stage.",
              "baijiu-en"),
        story("Wuliangye says operations normal as tax draft weighs on shares", "2025-04-09T13:00:00Z", WIRE,
              "The company said the tax change was still a draft open for comment.", "wly-en-reply"),
    ])
    pack.record("cn_announcements", {"ticker": "000858.SZ", "start": "2025-04-03", "end": "2025-04-10"}, [
        {"title": "五粮液关于投资者关注事项的说明公告", "publisher": "巨潮资讯 cninfo",
         "published": "2025-04-09T16:00:00Z",
         "url": "http://www.cninfo.com.cn/new/disclosure/detail?stockCode=000858&announcementId=1223000001",
         "snippet": "公司关注到近期关于消费税改革的报道。相关政策尚处于征求意见阶段，公司目前生产经营正常，"
                    "不存在应披露而未披露的重大信息。",
         "data": None},
        {"title": "五粮液2024年年度报告", "publisher": "巨潮资讯 cninfo", "published": "2025-03-27T16:00:00Z",
         "url": "http://www.cninfo.com.cn/new/disclosure/detail?stockCode=000858&announcementId=1222900001",
         "snippet": "五粮液2024年年度报告", "data": None},
    ])


def us_dividends() -> None:
    pack = Pack("us_dividends", "2025-06-20T20:30:00Z", "three US telecoms' dividends, one stale quote")
    holidays = ("2025-01-01", "2025-01-09", "2025-01-20", "2025-02-17", "2025-04-18", "2025-05-26", "2025-06-19")
    vz = bars("2025-01-02", "2025-06-20", 40.1, {"2025-04-22": 2.4, "2025-06-16": 2.2}, holidays=holidays, phase=2)
    t = bars("2025-01-02", "2025-06-20", 22.9, {"2025-04-23": 3.0}, holidays=holidays, phase=7)
    tmus = bars("2025-01-02", "2025-06-20", 221.0, {"2025-04-24": -11.2}, holidays=holidays, phase=9)
    for ticker, name, rows in (("VZ", "Verizon Communications Inc.", vz), ("T", "AT&T Inc.", t),
                               ("TMUS", "T-Mobile US, Inc.", tmus)):
        price_history(pack, ticker, name, "USD", rows, YPACK)
    # Verizon's quote was last refreshed eight days ago; its bars run to today.
    quote(pack, "VZ", "Verizon Communications Inc.", "USD", vz, "2025-06-12T20:00:00Z", 1.78e11, YPACK)
    quote(pack, "T", "AT&T Inc.", "USD", t, "2025-06-20T20:00:00Z", 1.99e11, YPACK)
    quote(pack, "TMUS", "T-Mobile US, Inc.", "USD", tmus, "2025-06-20T20:00:00Z", 2.68e11, YPACK)
    paid = {"VZ": [("2024-07-10", 0.665), ("2024-10-10", 0.6775), ("2025-01-10", 0.6775), ("2025-04-10", 0.6775)],
            "T": [("2024-07-10", 0.2775), ("2024-10-10", 0.2775), ("2025-01-10", 0.2775), ("2025-04-10", 0.2775)],
            "TMUS": [("2024-08-30", 0.65), ("2024-11-27", 0.88), ("2025-02-27", 0.88), ("2025-05-30", 0.88)]}
    closes = {"VZ": vz[-1][4], "T": t[-1][4], "TMUS": tmus[-1][4]}
    yields = {ticker: round(sum(a for _, a in paid[ticker]) / closes[ticker] * 100, 2) for ticker in paid}
    profiles = {"VZ": ("Verizon Communications Inc.", 10.2, 9.1, 64.5, 1.78e11),
                "T": ("AT&T Inc.", 17.1, 12.4, 68.3, 1.99e11),
                "TMUS": ("T-Mobile US, Inc.", 22.8, 19.6, 30.2, 2.68e11)}
    for ticker, (name, trailing, forward, payout, cap) in profiles.items():
        pack.record("profile", {"ticker": ticker}, [finance(ticker, f"{ticker} company profile", "2025-06-20T20:30:00Z",
                                                            YPACK, {
            "name": name, "sector": "Communication Services", "industry": "Telecom Services", "employees": 99600,
            "summary": f"{name} provides wireless and broadband services (invented for the probe pack).",
            "website": None, "officers": [],
            "ratios": {"trailing_pe": trailing, "forward_pe": forward, "price_to_book": 1.8, "beta": 0.38,
                       "shares_outstanding": 4.2e9, "market_cap": cap, "profit_margin": 13.4,
                       "dividend_yield": yields[ticker], "payout_ratio": payout}},
            snippet=f"{name}: Communication Services / Telecom Services; trailing P/E {trailing}",
            url=f"https://finance.yahoo.com/quote/{ticker}/profile")])
    for ticker, rows_paid in paid.items():
        pack.record("dividends", {"ticker": ticker}, [finance(ticker, f"{ticker} dividends",
                                                              rows_paid[-1][0] + "T00:00:00Z", YPACK, {
            "currency": "USD", "dividends": [{"date": d, "amount": a} for d, a in rows_paid], "splits": [],
            "trailing_yield_pct": yields[ticker], "trailing_annual": round(sum(a for _, a in rows_paid), 4)},
            snippet=f"{ticker}: last dividend {rows_paid[-1][1]} on {rows_paid[-1][0]}; trailing yield "
                    f"{yields[ticker]}%",
            url=f"https://finance.yahoo.com/quote/{ticker}/history")])
    for ticker, mean, low, high in (("VZ", 47.5, 41.0, 53.0), ("T", 30.2, 24.0, 35.0)):
        pack.record("analyst", {"ticker": ticker}, [finance(ticker, f"{ticker} analyst ratings and price targets",
                                                            "2025-06-20T20:30:00Z", YPACK, {
            "currency": "USD", "targets": {"low": low, "mean": mean, "median": mean, "high": high, "current": None},
            "recommendations": {"strong_buy": 5, "buy": 9, "hold": 12, "sell": 1, "strong_sell": 0}, "changes": []},
            snippet=f"{ticker}: mean target {mean} USD (low {low}, high {high})")])
    pack.record("news", {"ticker": "VZ", "query": "Verizon stock", "lang": "en"}, [
        story("Verizon says free cash flow will comfortably cover its dividend", "2025-06-10T14:00:00Z", WIRE,
              "Verizon expects free cash flow of $17.5 billion to $18.5 billion this year, against about $11.4 billion "
              "of dividend payments, the chief financial officer said at an investor conference.", "vz-fcf"),
        story("Verizon adds fewer postpaid phone subscribers than expected", "2025-04-22T11:00:00Z", DAILY,
              "The carrier lost 289,000 postpaid phone subscribers in the first quarter.", "vz-q1")])
    pack.record("news", {"ticker": "T", "query": "AT&T stock", "lang": "en"}, [
        story("AT&T reaffirms 2025 outlook, plans $20 billion of buybacks through 2027", "2025-06-04T13:00:00Z", WIRE,
              "AT&T said it expects free cash flow of $16 billion or more in 2025.", "t-outlook")])
    pack.record("news", {"ticker": "TMUS", "query": "T-Mobile US stock", "lang": "en"}, [
        story("T-Mobile shares slide 11% after slower subscriber growth", "2025-04-24T21:00:00Z", WIRE,
              "T-Mobile added 495,000 postpaid phone customers, fewer than analysts expected.", "tmus-slide")])


def hk_results() -> None:
    pack = Pack("hk_results", "2025-05-30T09:00:00Z", "美团 after a first-quarter beat")
    holidays = ("2025-01-01", "2025-01-29", "2025-01-30", "2025-01-31", "2025-04-04", "2025-04-18", "2025-04-21",
                "2025-05-01", "2025-05-05")
    rows = bars("2025-01-02", "2025-05-30", 146.0, {"2025-05-27": 11.8, "2025-03-24": -5.2}, holidays=holidays,
                phase=4)
    price_history(pack, "3690.HK", "Meituan", "HKD", rows, YPACK)
    quote(pack, "3690.HK", "Meituan", "HKD", rows, "2025-05-30T08:10:00Z", 9.8e11, YPACK)
    pack.record("earnings", {"ticker": "3690.HK"}, [finance("3690.HK", "3690.HK earnings", "2025-05-26T09:00:00Z",
                                                            YPACK, {
        "next_date": "2025-08-27",
        "history": [{"date": "2025-05-26T09:00:00Z", "eps_estimate": 1.52, "eps_reported": 1.86, "surprise_pct": 22.37},
                    {"date": "2025-03-21T09:00:00Z", "eps_estimate": 1.48, "eps_reported": 1.39,
                     "surprise_pct": -6.08}]},
        snippet="3690.HK: last reported EPS 1.86 on 2025-05-26 vs estimate 1.52 (surprise 22.37%); next report "
                "2025-08-27")])
    pack.record("analyst", {"ticker": "3690.HK"}, [finance("3690.HK", "3690.HK analyst ratings and price targets",
                                                           "2025-05-30T09:00:00Z", YPACK, {
        "currency": "HKD", "targets": {"low": 120.0, "mean": 178.0, "median": 180.0, "high": 230.0, "current": None},
        "recommendations": {"strong_buy": 15, "buy": 28, "hold": 6, "sell": 1, "strong_sell": 0},
        "changes": [{"date": "2025-05-27", "firm": "Macquarie", "action": "upgrade", "from": "Neutral",
                     "to": "Outperform"}]},
        snippet="3690.HK: mean target 178.0 HKD (low 120.0, high 230.0)")])
    zh = [
        story("美团一季度业绩超预期 核心本地商业经营利润大增", "2025-05-26T10:30:00Z", "财经观察网",
              "美团第一季度营收866亿元，同比增长18%，高于市场预期的851亿元；"
              "经调整净利润109亿元，同比增长46%。", "mt-q1"),
        story("美团股价大涨11.8% 创逾三个月最大单日涨幅", "2025-05-27T08:10:00Z", "港股通讯",
              "业绩超预期叠加外卖竞争缓和预期，美团周二收涨11.8%，成交额明显放大。", "mt-jump"),
        story("外卖补贴战升温 美团称将理性应对竞争", "2025-05-29T06:00:00Z", "财经观察网",
              "美团管理层在业绩会上表示，将继续投入但不会参与非理性补贴。", "mt-subsidy"),
    ]
    pack.record("news", {"ticker": "3690.HK", "query": "美团 股票", "lang": "zh"}, zh)
    pack.record("news", {"ticker": "3690.HK", "query": "Meituan stock", "lang": "en"}, [
        story("Meituan first-quarter profit beats forecasts on strong food delivery", "2025-05-26T10:00:00Z", WIRE,
              "Meituan reported revenue of 86.6 billion yuan, above the 85.1 billion yuan analysts expected, and "
              "adjusted net profit of 10.9 billion yuan.", "mt-en-q1"),
        story("Meituan shares jump 12% after results", "2025-05-27T09:00:00Z", WIRE,
              "Hong Kong-listed Meituan closed 11.8% higher on Tuesday.", "mt-en-jump"),
    ])


def cn_dividend() -> None:
    pack = Pack("cn_dividend", "2025-08-15T08:00:00Z", "长江电力's dividend and valuation")
    holidays = ("2025-01-01", "2025-01-28", "2025-01-29", "2025-01-30", "2025-01-31", "2025-02-03", "2025-02-04",
                "2025-04-04", "2025-05-01", "2025-05-02", "2025-05-05", "2025-06-02")
    rows = bars("2025-01-02", "2025-08-15", 28.2, {"2025-07-10": -3.1}, holidays=holidays, phase=6)
    price_history(pack, "600900.SS", "长江电力", "CNY", rows, YPACK)
    quote(pack, "600900.SS", "长江电力", "CNY", rows, "2025-08-15T07:00:00Z", 7.05e11, YPACK)
    pack.record("cn_dividends", {"ticker": "600900.SS"}, [finance(
        "600900.SS", "600900.SS 分红 / dividend plans", "2025-04-27T16:00:00Z", "同花顺 10jqka", {
            "plans": [{"period": "2024年报", "board_date": "2025-04-28", "plan": "10派9.43元(含税)",
                       "record_date": "2025-07-09", "ex_date": "2025-07-10", "progress": "实施方案",
                       "payout_ratio": "70.32%"},
                      {"period": "2023年报", "board_date": "2024-04-29", "plan": "10派8.20元(含税)",
                       "record_date": "2024-07-18", "ex_date": "2024-07-19", "progress": "实施方案",
                       "payout_ratio": "70.12%"}]},
        snippet="2024年报 10派9.43元(含税) (实施方案); 2023年报 10派8.20元(含税) (实施方案)",
        url="https://basic.10jqka.com.cn/new/600900/bonus.html")])
    last = rows[-1][4]
    pack.record("dividends", {"ticker": "600900.SS"}, [finance(
        "600900.SS", "600900.SS dividends", "2025-07-10T00:00:00Z", YPACK, {
        "currency": "CNY", "dividends": [{"date": "2024-07-19", "amount": 0.82},
                                      {"date": "2025-07-10", "amount": 0.943}],
        "splits": [], "trailing_yield_pct": round(0.943 / last * 100, 2), "trailing_annual": 0.943})])
    pack.record("cn_industry_compare", {"ticker": "600900.SS"}, [finance(
        "600900.SS", "600900.SS 行业估值对比 / valuation against its industry (电力、热力生产和供应业)", None,
        "巨潮资讯 cninfo; 百度股市通 Baidu Gushitong", {
            "name": "长江电力", "classification": "证监会行业分类", "industry": "电力、热力生产和供应业",
            "industry_code": "D44", "as_of": "2025-08-14", "companies": 96, "companies_counted": 88,
            "industry_pe_weighted": 16.8, "industry_pe_median": 18.9, "pe_static": 21.5, "pe_ttm": 20.3, "pb": 3.3,
            "valued_on": "2025-08-14"},
        snippet="长江电力 static P/E 21.5 vs 电力、热力生产和供应业 weighted 16.8, median 18.9",
        period={"start": "2025-08-14", "end": "2025-08-14"})])
    pack.record("cn_financial_abstract", {"ticker": "600900.SS", "basis": "report"}, [finance(
        "600900.SS", "600900.SS 财务摘要 / financial abstract (按报告期)", None, "同花顺 10jqka", {
            "basis": "report", "periods": [
                {"period": "2024-12-31", "revenue": "845.02亿", "revenue_yoy": "8.97%", "net_profit": "324.96亿",
                 "net_profit_yoy": "19.28%", "eps": "1.3280", "gross_margin": "58.57%", "roe": "16.73%"},
                {"period": "2023-12-31", "revenue": "781.12亿", "revenue_yoy": "13.39%", "net_profit": "272.39亿",
                 "net_profit_yoy": "28.10%", "eps": "1.1134", "gross_margin": "57.62%", "roe": "14.98%"}]},
        snippet="2024-12-31: 营业总收入 845.02亿, 净利润 324.96亿",
        period={"start": "2024-12-31", "end": "2024-12-31"})])
    news = [
        story("长江电力实施2024年度分红 每股派0.943元", "2025-07-09T11:00:00Z", "证券时报网",
              "长江电力2024年度现金分红总额约230.7亿元，占归母净利润的70.32%，7月10日除息。", "cyp-div"),
        story("长江电力承诺2026至2030年分红比例不低于70%", "2025-04-28T12:00:00Z", "中国证券报",
              "公司公告称，2026年至2030年每年度现金分红不低于当年归母净利润的70%。", "cyp-commit"),
    ]
    pack.record("news", {"ticker": "600900.SS", "query": "长江电力 股票", "lang": "zh"}, news)
    pack.record("news", {"ticker": "600900.SS", "query": "China Yangtze Power stock", "lang": "en"}, [
        story("China Yangtze Power pays out 70% of 2024 profit as dividends", "2025-07-09T12:00:00Z", WIRE,
              "The hydropower operator will pay 9.43 yuan per 10 shares, about 70.3% of its net profit.", "cyp-en")])


def main() -> None:
    for write in (us_guidance, cn_policy, us_dividends, hk_results, cn_dividend):
        write()


if __name__ == "__main__":
    main()
