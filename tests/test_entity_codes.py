"""Exchange codes as people type them, and numbers that are no code (issue 32, class 1): any Hong
Kong code with or without its leading zeros, `.HK`, `HK:` or 港股 around it, any A-share code, alone
or in a comparison, with the company's name; a year, a price, a quantity or a date never a code.
Expected values written by hand."""

from datetime import datetime

import pytest

from finsearch.plan.analysis import analyse
from finsearch.plan.entities import extract
from finsearch.plan.interpretation import Interpretation
from finsearch.plan.interpretation_text import instrument_line, summary

NOW = datetime(2024, 10, 15, 12)


def _tickers(question: str) -> list[str]:
    return [e.ticker for e in extract(question)]


@pytest.mark.parametrize(("question", "tickers"), [
    ("700 hk share price", ["0700.HK"]), ("hk 1299 why down today", ["1299.HK"]),
    ("HK:2020 最近一个月", ["2020.HK"]), ("HKEX:0005 today", ["0005.HK"]), ("HKG:1299 past week", ["1299.HK"]),
    ("港股700今天涨了还是跌了", ["0700.HK"]), ("港股 9618 最近怎么样", ["9618.HK"]), ("941 hk dividend", ["0941.HK"]),
    ("5.HK dividend", ["0005.HK"]), ("00700 today", ["0700.HK"]), ("09988最近一周走势", ["9988.HK"]),
])
def test_a_hong_kong_code_beside_a_market_word_or_with_its_zeros(question, tickers):
    assert _tickers(question) == tickers


@pytest.mark.parametrize(("question", "tickers"), [
    ("1810 vs 1211 this month", ["1810.HK", "1211.HK"]),
    ("9988 and 3690 since the stimulus", ["9988.HK", "3690.HK"]),
    ("3690今天涨了还是跌了", ["3690.HK"]), ("2318今天为什么跌", ["2318.HK"]),
    ("9618和9999谁涨得多", ["9618.HK", "9999.HK"]), ("how's 2628 doing this year", ["2628.HK"]),
    ("is 3690 a buy", ["3690.HK"]), ("what happened to 2382 today", ["2382.HK"]),
    ("tencent vs 9988 this month", ["0700.HK", "9988.HK"]), ("腾讯和9988谁涨得多", ["0700.HK", "9988.HK"]),
    ("600036和3968谁更便宜", ["600036.SS", "3968.HK"]), ("1211和002594对比", ["1211.HK", "002594.SZ"]),
    # a year-like number among codes is one too
    ("2015 vs 9866 vs 9868 this year", ["2015.HK", "9866.HK", "9868.HK"]),
    ("how much is 100 shares of 3690", ["3690.HK"]),
])
def test_a_bare_number_standing_where_a_ticker_would_is_a_hong_kong_code(question, tickers):
    assert _tickers(question) == tickers


@pytest.mark.parametrize(("question", "tickers"), [
    ("SH600519 vs sz000858", ["600519.SS", "000858.SZ"]), ("830799.BJ", ["830799.BJ"]),
    ("603087 price", ["603087.SS"]), ("688111最近一周", ["688111.SS"]), ("300059 news", ["300059.SZ"]),
    ("600519 vs 000858 vs 300750", ["600519.SS", "000858.SZ", "300750.SZ"]),
])
def test_a_share_codes_by_their_block_or_their_exchange(question, tickers):
    assert _tickers(question) == tickers


@pytest.mark.parametrize(("question", "tickers"), [
    ("aapl 2023 revenue", ["AAPL"]), ("tencent 2023 profit", ["0700.HK"]),
    ("i have 500 shares of msft, how much dividend do i get", ["MSFT"]),
    ("tsla dropped below 220 today, why", ["TSLA"]), ("jpm back above 220?", ["JPM"]),
    ("nvda fell 10% to 120 today", ["NVDA"]), ("msft 400 calls", ["MSFT"]),
    ("how much would 100 shares of costco cost", ["COST"]), ("1000 shares of 0700 at today's price", ["0700.HK"]),
    ("腾讯300块还能买吗", ["0700.HK"]), ("我有1000股招商银行，能分多少红", ["600036.SS"]),
    ("2024年以来比亚迪涨了多少", ["002594.SZ"]), ("投了200000买宁德时代，今年赚了多少", ["300750.SZ"]),
    ("恒指能守住20000点吗", ["^HSI"]), ("茅台1800买的，现在亏多少", ["600519.SS"]), ("英伟达涨到140了吗", ["NVDA"]),
    ("特斯拉300美元还能买吗", ["TSLA"]), ("茅台跌破1500", ["600519.SS"]), ("boeing 737 max news", ["BA"]),
    ("top 100 stocks this year", []), ("what happened in 1987", []), ("best stocks of 2024", []),
    ("section 230 news", []), ("737 max crash", []), ("iphone 16 sales", []), ("2020年 vs 2021年", []),
    ("924以来恒指涨了多少", ["^HSI"]), ("HK 300 dollars", []), ("hk 2024 outlook", []), ("港股2024表现", []),
    ("bought 300 shares of 1810 at 25 hkd", ["1810.HK"]),        # the currency after a price is its unit
    ("how much do 200 shares of 2318 cost", ["2318.HK"]),
    ("i paid 150 usd for aapl", ["AAPL"]), ("how much is 100 usd in cny", ["CNY=X"]), ("hkd peg news", ["HKD=X"]),
])
def test_a_year_a_price_a_quantity_or_a_date_is_no_code(question, tickers):
    assert _tickers(question) == tickers


def test_a_code_is_named_from_the_alias_table_or_the_a_share_list():
    a = analyse("3690今天涨了还是跌了", NOW)
    interpretation = Interpretation.of(a, NOW)
    assert summary(interpretation).startswith("理解为：美团（3690.HK）")
    assert instrument_line(interpretation.instruments[0], "zh") == "「3690」理解为美团（3690.HK）"
    # 603087 is in no alias table row: its name comes from the bundled A-share list
    a = analyse("603087 price", NOW)
    assert summary(Interpretation.of(a, NOW)).startswith("Read as: 甘李药业 (603087.SS)")
    (entity,) = a.entities
    assert (entity.read_as, entity.mention) == ("code", "603087")


def test_a_market_word_and_its_code_are_one_mention_and_no_date():
    a = analyse("HK:2020 最近一个月", NOW)
    assert a.tickers == ["2020.HK"] and a.entities[0].mention == "HK:2020"
    assert (str(a.time_context.start), str(a.time_context.end)) == ("2024-09-15", "2024-10-15")


def test_a_year_like_number_alone_is_read_as_no_code_and_the_reader_is_told():
    a = analyse("2020 最近一个月", NOW)
    assert a.tickers == []
    assert a.notes == ("2020按数字（年份、价格或数量）理解，而不是股票代码；如指港股，请写2020.HK。",)
    a = analyse("2023 vs 2024", NOW)
    assert a.notes[0] == ("2023 is read as a number (a year, a price or a quantity), not as a stock code; "
                          "for the Hong Kong stock, write 2023.HK.")
    assert analyse("aapl 2023 revenue", NOW).notes == ()


@pytest.mark.parametrize("question", ["sold 2000 shares of nvda last month", "bought 2015 shares of tsla in march",
                                      "spx at 2000 points"])
def test_a_year_like_number_that_counts_something_is_no_year(question):
    from finsearch.plan.analysis import analyse
    from tests.conftest import NOW
    period = analyse(question, NOW).time_context
    assert period.start.year == NOW.year, period
