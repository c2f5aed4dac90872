"""Companies named by what they make or who runs them, yields by tenor in any order, symbols
typed as a lower-case list, and lower-case names that are also words (offline)."""

import pytest

from finsearch.plan.alias_forms import derived_aliases
from finsearch.plan.alias_table import AliasTable, alias_table
from finsearch.plan.entities import extract


def _read(question: str) -> list[tuple[str | None, str]]:
    return [(e.ticker, e.read_as) for e in extract(question)]


def _tickers(question: str) -> list[str]:
    return [e.ticker for e in extract(question) if e.ticker]


# -- by product, service or leader ------------------------------------------------------

MADE_OR_RUN_BY = [
    ("how did the ozempic maker do this week", "NVO"),
    ("Wegovy maker shares", "NVO"),
    ("owner of instagram earnings", "META"),
    ("youtube's parent company stock", "GOOGL"),
    ("the windows maker dividend", "MSFT"),
    ("did the mounjaro maker beat earnings?", "LLY"),
    ("Temu's parent stock", "PDD"),
    ("jeff bezos company analyst price target", "AMZN"),
    ("Jensen Huang's company stock", "NVDA"),
    ("the GPU maker today", "NVDA"),
    ("the search giant earnings", "GOOGL"),
    ("淘宝母公司最新财报", "BABA"),
    ("做微信的公司股价", "0700.HK"),
    ("微信的母公司今年表现", "0700.HK"),
    ("马化腾的公司", "0700.HK"),
    ("刘强东的公司", "JD"),
    ("马斯克的电动车公司最新消息", "TSLA"),
    ("光刻机巨头最近怎么样", "ASML"),
]


@pytest.mark.parametrize(("question", "ticker"), MADE_OR_RUN_BY, ids=[c[0] for c in MADE_OR_RUN_BY])
def test_companies_named_by_product_or_leader(question, ticker):
    assert _read(question)[0] == (ticker, "description")


@pytest.mark.parametrize(("question", "name"), [
    ("抖音的母公司估值", "ByteDance"), ("the company behind claude", "Anthropic"), ("华为最新消息", "Huawei"),
    ("starlink owner valuation", "SpaceX"), ("支付宝母公司", "Ant Group"),
])
def test_a_parent_that_is_not_listed_is_named_with_no_ticker(question, name):
    (entity,) = extract(question)
    assert (entity.name, entity.ticker, entity.kind) == (name, None, "unlisted")


@pytest.mark.parametrize(("question", "ticker"), [
    ("度厂今年表现", "BIDU"), ("酱香科技最近一个月", "600519.SS"), ("工行股息", "601398.SS"),
    ("宇宙行分红", "601398.SS"), ("迈瑞最近一个月", "300760.SZ"), ("中芯最近怎么样", "0981.HK"),
    ("药明康德", "603259.SS"), ("平安股价", "601318.SS"), ("大饼最近怎么样", "BTC-USD"),
])
def test_chinese_nicknames_and_short_names(question, ticker):
    assert _tickers(question) == [ticker]


def test_a_derived_form_never_overrides_a_written_name():
    table = AliasTable([
        {"ticker": "AAA", "name": "A Corp", "kind": "equity", "aliases": ["widget maker"]},
        {"ticker": "BBB", "name": "B Corp", "kind": "equity", "aliases": ["b corp"], "makes": ["widget"]},
    ])
    assert [h.instrument.ticker for h in table.find("widget maker shares")] == ["AAA"]
    assert [h.instrument.ticker for h in table.find("maker of widget")] == ["BBB"]


@pytest.mark.parametrize("phrase", ["ozempic maker", "maker of ozempic", "ozempic的母公司", "雷军的公司",
                                    "the one that makes ozempic", "做ozempic的那家", "company led by 雷军"])
def test_phrases_come_in_both_languages(phrase):
    table = AliasTable([{"ticker": "NVO", "name": "Novo Nordisk", "kind": "equity", "makes": ["ozempic"]},
                        {"ticker": "1810.HK", "name": "Xiaomi", "kind": "equity", "led_by": ["雷军"]}])
    assert [h.instrument.ticker for h in table.find(phrase)] in (["NVO"], ["1810.HK"])


def test_a_product_or_leader_with_no_cue_names_nothing():
    table = AliasTable([{"ticker": "MSFT", "name": "Microsoft", "kind": "equity", "makes": ["windows"],
                         "led_by": ["nadella"]}])
    assert table.find("windows and doors are cheaper this year") == []
    assert table.find("nadella said so") == []


# -- every maker, owner and leader phrase of a question (issue 32, class 2) -------------------

EVERY_PHRASE = [
    ("the company that makes the xbox or the one that makes the playstation, ytd", ["MSFT", "SONY"]),
    ("whoever owns whatsapp vs whoever owns gmail", ["META", "GOOGL"]),
    ("the kindle maker and the iphone maker this week", ["AMZN", "AAPL"]),
    ("the firm behind cuda compared with the firm behind epyc", ["NVDA", "AMD"]),
    ("dreamliner maker or a350 maker, which fell more", ["BA", "AIR.PA"]),
    ("instagram's parent vs youtube's parent", ["META", "GOOGL"]),
    ("the company run by lisa su vs the one led by jensen huang", ["AMD", "NVDA"]),
    ("owner of whole foods or the company that makes mustangs", ["AMZN", "F"]),
    ("做PS5的那家和做Xbox的公司今年谁涨得多", ["SONY", "MSFT"]),
    ("造刀片电池的公司和造神行电池的那家谁估值高", ["002594.SZ", "300750.SZ"]),
    ("做微信的和做淘宝的哪个涨得多", ["0700.HK", "BABA"]),         # "做X的" with no noun after it
    ("生产锐龙的公司和生产显卡的那家", ["AMD", "NVDA"]),
    ("微信的母公司和淘宝的母公司哪个便宜", ["0700.HK", "BABA"]),
    ("开发梦幻西游的那家和运营天猫的那家最近一个月", ["NTES", "BABA"]),
    ("雷军的公司和丁磊创办的那家", ["1810.HK", "NTES"]),
    ("给苹果代工芯片的那家和造光刻机的那家", ["TSM", "ASML"]),
    ("which company makes the prius and which one makes the civic", ["TM", "HMC"]),
    ("the people who make excel or the ones making gpus", ["MSFT", "NVDA"]),
    ("旗下有微信的公司和淘宝所属的公司", ["0700.HK", "BABA"]),
    ("雷军那家公司和马化腾的公司", ["1810.HK", "0700.HK"]),
]


@pytest.mark.parametrize(("question", "tickers"), EVERY_PHRASE, ids=[c[0] for c in EVERY_PHRASE])
def test_every_phrase_in_a_question_names_its_company(question, tickers):
    assert _tickers(question) == tickers


def test_two_products_joined_before_one_cue_are_not_read_as_one_phrase():
    # "微信和淘宝的公司": the gap before 的 never runs over 和, so 微信 is not swallowed into a
    # phrase that names Alibaba.
    assert _tickers("微信和淘宝的公司") == ["BABA"]


def test_a_vague_chinese_head_needs_a_verb():
    assert _tickers("做iPhone的那个和做Model Y的那个") == ["AAPL", "TSLA"]
    assert _tickers("iPhone的那个问题") == []


# -- Treasury yields by tenor -------------------------------------------------------------

@pytest.mark.parametrize(("question", "ticker"), [
    ("美债十年期收益率今天", "^TNX"), ("十年期美国国债收益率", "^TNX"), ("us 10-year today", "^TNX"),
    ("5年期美债收益率", "^FVX"), ("30 year treasury yield this month", "^TYX"), ("10yr yield", "^TNX"),
])
def test_treasury_yields_in_any_word_order(question, ticker):
    assert _tickers(question) == [ticker]


def test_a_tenor_with_no_yahoo_symbol_stays_without_one():
    (entity,) = extract("us 2-year treasury yield")
    assert (entity.name, entity.ticker) == ("2-Year Treasury Yield", None)
    assert "2年期美债" in derived_aliases({"tenor_years": 2})


def test_a_tenor_not_in_the_table_is_not_read_as_a_near_one():
    assert _tickers("3-year yield") == []


# -- lower-case symbols in a list --------------------------------------------------------

@pytest.mark.parametrize(("question", "tickers"), [
    ("dividend yield of ko and pep", ["KO", "PEP"]), ("qqq vs spy past year", ["QQQ", "SPY"]),
    ("xom vs cvx", ["XOM", "CVX"]), ("jpm, bac and wfc earnings", ["JPM", "BAC", "WFC"]),
    ("spy/qqq ytd", ["SPY", "QQQ"]), ("how are ko and pep doing", ["KO", "PEP"]),
])
def test_lower_case_symbols_listed_together_are_tickers(question, tickers):
    assert _tickers(question) == tickers


@pytest.mark.parametrize("question", [
    "is it on sale and all good", "tell me about it and now", "ko pep", "cat and dog pictures",
])
def test_common_words_and_lists_outside_markets_stay_words(question):
    assert _tickers(question) == []


# -- a name that is a word, in lower case -------------------------------------------------

@pytest.mark.parametrize(("question", "ticker"), [
    ("what does snowflake do", "SNOW"), ("snowflake earnings", "SNOW"), ("target stock", "TGT"),
    ("what does zoom do", "ZM"),
])
def test_a_word_like_name_in_lower_case_is_the_company_where_only_it_fits(question, ticker):
    assert _tickers(question) == [ticker]


@pytest.mark.parametrize("question", ["the snowflake was pretty", "a zoom call with analysts",
                                      "target price for the index"])
def test_a_word_like_name_in_lower_case_is_otherwise_a_word(question):
    assert _tickers(question) == []


def test_the_table_stays_quick_to_search():
    # Thousands of derived forms: a question is still searched in a few milliseconds.
    import time

    table = alias_table()
    start = time.perf_counter()
    for _ in range(20):
        table.find("how did the ozempic maker do after the fed cut compared with 美债十年期收益率")
    assert (time.perf_counter() - start) / 20 < 0.05


# -- a name that means something else before certain words ---------------------------------

def test_cable_is_the_pound_except_before_words_of_cable_companies():
    assert _tickers("cable today") == ["GBPUSD=X"]
    assert _tickers("cable companies stocks") == []
    assert _tickers("comcast cable business") == ["CMCSA"]


def test_a_chinese_nickname_is_not_read_inside_a_longer_word():
    assert _tickers("亚麻籽期货") == []                 # flaxseed, not Amazon
    assert _tickers("亚马逊雨林火灾") == []
    assert _tickers("亚马逊布局AI芯片") == ["AMZN"]     # 布局 is no fabric


def test_the_words_of_a_description_ask_for_nothing():
    from finsearch.plan.analysis import analyse
    from tests.conftest import NOW

    analysis = analyse("whatsapp owner shares this month", NOW)
    assert analysis.tickers == ["META"] and "holders" not in analysis.intents


@pytest.mark.parametrize(("question", "ticker"), [("goggle stock this week", "GOOGL"), ("apply stock", "AAPL")])
def test_an_english_word_before_stock_may_be_a_misspelt_name(question, ticker):
    assert _read(question) == [(ticker, "fuzzy")]


@pytest.mark.parametrize("question", ["solar stock picks", "value stock ideas", "bank shares", "tech stocks"])
def test_a_kind_of_stock_is_not_a_misspelt_name(question):
    assert _tickers(question) == []


@pytest.mark.parametrize(("question", "tickers"), [
    ("spy past 5 trading days", ["SPY"]), ("ko this year", ["KO"]), ("cat since the fed cut", ["CAT"]),
    ("baba vs 9988.hk", ["BABA", "9988.HK"]), ("0700.hk today", ["0700.HK"]),
])
def test_a_word_like_symbol_that_opens_a_question_about_a_period_is_a_ticker(question, tickers):
    assert _tickers(question) == tickers


@pytest.mark.parametrize("question", ["spy on my neighbour", "link price", "well past the peak, is it over"])
def test_a_word_like_symbol_otherwise_stays_a_word(question):
    assert _tickers(question) == []


@pytest.mark.parametrize(("question", "ticker"), [
    ("the dow transports", "^DJT"), ("the dow today", "^DJI"), ("中概股指数今年", "^HXC"),
    ("russell 1000 growth", "^RLG"), ("创业板50", "399673.SZ"),
])
def test_style_indices_and_the_longest_of_overlapping_names(question, ticker):
    assert _tickers(question) == [ticker]


@pytest.mark.parametrize(("question", "tickers"), [
    ("visas latest 10-k", ["V"]), ("apples earnings date", ["AAPL"]),   # a possessive with no apostrophe
    ("apples and oranges", []), ("i like apples", []), ("我的metas最近跌了不少", ["META"]),
    ("how has coin done this year", ["COIN"]), ("why did cat drop", ["CAT"]),   # the subject of a move
    ("how is it doing", []), ("how are you doing", []),
])
def test_a_name_that_is_also_a_word_where_only_the_company_fits(question, tickers):
    assert _tickers(question) == tickers
