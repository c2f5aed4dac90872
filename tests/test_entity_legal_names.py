"""Company legal names (issue 32, class 4): a legal form after a name (AG, SE, NV, PLC, SA, SpA,
Inc, Corp, Ltd, Co, 股份有限公司, 集团 …) is never a ticker, and the legal name resolves to its
listing: by the alias table, the bundled index companies, its initials, or in Chinese a short name
inside it or made of its characters. Expected values written by hand."""

import json
from importlib import resources

import pytest

from finsearch.plan.entities import extract


def _read(question: str) -> list[tuple[str | None, str]]:
    return [(e.ticker, e.read_as) for e in extract(question)]


@pytest.mark.parametrize(("question", "tickers"), [
    ("Siemens AG share price", ["SIE.DE"]), ("ASML Holding NV past month", ["ASML"]),
    ("Banco Santander SA news", ["SAN.MC"]), ("TotalEnergies SE vs Shell PLC ytd", ["TTE", "SHEL"]),
    ("Microsoft Corp vs Alphabet Inc this year", ["MSFT", "GOOGL"]), ("Toyota Motor Corp stock price", ["TM"]),
    ("Samsung Electronics Co., Ltd. stock today", ["005930.KS"]), ("Allianz SE stock price", ["ALV.DE"]),
    ("Bayer AG vs BASF SE this year", ["BAYN.DE", "BAS.DE"]), ("Mercedes-Benz Group AG stock price", ["MBG.DE"]),
    ("Amazon.com, Inc. stock price", ["AMZN"]), ("Nestlé S.A. stock price", ["NESN.SW"]),
    ("Eni S.p.A. stock price", ["ENI.MI"]), ("Novo Nordisk A/S stock price", ["NVO"]),
    ("Honda Motor Co., Ltd. earnings", ["HMC"]), ("siemens ag share price", ["SIE.DE"]),
])
def test_a_legal_form_is_no_ticker_and_the_name_finds_its_listing(question, tickers):
    assert [t for t, _ in _read(question)] == tickers


@pytest.mark.parametrize(("question", "tickers"), [
    ("空客SE股价", ["AIR.PA"]), ("西门子 AG 今年表现", ["SIE.DE"]), ("英伟达Corp最近怎么样", ["NVDA"]),
    ("特斯拉和AG对比", ["TSLA", "AG"]),            # 和 names no company: AG is still the silver miner
])
def test_a_latin_legal_form_after_a_chinese_name(question, tickers):
    assert [t for t, _ in _read(question)] == tickers


@pytest.mark.parametrize(("question", "ticker"), [
    ("Bayerische Motoren Werke AG", "BMW.DE"), ("bayerische motoren werke ag price", "BMW.DE"),
])
def test_a_legal_name_by_its_initials(question, ticker):
    assert _read(question) == [(ticker, "nickname")]


@pytest.mark.parametrize(("question", "ticker"), [
    ("宁德时代新能源科技股份有限公司最近一个月走势", "300750.SZ"), ("腾讯控股有限公司今天", "0700.HK"),
    ("阿里巴巴集团控股有限公司最新消息", "BABA"), ("美的集团股份有限公司估值", "000333.SZ"),
    ("比亚迪股份有限公司上周为什么跌", "002594.SZ"), ("宝马集团今年股价", "BMW.DE"),
    ("中国石油天然气股份有限公司股价", "601857.SS"), ("中国石油化工股份有限公司股价", "600028.SS"),
    ("台湾积体电路制造股份有限公司最近一周", "TSM"), ("贵州茅台酒股份有限公司股价", "600519.SS"),
    # in no alias table row: 甘李药业 is in the bundled A-share list
    ("甘李药业股份有限公司最近一周", "603087.SS"),
])
def test_a_chinese_legal_name_finds_its_listing(question, ticker):
    assert [t for t, _ in _read(question)] == [ticker]


def test_a_name_nothing_knows_is_left_to_the_lookup_its_form_still_no_ticker():
    assert [(e.name, e.ticker) for e in extract("Acme Widgets AG news")] == [("Acme Widgets", None)]
    assert [(e.name, e.ticker) for e in extract("Acme Widgets Inc news")] == [("Acme Widgets Inc", None)]
    assert [e.ticker for e in extract("Acme Holdings PLC vs NVDA")] == ["NVDA"]


@pytest.mark.parametrize(("question", "tickers"), [
    ("is AG a buy", ["AG"]), ("AG stock", ["AG"]), ("compare PAAS and AG", ["PAAS", "AG"]), ("SE earnings", ["SE"]),
])
def test_the_same_letters_alone_are_still_a_ticker(question, tickers):
    assert [e.ticker for e in extract(question)] == tickers


def test_the_bundled_lists_say_where_they_come_from():
    for file, source in (("listed_codes.json", "adata"), ("listed_names.json", "pytickersymbols")):
        data = json.loads(resources.files("finsearch").joinpath(f"data/{file}").read_text("utf-8"))
        assert source in data["about"] and ("Apache-2.0" in data["about"] or "MIT" in data["about"])
