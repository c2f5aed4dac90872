"""A stand-in for the yfinance module at the library boundary: `Ticker`, `Search` and
`set_tz_cache_location`, answering with frames shaped as yfinance 1.7 builds them.

Shapes copied from the installed source (yfinance/scrapers/*.py, base.py):

- `history()`: tz-aware DatetimeIndex in the exchange's timezone — named "Date" and at
  local midnight for daily bars, "Datetime" for intraday ones — with columns Open, High,
  Low, Close, Adj Close (only when auto_adjust=False), Volume (int64), Dividends, Stock
  Splits; `end` is exclusive; a failure is an empty frame (utils.empty_df).
- statements (`get_income_stmt(pretty=True, freq=…)` etc.): row labels as the index
  (camel2title of Yahoo's keys), naive period-end Timestamps as columns, newest first,
  float64 with NaN holes; TTM keeps one column; a failure is an empty DataFrame().
- `get_earnings_dates()`: index "Earnings Date" in America/New_York, float columns
  "EPS Estimate", "Reported EPS", "Surprise(%)"; None when nothing was found.
- `recommendations_summary`: RangeIndex, columns period/strongBuy/buy/hold/sell/strongSell.
- `upgrades_downgrades`: naive "GradeDate" index, Firm/ToGrade/FromGrade/Action/….
- `major_holders`: index insidersPercentHeld…, one column "Value" (fractions and a count).
- `institutional_holders`: Date Reported/Holder/pctHeld/Shares/Value/pctChange.
- `info`: a flat dict (None once a fetch failed); `fast_info`: lazy attributes that may
  raise KeyError / TypeError.

Unknown tickers behave as yfinance does offline: empty frames, None, KeyError.
Failures are injected per method with `fail(method, exc, times)`.
"""

from __future__ import annotations

from datetime import date, datetime, time

import numpy as np
import pandas as pd

NY = "America/New_York"


def daily_bars(first: str, last: str, start_price: float = 180.0, seed: int = 7,
               tz: str = NY) -> pd.DataFrame:
    """Business-day OHLCV bars, local midnight, as history(interval="1d", auto_adjust=False)."""
    days = pd.bdate_range(first, last)
    rng = np.random.default_rng(seed)
    closes = start_price * np.cumprod(1 + rng.normal(0.0005, 0.015, len(days)))
    opens = closes * (1 + rng.normal(0, 0.004, len(days)))
    frame = pd.DataFrame({
        "Open": opens,
        "High": np.maximum(opens, closes) * 1.008,
        "Low": np.minimum(opens, closes) * 0.992,
        "Close": closes,
        "Adj Close": closes * 0.99,
        "Volume": rng.integers(30_000_000, 90_000_000, len(days)).astype("int64"),
        "Dividends": 0.0,
        "Stock Splits": 0.0,
    }, index=pd.DatetimeIndex(days).tz_localize(tz))
    frame.index.name = "Date"
    return frame


def intraday_bars(daily: pd.DataFrame, minutes: int = 30) -> pd.DataFrame:
    """Regular-session bars (09:30–16:00 local) for each day of `daily`."""
    stamps, rows = [], []
    for stamp, bar in daily.iterrows():
        open_at = pd.Timestamp(datetime.combine(stamp.date(), time(9, 30))).tz_localize(NY)
        count = 390 // minutes
        path = np.linspace(bar["Open"], bar["Close"], count + 1)
        for i in range(count):
            stamps.append(open_at + pd.Timedelta(minutes=minutes * i))
            rows.append((path[i], max(path[i], path[i + 1]) * 1.001, min(path[i], path[i + 1]) * 0.999,
                         path[i + 1], path[i + 1], int(bar["Volume"] // count), 0.0, 0.0))
    frame = pd.DataFrame(rows, index=pd.DatetimeIndex(stamps, name="Datetime"),
                         columns=["Open", "High", "Low", "Close", "Adj Close", "Volume", "Dividends", "Stock Splits"])
    frame["Volume"] = frame["Volume"].astype("int64")
    return frame


def empty_history() -> pd.DataFrame:
    """yfinance.utils.empty_df(): what history() returns when it logged an error."""
    empty = pd.DataFrame(index=[], data={c: np.nan for c in ("Open", "High", "Low", "Close", "Adj Close", "Volume")})
    empty.index.name = "Date"
    return empty


def statement(rows: dict[str, list[float]], ends: list[str]) -> pd.DataFrame:
    """A statement frame: labels × naive period ends (newest first), float64."""
    columns = pd.DatetimeIndex(pd.to_datetime(ends))
    frame = pd.DataFrame([values for values in rows.values()], index=list(rows), columns=columns, dtype="float64")
    return frame


NAN = float("nan")
ANNUAL_ENDS = ["2024-09-30", "2023-09-30", "2022-09-30", "2021-09-30", "2020-09-30"]
QUARTER_ENDS = ["2024-09-30", "2024-06-30", "2024-03-31", "2023-12-31", "2023-09-30"]
B = 1e9

AAPL_INCOME = {  # real order on Yahoo: totals and EPS interleaved with items we do not read
    "yearly": statement({
        "Tax Effect Of Unusual Items": [0.0, 0.0, 0.0, 0.0, 0.0],
        "Normalized EBITDA": [134.661 * B, 125.820 * B, 130.541 * B, 120.233 * B, NAN],
        "Net Income From Continuing Operation Net Minority Interest": [93.736 * B, 96.995 * B, 99.803 * B,
                                                                       94.680 * B, NAN],
        "Diluted EPS": [6.08, 6.13, 6.11, 5.61, NAN],
        "Basic EPS": [6.11, 6.16, 6.15, 5.67, NAN],
        "Net Income": [93.736 * B, 96.995 * B, 99.803 * B, 94.680 * B, NAN],
        "Operating Income": [123.216 * B, 114.301 * B, 119.437 * B, 108.949 * B, NAN],
        "Gross Profit": [180.683 * B, 169.148 * B, 170.782 * B, 152.836 * B, NAN],
        "Total Revenue": [391.035 * B, 383.285 * B, 394.328 * B, 365.817 * B, NAN],
        "Operating Revenue": [391.035 * B, 383.285 * B, 394.328 * B, 365.817 * B, NAN],
    }, ANNUAL_ENDS),
    "quarterly": statement({
        "Diluted EPS": [0.97, 1.40, 1.53, 2.18, 1.46],
        "Net Income": [14.736 * B, 21.448 * B, 23.636 * B, 33.916 * B, 22.956 * B],
        "Operating Income": [29.591 * B, 25.352 * B, 27.900 * B, 40.373 * B, 26.969 * B],
        "Gross Profit": [43.879 * B, 39.678 * B, 42.271 * B, 54.855 * B, 40.427 * B],
        "Total Revenue": [94.930 * B, 85.777 * B, 90.753 * B, 119.575 * B, 89.498 * B],
    }, QUARTER_ENDS),
    "trailing": statement({
        "Diluted EPS": [6.08],
        "Net Income": [93.736 * B],
        "Operating Income": [123.216 * B],
        "Gross Profit": [180.683 * B],
        "Total Revenue": [391.035 * B],
    }, ["2024-09-30"]),
}
AAPL_BALANCE = {
    "yearly": statement({
        "Total Debt": [106.629 * B, 111.088 * B, 132.480 * B, 136.522 * B, NAN],
        "Stockholders Equity": [56.950 * B, 62.146 * B, 50.672 * B, 63.090 * B, NAN],
        "Total Liabilities Net Minority Interest": [308.030 * B, 290.437 * B, 302.083 * B, 287.912 * B, NAN],
        "Total Assets": [364.980 * B, 352.583 * B, 352.755 * B, 351.002 * B, NAN],
        "Cash And Cash Equivalents": [29.943 * B, 29.965 * B, 23.646 * B, 34.940 * B, NAN],
    }, ANNUAL_ENDS),
    "quarterly": statement({
        "Total Debt": [106.629 * B, 101.304 * B, 104.590 * B, 108.040 * B, 111.088 * B],
        "Stockholders Equity": [56.950 * B, 66.708 * B, 74.194 * B, 74.100 * B, 62.146 * B],
        "Total Assets": [364.980 * B, 331.612 * B, 337.411 * B, 353.514 * B, 352.583 * B],
        "Cash And Cash Equivalents": [29.943 * B, 25.565 * B, 32.695 * B, 40.760 * B, 29.965 * B],
    }, QUARTER_ENDS),
}
AAPL_CASHFLOW = {
    "yearly": statement({
        "Free Cash Flow": [108.807 * B, 99.584 * B, 111.443 * B, 92.953 * B, NAN],
        "Operating Cash Flow": [118.254 * B, 110.543 * B, 122.151 * B, 104.038 * B, NAN],
        "Net Income From Continuing Operations": [93.736 * B, 96.995 * B, 99.803 * B, 94.680 * B, NAN],
    }, ANNUAL_ENDS),
    "quarterly": statement({
        "Free Cash Flow": [23.903 * B, 26.707 * B, 20.694 * B, 37.503 * B, 19.435 * B],
        "Operating Cash Flow": [26.811 * B, 28.858 * B, 22.690 * B, 39.895 * B, 21.598 * B],
    }, QUARTER_ENDS),
    "trailing": statement({
        "Free Cash Flow": [108.807 * B],
        "Operating Cash Flow": [118.254 * B],
    }, ["2024-09-30"]),
}


def earnings_dates() -> pd.DataFrame:
    rows = [  # (local time, estimate, reported, surprise %)
        ("2025-01-30 16:00", 2.35, NAN, NAN),
        ("2024-10-31 16:00", 1.60, NAN, NAN),
        ("2024-08-01 16:00", 1.35, 1.40, 3.45),
        ("2024-05-02 16:00", 1.50, 1.53, 1.82),
        ("2024-02-01 16:00", 2.10, 2.18, 3.81),
        ("2023-11-02 16:00", 1.39, 1.46, NAN),          # surprise missing: computed
        ("2023-08-03 16:00", 1.19, 1.26, 5.48),
        ("2023-05-04 16:00", 1.43, 1.52, 6.11),
        ("2023-02-02 16:00", 1.94, 1.88, -3.05),
        ("2022-10-27 16:00", 1.27, 1.29, 1.71),
        ("2022-07-28 16:00", 1.16, 1.20, 3.39),
    ]
    index = pd.DatetimeIndex(pd.to_datetime([r[0] for r in rows])).tz_localize(NY)
    index.name = "Earnings Date"
    return pd.DataFrame({"EPS Estimate": [r[1] for r in rows], "Reported EPS": [r[2] for r in rows],
                         "Surprise(%)": [r[3] for r in rows]}, index=index)


def upgrades_downgrades() -> pd.DataFrame:
    rows = [  # newest first, as Yahoo sends them
        ("2024-10-11 12:00", "Jefferies", "Hold", "Buy", "down", "Lowers", 205.0, 211.0),
        ("2024-10-09 11:00", "Wedbush", "Outperform", "Outperform", "main", "Maintains", 300.0, 300.0),
        ("2024-10-01 10:00", "Citigroup", "Buy", "Buy", "reit", "Maintains", 255.0, 240.0),
        ("2024-09-30 10:00", "Goldman Sachs", "Buy", "Buy", "main", "Raises", 256.0, 232.0),
        ("2024-09-26 10:00", "Maxim Group", "Hold", "Buy", "down", "Lowers", 200.0, 210.0),
        ("2024-09-20 10:00", "Bank of America", "Buy", "Buy", "main", "Raises", 256.0, 250.0),
        ("2024-09-10 10:00", "Oppenheimer", "Outperform", "Perform", "up", "Announces", 256.0, 0.0),
        ("2024-08-30 10:00", "Evercore ISI", "Outperform", "Outperform", "reit", "Raises", 260.0, 250.0),
        ("2024-08-02 10:00", "Needham", "Hold", "Hold", "main", "", 0.0, 0.0),
        ("2024-08-02 09:00", "Morgan Stanley", "Overweight", "Overweight", "main", "Raises", 273.0, 250.0),
        ("2024-07-15 10:00", "DA Davidson", "Buy", "", "init", "Announces", 250.0, 0.0),
        ("2024-06-12 10:00", "Rosenblatt", "Neutral", "Neutral", "main", "Raises", 217.0, 189.0),
    ]
    frame = pd.DataFrame(rows, columns=["GradeDate", "Firm", "ToGrade", "FromGrade", "Action", "priceTargetAction",
                                        "currentPriceTarget", "priorPriceTarget"])
    frame = frame.set_index("GradeDate")
    frame.index = pd.to_datetime(frame.index)
    return frame


def major_holders() -> pd.DataFrame:
    frame = pd.DataFrame.from_dict({"insidersPercentHeld": 0.02703, "institutionsPercentHeld": 0.6193,
                                    "institutionsFloatPercentHeld": 0.63646, "institutionsCount": 6384},
                                   orient="index")
    frame.columns.name = "Breakdown"
    return frame.rename(columns={frame.columns[0]: "Value"})


def institutional_holders() -> pd.DataFrame:
    rows = [  # Yahoo's order; one smaller holder listed out of order, one with NaN value
        ("2024-06-30", "Blackrock Inc.", 0.0656, 1_000_000_000, 210_000_000_000, -0.01),
        ("2024-06-30", "Vanguard Group Inc", 0.0898, 1_360_000_000, 286_000_000_000, 0.02),
        ("2024-06-30", "Berkshire Hathaway, Inc", 0.0261, 400_000_000, NAN, -0.49),
        ("2024-06-30", "State Street Corporation", 0.0372, 566_000_000, 119_000_000_000, 0.01),
        ("2024-06-30", "FMR, LLC", 0.0201, 306_000_000, 64_000_000_000, 0.06),
        ("2024-06-30", "Geode Capital Management, LLC", 0.0194, 294_000_000, 62_000_000_000, 0.02),
        ("2024-06-30", "Morgan Stanley", 0.0135, 205_000_000, 43_000_000_000, 0.03),
        ("2024-06-30", "Price (T.Rowe) Associates Inc", 0.0116, 176_000_000, 37_000_000_000, -0.04),
        ("2024-06-30", "Northern Trust Corporation", 0.0105, 160_000_000, 33_000_000_000, 0.00),
        ("2024-03-31", "Norges Bank Investment Management", 0.0098, 150_000_000, 31_000_000_000, 0.05),
        ("2024-06-30", "JPMorgan Chase & Company", 0.0090, 137_000_000, 29_000_000_000, 0.10),
    ]
    frame = pd.DataFrame(rows, columns=["Date Reported", "Holder", "pctHeld", "Shares", "Value", "pctChange"])
    frame["Date Reported"] = pd.to_datetime(frame["Date Reported"])
    return frame


AAPL_INFO = {
    "address1": "One Apple Park Way", "city": "Cupertino", "country": "United States",
    "website": "https://www.apple.com", "industry": "Consumer Electronics", "sector": "Technology",
    "longBusinessSummary": "Apple Inc. designs, manufactures, and markets smartphones, personal computers, "
                           "tablets, wearables, and accessories worldwide.",
    "fullTimeEmployees": 164000,
    "companyOfficers": [
        {"maxAge": 1, "name": "Mr. Timothy D. Cook", "age": 62, "title": "CEO & Director", "yearBorn": 1961,
         "fiscalYear": 2023, "totalPay": 16239562, "exercisedValue": 0, "unexercisedValue": 0},
        {"maxAge": 1, "name": "Mr. Luca  Maestri", "title": "CFO & Senior VP", "totalPay": 4612242},
        {"maxAge": 1, "name": "Mr. Jeffrey E. Williams", "title": "Chief Operating Officer"},
        {"maxAge": 1, "name": "Ms. Katherine L. Adams", "title": "Senior VP, General Counsel & Secretary"},
        {"maxAge": 1, "name": "Ms. Deirdre  O'Brien", "title": "Senior Vice President of Retail"},
        {"maxAge": 1, "name": "Mr. Chris  Kondo", "title": "Senior Director of Corporate Accounting"},
        {"maxAge": 1, "title": "Investor Relations"},
    ],
    "trailingPE": 35.41, "forwardPE": 28.07, "priceToBook": 52.27, "beta": 1.24, "profitMargins": 0.26441,
    "sharesOutstanding": 15115799552, "marketCap": 3535000000000, "dividendYield": 0.43,
    "trailingAnnualDividendYield": 0.0043, "currency": "USD", "financialCurrency": "USD",
    "regularMarketPrice": 233.85, "regularMarketPreviousClose": 231.3, "regularMarketDayLow": 232.1,
    "regularMarketDayHigh": 235.2, "fiftyTwoWeekLow": 164.08, "fiftyTwoWeekHigh": 237.23,
    "shortName": "Apple Inc.", "longName": "Apple Inc.", "symbol": "AAPL", "quoteType": "EQUITY",
    "exchangeTimezoneName": NY, "trailingPegRatio": 2.14,
    "quoteSourceName": "Nasdaq Real Time Price",     # v7 answered too: dividendYield is in percent
}

SEARCH_RESULTS = {
    "apple": [
        {"exchange": "NMS", "shortname": "Apple Inc.", "quoteType": "EQUITY", "symbol": "AAPL", "index": "quotes",
         "score": 29640.0, "typeDisp": "Equity", "longname": "Apple Inc.", "exchDisp": "NASDAQ",
         "sector": "Technology", "industry": "Consumer Electronics", "isYahooFinance": True},
        {"exchange": "GER", "shortname": "APPLE INC", "quoteType": "EQUITY", "symbol": "APC.DE", "index": "quotes",
         "score": 20011.0, "typeDisp": "Equity", "exchDisp": "XETRA", "isYahooFinance": True},
        {"index": "quotes", "name": "no symbol: dropped, as yfinance itself filters"},
        {"exchange": "NYQ", "shortname": "Apple Hospitality REIT, Inc.", "quoteType": "EQUITY", "symbol": "APLE",
         "typeDisp": "Equity", "longname": "Apple Hospitality REIT, Inc.", "exchDisp": "NYSE",
         "isYahooFinance": True},
    ] + [{"exchange": "PNK", "shortname": f"Apple test {i}", "quoteType": "EQUITY", "symbol": f"APT{i}",
          "exchDisp": "OTC Markets", "typeDisp": "Equity"} for i in range(10)],
}


class FastInfo:
    """Lazy attributes like yfinance's FastInfo; a value that is an exception is raised."""

    def __init__(self, values: dict):
        self._values = values

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        value = self._values.get(name, KeyError(name))
        if isinstance(value, BaseException):
            raise value
        return value


class Company:
    """Everything one fake ticker knows."""

    def __init__(self, daily=None, info=None, fast=None, income=None, balance=None, cashflow=None,
                 earnings=None, calendar=None, targets=None, recommendations=None, changes=None,
                 major=None, institutional=None, currency="USD", tz=NY):
        self.daily = daily if daily is not None else empty_history()
        self.info, self.fast = info, fast or {}
        self.income, self.balance, self.cashflow = income or {}, balance or {}, cashflow or {}
        self.earnings, self.calendar, self.targets = earnings, calendar, targets
        self.recommendations, self.changes = recommendations, changes
        self.major, self.institutional = major, institutional
        self.currency, self.tz = currency, tz


def apple() -> Company:
    daily = daily_bars("2019-06-03", "2024-10-15")
    for day_, amount in (("2023-11-10", 0.24), ("2024-02-09", 0.24), ("2024-05-10", 0.25), ("2024-08-12", 0.25),
                         ("2019-08-09", 0.1925), ("2022-11-04", 0.23)):
        daily.loc[pd.Timestamp(day_).tz_localize(NY), "Dividends"] = amount
    daily.loc[pd.Timestamp("2020-08-31").tz_localize(NY), "Stock Splits"] = 4.0
    last = float(daily["Close"].iloc[-1])
    prev = float(daily["Close"].iloc[-2])
    return Company(
        daily=daily, info=dict(AAPL_INFO),
        fast={"currency": "USD", "last_price": last, "regular_market_previous_close": prev,
              "previous_close": prev, "day_low": float(daily["Low"].iloc[-1]),
              "day_high": float(daily["High"].iloc[-1]),
              "year_low": 164.08, "year_high": 237.23, "market_cap": 3.535e12},
        income=AAPL_INCOME, balance=AAPL_BALANCE, cashflow=AAPL_CASHFLOW, earnings=earnings_dates(),
        calendar={"Dividend Date": date(2024, 8, 15), "Ex-Dividend Date": date(2024, 8, 12),
                  "Earnings Date": [date(2024, 10, 31)], "Earnings High": 1.65, "Earnings Low": 1.51,
                  "Earnings Average": 1.6},
        targets={"current": 233.85, "high": 300.0, "low": 183.86, "mean": 243.86, "median": 245.0},
        recommendations=pd.DataFrame({"period": ["0m", "-1m", "-2m", "-3m"], "strongBuy": [8, 8, 7, 7],
                                      "buy": [24, 24, 23, 23], "hold": [12, 12, 13, 13], "sell": [1, 1, 1, 1],
                                      "strongSell": [2, 2, 2, 2]}),
        changes=upgrades_downgrades(), major=major_holders(), institutional=institutional_holders(),
    )


class FakeYF:
    """Use as the `yf` module. `companies` maps symbols to Company; others are unknown."""

    def __init__(self, companies: dict[str, Company] | None = None, search_results=None):
        self.companies = companies if companies is not None else {"AAPL": apple()}
        self.search_results = search_results if search_results is not None else SEARCH_RESULTS
        self.calls: list[tuple[str, str, dict]] = []        # (symbol, method, kwargs)
        self.tickers_made = 0
        self.cache_locations: list[str] = []
        self._failures: dict[str, list[BaseException]] = {}

    def fail(self, method: str, exc: BaseException, times: int = 1_000) -> FakeYF:
        self._failures[method] = [exc] * times
        return self

    def check(self, method: str) -> None:
        pending = self._failures.get(method)
        if pending:
            raise pending.pop(0)

    # the module's API ---------------------------------------------------------------
    def Ticker(self, symbol):  # noqa: N802 — the module's class name
        self.tickers_made += 1
        return FakeTicker(self, symbol.upper())

    def Search(self, query, **kwargs):  # noqa: N802
        self.calls.append(("", "Search", {"query": query, **kwargs}))
        self.check("Search")
        return type("Search", (), {"quotes": list(self.search_results.get(query.lower(), []))})()

    def set_tz_cache_location(self, folder):
        self.cache_locations.append(folder)


class FakeTicker:
    def __init__(self, yf: FakeYF, symbol: str):
        self._yf, self.ticker = yf, symbol
        self._company = yf.companies.get(symbol) or Company()
        self._metadata = None

    def _call(self, method, **kwargs):
        self._yf.calls.append((self.ticker, method, kwargs))
        self._yf.check(method)

    def history(self, period=None, interval="1d", start=None, end=None, auto_adjust=True, timeout=10, **kwargs):
        self._call("history", interval=interval, start=start, end=end, auto_adjust=auto_adjust, timeout=timeout,
                   **kwargs)
        company = self._company
        if company.daily.empty:
            return empty_history()
        frame = company.daily if interval == "1d" else intraday_bars(company.daily.loc[start:end], int(interval[:-1]))
        lo = pd.Timestamp(start).tz_localize(company.tz)
        hi = pd.Timestamp(end).tz_localize(company.tz)                # exclusive
        frame = frame[(frame.index >= lo) & (frame.index < hi)].copy()
        if auto_adjust:
            frame = frame.drop(columns=["Adj Close"])
        self._metadata = {"currency": company.currency, "exchangeTimezoneName": company.tz,
                          "instrumentType": "EQUITY", "symbol": self.ticker}
        return frame

    @property
    def history_metadata(self):
        self._call("history_metadata")
        return self._metadata or {}

    @property
    def fast_info(self):
        self._call("fast_info")
        return FastInfo(self._company.fast)

    @property
    def info(self):
        self._call("info")
        return self._company.info

    def _statement(self, kind, table, freq):
        self._call(kind, freq=freq)
        if freq == "trailing" and kind == "get_balance_sheet":
            raise ValueError("Illegal argument: frequency 'trailing' only available for cash-flow or income data.")
        frame = table.get(freq)
        return frame.copy() if frame is not None else pd.DataFrame()

    def get_income_stmt(self, as_dict=False, pretty=False, freq="yearly"):
        return self._statement("get_income_stmt", self._company.income, freq)

    def get_balance_sheet(self, as_dict=False, pretty=False, freq="yearly"):
        return self._statement("get_balance_sheet", self._company.balance, freq)

    def get_cash_flow(self, as_dict=False, pretty=False, freq="yearly"):
        return self._statement("get_cash_flow", self._company.cashflow, freq)

    def get_earnings_dates(self, limit=12, offset=0):
        self._call("get_earnings_dates", limit=limit)
        return self._company.earnings

    @property
    def calendar(self):
        self._call("calendar")
        return self._company.calendar if self._company.calendar is not None else {}

    @property
    def analyst_price_targets(self):
        self._call("analyst_price_targets")
        return self._company.targets if self._company.targets is not None else {}

    @property
    def recommendations_summary(self):
        self._call("recommendations_summary")
        return self._company.recommendations if self._company.recommendations is not None else pd.DataFrame()

    @property
    def upgrades_downgrades(self):
        self._call("upgrades_downgrades")
        return self._company.changes if self._company.changes is not None else pd.DataFrame()

    @property
    def major_holders(self):
        self._call("major_holders")
        return self._company.major if self._company.major is not None else pd.DataFrame()

    @property
    def institutional_holders(self):
        self._call("institutional_holders")
        return self._company.institutional
