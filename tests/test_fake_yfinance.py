"""The hand-written fake of yfinance (tests/fake_yfinance.py) held to what the real yfinance
returns on recorded Yahoo bodies, wherever a recording exists: same columns, index names,
timezones and dtypes, and no key or row label the real library never produces. The fake keeps
only what no recording covers (the earnings dates page, intraday bars, many years of daily
bars, failures injected per method) and the cases built around it."""

from __future__ import annotations

import pytest

from tests import fake_yfinance as fake
from tests.yahoo_harness import RecordedYahoo

pytestmark = pytest.mark.filterwarnings("ignore::pandas.errors.Pandas4Warning")   # inside yfinance 1.7


@pytest.fixture
def real(tmp_path):
    import yfinance

    RecordedYahoo(tmp_path / "yfinance")
    return yfinance.Ticker("AAPL")


@pytest.fixture
def imitation():
    return fake.FakeYF().Ticker("AAPL")


def shape(frame):
    return list(frame.columns), frame.index.name, str(getattr(frame.index, "tz", None)), frame.dtypes.to_dict()


def test_daily_history(real, imitation):
    kwargs = {"interval": "1d", "auto_adjust": False, "actions": True}
    assert shape(imitation.history(start="2024-10-01", end="2024-10-10", **kwargs)) == \
        shape(real.history(start="2025-10-01", end="2025-10-10", **kwargs))


def test_holders(real, imitation):
    got, want = imitation.major_holders, real.major_holders
    assert (list(got.index), list(got.columns), got.columns.name) == \
        (list(want.index), list(want.columns), want.columns.name)
    assert list(imitation.institutional_holders.columns) == list(real.institutional_holders.columns)


def test_analyst(real, imitation):
    assert list(imitation.recommendations_summary.columns) == list(real.recommendations_summary.columns)
    assert set(imitation.analyst_price_targets) == set(real.analyst_price_targets)
    got, want = imitation.upgrades_downgrades, real.upgrades_downgrades
    assert set(want.columns) <= set(got.columns)           # newer Yahoo answers add price targets
    assert (got.index.name, got.index.dtype.kind) == (want.index.name, want.index.dtype.kind)


def test_calendar_keys(real, imitation):
    assert set(imitation.calendar) <= set(real.calendar)


def test_statements(real, imitation):
    for method in ("get_income_stmt", "get_balance_sheet", "get_cash_flow"):
        got, want = (getattr(t, method)(pretty=True, freq="yearly") for t in (imitation, real))
        assert set(got.index) <= set(want.index), method
        assert got.columns.tz is None and want.columns.tz is None
        assert {str(d) for d in got.dtypes} == {str(d) for d in want.dtypes} == {"float64"}


def test_info_keys(real, imitation):
    assert set(imitation.info) - {"companyOfficers"} <= set(real.info)


def test_search_quotes(tmp_path):
    import yfinance

    RecordedYahoo(tmp_path / "yfinance")
    real = yfinance.Search("Apple", max_results=8, news_count=0).quotes[0]
    assert set(fake.SEARCH_RESULTS["apple"][0]) <= set(real)
