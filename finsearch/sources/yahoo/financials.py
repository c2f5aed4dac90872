"""The `financials` source from yfinance: income statement, balance sheet and cash flow,
annual, quarterly or trailing twelve months, as a dozen named lines per period. Built for
`finance.YahooFinance` like the other builders: takes a `yahoo.Request`, returns evidence
dicts or raises NoData.

Money is in the reporting currency as Yahoo gives it; `eps` per share.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from ...errors import SourceError
from .frames import compact, day, first_number, is_empty, text
from .request import Request, item

PERIODS_KEPT = 4

STATEMENT_METHODS = {"income": "get_income_stmt", "balance": "get_balance_sheet", "cashflow": "get_cash_flow"}
STATEMENT_NAMES = {"income": "income statement", "balance": "balance sheet", "cashflow": "cash flow",
                   "all": "financials"}
YF_FREQ = {"annual": "yearly", "quarterly": "quarterly", "ttm": "trailing"}
# line → (statement, yfinance row labels with pretty=True, best first)
LINES = {
    "revenue": ("income", ("Total Revenue", "Operating Revenue")),
    "gross_profit": ("income", ("Gross Profit",)),
    "operating_income": ("income", ("Operating Income", "Total Operating Income As Reported")),
    "net_income": ("income", ("Net Income", "Net Income Common Stockholders")),
    "eps": ("income", ("Diluted EPS", "Basic EPS")),
    "total_assets": ("balance", ("Total Assets",)),
    "total_liabilities": ("balance", ("Total Liabilities Net Minority Interest",)),
    "equity": ("balance", ("Stockholders Equity", "Common Stock Equity")),
    "cash": ("balance", ("Cash And Cash Equivalents", "Cash Cash Equivalents And Short Term Investments")),
    "debt": ("balance", ("Total Debt",)),
    "operating_cash_flow": ("cashflow", ("Operating Cash Flow",)),
    "free_cash_flow": ("cashflow", ("Free Cash Flow",)),
}


def financials(req: Request) -> list[dict]:
    statement = req.args.get("statement") or "all"
    freq = req.args.get("freq") or "annual"
    if statement not in STATEMENT_NAMES or freq not in YF_FREQ:
        raise SourceError(f"unknown statement or frequency: {statement!r}, {freq!r}")
    tkr = req.ticker()
    frames = {}
    for name in STATEMENT_METHODS if statement == "all" else (statement,):
        # A balance sheet is a snapshot: for TTM, the latest quarter-end one goes with the flows.
        yf_freq = "quarterly" if name == "balance" and freq == "ttm" else YF_FREQ[freq]
        frame = req.optional(lambda name=name, f=yf_freq: getattr(tkr, STATEMENT_METHODS[name])(pretty=True, freq=f))
        if not is_empty(frame):
            frames[name] = frame
    served = freq if statement != "balance" or freq != "ttm" else "quarterly"
    ends = _period_ends(frames)
    if served == "ttm":      # TTM figures are flows: a period needs an income or cash-flow column
        ends = [(end, cols) for end, cols in ends if cols.keys() & {"income", "cashflow"}]
    if not ends:
        raise req.no_data(f"no {served} {STATEMENT_NAMES[statement]} for {req.symbol} from Yahoo Finance")
    info = req.optional(lambda: tkr.info)
    info = info if isinstance(info, dict) else {}
    currency = text(info.get("financialCurrency"), 12) or text(info.get("currency"), 12)
    items = []
    for end, columns in ends:
        lines = {line: None for line in LINES}
        for line, (source, labels) in LINES.items():
            if source in columns:
                lines[line] = first_number(frames[source], labels, columns[source], 4 if line == "eps" else None)
        if all(value is None for value in lines.values()):
            continue
        label = period_label(end, served)
        data = {"ticker": req.symbol, "currency": currency, "freq": served, "statement": statement,
                "period_label": label, "lines": lines}
        shown = [f"{line.replace('_', ' ')} {value if line == 'eps' else compact(value)}"
                 for line, value in lines.items() if value is not None][:5]
        items.append(item(f"{req.symbol} {STATEMENT_NAMES[statement]} {label}",
                          f"{req.symbol} {label} ({currency or 'currency n/a'}): " + ", ".join(shown),
                          data, period=(period_start(end, served), end)))
        if len(items) == (1 if served == "ttm" else PERIODS_KEPT):
            break
    if not items:
        raise req.no_data(f"no {served} {STATEMENT_NAMES[statement]} figures for {req.symbol} from Yahoo Finance")
    return items


def _period_ends(frames: dict) -> list[tuple[date, dict]]:
    """[(period end, {statement: column key}), …] newest first, merged across statements."""
    ends: dict[date, dict] = {}
    for name, frame in frames.items():
        for key in getattr(frame, "columns", []):
            end = day(key)
            if end is not None:
                ends.setdefault(end, {}).setdefault(name, key)
    return sorted(ends.items(), key=lambda pair: pair[0], reverse=True)


def period_label(end: date, freq: str) -> str:
    if freq == "annual":
        return f"FY{end.year}"
    if freq == "ttm":
        return f"TTM to {end}"
    middle = end - timedelta(days=45)      # fiscal quarters end a few days off calendar ones
    return f"Q{(middle.month - 1) // 3 + 1} {middle.year} (quarter ending {end})"


def period_start(end: date, freq: str) -> date:
    """First day of the period ending on `end`: a quarter (or year) back, plus one day;
    a period ending on a month's last day starts on a month's first day."""
    months = 3 if freq == "quarterly" else 12
    year, month = divmod(end.year * 12 + end.month - 1 - months, 12)
    month += 1
    if end.day == calendar.monthrange(end.year, end.month)[1]:
        return date(year, month, calendar.monthrange(year, month)[1]) + timedelta(days=1)
    return date(year, month, min(end.day, calendar.monthrange(year, month)[1])) + timedelta(days=1)
