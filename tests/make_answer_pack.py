"""Writes tests/fixtures/answer_pack: a small invented replay pack for the answer tests.

    python -m tests.make_answer_pack

Five instruments other than the demo pack's, "now" 2024-11-15 (a Friday), each with a
planted daily move the table of tests/test_answers.py asks about:

    AMD        -7.5% on 2024-11-06, headlines that give the reason (weak data-center forecast);
               quote, analyst targets, earnings (next date, a beat), a web explainer
    META       +5.2% on 2024-11-07, headlines of that day that give no reason; a report date
               only in the news ("on January 29", published in November); no analyst, no earnings
    GOOGL      -3.0% on 2024-11-12, its prices end on 2024-11-12 (the others' on 2024-11-15);
               quote, analyst targets, earnings, dividends
    0700.HK    -6.1% on 2024-11-05, Chinese headlines (受…影响); a report date in Chinese news
    002594.SZ  +5.3% on 2024-11-08, Chinese headlines (因…); a miss in the news; no earnings,
               no analyst, no report date anywhere

Prices are made up: a fixed small wiggle per day plus the planted move.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from finsearch.sources.replay import write_recording
from finsearch.sources.yahoo.price_stats import compute

PACK = Path(__file__).resolve().parent / "fixtures" / "answer_pack"
NOW = "2024-11-15T21:00:00Z"
START = date(2024, 9, 2)
WIGGLE = (0.4, -0.3, 0.6, -0.5, 0.2, -0.1, 0.3, -0.6, 0.5, -0.2, 0.1, -0.4)     # % per day
HOLIDAYS = {"0700.HK": {"2024-09-18", "2024-10-01", "2024-10-11"},
            "002594.SZ": {"2024-09-16", "2024-09-17", *(f"2024-10-0{d}" for d in range(1, 8))}}

INSTRUMENTS = {
    # ticker: (name, currency, first close, last day, planted moves, market cap)
    "AMD": ("AMD", "USD", 150.0, "2024-11-15", {"2024-11-06": -7.5}, 230e9),
    "META": ("Meta Platforms", "USD", 520.0, "2024-11-15", {"2024-11-07": 5.2}, 1.45e12),
    "GOOGL": ("Alphabet", "USD", 160.0, "2024-11-12", {"2024-11-12": -3.0}, 2.10e12),
    "0700.HK": ("Tencent", "HKD", 380.0, "2024-11-15", {"2024-11-05": -6.1}, 3.6e12),
    "002594.SZ": ("BYD", "CNY", 260.0, "2024-11-15", {"2024-11-08": 5.3}, 8.5e11),
}


def _rows(ticker: str) -> list[list]:
    _, _, close, last, moves, _ = INSTRUMENTS[ticker]
    rows, day, i = [], START, 0
    while day.isoformat() <= last:
        stamp = day.isoformat()
        if day.weekday() < 5 and stamp not in HOLIDAYS.get(ticker, ()):
            change = moves.get(stamp, WIGGLE[i % len(WIGGLE)])
            i += 1
            opened = close
            close = round(close * (1 + change / 100), 2)
            high, low = round(max(opened, close) * 1.004, 2), round(min(opened, close) * 0.996, 2)
            rows.append([stamp, opened, high, low, close, 10_000_000 + 1000 * i])
        day += timedelta(days=1)
    return rows


def _record(source: str, args: dict, evidence: list[dict]) -> None:
    write_recording(PACK, source, args, evidence, datetime(2024, 11, 15, 21, tzinfo=timezone.utc))


def _finance(ticker: str, title: str, data: dict, snippet: str = "") -> dict:
    return {"title": title, "url": None, "publisher": "FinSearch test pack", "published": NOW,
            "snippet": snippet, "data": {"ticker": ticker, **data}}


def _story(title: str, published: str, publisher: str, snippet: str, slug: str) -> dict:
    return {"title": title, "url": f"https://example.com/answer-pack/{slug}", "publisher": publisher,
            "published": published, "snippet": snippet}


def prices_and_quotes() -> None:
    for ticker, (name, currency, _, last, _, cap) in INSTRUMENTS.items():
        rows = _rows(ticker)
        stats = compute(rows, START, date.fromisoformat(last))
        _record("price_history", {"ticker": ticker, "start": START.isoformat(), "end": "2024-11-15"}, [{
            "title": f"{name} ({ticker}) daily prices {START} to {last}", "url": None,
            "publisher": "FinSearch test pack", "published": None,
            "period": {"start": START.isoformat(), "end": last},
            "snippet": f"{len(rows)} daily bars",
            "data": {"ticker": ticker, "interval": "1d", "currency": currency,
                     "columns": ["date", "open", "high", "low", "close", "volume"], "rows": rows, "stats": stats}}])
        close, before = rows[-1][4], rows[-2][4]
        _record("quote", {"ticker": ticker}, [_finance(ticker, f"{name} ({ticker}) quote", {
            "currency": currency, "last": close, "previous_close": before,
            "change_pct": round((close / before - 1) * 100, 2), "market_cap": cap, "as_of": NOW})])


def structured() -> None:
    _record("analyst", {"ticker": "AMD"}, [_finance("AMD", "AMD (AMD) analyst targets", {
        "currency": "USD", "targets": {"mean": 190.5, "low": 140.0, "high": 250.0},
        "recommendations": {"strong_buy": 10, "buy": 20, "hold": 8, "sell": 1, "strong_sell": 0}})])
    _record("analyst", {"ticker": "GOOGL"}, [_finance("GOOGL", "Alphabet (GOOGL) analyst targets", {
        "currency": "USD", "targets": {"mean": 205.0, "low": 175.0, "high": 240.0},
        "recommendations": {"strong_buy": 12, "buy": 30, "hold": 10, "sell": 0, "strong_sell": 0}})])
    _record("analyst", {"ticker": "0700.HK"}, [_finance("0700.HK", "Tencent (0700.HK) analyst targets", {
        "currency": "HKD", "targets": {"mean": 480.0, "low": 400.0, "high": 560.0},
        "recommendations": {"strong_buy": 20, "buy": 25, "hold": 3, "sell": 0, "strong_sell": 0}})])
    _record("earnings", {"ticker": "AMD"}, [_finance("AMD", "AMD (AMD) earnings", {
        "next_date": "2025-01-28",
        "history": [{"date": "2024-07-30", "eps_reported": 0.69, "eps_estimate": 0.68, "surprise_pct": 1.47},
                    {"date": "2024-10-29", "eps_reported": 0.92, "eps_estimate": 0.90, "surprise_pct": 2.22}]})])
    _record("earnings", {"ticker": "GOOGL"}, [_finance("GOOGL", "Alphabet (GOOGL) earnings", {
        "next_date": "2025-02-04",
        "history": [{"date": "2024-10-29", "eps_reported": 2.12, "eps_estimate": 1.85, "surprise_pct": 14.59}]})])
    _record("dividends", {"ticker": "GOOGL"}, [_finance("GOOGL", "Alphabet (GOOGL) dividends", {
        "currency": "USD", "dividends": [{"date": "2024-06-10", "amount": 0.2}, {"date": "2024-09-09", "amount": 0.2}],
        "trailing_yield_pct": 0.47})])


def stories() -> None:
    _record("news", {"ticker": "AMD", "query": "AMD stock", "lang": "en"}, [
        _story("AMD third-quarter earnings beat estimates on data-center demand", "2024-10-29T21:00:00Z",
               "Test Wire", "AMD reported adjusted EPS of $0.92, above the $0.90 analysts expected.", "amd-q3"),
        _story("AMD shares tumble 7.5% after weak data-center forecast", "2024-11-06T21:10:00Z", "Test Wire",
               "The chipmaker's outlook for AI accelerators fell short of what investors hoped for.", "amd-drop"),
        _story("Chipmakers slide as AMD outlook disappoints", "2024-11-06T22:00:00Z", "Pack Markets Daily",
               "Semiconductor stocks fell across the board on Wednesday.", "chips-slide"),
        _story("AMD announces plans to cut 4% of its workforce", "2024-11-13T14:00:00Z", "Test Wire",
               "The company said it would focus resources on AI chips.", "amd-layoffs"),
    ])
    _record("web_search", {"ticker": "AMD", "query": "why did AMD stock fall", "lang": "en"}, [
        _story("Why AMD stock fell today (explainer)", "2024-11-06T23:00:00Z", "pack-investing.example",
               "AMD stock dropped amid concerns that AI chip sales will slow next quarter.", "web-amd"),
    ])
    _record("news", {"ticker": "META", "query": "Meta Platforms stock", "lang": "en"}, [
        _story("Meta rises after strong ad sales lift outlook", "2024-11-01T12:00:00Z", "Test Wire",
               "Advertising revenue grew faster than expected.", "meta-ads"),
        _story("Meta stock: three things to watch", "2024-11-07T15:00:00Z", "Pack Markets Daily",
               "Investors are weighing the company's spending plans.", "meta-watch"),
        _story("Meta shares jump 5.2% on Thursday", "2024-11-07T20:30:00Z", "Pack Markets Daily",
               "Meta Platforms stock closed sharply higher on Thursday.", "meta-jump"),
        _story("Meta to report fourth-quarter results on January 29", "2024-11-12T16:00:00Z", "Test Wire",
               "Meta Platforms said it will publish results after the market closes on January 29.", "meta-date"),
    ])
    _record("news", {"ticker": "GOOGL", "query": "Alphabet stock", "lang": "en"}, [
        _story("Alphabet falls 3% amid antitrust ruling worries", "2024-11-12T19:00:00Z", "Test Wire",
               "A court filing raised the prospect of remedies in the search case.", "googl-drop"),
        _story("Google unveils new Gemini features", "2024-11-08T17:00:00Z", "Pack Markets Daily",
               "The company showed an update to its AI assistant.", "googl-gemini"),
    ])
    _record("news", {"ticker": "0700.HK", "query": "腾讯 股票", "lang": "zh"}, [
        _story("受游戏监管新规影响，腾讯控股股价重挫6.1%", "2024-11-05T09:30:00Z", "测试财经",
               "游戏股普遍下跌。", "tencent-drop"),
        _story("港股科技股走低，腾讯领跌", "2024-11-05T10:00:00Z", "测试港股日报", "恒生科技指数收跌。", "hk-tech"),
        _story("腾讯控股将于11月20日公布第三季度业绩", "2024-11-08T08:00:00Z", "测试财经",
               "公司公告称将在交易时段后公布业绩。", "tencent-date"),
    ])
    _record("news", {"ticker": "002594.SZ", "query": "比亚迪 股票", "lang": "zh"}, [
        _story("比亚迪三季度营收增长但净利润不及预期", "2024-11-01T03:00:00Z", "测试证券报",
               "公司第三季度营收同比增长，净利润低于分析师预期。", "byd-q3"),
        _story("比亚迪股价大涨5.3%，因十月销量创新高", "2024-11-08T07:30:00Z", "测试证券报",
               "十月新能源汽车销量再创纪录。", "byd-jump"),
    ])


def main() -> None:
    PACK.mkdir(parents=True, exist_ok=True)
    for old in PACK.glob("*.json"):
        old.unlink()
    (PACK / "_pack.json").write_text(json.dumps(
        {"label": "Answer test pack — invented prices and headlines", "sample": True, "now": NOW},
        ensure_ascii=False, indent=1) + "\n", "utf-8")
    prices_and_quotes()
    structured()
    stories()


if __name__ == "__main__":
    main()
