"""Writes tests/fixtures/report_pack: an invented replay pack for the deep research tests.

    python -m tests.make_report_pack

"now" is 2024-11-22 (a Friday), two days after NVIDIA's invented third-quarter report:

    NVDA   everything a company report reads: prices, quote, four quarters of statements,
           earnings (a beat, the next date), analyst targets, a profile with valuation
           ratios, holders, news (the results, guidance, an export-curb risk), a web result
           and its SEC filings: the list, the quarters' figures as filed (XBRL) and the
           10-K's risk factors
    AMD    prices, quote, profile, analyst targets and news, but no statements and no
           earnings: the planted gap a supplementary search has to look into (its news
           tells the results)
    INTC   prices, quote and analyst targets: a third name for comparisons and screens
    macro  news on the Fed funds rate and a web result on the outlook after the cut, recorded under the
           queries the macro outline's sections search for

Prices are made up: a fixed small wiggle per day plus the planted moves.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from finsearch.sources.replay import write_recording
from finsearch.sources.yahoo.price_stats import compute

PACK = Path(__file__).resolve().parent / "fixtures" / "report_pack"
NOW = "2024-11-22T21:00:00Z"
START = date(2024, 8, 1)
END = date(2024, 11, 22)
WIGGLE = (0.5, -0.4, 0.7, -0.6, 0.3, -0.2, 0.4, -0.5, 0.6, -0.3, 0.2, -0.4)     # % per day

INSTRUMENTS = {
    # ticker: (name, first close, planted moves, market cap)
    "NVDA": ("NVIDIA", 117.0, {"2024-09-03": -9.5, "2024-10-14": 2.4, "2024-10-31": -4.7, "2024-11-05": 2.8,
                                 "2024-11-07": 2.3, "2024-11-21": 0.5}, 3.6e12),
    "AMD": ("AMD", 138.0, {"2024-10-30": -10.6}, 2.2e11),
    "INTC": ("Intel", 29.0, {"2024-08-02": -26.1, "2024-11-01": 7.8}, 1.0e11),
}


def _rows(ticker: str) -> list[list]:
    _, close, moves, _ = INSTRUMENTS[ticker]
    rows, day, i = [], START, 0
    while day <= END:
        stamp = day.isoformat()
        if day.weekday() < 5:
            change = moves.get(stamp, WIGGLE[i % len(WIGGLE)])
            i += 1
            opened = close
            close = round(close * (1 + change / 100), 2)
            high, low = round(max(opened, close) * 1.004, 2), round(min(opened, close) * 0.996, 2)
            rows.append([stamp, opened, high, low, close, 30_000_000 + 1000 * i])
        day += timedelta(days=1)
    return rows


def _record(source: str, args: dict, evidence: list[dict]) -> None:
    write_recording(PACK, source, args, evidence, datetime(2024, 11, 22, 21, tzinfo=timezone.utc))


def _finance(ticker: str, title: str, data: dict, snippet: str = "", period: tuple | None = None) -> dict:
    item = {"title": title, "url": None, "publisher": "Sample market data", "published": NOW,
            "snippet": snippet, "data": {"ticker": ticker, **data}}
    if period:
        item["period"] = {"start": period[0], "end": period[1]}
        item["published"] = None
    return item


def _story(title: str, published: str, publisher: str, snippet: str, slug: str) -> dict:
    return {"title": title, "url": f"https://example.com/report-pack/{slug}", "publisher": publisher,
            "published": published, "snippet": snippet}


def prices_and_quotes() -> None:
    for ticker, (name, _, _, cap) in INSTRUMENTS.items():
        rows = _rows(ticker)
        _record("price_history", {"ticker": ticker, "start": START.isoformat(), "end": END.isoformat()}, [{
            "title": f"{name} ({ticker}) daily prices {START} to {END}", "url": None,
            "publisher": "Sample market data", "published": None,
            "period": {"start": START.isoformat(), "end": END.isoformat()}, "snippet": f"{len(rows)} daily bars",
            "data": {"ticker": ticker, "interval": "1d", "currency": "USD",
                     "columns": ["date", "open", "high", "low", "close", "volume"], "rows": rows,
                     "stats": compute(rows, START, END)}}])
        close, before = rows[-1][4], rows[-2][4]
        _record("quote", {"ticker": ticker}, [_finance(ticker, f"{name} ({ticker}) quote", {
            "currency": "USD", "last": close, "previous_close": before,
            "change_pct": round((close / before - 1) * 100, 2), "market_cap": cap, "as_of": NOW})])


QUARTERS = [  # period end, label, revenue, gross profit, operating income, net income, EPS, free cash flow
    ("2024-01-28", "Q4 FY2024", 22.10e9, 16.79e9, 13.62e9, 12.29e9, 0.49, 11.22e9),
    ("2024-04-28", "Q1 FY2025", 26.04e9, 20.41e9, 16.91e9, 14.88e9, 0.60, 14.98e9),
    ("2024-07-28", "Q2 FY2025", 30.04e9, 22.57e9, 18.64e9, 16.60e9, 0.67, 13.48e9),
    ("2024-10-27", "Q3 FY2025", 35.08e9, 26.16e9, 21.87e9, 19.31e9, 0.78, 16.81e9),
]


def structured() -> None:
    statements = []
    for end, label, revenue, gross, operating, net, eps, fcf in reversed(QUARTERS):
        start = (date.fromisoformat(end) - timedelta(days=90)).isoformat()
        statements.append(_finance("NVDA", f"NVDA financials {label}", {
            "currency": "USD", "freq": "quarterly", "statement": "all", "period_label": label,
            "lines": {"revenue": revenue, "gross_profit": gross, "operating_income": operating, "net_income": net,
                      "eps": eps, "free_cash_flow": fcf}}, f"NVDA {label}: revenue {revenue / 1e9:.2f}B",
            (start, end)))
    _record("financials", {"ticker": "NVDA", "statement": "all", "freq": "quarterly"}, statements)
    _record("earnings", {"ticker": "NVDA"}, [_finance("NVDA", "NVIDIA (NVDA) earnings", {
        "next_date": "2025-02-26",
        "history": [{"date": "2024-08-28", "eps_reported": 0.68, "eps_estimate": 0.64, "surprise_pct": 6.25},
                    {"date": "2024-11-20", "eps_reported": 0.81, "eps_estimate": 0.75, "surprise_pct": 8.0}]})])
    targets = {"NVDA": (171.0, 90.0, 220.0, (18, 40, 5, 1, 0)), "AMD": (190.0, 130.0, 250.0, (9, 24, 11, 1, 0)),
               "INTC": (25.0, 17.0, 37.0, (1, 3, 31, 4, 2))}
    for ticker, (mean, low, high, (sb, b, h, s, ss)) in targets.items():
        title = f"{INSTRUMENTS[ticker][0]} ({ticker}) analyst targets"
        _record("analyst", {"ticker": ticker}, [_finance(ticker, title, {
            "currency": "USD", "targets": {"mean": mean, "low": low, "high": high},
            "recommendations": {"strong_buy": sb, "buy": b, "hold": h, "sell": s, "strong_sell": ss}})])
    profiles = {"NVDA": ("NVIDIA Corporation", "Technology", "Semiconductors", 29600, 52.3, 31.2, 50.1, 55.04, 1.65),
                "AMD": ("Advanced Micro Devices, Inc.", "Technology", "Semiconductors", 26000, 118.0, 26.5, 3.9,
                        6.4, 1.7)}
    for ticker, (name, sector, industry, staff, pe, fpe, pb, margin, beta) in profiles.items():
        _record("profile", {"ticker": ticker}, [_finance(ticker, f"{name} profile", {
            "name": name, "sector": sector, "industry": industry, "employees": staff,
            "summary": f"{name} designs chips for data centers, gaming and devices (invented for tests).",
            "website": None, "officers": [],
            "ratios": {"trailing_pe": pe, "forward_pe": fpe, "price_to_book": pb, "profit_margin": margin,
                       "beta": beta, "market_cap": INSTRUMENTS[ticker][3], "dividend_yield": None}},
            f"{name}: {sector} / {industry}")])


def stories() -> None:
    _record("news", {"ticker": "NVDA", "query": "NVIDIA stock", "lang": "en"}, [
        _story("Nvidia third-quarter revenue jumps 94% to $35.1 billion, beating estimates", "2024-11-20T21:30:00Z",
               "Newswire (sample)", "Data-center revenue drove the quarter; adjusted EPS of $0.81 topped the $0.75 "
               "analysts expected.", "nvda-q3"),
        _story("Nvidia guides fourth-quarter revenue to about $37.5 billion", "2024-11-20T22:00:00Z",
               "Newswire (sample)", "Its outlook calls for revenue of about $37.5 billion in the fourth quarter, above "
               "consensus.", "nvda-guide"),
        _story("Nvidia shares edge up after results as Blackwell demand stays strong", "2024-11-21T21:00:00Z",
               "Markets Daily (sample)", "Investors weighed supply constraints against record demand.", "nvda-react"),
        _story("US weighs wider export curbs on AI chips to China, a risk for Nvidia", "2024-11-18T15:00:00Z",
               "Markets Daily (sample)", "New restrictions could weigh on sales in the region.", "nvda-curbs"),
    ])
    _record("web_search", {"ticker": "NVDA", "query": "NVIDIA outlook", "lang": "en"}, [
        _story("What Nvidia's results mean for the AI trade (explainer)", "2024-11-21T12:00:00Z",
               "investing.example", "Analysts see data-center demand staying ahead of supply into 2025.",
               "web-nvda"),
    ])
    _record("news", {"ticker": "AMD", "query": "AMD stock", "lang": "en"}, [
        _story("AMD third-quarter revenue rises 18% to $6.8 billion; data-center sales double",
               "2024-10-29T21:00:00Z", "Newswire (sample)", "AMD reported revenue of $6.8 billion for the quarter.",
               "amd-q3"),
        _story("AMD shares tumble 10.6% as fourth-quarter forecast disappoints", "2024-10-30T21:00:00Z",
               "Markets Daily (sample)", "The outlook for AI accelerators fell short of hopes.", "amd-drop"),
    ])
    _record("news", {"ticker": "INTC", "query": "Intel stock", "lang": "en"}, [
        _story("Intel jumps 7.8% after a better-than-feared forecast", "2024-11-01T21:00:00Z", "Newswire (sample)",
               "Intel's outlook eased fears about its turnaround.", "intc-jump"),
    ])
    _record("news", {"query": "Fed Funds Rate", "lang": "en"}, [
        _story("Fed cuts rates by a quarter point, signals a slower path", "2024-11-07T19:00:00Z", "Newswire (sample)",
               "The Federal Reserve lowered its benchmark rate to a range of 4.50%-4.75%.", "fed-cut"),
        _story("Stocks hit records after the Fed's second cut", "2024-11-08T21:00:00Z", "Markets Daily (sample)",
               "The S&P 500 closed above 5,990 for the first time.", "fed-stocks"),
    ])
    _record("web_search", {"query": "What does the Fed rate cut mean for markets: the outlook", "lang": "en"}, [
        _story("How the Fed's rate cuts affect markets (explainer)", "2024-11-09T12:00:00Z", "macro.example",
               "Lower rates tend to lift valuations; the risk is inflation staying high.", "web-fed"),
    ])


SEC = "SEC EDGAR"
EDGAR = "https://www.sec.gov/Archives/edgar/data/1045810"
FILINGS = [  # form, filed, report date, accession (invented)
    ("8-K", "2024-11-20", None, "0001045810-24-000310"),
    ("10-Q", "2024-11-20", "2024-10-27", "0001045810-24-000316"),
    ("10-Q", "2024-08-28", "2024-07-28", "0001045810-24-000264"),
    ("10-K", "2024-02-21", "2024-01-28", "0001045810-24-000029"),
]
QUARTER_ONE = ("10-Q", "2024-05-29", "2024-04-28", "0001045810-24-000124")   # before the pack's window
RISKS = (  # invented passages in the shape of a 10-K's item 1A
    "Risks Related to Our Industry and Markets: Failure to meet the evolving needs of our industry and markets "
    "may adversely impact our financial results. Competition could adversely impact our market share.",
    "Risks Related to Demand, Supply and Manufacturing: We depend on third parties to manufacture, assemble, "
    "package and test our products, and supply constraints may limit how much of the demand we can meet.",
    "Risks Related to Regulatory, Legal and Other Matters: Export controls on our products to China and other "
    "regions could negatively impact our ability to sell and our results of operations.",
)


def filings() -> None:
    _record("holders", {"ticker": "NVDA"}, [_finance("NVDA", "NVDA major and institutional holders", {
        "major": {"insiders_pct": 4.3, "institutions_pct": 66.2, "institutions_count": 5400},
        "institutional": [
            {"holder": "Vanguard Group Inc", "shares": 2_190_000_000, "pct": 8.9, "value": 241_900_000_000,
             "date": "2024-09-30"},
            {"holder": "Blackrock Inc.", "shares": 1_920_000_000, "pct": 7.8, "value": 212_100_000_000,
             "date": "2024-09-30"}]},
        "NVDA: institutions hold 66.2%, insiders 4.3%; largest: Vanguard Group Inc (8.9%, 2.19B shares)")])
    _record("sec_filings", {"ticker": "NVDA"}, [{
        "title": f"NVIDIA CORP {form} filed {filed}" + (f" (period {period})" if period else ""),
        "url": f"{EDGAR}/{accession.replace('-', '')}/", "publisher": SEC, "published": f"{filed}T20:30:00Z",
        "snippet": f"NVIDIA CORP (NVDA) {form}, accession {accession}",
        "data": {"ticker": "NVDA", "form": form, "filed": filed, "report_date": period, "accession": accession}}
        for form, filed, period, accession in FILINGS])
    filed_in = {"2024-10-27": FILINGS[1], "2024-07-28": FILINGS[2], "2024-04-28": QUARTER_ONE, "2024-01-28": FILINGS[3]}
    periods = [{"end": end, "fy": 2025 if label.endswith("FY2025") else 2024, "fp": label[:2],
                "form": filed_in[end][0], "filed": filed_in[end][1], "accession": filed_in[end][3],
                "revenue": revenue, "net_income": net, "eps_diluted": eps}
               for end, label, revenue, _, _, net, eps, _ in reversed(QUARTERS)]
    latest = periods[0]
    _record("sec_facts", {"ticker": "NVDA", "freq": "quarterly"}, [{
        "title": f"NVIDIA CORP reported figures (SEC XBRL, quarterly), latest period ending {latest['end']}",
        "url": f"{EDGAR}/{latest['accession'].replace('-', '')}/", "publisher": SEC,
        "published": f"{latest['filed']}T00:00:00Z", "period": {"start": latest["end"], "end": latest["end"]},
        "snippet": f"NVIDIA CORP {latest['form']} filed {latest['filed']}: revenue {latest['revenue']}, "
                   f"net_income {latest['net_income']}, eps_diluted {latest['eps_diluted']}",
        "data": {"ticker": "NVDA", "company": "NVIDIA CORP", "currency": "USD", "basis": "quarterly",
                 "tags": {"revenue": "Revenues", "net_income": "NetIncomeLoss",
                          "eps_diluted": "EarningsPerShareDiluted"}, "periods": periods}}])
    form, filed, period, accession = FILINGS[-1]
    _record("sec_section", {"ticker": "NVDA", "form": "10-K", "item": "1A"}, [{
        "title": f"NVIDIA CORP 10-K filed {filed}: Item 1A. Risk Factors",
        "url": f"{EDGAR}/{accession.replace('-', '')}/", "publisher": SEC, "published": f"{filed}T20:30:00Z",
        "period": {"start": period, "end": period}, "snippet": RISKS[0],
        "data": {"ticker": "NVDA", "company": "NVIDIA CORP", "form": "10-K", "item": "1A",
                 "section_title": "Risk Factors", "filed": filed, "accession": accession,
                 "passages": [{"index": i, "score": 1.0, "text": text} for i, text in enumerate(RISKS, start=1)]}}])


def main() -> None:
    PACK.mkdir(parents=True, exist_ok=True)
    for old in PACK.glob("*.json"):
        old.unlink()
    (PACK / "_pack.json").write_text(json.dumps(
        {"label": "Report test pack — invented prices, statements and headlines", "sample": True, "now": NOW},
        ensure_ascii=False, indent=1) + "\n", "utf-8")
    prices_and_quotes()
    structured()
    stories()
    filings()


if __name__ == "__main__":
    main()
