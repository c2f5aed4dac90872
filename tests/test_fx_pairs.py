"""Currency pairs named by their two currencies, quoted the way the market quotes them (offline)."""

import pytest

from finsearch.plan.entities import extract


@pytest.mark.parametrize(("question", "ticker"), [
    ("usd to cny today", "CNY=X"), ("人民币兑美元", "CNY=X"), ("美元人民币", "CNY=X"),
    ("the dollar against the yen", "JPY=X"), ("pound to dollar", "GBPUSD=X"),
    ("australian dollar vs us dollar", "AUDUSD=X"), ("yen vs yuan", "JPYCNY=X"), ("日元对人民币", "JPYCNY=X"),
    ("hong kong dollar to yuan", "HKDCNY=X"), ("英镑兑日元", "GBPJPY=X"), ("欧元英镑", "EURGBP=X"),
    ("100 usd in hkd", "HKD=X"),
])
def test_a_pair_is_one_instrument_whichever_currency_comes_first(question, ticker):
    assert [(e.ticker, e.kind) for e in extract(question)] == [(ticker, "fx")]


def test_a_pair_the_table_does_not_list_is_still_read():
    (entity,) = extract("canadian dollar to yen")
    assert (entity.ticker, entity.name, entity.kind) == ("CADJPY=X", "CAD/JPY", "fx")


@pytest.mark.parametrize(("question", "ticker"), [("us dollar index", "DX-Y.NYB"), ("dollar general stock", "DG")])
def test_a_currency_name_inside_another_name_is_not_a_pair(question, ticker):
    assert [e.ticker for e in extract(question)] == [ticker]
