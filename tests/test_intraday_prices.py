"""Intraday bars through the real yfinance 1.7 code (RecordedYahoo: only its HTTP session
is replaced; the bodies from tests/yahoo_charts.py) and then our price_history builder: which bar size is
asked for within Yahoo's limits, which trading day a bar belongs to on the exchange's
clock (Sydney opens on Sunday in UTC), and "the market was closed" told apart from "no data"
on the recorded weekend 1-minute chart."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from finsearch.answer.charts import kline
from finsearch.errors import NoData
from finsearch.payloads import PriceHistory, clean_price_history
from finsearch.sources.yahoo.adapter import YahooFinance
from tests.conftest import ROOT
from tests.yahoo_charts import Bar, Exchange, chart_body, recorded_1m
from tests.yahoo_harness import RecordedYahoo

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)
HOUR = 3600
SYDNEY = Exchange("BHP.AX", "Australia/Sydney", "AEDT", 11 * HOUR, "ASX", "AUD")
TOKYO = Exchange("7203.T", "Asia/Tokyo", "JST", 9 * HOUR, "JPX", "JPY")
NEW_YORK = Exchange("AAPL", "America/New_York", "EST", -5 * HOUR, "NMS", "USD")   # as in the recording


@pytest.fixture(autouse=True)
def _instant_backoff(no_waiting):
    """Retries here never sleep."""


def session_bars(first: int, closes: list[float], step: int = HOUR) -> list[Bar]:
    """Consecutive bars from `first` (epoch s), each opening at the previous close."""
    bars, previous = [], closes[0]
    for i, close in enumerate(closes):
        bars.append(Bar(first + i * step, previous, max(previous, close) + 0.05, min(previous, close) - 0.05,
                        close, 1000 + i))
        previous = close
    return bars


def serve(tmp_path, bodies: dict[str, dict]) -> RecordedYahoo:
    yahoo = RecordedYahoo(tmp_path / "yfinance")
    yahoo.charts = bodies
    return yahoo


def history_requests(yahoo: RecordedYahoo) -> list[dict]:
    """The chart requests for bars (the timezone lookup, range=1d, left out)."""
    return [s.params for s in yahoo.sent if s.endpoint == "chart" and "period1" in s.params]


def fetch(tmp_path, args: dict, now: datetime = NOW) -> dict:
    items = YahooFinance(clock=lambda: now, cache_dir=tmp_path).fetch("price_history", args)
    assert len(items) == 1
    return items[0]


# Fri 11 Oct and Mon 14 Oct 2024 in Sydney (AEDT, UTC+11): both sessions open at 10:00,
# which is 23:00 UTC on the day before.
FRI_OPEN, MON_OPEN = 1728601200, 1728860400          # 2024-10-10T23:00Z, 2024-10-13T23:00Z
SYDNEY_BODY = chart_body(
    SYDNEY, "1h",
    session_bars(FRI_OPEN, [42.10, 42.20, 42.30, 42.25, 42.40, 42.50])
    + session_bars(MON_OPEN, [42.60, 42.90, 43.10, 43.00, 43.20, 43.35]),
    [(FRI_OPEN, FRI_OPEN + 6 * HOUR), (MON_OPEN, MON_OPEN + 6 * HOUR)])


def test_a_sydney_session_that_opens_on_sunday_in_utc_is_mondays(tmp_path):
    serve(tmp_path, {"BHP.AX": SYDNEY_BODY})
    raw = fetch(tmp_path, {"ticker": "BHP.AX", "start": "2024-10-14", "end": "2024-10-14", "interval": "1h"})
    data = raw["data"]
    assert data["timezone"] == "Australia/Sydney" and data["interval"] == "1h"
    assert data["rows"][0][0] == "2024-10-10T23:00:00Z"            # rows stay stamped in UTC
    assert data["rows"][6][0] == "2024-10-13T23:00:00Z"
    stats = data["stats"]
    # By UTC date the 23:00 bar would be a Sunday "day" closing at 42.60, and Monday +1.76%.
    assert (stats["start_date"], stats["start_close"]) == ("2024-10-11", 42.5)
    assert (stats["end_date"], stats["end_close"], stats["trading_days"]) == ("2024-10-14", 43.35, 1)
    assert stats["return_pct"] == 2.0
    assert stats["biggest_moves"] == [{"date": "2024-10-14", "change_pct": 2.0}]
    assert raw["title"] == "BHP.AX 1h bar prices 2024-10-14 to 2024-10-14"


def test_the_sydney_chart_reads_on_the_exchanges_clock(tmp_path):
    serve(tmp_path, {"BHP.AX": SYDNEY_BODY})
    data, _ = clean_price_history(fetch(tmp_path, {"ticker": "BHP.AX", "start": "2024-10-14", "end": "2024-10-14",
                                                    "interval": "1h"})["data"])
    figure = kline(PriceHistory.of(data))
    x = list(figure.data[0].x)
    assert (x[0], x[6], x[-1]) == ("2024-10-11T10:00:00", "2024-10-14T10:00:00", "2024-10-14T15:00:00")
    # Saturday and Sunday are hidden on Sydney's clock; no weekday is missing.
    assert [dict(b.to_plotly_json()) for b in figure.layout.xaxis.rangebreaks] == [{"bounds": ["sat", "mon"]}]
    assert figure.layout.annotations[0].x == "2024-10-14T15:00:00"     # Monday's move, at its last bar


# Tokyo, Fri 11 and Tue 15 Oct 2024; Mon 14 Oct (Sports Day) is a holiday. 09:00 JST = 00:00 UTC.
TOKYO_FRI, TOKYO_TUE = 1728604800, 1728950400        # 2024-10-11T00:00Z, 2024-10-15T00:00Z
TOKYO_BODY = chart_body(
    TOKYO, "1h",
    session_bars(TOKYO_FRI, [2601.0, 2610.0, 2605.0]) + session_bars(TOKYO_TUE, [2650.0, 2662.0, 2671.0]),
    [(TOKYO_FRI, TOKYO_FRI + 6 * HOUR), (TOKYO_TUE, TOKYO_TUE + 6 * HOUR)])


def test_a_tokyo_holiday_is_a_break_in_the_chart_and_the_move_is_tuesdays(tmp_path):
    serve(tmp_path, {"7203.T": TOKYO_BODY})
    raw = fetch(tmp_path, {"ticker": "7203.T", "start": "2024-10-14", "end": "2024-10-15", "interval": "1h"})
    stats = raw["data"]["stats"]
    assert (stats["start_date"], stats["end_date"], stats["trading_days"]) == ("2024-10-11", "2024-10-15", 1)
    assert stats["biggest_moves"] == [{"date": "2024-10-15", "change_pct": 2.53}]       # 2671 / 2605
    data, _ = clean_price_history(raw["data"])
    figure = kline(PriceHistory.of(data))
    assert list(figure.data[0].x)[:2] == ["2024-10-11T09:00:00", "2024-10-11T10:00:00"]
    breaks = [dict(b.to_plotly_json()) for b in figure.layout.xaxis.rangebreaks]
    assert breaks == [{"bounds": ["sat", "mon"]}, {"values": ["2024-10-14"], "dvalue": 86_400_000}]


def test_a_weekend_and_holiday_range_is_closed_without_asking_yahoo(tmp_path):
    server = serve(tmp_path, {"7203.T": TOKYO_BODY})
    with pytest.raises(NoData, match=r"^no trading for 7203\.T between 2024-10-12 and 2024-10-14: the Tokyo Stock "
                                     r"Exchange was closed \(weekend or holiday\)$"):
        fetch(tmp_path, {"ticker": "7203.T", "start": "2024-10-12", "end": "2024-10-14", "interval": "1h"})
    assert history_requests(server) == []


# New York in winter (EST, UTC-5): the last regular bar of a day starts at 20:30 UTC.
NY_FRI, NY_MON = 1738333800, 1738593000             # 2025-01-31T14:30Z, 2025-02-03T14:30Z
NY_BODY = chart_body(
    NEW_YORK, "30m",
    session_bars(NY_FRI, [236.0] * 12 + [236.4], step=1800) + session_bars(NY_MON, [229.0] * 12 + [228.01], step=1800),
    [(NY_FRI, NY_FRI + 13 * 1800), (NY_MON, NY_MON + 13 * 1800)])


def test_new_york_bars_after_20_utc_stay_on_that_new_york_day(tmp_path):
    serve(tmp_path, {"AAPL": NY_BODY})
    now = datetime(2025, 2, 4, 2, 0, tzinfo=timezone.utc)            # Monday 21:00 in New York
    data = fetch(tmp_path, {"ticker": "AAPL", "start": "2025-02-03", "end": "2025-02-03"}, now)["data"]
    assert data["rows"][-1][0] == "2025-02-03T20:30:00Z"
    stats = data["stats"]
    assert (stats["start_date"], stats["start_close"], stats["end_date"], stats["end_close"]) == \
        ("2025-01-31", 236.4, "2025-02-03", 228.01)
    assert stats["return_pct"] == -3.55


# -- the recorded weekend 1-minute chart ------------------------------------------------------

def test_the_recorded_weekend_is_closed_not_missing(tmp_path):
    recorded = recorded_1m()
    assert "period1=1738368000&period2=1738454400" in recorded["request"]["url"]    # Sat 1 – Sun 2 Feb 2025
    server = serve(tmp_path, {"AAPL": recorded["response"]["bodyJson"]})
    now = datetime(2025, 2, 3, 12, 0, tzinfo=timezone.utc)
    with pytest.raises(NoData, match=r"^no trading for AAPL between 2025-02-01 and 2025-02-02: the NYSE/Nasdaq was "
                                     r"closed \(weekend or holiday\)$"):
        fetch(tmp_path, {"ticker": "AAPL", "start": "2025-02-01", "end": "2025-02-02", "interval": "1m"}, now)
    assert history_requests(server) == []
    # A range with a trading day that Yahoo answers with the same empty body is plain "no data".
    with pytest.raises(NoData, match=r"^no price history for AAPL between 2025-01-31 and 2025-02-02$"):
        fetch(tmp_path, {"ticker": "AAPL", "start": "2025-01-31", "end": "2025-02-02", "interval": "1m"}, now)
    assert [r["interval"] for r in history_requests(server)] == ["1m"]


# -- interval limits ---------------------------------------------------------------------------

def test_one_minute_bars_are_asked_for_at_most_seven_days_at_a_time(tmp_path):
    open_ = 1728912600                                  # Mon 2024-10-14 09:30 in New York (EDT)
    body = chart_body(dataclasses.replace(NEW_YORK, abbreviation="EDT", gmtoffset=-4 * HOUR), "1m",
                      session_bars(open_, [231.1, 231.3, 231.2], step=60), [(open_, open_ + 390 * 60)])
    server = serve(tmp_path, {"AAPL": body})
    data = fetch(tmp_path, {"ticker": "AAPL", "start": "2024-10-14", "end": "2024-10-15", "interval": "1m"})["data"]
    (request,) = history_requests(server)
    # 2024-10-10 00:00 to 2024-10-16 00:00 in New York: six days, context included.
    assert (request["interval"], request["period1"], request["period2"]) == ("1m", 1728532800, 1729051200)
    assert (data["interval"], "note" in data) == ("1m", False)
    assert [r[0] for r in data["rows"]] == ["2024-10-14T13:30:00Z", "2024-10-14T13:31:00Z", "2024-10-14T13:32:00Z"]


def test_ten_days_of_one_minute_bars_become_two_minute_bars_and_say_so(tmp_path):
    server = serve(tmp_path, {"AAPL": NY_BODY})
    now = datetime(2025, 2, 4, 2, 0, tzinfo=timezone.utc)
    raw = fetch(tmp_path, {"ticker": "AAPL", "start": "2025-01-24", "end": "2025-02-03", "interval": "1m"}, now)
    assert [r["interval"] for r in history_requests(server)] == ["2m"]
    data = raw["data"]
    assert data["interval"] == "2m"
    assert data["note"] == ("Yahoo Finance serves 1m bars only for the last 30 days, at most 7 days per request; "
                            "2m bars are shown instead")
    assert raw["title"] == "AAPL 2m bar prices 2025-01-24 to 2025-02-03"
    assert raw["snippet"].endswith("26 2m bars. " + data["note"] + ".")


def test_a_run_prints_no_pandas_warning_from_inside_yfinance(tmp_path):
    """Outside pytest's filters, as the CLI and the app run: importing yfinance switches its
    DeprecationWarnings on, and pandas 3.1 deprecates a call in its chart parser."""
    script = f"""
import sys; sys.path.insert(0, {str(ROOT)!r})
from datetime import datetime, timezone
import yfinance
from tests.test_intraday_prices import SYDNEY_BODY, serve
from finsearch.sources.yahoo.adapter import YahooFinance
serve(__import__("pathlib").Path({str(tmp_path)!r}), {{"BHP.AX": SYDNEY_BODY}})
adapter = YahooFinance(clock=lambda: datetime(2024, 10, 15, 20, tzinfo=timezone.utc), cache_dir={str(tmp_path)!r})
print(adapter.fetch("price_history", {{"ticker": "BHP.AX", "start": "2024-10-14", "end": "2024-10-14",
                                       "interval": "1h"}})[0]["data"]["stats"]["end_close"])
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert (run.returncode, run.stdout.strip(), run.stderr) == (0, "43.35", "")
