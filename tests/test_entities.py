"""Names, aliases and symbols in questions → Yahoo Finance tickers (offline)."""

import json
from importlib import resources

import pytest

from finsearch.plan.entities import alias_table, extract
from finsearch.plan.index_names import index_entries

CASES = [
    ("Why did NVDA fall last week?", ["NVDA"]),
    ("How is $PLTR doing?", ["PLTR"]),
    ("Tencent 0700.HK vs Moutai 600519.SS", ["0700.HK", "600519.SS"]),
    ("BYD 002594.SZ sales", ["002594.SZ"]),
    ("700.HK price", ["0700.HK"]),
    ("BTC-USD and EURUSD=X", ["BTC-USD", "EURUSD=X"]),
    ("^GSPC today", ["^GSPC"]),
    ("CL=F futures", ["CL=F"]),
    ("BRK-B buybacks", ["BRK-B"]),
    ("BRK.B buybacks", ["BRK-B"]),
    ("Alphabet earnings", ["GOOGL"]),
    ("Google earnings", ["GOOGL"]),
    ("Meta ad revenue", ["META"]),
    ("Facebook ad revenue", ["META"]),
    ("Berkshire cash pile", ["BRK-B"]),
    ("英伟达最近怎么样", ["NVDA"]),
    ("贵州茅台最近一个月表现如何？", ["600519.SS"]),
    ("腾讯控股财报", ["0700.HK"]),
    ("比亚迪销量", ["002594.SZ"]),
    ("阿里巴巴股价", ["BABA"]),
    ("宁德时代走势", ["300750.SZ"]),
    ("How did the S&P 500 do?", ["^GSPC"]),
    ("Nasdaq today", ["^IXIC"]),
    ("Why did the Dow drop?", ["^DJI"]),
    ("oil prices this week", ["CL=F"]),
    ("gold price", ["GC=F"]),
    ("What is the 10-year Treasury yield?", ["^TNX"]),
    ("the euro against the dollar", ["EURUSD=X"]),
    ("bitcoin price", ["BTC-USD"]),
    ("恒生指数今天", ["^HSI"]),
    ("上证指数走势", ["000001.SS"]),
    ("美元兑人民币汇率", ["CNY=X"]),
    ("比特币价格", ["BTC-USD"]),
    ("Compare AAPL and MSFT year to date", ["AAPL", "MSFT"]),
    ("Apple vs Microsoft", ["AAPL", "MSFT"]),
    ("Visa and Mastercard earnings", ["V", "MA"]),
    ("$V and $MA", ["V", "MA"]),
    ("ON Semiconductor outlook", ["ON"]),
    ("Why did XYZQ fall?", ["XYZQ"]),
]


@pytest.mark.parametrize(("question", "tickers"), CASES, ids=[c[0] for c in CASES])
def test_tickers(question, tickers):
    assert [e.ticker for e in extract(question) if e.ticker] == tickers


@pytest.mark.parametrize("question", [
    "Is the IT sector doing well NOW?",
    "Are ALL banks down?",
    "Is it a good time to buy A shares?",
    "ON what day did CPI come out?",
    "What is the CEO's EPS guidance for the ETF?",
    "Target price for the index?",
    "What is the Fed doing?",
])
def test_ordinary_words_are_not_tickers(question):
    assert [e.ticker for e in extract(question) if e.ticker] == []


def test_unknown_company_names_are_left_for_symbol_search():
    found = extract("Why did Rocket Lab jump?")
    assert [(e.name, e.ticker) for e in found] == [("Rocket Lab", None)]


def test_shouted_questions_take_only_known_symbols():
    assert [e.ticker for e in extract("WHY DID NVDA FALL TODAY")] == ["NVDA"]


def test_chinese_questions_use_the_users_own_name():
    (entity,) = extract("贵州茅台最近一个月表现如何？")
    assert entity.display("zh") == "贵州茅台" and entity.display("en") == "Kweichow Moutai"


def test_alias_table_covers_the_most_asked_names():
    raw = json.loads(resources.files("finsearch").joinpath("data/aliases.json").read_text("utf-8"))
    assert len(raw) >= 300
    kinds = {e["kind"] for e in raw}
    assert {"equity", "etf", "index", "fx", "crypto", "commodity", "rate"} <= kinds
    aliases = [a.lower() for e in raw for a in e["aliases"] + e["exact_aliases"]]
    assert len(aliases) == len(set(aliases)), "an alias maps to two tickers"
    assert len(alias_table()) == len(raw) + len(index_entries(raw))     # the bundled index companies besides


def test_the_index_companies_the_table_lacks_are_read_by_their_names_but_never_as_typed_symbols():
    from finsearch.plan.analysis import analyse
    from tests.conftest import NOW

    def read(question):
        return [(e.ticker, e.read_as) for e in analyse(question, NOW).entities]

    assert read("whats the pe on deckers") == [("DECK", "nickname")]      # "Deckers Brands", first word
    assert read("wec energy dividend") == [("WEC", "exact")]
    assert read("garmin earnings") == [("GRMN", "exact")]
    assert read("aple stock price")[0][0] == "AAPL"                       # a slip for Apple, not APLE's symbol
    assert read("how is the benchmark doing") == [] and read("disco stocks") == []


def test_a_piece_of_an_ampersand_word_is_no_symbol():
    def tickers(question):
        return [e.ticker for e in extract(question) if e.ticker]

    assert tickers("What did Microsoft say in its MD&A?") == ["MSFT"]      # not MD (Pediatrix Medical)
    assert tickers("How is AT&T doing?") == ["T"]
    assert tickers("AMD&NVDA this week") == ["AMD", "NVDA"]
