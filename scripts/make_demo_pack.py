"""Write the demo replay pack: SAMPLE DATA, not real quotes or real news.

    python scripts/make_demo_pack.py [OUT_DIR]      (default: finsearch/demo_pack)

The pack answers the four demo questions with now = 2024-10-15T20:00:00Z:
"Why did NVDA fall last week?", "Compare AAPL and MSFT year to date",
"What's the latest news on Tesla?" and "贵州茅台最近一个月表现如何？".
Prices are seeded random walks pinned to plausible levels; headlines are invented and
published by fictional outlets at example.com. It is deterministic: running it twice
writes the same files.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import sys
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from finsearch.sources.replay import MANIFEST, write_recording  # noqa: E402
from finsearch.sources.yahoo import price_stats  # noqa: E402

NOW = datetime(2024, 10, 15, 20, 0, tzinfo=timezone.utc)
LABEL = "Sample data — invented prices and headlines for demos and tests, not real quotes"
SITE = "https://example.com/finsearch-sample"
CN_HOLIDAYS = {date(2024, 10, d) for d in range(1, 8)} | {date(2024, 9, 16), date(2024, 9, 17)}


def trading_days(start: date, end: date, market: str) -> list[date]:
    days, day = [], start
    while day <= end:
        if day.weekday() < 5 and not (market == "cn" and day in CN_HOLIDAYS):
            days.append(day)
        day += timedelta(days=1)
    return days


def walk(ticker: str, days: list[date], start: float, end: float, vol: float, volume: float,
         pinned: dict[date, float] | None = None) -> list[list]:
    """OHLCV rows whose closes go from `start` to `end`, with `pinned` daily returns (%)."""
    rng = random.Random(ticker)
    pinned = pinned or {}
    returns = [rng.gauss(0, vol) for _ in days[1:]]
    free = [i for i, d in enumerate(days[1:]) if d not in pinned]
    for i, d in enumerate(days[1:]):
        if d in pinned:
            returns[i] = math.log(1 + pinned[d] / 100)
    gap = math.log(end / start) - sum(returns)
    for i in free:
        returns[i] += gap / len(free)
    closes = [start]
    for r in returns:
        closes.append(closes[-1] * math.exp(r))
    rows, prev = [], start * (1 - vol / 2)
    for day, close in zip(days, closes, strict=True):
        open_ = prev * (1 + rng.gauss(0, vol / 3))
        high = max(open_, close) * (1 + abs(rng.gauss(0, vol / 2)))
        low = min(open_, close) * (1 - abs(rng.gauss(0, vol / 2)))
        vol_today = int(volume * (0.7 + 0.6 * rng.random()) * (1 + 3 * abs(math.log(close / prev))))
        rows.append([day.isoformat(), round(open_, 2), round(high, 2), round(low, 2), round(close, 2), vol_today])
        prev = close
    return rows


def price_item(ticker: str, name: str, currency: str, rows: list[list], start: date, end: date) -> dict:
    inside = [r for r in rows if r[0] <= end.isoformat()]
    stats = price_stats.compute(inside, start, end)
    return {
        "title": f"{name} ({ticker}) daily prices {start} to {end}",
        "url": None, "publisher": "FinSearch sample data", "published": None,
        "period": {"start": start.isoformat(), "end": end.isoformat()},
        "snippet": f"{len(inside)} daily bars; period return {stats['return_pct']}%",
        "data": {"ticker": ticker, "interval": "1d", "currency": currency,
                 "columns": ["date", "open", "high", "low", "close", "volume"], "rows": inside, "stats": stats},
    }


def quote_item(ticker: str, name: str, currency: str, rows: list[list], market_cap: float) -> dict:
    last, prev = rows[-1], rows[-2]
    highs, lows = [r[2] for r in rows[-252:]], [r[3] for r in rows[-252:]]
    return {
        "title": f"{name} ({ticker}) quote", "url": None, "publisher": "FinSearch sample data",
        "published": f"{last[0]}T20:00:00Z", "snippet": f"Last {last[4]} {currency}",
        "data": {"ticker": ticker, "currency": currency, "last": last[4], "previous_close": prev[4],
                 "change_pct": round((last[4] / prev[4] - 1) * 100, 2), "day_low": last[3], "day_high": last[2],
                 "year_low": min(lows), "year_high": max(highs), "market_cap": market_cap,
                 "as_of": f"{last[0]}T20:00:00Z"},
    }


def story(slug: str, title: str, publisher: str, published: str | None, snippet: str) -> dict:
    return {"title": title, "url": f"{SITE}/{slug}", "publisher": publisher, "published": published,
            "snippet": snippet}


NVDA_NEWS = [
    story("nvda-blackwell-demand", "Nvidia says demand for Blackwell chips is 'insane', shares edge up",
          "Sample Market Wire", "2024-10-03T14:10:00Z",
          "Nvidia's chief executive said demand for its next-generation Blackwell chips remains very strong."),
    story("nvda-export-curbs", "Nvidia shares slide 4.7% as report of wider chip export curbs weighs",
          "Sample Market Wire", "2024-10-11T19:45:00Z",
          "Nvidia fell 4.7% on Friday after a report that US officials discussed capping AI chip exports "
          "to some countries, the stock's biggest one-day drop in a month."),
    story("chips-sell-off", "Chip stocks retreat on export worries; Nvidia leads decline",
          "Demo Finance Daily", "2024-10-11T21:05:00Z",
          "Semiconductor shares fell broadly on Friday; the sector index lost 3.1% with Nvidia the biggest drag."),
    story("nvda-profit-taking", "Analysts call Nvidia pullback profit-taking after September rally",
          "Demo Finance Daily", "2024-10-12T09:30:00Z",
          "Several analysts described last week's decline as profit-taking after a strong September."),
    story("nvda-rebound", "Nvidia rebounds Monday ahead of chip earnings season",
          "Sample Market Wire", "2024-10-14T20:15:00Z",
          "Nvidia shares recovered part of Friday's losses on Monday as investors looked to earnings."),
    story("ai-capex-explainer", "Explainer: how AI data-center spending drives chip stocks",
          "Sample Research Notes", None,
          "An undated explainer on the link between cloud capital spending and semiconductor revenue."),
]

NVDA_WEB = [
    story("web-why-nvda-fell", "Why Nvidia stock fell on October 11, 2024 (sample explainer)",
          "sample-investing.example", "2024-10-11T22:00:00Z",
          "Nvidia dropped 4.7% on Oct 11 amid reports of tighter export limits on AI chips."),
    story("web-nvda-week", "Nvidia's rough week: what moved the stock (sample)",
          "sample-markets.example", "2024-10-13T12:00:00Z",
          "A recap of the week: Nvidia lost ground as export-control headlines hit chipmakers."),
]

TSLA_NEWS = [
    story("tsla-robotaxi-event", "Tesla unveils Cybercab robotaxi concept at product event",
          "Sample Market Wire", "2024-10-11T03:30:00Z",
          "Tesla showed a two-seat robotaxi concept and said production could start before 2027."),
    story("tsla-shares-drop", "Tesla shares fall 8.8% as robotaxi event leaves investors wanting details",
          "Demo Finance Daily", "2024-10-11T20:30:00Z",
          "Tesla posted its worst day in months after the robotaxi event lacked a detailed timeline."),
    story("tsla-deliveries", "Tesla third-quarter deliveries rise 6% but miss estimates",
          "Sample Market Wire", "2024-10-02T13:00:00Z",
          "Tesla delivered about 463,000 vehicles in the third quarter, below analysts' expectations."),
    story("tsla-earnings-date", "Tesla to report third-quarter results on October 23",
          "Sample Market Wire", "2024-10-14T16:00:00Z",
          "Tesla said it will publish third-quarter results after the market closes on October 23."),
    story("tsla-china-sales", "Tesla China sales climb in September (sample)",
          "Demo Finance Daily", "2024-10-15T09:00:00Z",
          "Tesla's China-made vehicle sales rose in September, industry data showed."),
]

AAPL_NEWS = [
    story("aapl-iphone16", "Apple unveils iPhone 16 line built for its AI features (sample)",
          "Sample Market Wire", "2024-09-09T19:00:00Z",
          "Apple showed four iPhone 16 models designed around Apple Intelligence, due to ship in September."),
    story("aapl-record", "Apple closes at a record as investors bet on an AI upgrade cycle (sample)",
          "Demo Finance Daily", "2024-09-30T21:00:00Z",
          "Apple shares ended the quarter near their high on hopes that AI features will spur upgrades."),
]

MSFT_NEWS = [
    story("msft-azure", "Microsoft shares rise as Azure growth steadies (sample)",
          "Sample Market Wire", "2024-07-31T21:30:00Z",
          "Microsoft's cloud revenue grew in line with its forecast; the company raised AI spending plans."),
    story("msft-rally", "Microsoft jumps 4.5% as software stocks rally (sample)",
          "Demo Finance Daily", "2024-10-10T20:45:00Z",
          "Software shares led the market higher on Thursday, with Microsoft among the biggest gainers."),
]

MOUTAI_NEWS = [
    story("moutai-stimulus-rally", "贵州茅台随消费板块大涨，刺激政策提振市场信心（示例）", "示例财经",
          "2024-09-30T07:30:00Z", "九月底一揽子刺激政策出台后，白酒板块领涨，贵州茅台单日大涨。"),
    story("moutai-after-holiday", "国庆节后首个交易日A股冲高回落，白酒股波动加大（示例）", "示例证券报",
          "2024-10-08T08:00:00Z", "节后首日沪深两市成交额创纪录，白酒股高开后回落。"),
    story("moutai-pullback", "贵州茅台连续回调，机构称估值回到合理区间（示例）", "示例财经",
          "2024-10-14T06:30:00Z", "近期茅台股价从高位回落，多家机构认为估值已回到合理区间。"),
]


def build(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MANIFEST).write_text(json.dumps({"label": LABEL, "sample": True, "now": "2024-10-15T20:00:00Z"},
                                           ensure_ascii=False, indent=1) + "\n", "utf-8")
    us = trading_days(date(2023, 10, 16), date(2024, 10, 15), "us")
    cn = trading_days(date(2023, 10, 16), date(2024, 10, 15), "cn")
    nvda_pins = {date(2024, 10, 7): -1.9, date(2024, 10, 8): 1.1, date(2024, 10, 9): -0.6,
                 date(2024, 10, 10): -1.3, date(2024, 10, 11): -4.7, date(2024, 10, 14): 2.4,
                 date(2024, 10, 15): -1.8}
    series = {
        "NVDA": ("NVIDIA", "USD", walk("NVDA", us, 45.8, 127.0, 0.028, 3.0e8, nvda_pins), 3.12e12),
        "AAPL": ("Apple", "USD", walk("AAPL", us, 178.7, 233.9, 0.013, 5.5e7), 3.55e12),
        "MSFT": ("Microsoft", "USD", walk("MSFT", us, 332.6, 418.7, 0.012, 2.2e7), 3.11e12),
        "TSLA": ("Tesla", "USD", walk("TSLA", us, 253.9, 219.6, 0.032, 9.0e7,
                                      {date(2024, 10, 11): -8.8}), 7.05e11),
        "600519.SS": ("贵州茅台", "CNY", walk("600519.SS", cn, 1780.0, 1560.0, 0.016, 4.0e6,
                                             {date(2024, 9, 30): 9.9, date(2024, 10, 8): 3.1,
                                              date(2024, 10, 9): -5.6}), 1.96e12),
    }

    def record(source: str, args: dict, items: list[dict]) -> None:
        write_recording(out, source, args, items, NOW)

    # "Why did NVDA fall last week?"
    name, cur, rows, cap = series["NVDA"]
    start, end = date(2024, 10, 7), date(2024, 10, 13)
    context = [r for r in rows if r[0] >= (start - timedelta(days=45)).isoformat()]
    record("price_history", {"ticker": "NVDA", "start": start.isoformat(), "end": end.isoformat()},
           [price_item("NVDA", name, cur, context, start, end)])
    record("news", {"ticker": "NVDA", "query": "NVIDIA stock", "start": "2024-10-10", "end": "2024-10-12",
                    "lang": "en"}, NVDA_NEWS)
    record("web_search", {"ticker": "NVDA", "query": "why did NVIDIA stock fall on October 11, 2024",
                          "start": "2024-10-10", "end": "2024-10-12", "lang": "en"}, NVDA_WEB)
    record("quote", {"ticker": "NVDA"}, [quote_item("NVDA", name, cur, rows, cap)])

    # "Compare AAPL and MSFT year to date"
    for ticker in ("AAPL", "MSFT"):
        name, cur, rows, cap = series[ticker]
        start, end = date(2024, 1, 1), date(2024, 10, 15)
        context = [r for r in rows if r[0] >= "2023-11-15"]
        record("price_history", {"ticker": ticker, "start": start.isoformat(), "end": end.isoformat()},
               [price_item(ticker, name, cur, context, start, end)])
        record("quote", {"ticker": ticker}, [quote_item(ticker, name, cur, rows, cap)])
        # A comparison asks for each one's news too.
        record("news", {"ticker": ticker, "query": f"{name} stock", "lang": "en"},
               AAPL_NEWS if ticker == "AAPL" else MSFT_NEWS)

    # "What's the latest news on Tesla?"
    name, cur, rows, cap = series["TSLA"]
    record("news", {"ticker": "TSLA", "query": "Tesla stock", "lang": "en"}, TSLA_NEWS)
    record("quote", {"ticker": "TSLA"}, [quote_item("TSLA", name, cur, rows, cap)])
    start, end = date(2024, 9, 15), date(2024, 10, 15)
    record("price_history", {"ticker": "TSLA", "start": start.isoformat(), "end": end.isoformat()},
           [price_item("TSLA", "Tesla", cur, [r for r in rows if r[0] >= "2024-08-01"], start, end)])

    # "贵州茅台最近一个月表现如何？"
    name, cur, rows, cap = series["600519.SS"]
    start, end = date(2024, 9, 15), date(2024, 10, 15)
    context = [r for r in rows if r[0] >= "2024-08-01"]
    record("price_history", {"ticker": "600519.SS", "start": start.isoformat(), "end": end.isoformat()},
           [price_item("600519.SS", "Kweichow Moutai", cur, context, start, end)])
    record("quote", {"ticker": "600519.SS"}, [quote_item("600519.SS", "Kweichow Moutai", cur, rows, cap)])
    record("news", {"ticker": "600519.SS", "query": "贵州茅台 股票", "start": start.isoformat(),
                    "end": end.isoformat(), "lang": "zh"}, MOUTAI_NEWS)


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "finsearch" / "demo_pack")
    print("wrote the sample pack")
