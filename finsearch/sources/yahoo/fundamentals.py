"""Company facts from yfinance beyond the statements (those are `financials.py`): earnings,
analyst, profile, holders, dividends. Each builder takes a `yahoo.Request` and returns
evidence dicts, or raises NoData when Yahoo has nothing usable; `finance.YahooFinance`
runs them with retries.

Units: money in the listed currency as Yahoo reports it; percentages are percent
(`profit_margin` 24.3 means 24.3 %, holders' `pct` 9.1 means 9.1 %).
"""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction
from typing import Any

from ...evidence import iso_utc
from .frames import column, compact, day, day_iso, integer, is_empty, num, pct, text
from .request import Request, item

EARNINGS_KEPT = 8
CHANGES_KEPT = 10
HOLDERS_KEPT = 10
OFFICERS_KEPT = 5


# -- earnings ----------------------------------------------------------------------------

def earnings(req: Request) -> list[dict]:
    tkr = req.ticker()
    frame = req.optional(lambda: tkr.get_earnings_dates(limit=12))
    history, upcoming = [], []
    if not is_empty(frame):
        rows = zip(frame.index, column(frame, "EPS Estimate"), column(frame, "Reported EPS"),
                   column(frame, "Surprise(%)"), strict=True)
        for when, estimate, reported, surprise in rows:
            stamp = iso_utc(when)
            if stamp is None:
                continue
            if stamp > req.now_iso:
                upcoming.append((stamp, day_iso(when)))       # the report's day where it is listed
                continue
            estimate, reported = num(estimate, 4), num(reported, 4)
            surprise = num(surprise, 2)
            if surprise is None and estimate and reported is not None:
                surprise = round((reported - estimate) / abs(estimate) * 100, 2)
            history.append({"date": stamp, "eps_estimate": estimate, "eps_reported": reported,
                            "surprise_pct": surprise})
    history = sorted(history, key=lambda row: row["date"], reverse=True)[:EARNINGS_KEPT]
    # A day either way: the calendar knows only the day, so the dates page's time is dropped.
    next_date = min(upcoming)[1] if upcoming else _calendar_next(req, tkr)
    if not history and not next_date:
        raise req.no_data(f"no earnings dates for {req.symbol} from Yahoo Finance")
    data = {"ticker": req.symbol, "next_date": next_date, "history": history}
    parts = []
    reported = next((row for row in history if row["eps_reported"] is not None), None)
    if reported:
        parts.append(f"last reported EPS {reported['eps_reported']} on {reported['date'][:10]} vs estimate "
                     f"{reported['eps_estimate']} (surprise {reported['surprise_pct']}%)")
    if next_date:
        parts.append(f"next report {next_date[:10]}")
    published = history[0]["date"] if history else None
    return [item(f"{req.symbol} earnings", f"{req.symbol}: " + "; ".join(parts), data,
                 url=req.url + "/analysis", published=published)]


def _calendar_next(req: Request, tkr: Any) -> str | None:
    events = req.optional(lambda: tkr.calendar)
    dates = events.get("Earnings Date") if isinstance(events, dict) else None
    found = sorted(d for d in (day(value) for value in dates or []) if d and d >= req.today)
    return found[0].isoformat() if found else None


# -- analyst ---------------------------------------------------------------------------

ACTIONS = {"up": "upgrade", "down": "downgrade", "main": "maintain", "init": "initiate", "reit": "reiterate"}
RATINGS = {"strong_buy": "strongBuy", "buy": "buy", "hold": "hold", "sell": "sell", "strong_sell": "strongSell"}


def analyst(req: Request) -> list[dict]:
    tkr = req.ticker()
    raw = req.optional(lambda: tkr.analyst_price_targets)
    raw = raw if isinstance(raw, dict) else {}
    targets = {key: num(raw.get(key), 4) for key in ("low", "mean", "median", "high", "current")}
    recommendations = _current_ratings(req.optional(lambda: tkr.recommendations_summary))
    changes = _rating_changes(req.optional(lambda: tkr.upgrades_downgrades))
    if all(v is None for v in targets.values()) and not recommendations and not changes:
        raise req.no_data(f"no analyst coverage for {req.symbol} from Yahoo Finance")
    currency = text(req.optional(lambda: tkr.fast_info.currency), 12)
    data = {"ticker": req.symbol, "currency": currency, "targets": targets,
            "recommendations": recommendations, "changes": changes}
    parts = []
    if targets["mean"] is not None:
        mean = f"{targets['mean']} {currency or ''}".strip()
        parts.append(f"mean target {mean} (low {targets['low']}, high {targets['high']})")
    if recommendations:
        parts.append(", ".join(f"{v} {k.replace('_', ' ')}" for k, v in recommendations.items() if v is not None))
    if changes:
        latest = changes[0]
        parts.append(f"latest: {latest['firm']} {latest['action']} to {latest['to']} on {latest['date']}")
    return [item(f"{req.symbol} analyst ratings and price targets", f"{req.symbol}: " + "; ".join(parts),
                 data, url=req.url + "/analysis", published=req.now_iso)]


def _current_ratings(frame: Any) -> dict:
    """Counts for the current month ("0m") of recommendations_summary; {} when unknown."""
    if is_empty(frame):
        return {}
    periods = column(frame, "period")
    row = periods.index("0m") if "0m" in periods else 0
    counts = {key: integer(column(frame, name)[row]) for key, name in RATINGS.items()}
    return counts if any(v is not None for v in counts.values()) else {}


def _rating_changes(frame: Any) -> list[dict]:
    if is_empty(frame):
        return []
    rows = zip(frame.index, column(frame, "Firm"), column(frame, "Action"),
               column(frame, "FromGrade"), column(frame, "ToGrade"), strict=True)
    changes = []
    for when, firm, action, from_grade, to_grade in rows:
        stamp = day_iso(when)
        if stamp is None or not text(firm):
            continue
        action = text(action, 40)
        changes.append({"date": stamp, "firm": text(firm, 120), "action": ACTIONS.get(action, action),
                        "from": text(from_grade, 60), "to": text(to_grade, 60)})
    changes.sort(key=lambda change: change["date"], reverse=True)
    return changes[:CHANGES_KEPT]


# -- profile ---------------------------------------------------------------------------

RATIOS = {"trailing_pe": "trailingPE", "forward_pe": "forwardPE", "price_to_book": "priceToBook",
          "beta": "beta", "shares_outstanding": "sharesOutstanding", "market_cap": "marketCap"}
# profit_margin and dividend_yield are added in percent


def dividend_yield_pct(info: dict) -> float | None:
    """`.info` merges two Yahoo answers: the v7 quote, whose dividendYield is a percentage
    (0.39), over quoteSummary's summaryDetail, whose dividendYield is a fraction (0.0041).
    When v7 answered without this symbol only the fraction is there; only v7 sends
    quoteSourceName, so that tells which one this is."""
    value = info.get("dividendYield")
    return num(value, 2) if "quoteSourceName" in info else pct(value)


def profile(req: Request) -> list[dict]:
    info = req.optional(lambda: req.ticker().info)
    info = info if isinstance(info, dict) else {}
    name = text(info.get("longName"), 200) or text(info.get("shortName"), 200)
    sector, industry = text(info.get("sector"), 120), text(info.get("industry"), 120)
    summary = text(info.get("longBusinessSummary"), 2000)
    # Offline yfinance can answer {} or {"trailingPegRatio": None}: no name, no profile.
    if not (name or sector or industry or summary):
        raise req.no_data()
    ratios = {key: num(info.get(field), 4) for key, field in RATIOS.items()}
    ratios["profit_margin"] = pct(info.get("profitMargins"))          # Yahoo: a fraction
    ratios["dividend_yield"] = dividend_yield_pct(info)
    officers = []
    for officer in info.get("companyOfficers") or []:
        if isinstance(officer, dict) and text(officer.get("name")):
            officers.append({"name": text(officer.get("name"), 120), "title": text(officer.get("title"), 120)})
        if len(officers) == OFFICERS_KEPT:
            break
    data = {"ticker": req.symbol, "name": name, "sector": sector, "industry": industry,
            "employees": integer(info.get("fullTimeEmployees")), "summary": summary,
            "website": text(info.get("website"), 200), "officers": officers, "ratios": ratios}
    snippet = f"{name or req.symbol}: {sector or 'sector n/a'} / {industry or 'industry n/a'}"
    if data["employees"]:
        snippet += f"; {data['employees']:,} employees"
    if ratios["trailing_pe"] is not None:
        snippet += f"; trailing P/E {ratios['trailing_pe']}"
    if ratios["market_cap"] is not None:
        snippet += f"; market cap {compact(ratios['market_cap'])}"
    return [item(f"{req.symbol} company profile", snippet, data, url=req.url + "/profile",
                 published=req.now_iso)]


# -- holders ---------------------------------------------------------------------------

def holders(req: Request) -> list[dict]:
    tkr = req.ticker()
    major = req.optional(lambda: tkr.major_holders)
    breakdown = {"insiders_pct": pct(_breakdown(major, "insidersPercentHeld")),
                 "institutions_pct": pct(_breakdown(major, "institutionsPercentHeld")),
                 "institutions_count": integer(_breakdown(major, "institutionsCount"))}
    frame = req.optional(lambda: tkr.institutional_holders)
    institutional = []
    if not is_empty(frame):
        for holder, shares, share_pct, value, reported in zip(
                column(frame, "Holder"), column(frame, "Shares"), column(frame, "pctHeld"),
                column(frame, "Value"), column(frame, "Date Reported"), strict=True):
            if text(holder):
                institutional.append({"holder": text(holder, 160), "shares": integer(shares),
                                      "pct": pct(share_pct), "value": integer(value), "date": day_iso(reported)})
    institutional.sort(key=lambda row: -(row["shares"] or 0))
    institutional = institutional[:HOLDERS_KEPT]
    if all(v is None for v in breakdown.values()) and not institutional:
        raise req.no_data(f"no holder data for {req.symbol} from Yahoo Finance")
    data = {"ticker": req.symbol, "major": breakdown, "institutional": institutional}
    parts = []
    if breakdown["institutions_pct"] is not None:
        parts.append(f"institutions hold {breakdown['institutions_pct']}%")
    if breakdown["insiders_pct"] is not None:
        parts.append(f"insiders {breakdown['insiders_pct']}%")
    if institutional:
        top = institutional[0]
        parts.append(f"largest: {top['holder']} ({top['pct']}%, {compact(top['shares'])} shares)")
    dates = [row["date"] for row in institutional if row["date"]]
    published = f"{max(dates)}T00:00:00Z" if dates else None
    return [item(f"{req.symbol} major and institutional holders",
                 f"{req.symbol}: " + "; ".join(parts), data,
                 url=req.url + "/holders", published=published)]


def _breakdown(frame: Any, label: str) -> Any:
    if is_empty(frame):
        return None
    try:
        if label not in frame.index:
            return None
        row = frame.loc[label]
        return row["Value"] if "Value" in frame.columns else row.iloc[0]
    except (AttributeError, KeyError, IndexError, TypeError):
        return None


# -- dividends -------------------------------------------------------------------------

def dividends(req: Request) -> list[dict]:
    start, end = req.focus(default_days=5 * 365)
    year_before = end - timedelta(days=365)
    tkr = req.ticker()
    # One daily history call brings dividends, splits and the closes the yield needs.
    frame = tkr.history(start=min(start, year_before).isoformat(), end=(end + timedelta(days=1)).isoformat(),
                        interval="1d", auto_adjust=False, actions=True, timeout=req.timeout_s)
    if is_empty(frame):
        raise req.no_data(f"no dividend or price data for {req.symbol} between {start} and {end}")
    paid, splits, trailing, close = [], [], 0.0, None
    for when, amount, split, price in zip(frame.index, column(frame, "Dividends"), column(frame, "Stock Splits"),
                                          column(frame, "Close"), strict=True):
        on = day(when)
        if on is None or on > end:
            continue
        close = num(price) if num(price) is not None else close
        amount, split = num(amount), num(split)
        if amount and amount > 0:
            if on > year_before:
                trailing += amount
            if on >= start:
                paid.append({"date": on.isoformat(), "amount": round(amount, 6)})
        if split and split > 0 and split != 1 and on >= start:
            splits.append({"date": on.isoformat(), "ratio": split_ratio(split)})
    meta = req.optional(lambda: tkr.history_metadata)
    currency = text(req.optional(lambda: meta.get("currency")), 12)
    trailing = round(trailing, 6)
    data = {"ticker": req.symbol, "currency": currency, "dividends": paid, "splits": splits,
            "trailing_yield_pct": round(trailing / close * 100, 2) if close else None,
            "trailing_annual": trailing}
    if paid:
        snippet = (f"{req.symbol}: {len(paid)} dividends {start} to {end}, latest {paid[-1]['amount']} "
                   f"{currency or ''} on {paid[-1]['date']}; trailing 12 months {trailing}"
                   f" ({data['trailing_yield_pct']}% yield)")
    else:
        snippet = f"{req.symbol}: no dividends paid {start} to {end}"
    if splits:
        snippet += "; splits " + ", ".join(f"{s['ratio']} on {s['date']}" for s in splits)
    return [item(f"{req.symbol} dividends and splits {start} to {end}", snippet, data,
                 period=(start, end))]


def split_ratio(factor: float) -> str:
    """4.0 → "4:1", 1.5 → "3:2", 0.1 → "1:10" (new shares : old shares)."""
    ratio = Fraction(factor).limit_denominator(1000)
    return f"{ratio.numerator}:{ratio.denominator}"
