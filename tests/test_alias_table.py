"""The alias table's own rules: every link points at an entry, a missing ticker is never
invented, an alias means one thing."""

import json
from importlib import resources

from finsearch.plan.alias_table import alias_table

RAW = json.loads(resources.files("finsearch").joinpath("data/aliases.json").read_text("utf-8"))


def test_only_rates_futures_and_private_companies_lack_a_ticker():
    missing = {(e["name"], e["kind"]) for e in RAW if e["ticker"] is None}
    assert {("OpenAI", "unlisted"), ("Loan Prime Rate (LPR)", "rate"), ("SHIBOR", "rate"),
            ("Fed Funds Rate", "rate"), ("Rebar", "commodity")} <= missing
    assert {kind for _, kind in missing} <= {"rate", "commodity", "unlisted"}


def test_every_other_listing_and_symbol_points_at_an_entry():
    tickers = {e["ticker"] for e in RAW if e["ticker"]}
    for entry in RAW:
        assert set(entry.get("other_listings", ())) <= tickers, entry["name"]
        for symbol in entry.get("symbols", ()):
            assert symbol != entry["ticker"]


def test_listings_are_linked_both_ways():
    table = alias_table()
    assert [i.ticker for i in table.other_listings("BABA")] == ["9988.HK"]
    assert [i.ticker for i in table.other_listings("9988.HK")] == ["BABA"]
    assert [i.ticker for i in table.other_listings("1211.HK")] == ["002594.SZ"]


def test_a_symbol_reads_as_the_more_traded_instrument_first():
    assert [i.ticker for i in alias_table().symbol_readings("SOL")] == ["SOL-USD", "SOL"]
    assert [i.ticker for i in alias_table().symbol_readings("ARB")] == ["ARB11841-USD", "ARB"]
    assert [i.ticker for i in alias_table().symbol_readings("NVDA")] == ["NVDA"]


def test_every_alias_nickname_and_description_means_one_thing():
    names = [a.lower() for e in RAW for f in ("aliases", "exact_aliases", "nicknames", "descriptions")
             for a in e.get(f, ())]
    assert len(names) == len(set(names))
