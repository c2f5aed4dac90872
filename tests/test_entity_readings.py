"""How people name instruments: lower case, typos, nicknames, descriptions, ambiguous symbols,
exchange codes, rates and futures (issue 12). Expected values written by hand."""

import pytest

from finsearch.plan.entities import extract


def _read(question):
    return [(e.ticker, e.read_as) for e in extract(question)]


def _tickers(question):
    return [e.ticker for e in extract(question) if e.ticker]


# -- lower case and misspelled ----------------------------------------------------------

LOWER_AND_TYPOS = [
    ("msft dividend?", [("MSFT", "symbol")]),
    ("how's amd doing", [("AMD", "exact")]),
    ("nvda earnings date", [("NVDA", "symbol")]),
    ("is tsla overvalued", [("TSLA", "symbol")]),
    ("aapl price today", [("AAPL", "symbol")]),
    ("Msft vs googl", [("MSFT", "symbol"), ("GOOGL", "symbol")]),
    ("appl vs nvda", [("AAPL", "fuzzy"), ("NVDA", "symbol")]),
    ("amazn earnings", [("AMZN", "fuzzy")]),
    ("teslas stock", [("TSLA", "fuzzy")]),
    ("nvidea news", [("NVDA", "fuzzy")]),
    ("what happened to microsfot", [("MSFT", "fuzzy")]),
    ("why is nvidias stock up", [("NVDA", "fuzzy")]),
    ("berkshre hathaway cash", [("BRK-B", "fuzzy")]),
    ("netflx subscribers", [("NFLX", "fuzzy")]),
    ("tsla 最近怎么样", [("TSLA", "symbol")]),
    ("nvda 为什么跌了", [("NVDA", "symbol")]),
    ("aapl和msft哪个好", [("AAPL", "symbol"), ("MSFT", "symbol")]),
    ("英伟达 nvidea 财报", [("NVDA", "exact")]),
]


@pytest.mark.parametrize(("question", "readings"), LOWER_AND_TYPOS, ids=[c[0] for c in LOWER_AND_TYPOS])
def test_lower_case_and_misspelled_names(question, readings):
    assert _read(question) == readings


@pytest.mark.parametrize("question", [
    "is it a good time to buy?", "what's on the calendar now", "are all banks down",
    "so what is the key risk", "a low rate world", "is the real estate market open",
    "fast movers ever?", "well, how did stocks do", "should I hold or sell",
    "how to apply for an ipo", "what does the user see", "best cost basis method",
    "is now a good time", "what is a spy satellite", "市场现在怎么样", "the market on monday",
])
def test_lower_case_ordinary_words_are_not_tickers(question):
    assert _tickers(question) == []


def test_a_fuzzy_reading_names_the_instrument_and_keeps_the_typed_words():
    (entity,) = extract("amazn earnings")
    assert (entity.name, entity.mention, entity.read_as) == ("Amazon", "amazn", "fuzzy")


# -- named by what they are ---------------------------------------------------------------

DESCRIBED = [
    ("How is the iPhone maker doing?", "AAPL", "description"),
    ("iphone maker earnings", "AAPL", "description"),
    ("Google's parent revenue", "GOOGL", "description"),
    ("Google’s parent company stock", "GOOGL", "description"),
    ("Facebook's parent company earnings", "META", "description"),
    ("Buffett's company cash pile", "BRK-B", "description"),
    ("Warren Buffett's company", "BRK-B", "description"),
    ("the world's largest chipmaker", "TSM", "description"),
    ("Musk's carmaker deliveries", "TSLA", "description"),
    ("宁王最近怎么样", "300750.SZ", "nickname"),
    ("宁王为什么跌", "300750.SZ", "nickname"),
    ("茅台股价", "600519.SS", "exact"),
    ("腾讯最近怎么样", "0700.HK", "exact"),
    ("鹅厂财报", "0700.HK", "nickname"),
    ("阿里最近的新闻", "BABA", "exact"),
    ("小米汽车销量", "1810.HK", "exact"),
    ("比亚迪走势", "002594.SZ", "exact"),
    ("股王茅台还能涨吗", "600519.SS", "exact"),
    ("牙膏厂最近怎么了", "INTC", "nickname"),
    ("苏妈的公司财报", "AMD", "nickname"),
    ("老黄的英伟达", "NVDA", "exact"),
    ("iPhone制造商的股价", "AAPL", "description"),
    # Chinese investors' names for American companies
    ("按摩店的显卡卖得怎么样", "AMD", "nickname"),
    ("亚麻的云业务增速", "AMZN", "nickname"),
    ("狗家市值多少", "GOOGL", "nickname"),
    ("核弹厂财报前瞻", "NVDA", "nickname"),
    ("mickey ds earnings", "MCD", "nickname"),
]


@pytest.mark.parametrize(("question", "ticker", "read_as"), DESCRIBED, ids=[c[0] for c in DESCRIBED])
def test_companies_named_by_what_they_are(question, ticker, read_as):
    first = extract(question)[0]
    assert (first.ticker, first.read_as) == (ticker, read_as)


@pytest.mark.parametrize("question", [
    "the company behind ChatGPT", "How is OpenAI doing?", "ChatGPT maker valuation", "OpenAI最新估值",
])
def test_an_unlisted_company_is_named_with_no_ticker(question):
    (entity,) = extract(question)
    assert (entity.name, entity.ticker, entity.kind) == ("OpenAI", None, "unlisted")


# -- ambiguous symbols ------------------------------------------------------------------

AMBIGUOUS = [
    ("SOL price", "SOL-USD", "symbol", ["SOL"]),
    ("SOL crypto price", "SOL-USD", "context", ["SOL"]),
    ("SOL token news", "SOL-USD", "context", ["SOL"]),
    ("SOL stock earnings", "SOL", "context", ["SOL-USD"]),
    ("Emeren SOL shares", "SOL", "exact", []),
    ("SOL币最近怎么样", "SOL-USD", "context", ["SOL"]),
    ("LINK coin price", "LINK-USD", "context", ["LINK"]),
    ("LINK shares today", "LINK", "context", ["LINK-USD"]),
    ("ARB token unlock", "ARB11841-USD", "context", ["ARB"]),
    ("BABA price", "BABA", "symbol", ["9988.HK"]),
    ("BABA in Hong Kong", "9988.HK", "context", ["BABA"]),
    ("港股阿里巴巴走势", "9988.HK", "context", ["BABA"]),
    ("阿里巴巴美股", "BABA", "context", ["9988.HK"]),
    ("比亚迪H股", "1211.HK", "context", ["002594.SZ"]),
    ("港股比亚迪", "1211.HK", "context", ["002594.SZ"]),
    ("比亚迪A股走势", "002594.SZ", "context", ["1211.HK"]),
    ("招商银行港股", "3968.HK", "context", ["600036.SS"]),
    ("招商银行", "600036.SS", "exact", ["3968.HK"]),
    ("BYD Hong Kong shares", "1211.HK", "context", ["002594.SZ"]),
    ("China Merchants Bank A-shares", "600036.SS", "context", ["3968.HK"]),
]


@pytest.mark.parametrize(("question", "ticker", "read_as", "others"), AMBIGUOUS, ids=[c[0] for c in AMBIGUOUS])
def test_ambiguous_symbols_are_chosen_by_context(question, ticker, read_as, others):
    first = extract(question)[0]
    assert (first.ticker, first.read_as) == (ticker, read_as)
    assert [r.ticker for r in first.alternatives] == others


# -- instruments ------------------------------------------------------------------------

INSTRUMENTS = [
    ("Hang Seng Tech today", "HSTECH.HK"), ("恒生科技指数走势", "HSTECH.HK"), ("恒生科技", "HSTECH.HK"),
    ("CSI 300 this year", "000300.SS"), ("沪深300", "000300.SS"), ("ChiNext index", "399006.SZ"),
    ("创业板指", "399006.SZ"), ("创业板最近怎么样", "399006.SZ"), ("STAR 50", "000688.SS"), ("科创50", "000688.SS"),
    ("Russell 2000 ytd", "^RUT"), ("罗素2000", "^RUT"), ("SOX index", "^SOX"), ("the SOX this week", "^SOX"),
    ("费城半导体指数", "^SOX"), ("中证1000", "000852.SS"), ("道指", "^DJI"), ("纳指", "^IXIC"),
    ("US 10-year yield", "^TNX"), ("10-year Treasury", "^TNX"), ("美国10年期国债收益率", "^TNX"),
    ("10年期美债收益率", "^TNX"), ("美债收益率", "^TNX"), ("13-week T-bill", "^IRX"),
    ("人民币汇率", "CNY=X"), ("人民币最近贬值了吗", "CNY=X"), ("日元汇率", "JPY=X"), ("日元", "JPY=X"),
    ("港币", "HKD=X"), ("欧元", "EURUSD=X"), ("yen this week", "JPY=X"),
    ("Brent crude", "BZ=F"), ("布伦特原油", "BZ=F"), ("copper prices", "HG=F"), ("铜价", "HG=F"),
    ("natural gas", "NG=F"), ("天然气价格", "NG=F"), ("silver", "SI=F"), ("白银", "SI=F"),
]


@pytest.mark.parametrize(("question", "ticker"), INSTRUMENTS, ids=[c[0] for c in INSTRUMENTS])
def test_indices_rates_fx_and_futures(question, ticker):
    assert _tickers(question) == [ticker]


@pytest.mark.parametrize(("question", "name"), [
    ("What is the LPR now?", "Loan Prime Rate (LPR)"), ("LPR降息了吗", "Loan Prime Rate (LPR)"),
    ("贷款市场报价利率", "Loan Prime Rate (LPR)"), ("SHIBOR today", "SHIBOR"), ("shibor利率走势", "SHIBOR"),
    ("fed funds rate", "Fed Funds Rate"), ("联邦基金利率", "Fed Funds Rate"),
    ("US 2-year yield", "2-Year Treasury Yield"), ("美国2年期国债收益率", "2-Year Treasury Yield"),
    ("螺纹钢期货", "Rebar"), ("螺纹钢价格", "Rebar"),
])
def test_rates_and_futures_without_a_yahoo_symbol_have_no_ticker(question, name):
    (entity,) = extract(question)
    assert (entity.name, entity.ticker) == (name, None)
    assert entity.kind in ("rate", "commodity")


CODES = [
    ("600519", "600519.SS", "equity"), ("600519最近怎么样", "600519.SS", "equity"),
    ("000858 走势", "000858.SZ", "equity"), ("300750怎么样", "300750.SZ", "equity"),
    ("688981 price", "688981.SS", "equity"), ("510300", "510300.SS", "etf"),
    ("159915 ETF", "159915.SZ", "etf"), ("0700 price", "0700.HK", "equity"),
    ("00700 走势", "0700.HK", "equity"), ("港股09988", "9988.HK", "equity"), ("002594和300750", "002594.SZ", "equity"),
]


@pytest.mark.parametrize(("question", "ticker", "kind"), CODES, ids=[c[0] for c in CODES])
def test_bare_exchange_codes_get_their_suffix(question, ticker, kind):
    first = extract(question)[0]
    assert (first.ticker, first.kind, first.read_as) == (ticker, kind, "code")


@pytest.mark.parametrize("question", [
    "I have 100000 dollars", "600519.5 yuan", "买了600000元", "2024 results", "in 2023 and 2024",
    "price 300750.00", "opening at 09:30, 10:00",
])
def test_numbers_that_are_not_codes(question):
    assert [e for e in extract(question) if e.read_as == "code"] == []


def test_a_code_that_is_both_a_stock_and_an_index_offers_the_other():
    (entity,) = extract("000001 今天")
    assert (entity.ticker, [r.ticker for r in entity.alternatives]) == ("000001.SZ", ["000001.SS"])


def test_crypto_words_or_coins_make_a_lower_case_word_a_coin():
    assert _read("sol vs eth") == [("SOL-USD", "symbol"), ("ETH-USD", "exact")]
    assert _read("the link coin") == [("LINK-USD", "context")]
    assert _tickers("link price") == [] and _tickers("what's the link between rates and stocks") == []


@pytest.mark.parametrize(("question", "ticker"), [("ko stock", "KO"), ("dis stock", "DIS"), ("cat stock", "CAT"),
                                                  ("snap stock", "SNAP"), ("ko股价", "KO")])
def test_a_short_or_word_like_symbol_is_a_ticker_right_before_stock(question, ticker):
    assert _tickers(question) == [ticker]


def test_a_name_typed_twice_is_read_the_most_trusted_way():
    assert _read("老黄的英伟达") == [("NVDA", "exact")]
    assert _read("股王茅台还能涨吗") == [("600519.SS", "exact")]


@pytest.mark.parametrize(("question", "ticker", "others"), [
    ("京东港股", "9618.HK", ["JD"]), ("蔚来港股走势", "9866.HK", ["NIO"]), ("NIO in Hong Kong", "9866.HK", ["NIO"]),
    ("网易美股", "NTES", ["9999.HK"]), ("Bilibili HK", "9626.HK", ["BILI"]),
])
def test_us_and_hong_kong_listings_of_chinese_companies(question, ticker, others):
    first = extract(question)[0]
    assert (first.ticker, [r.ticker for r in first.alternatives]) == (ticker, others)


def test_adr_is_a_word_not_a_ticker():
    assert _tickers("腾讯ADR") == ["0700.HK"]


@pytest.mark.parametrize(("question", "tickers"), [
    ("中国平安A股和港股今年谁涨得多", ["601318.SS", "2318.HK"]),     # one name, both listings asked for
    ("ping an a shares vs h shares this year", ["601318.SS", "2318.HK"]),
    ("A股比亚迪和H股比亚迪对比", ["002594.SZ", "1211.HK"]),
    ("BABA vs 9988.HK this year", ["BABA", "9988.HK"]),            # each symbol as typed
    ("港股比亚迪", ["1211.HK"]),                                     # one market named: that listing
])
def test_listings_named_by_market_or_symbol_are_each_read(question, tickers):
    assert _tickers(question) == tickers


@pytest.mark.parametrize(("question", "ticker"), [
    ("英伟大最近5个交易日", "NVDA"),          # the last of three characters
    ("特斯啦今年以来", "TSLA"),
    ("宁得时代上周表现", "300750.SZ"),        # any but the first of four
    ("贵州茅苔股价", "600519.SS"),
])
def test_a_chinese_name_with_one_wrong_character_is_read_as_a_near_spelling(question, ticker):
    [entity] = extract(question)
    assert (entity.ticker, entity.read_as) == (ticker, "fuzzy")


@pytest.mark.parametrize("question", ["今天天气不错", "美联储会议纪要", "美联储降息", "中国经济最近怎么样",
                                      "港股通最新消息", "外汇储备", "锂电池", "航空公司业绩"])
def test_ordinary_chinese_words_are_never_read_as_misspelt_names(question):
    assert [e for e in extract(question) if e.read_as == "fuzzy"] == []


def test_a_year_to_date_makes_a_word_a_ticker():
    assert _tickers("spy ytd") == ["SPY"] and _tickers("qqq vs spy ytd") == ["QQQ", "SPY"]
    assert _tickers("I spy a bargain") == []
