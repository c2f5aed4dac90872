"""Names as people shorten them, possessives and plurals (issue 32, class 3): "taiwan semi",
"msft's", "my amds", "nvidia’s", "BRK"; and the real names and words they must not swallow."""

import pytest

from finsearch.plan.alias_forms import derived_short_names, derived_symbols
from finsearch.plan.alias_table import AliasTable
from finsearch.plan.entities import extract


def _read(question: str) -> list[tuple[str | None, str]]:
    return [(e.ticker, e.read_as) for e in extract(question)]


def _tickers(question: str) -> list[str]:
    return [e.ticker for e in extract(question) if e.ticker]


# -- short forms derived from the table's names ---------------------------------------------

SHORTENED = [
    ("taiwan semi earnings", [("TSM", "nickname")]),
    ("taiwan semi vs intel ytd", [("TSM", "nickname"), ("INTC", "exact")]),
    ("on semi guidance", [("ON", "nickname")]),
    ("palo alto earnings", [("PANW", "nickname")]),
    ("nxp semi vs micron tech", [("NXPI", "nickname"), ("MU", "nickname")]),
    ("philip morris intl dividend", [("PM", "nickname")]),
]


@pytest.mark.parametrize(("question", "readings"), SHORTENED, ids=[c[0] for c in SHORTENED])
def test_a_shortened_company_name_is_its_company_read_as_a_nickname(question, readings):
    assert _read(question) == readings


@pytest.mark.parametrize(("question", "ticker"), [
    ("coca cola dividend", "KO"), ("mercedes benz sales", "MBG.DE"), ("tmobile subscribers", "TMUS"),
    ("p and g earnings", "PG"), ("how is the s and p 500 today", "^GSPC"), ("at and t dividend", "T"),
])
def test_a_name_respelt_without_its_marks_is_read_as_written(question, ticker):
    assert _read(question) == [(ticker, "exact")]


@pytest.mark.parametrize("question", [
    "taiwan stocks this year", "semi trucks are selling", "general news today", "analog signals",
    "microchip shortage", "wuxi weather",
])
def test_a_place_an_abbreviation_or_a_word_is_never_a_short_name(question):
    # Taiwan Semiconductor, General Motors, Analog Devices, Microchip Technology, WuXi Biologics
    assert _tickers(question) == []


def test_a_short_form_shared_by_two_companies_names_neither():
    entries = [{"ticker": "AAA", "name": "Zorb Widget Technologies", "kind": "equity", "aliases": []},
               {"ticker": "BBB", "name": "Zorb Widget Systems", "kind": "equity", "aliases": []},
               {"ticker": "CCC", "name": "Quux Gadget Networks", "kind": "equity", "aliases": []}]
    forms = {form: entries[i]["ticker"] for i, form, _ in derived_short_names(entries)}
    assert "zorb widget" not in forms                       # both would say it
    assert forms["zorb widget tech"] == "AAA" and forms["quux gadget"] == "CCC"


def test_a_written_name_wins_over_a_derived_one():
    table = AliasTable([{"ticker": "AAA", "name": "Palo Alto Networks", "kind": "equity", "aliases": []},
                        {"ticker": "BBB", "name": "Palo Alto City", "kind": "unlisted", "aliases": ["palo alto"]}])
    assert [h.instrument.ticker for h in table.find("palo alto today")] == ["BBB"]


def test_the_same_company_listed_twice_keeps_its_short_name():
    entries = [{"ticker": "TSM", "name": "Taiwan Semiconductor", "kind": "equity", "aliases": [],
                "other_listings": ["2330.TW"]},
               {"ticker": "2330.TW", "name": "Taiwan Semiconductor", "kind": "equity", "aliases": []}]
    assert "taiwan semi" in {form for _, form, _ in derived_short_names(entries)}


def test_a_share_class_ticker_without_its_class_is_the_company():
    assert _tickers("brk earnings") == ["BRK-B"]
    assert _tickers("BRK vs SPY this year") == ["BRK-B", "SPY"]
    assert derived_symbols([{"ticker": "BRK-B"}, {"ticker": "BF-B"}, {"ticker": "BF"}]) == [(0, "BRK")]


# -- possessives and plurals -------------------------------------------------------------------

POSSESSIVE_OR_PLURAL = [
    ("msft's earnings", "MSFT"), ("nvda’s revenue", "NVDA"), ("jpm’s dividend", "JPM"), ("aapl's 分红", "AAPL"),
    ("tsla's 今年表现", "TSLA"), ("how are my amds doing", "AMD"), ("should i sell my nvdas", "NVDA"),
    ("my AAPLs are down", "AAPL"), ("nvidia’s margins", "NVDA"), ("teslas' drop", "TSLA"),
    ("costcos earnings date", "COST"), ("lowe's earnings", "LOW"), ("mcdonald’s dividend", "MCD"),
    ("wells fargo's profit", "WFC"), ("ms earnings", "MS"),
]


@pytest.mark.parametrize(("question", "ticker"), POSSESSIVE_OR_PLURAL, ids=[c[0] for c in POSSESSIVE_OR_PLURAL])
def test_a_possessive_or_a_plural_keeps_its_company(question, ticker):
    assert _tickers(question) == [ticker]


def test_the_possessive_is_no_part_of_the_mention():
    (entity,) = extract("msft's p/e")
    assert entity.mention == "msft"


@pytest.mark.parametrize("question", ["apples and oranges", "cats and dogs", "collecting coins"])
def test_the_plural_of_a_word_stays_a_word(question):
    assert _tickers(question) == []
