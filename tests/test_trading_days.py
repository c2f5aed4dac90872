"""Trading days from exchange_calendars: which market a ticker trades on, its sessions and
holidays, "the past N trading days" and the Spring Festival closure in time expressions,
and the holidays a daily chart leaves out. Dates checked by hand against each exchange's
published holiday list."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, datetime, timezone
from importlib import metadata

import pytest

from finsearch.answer.charts import _breaks
from finsearch.plan.analysis import analyse
from finsearch.plan.timectx import resolve
from finsearch.reference import markets
from finsearch.reference.markets import market_of
from tests.conftest import ROOT


@pytest.mark.parametrize("ticker,calendar,timezone_name", [
    ("AAPL", "XNYS", "America/New_York"), ("BRK-B", "XNYS", "America/New_York"),
    ("^GSPC", "XNYS", "America/New_York"), ("600519.SS", "XSHG", "Asia/Shanghai"),
    ("000858.SZ", "XSHG", "Asia/Shanghai"), ("0700.HK", "XHKG", "Asia/Hong_Kong"),
    ("^HSI", "XHKG", "Asia/Hong_Kong"), ("7974.T", "XTKS", "Asia/Tokyo"), ("BHP.AX", "XASX", "Australia/Sydney"),
    ("TSCO.L", "XLON", "Europe/London"),
])
def test_the_suffix_names_the_exchange(ticker, calendar, timezone_name):
    market = market_of(ticker)
    assert (market.calendar, market.timezone) == (calendar, timezone_name)


@pytest.mark.parametrize("ticker", ["BTC-USD", "EURUSD=X", "CL=F", "DX-Y.NYB", "ABC.XX", "", None])
def test_no_stock_exchange_calendar_for_crypto_currencies_futures_or_unknown_suffixes(ticker):
    assert market_of(ticker) is None


def test_sessions_skip_each_exchanges_own_holidays():
    nyse, shanghai, hong_kong = market_of("AAPL"), market_of("600519.SS"), market_of("0700.HK")
    assert markets.sessions(nyse, date(2024, 7, 1), date(2024, 7, 8)) == \
        [date(2024, 7, 1), date(2024, 7, 2), date(2024, 7, 3), date(2024, 7, 5), date(2024, 7, 8)]
    # National Day week, 1–7 October 2024.
    assert markets.sessions(shanghai, date(2024, 9, 27), date(2024, 10, 9)) == \
        [date(2024, 9, 27), date(2024, 9, 30), date(2024, 10, 8), date(2024, 10, 9)]
    # Hong Kong: National Day (1 October) and Chung Yeung (11 October 2024).
    assert markets.sessions(hong_kong, date(2024, 9, 30), date(2024, 10, 11)) == \
        [date(2024, 9, 30), date(2024, 10, 2), date(2024, 10, 3), date(2024, 10, 4), date(2024, 10, 7),
         date(2024, 10, 8), date(2024, 10, 9), date(2024, 10, 10)]


def test_without_a_calendar_trading_days_are_weekdays():
    assert markets.sessions(None, date(2024, 7, 3), date(2024, 7, 8)) == \
        [date(2024, 7, 3), date(2024, 7, 4), date(2024, 7, 5), date(2024, 7, 8)]
    # Before the calendar's first session (twenty years back) New York falls back to weekdays too.
    assert markets.sessions(market_of("AAPL"), date(1990, 7, 3), date(1990, 7, 5)) == \
        [date(1990, 7, 3), date(1990, 7, 4), date(1990, 7, 5)]
    assert not markets.closed_throughout(market_of("AAPL"), date(1990, 7, 4), date(1990, 7, 4))
    assert not markets.closed_throughout(None, date(2024, 7, 6), date(2024, 7, 7))   # BTC trades on Saturdays


def test_closed_throughout_means_no_session_at_all():
    nyse = market_of("AAPL")
    assert markets.closed_throughout(nyse, date(2024, 7, 4), date(2024, 7, 4))
    assert markets.closed_throughout(nyse, date(2024, 11, 28), date(2024, 11, 28))     # Thanksgiving
    assert markets.closed_throughout(nyse, date(2024, 11, 30), date(2024, 12, 1))      # the weekend after
    assert not markets.closed_throughout(nyse, date(2024, 11, 28), date(2024, 11, 29))  # Friday's half day trades


@pytest.mark.parametrize("question,now,start,end", [
    # 4 July 2024 is not a trading day in New York
    ("NVDA last 5 trading days", datetime(2024, 7, 8, 20, 0, tzinfo=timezone.utc), "2024-07-01", "2024-07-08"),
    ("NVDA last 10 trading days", datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc), "2024-10-02", "2024-10-15"),
    # Shanghai was closed 1–7 October 2024
    ("贵州茅台最近5个交易日", datetime(2024, 10, 9, 8, 0, tzinfo=timezone.utc), "2024-09-26", "2024-10-09"),
    # Hong Kong closed on 11 October 2024 (Chung Yeung): 14, 10, 9 October (weekdays would say the 10th)
    ("腾讯控股最近3个交易日", datetime(2024, 10, 14, 8, 0, tzinfo=timezone.utc), "2024-10-09", "2024-10-14"),
    # no ticker: weekdays
    ("the past 5 trading days", datetime(2024, 7, 8, 20, 0, tzinfo=timezone.utc), "2024-07-02", "2024-07-08"),
])
def test_past_trading_days_are_counted_on_the_questions_exchange(question, now, start, end):
    tc = analyse(question, now).time_context
    assert (tc.start.isoformat(), tc.end.isoformat()) == (start, end)


@pytest.mark.parametrize("question,now,start,end", [
    # 2025: Spring Festival 29 January; Shanghai closed 28 January – 4 February
    ("春节期间茅台表现", datetime(2025, 3, 1, tzinfo=timezone.utc), "2025-01-28", "2025-02-04"),
    ("春节后茅台表现", datetime(2025, 3, 1, tzinfo=timezone.utc), "2025-02-05", "2025-03-01"),
    ("春节前茅台表现", datetime(2025, 3, 1, tzinfo=timezone.utc), "2025-01-18", "2025-01-27"),
    # 2024: Spring Festival 10 February; closed 9–18 February (the 18th, a Sunday, was a make-up
    # working day for offices, not for the exchange): trading resumed on Monday the 19th.
    ("春节后A股走势", datetime(2024, 3, 1, tzinfo=timezone.utc), "2024-02-19", "2024-03-01"),
    # Before this year's festival: last year's.
    ("春节", datetime(2025, 1, 10, tzinfo=timezone.utc), "2024-02-09", "2024-02-18"),
])
def test_spring_festival_is_the_shanghai_closure(question, now, start, end):
    tc = resolve(question, now)
    assert (tc.start.isoformat(), tc.end.isoformat()) == (start, end)


def test_a_daily_chart_hides_weekends_and_the_holidays_without_bars():
    days = [date(2024, 11, 26), date(2024, 11, 27), date(2024, 11, 29), date(2024, 12, 2)]
    assert _breaks(days, intraday=False, market=market_of("AAPL")) == \
        [{"bounds": ["sat", "mon"]}, {"values": ["2024-11-28"]}]


def test_a_bar_on_a_day_the_exchange_was_closed_is_left_off_the_axis():
    # Shanghai, National Day week: a stray bar stamped 2 October is not a trading day.
    days = [date(2024, 9, 30), date(2024, 10, 2), date(2024, 10, 8)]
    assert _breaks(days, intraday=False, market=market_of("600519.SS")) == \
        [{"bounds": ["sat", "mon"]}, {"values": ["2024-10-01", "2024-10-02", "2024-10-03", "2024-10-04",
                                                 "2024-10-07"]}]


def test_importing_the_pipeline_does_not_import_exchange_calendars():
    code = ("import sys, finsearch.pipeline, finsearch.answer.charts, finsearch.sources.yahoo.prices; "
            "print('exchange_calendars' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.stdout.strip() == "False", run.stderr


@pytest.mark.parametrize("package", ["pandas", "numpy", "exchange_calendars", "yfinance"])
def test_requirements_pin_the_installed_versions(package):
    pins = dict(line.split("#")[0].strip().split("==") for line in (ROOT / "requirements.txt").read_text().splitlines()
                if "==" in line.split("#")[0])
    assert pins[package] == metadata.version(package)


def test_the_warm_up_builds_the_calendars_most_questions_need():
    from finsearch.reference import markets

    markets.warm_up(("XNYS", "XHKG"))
    assert {"XNYS", "XHKG"} <= {code for code, cal in markets._CALENDARS.items() if cal is not None}


def test_a_calendar_build_undone_by_another_threads_warning_filters_is_tried_again(monkeypatch):
    """Seen in CI: the app's warm-up thread built XHKG while pytest reset the warning filters
    to "error" for the next test; pandas' deprecation warning became an exception, and Hong
    Kong was counted in weekdays for the rest of the process."""
    import exchange_calendars

    from finsearch.reference import markets

    real, calls = exchange_calendars.get_calendar, []

    def escalated_once(code, *args, **kwargs):
        calls.append(code)
        if len(calls) == 1:
            raise DeprecationWarning("DatetimeIndex.weekday is deprecated")   # as the "error" filter raises it
        return real(code, *args, **kwargs)

    monkeypatch.setattr(exchange_calendars, "get_calendar", escalated_once)
    monkeypatch.setattr(markets, "_CALENDARS", {})
    assert markets._calendar("XHKG") is None, "this time: weekdays"
    assert markets._calendar("XHKG") is not None, "not for good: built on the next call"
    assert calls == ["XHKG", "XHKG"]


def test_the_chart_warm_up_draws_the_trace_kinds_a_kline_uses():
    from finsearch.answer import charts

    charts.warm_up()          # raises if a trace or layout key it names does not exist
