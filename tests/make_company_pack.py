"""Writes tests/fixtures/company_pack: a replay pack of a company's own documents.

    python -m tests.make_company_pack

The evidence is what the real adapters make of the fixture pages — AShares (akshare 1.19.5
on tests/fixtures/china, served at urllib3's pool by tests/china_sites.py) and SecEdgar (on
tests/fixtures/sec, at httpx's transport by tests/sec_wire.py) — recorded under the args the
rule-based planner gives these two questions:

    贵州茅台的十大股东和最新公告                    cn_top_holders, cn_announcements (+ news, quote)
    茅台最近有什么新闻                              cn_stock_news, cn_announcements (+ news, quote)
    茅台和同行比估值怎么样                          cn_industry_compare (+ quote, profile)
    用akshare的日线看茅台最近一个月                 cn_daily_bars (Tencent; + quote, news)
    What risks did Apple list in its latest 10-K?   sec_section (item 1A, ranked by the question)
    Any insider selling at AAPL lately?             sec_insiders (the Form 4s of tests/fixtures/sec/form4) + quote
    伯克希尔最新13F持仓                              sec_13f (Berkshire's two latest 13F-HR in tests/fixtures/sec/13f)

"now" is 2024-11-15 08:00 UTC (16:00 in Beijing). The news and quote of 600519.SS and the quote
of AAPL are written out here (invented, named as such).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan
from finsearch.sources.china.adapter import AShares
from finsearch.sources.replay import write_recording
from finsearch.sources.sec.adapter import SecEdgar
from tests import china_sites
from tests.sec_wire import Edgar

PACK = Path(__file__).resolve().parent / "fixtures" / "company_pack"
NOW = datetime(2024, 11, 15, 8, 0, tzinfo=timezone.utc)
QUESTIONS = ("贵州茅台的十大股东和最新公告", "茅台最近有什么新闻", "茅台和同行比估值怎么样",
             "用akshare的日线看茅台最近一个月", "What risks did Apple list in its latest 10-K?",
             "Any insider selling at AAPL lately?", "伯克希尔最新13F持仓")
INVENTED = {
    ("news", "600519.SS"): [{"title": "贵州茅台三季度营收同比增长15%", "url": "https://example.com/company-pack/moutai-q3",
              "publisher": "FinSearch test pack", "published": "2024-10-26T02:00:00Z",
              "snippet": "贵州茅台发布三季报，前三季度营业总收入同比增长约16%。"}],
    ("quote", "600519.SS"): [{"title": "贵州茅台 (600519.SS) quote", "url": None, "publisher": "FinSearch test pack",
               "published": "2024-11-15T07:00:00Z", "snippet": "",
               "data": {"ticker": "600519.SS", "currency": "CNY", "last": 1538.0, "previous_close": 1550.0,
                        "change_pct": -0.77, "market_cap": 1.93e12, "as_of": "2024-11-15T07:00:00Z"}}],
    ("quote", "AAPL"): [{"title": "Apple (AAPL) quote", "url": None, "publisher": "FinSearch test pack",
                         "published": "2024-11-14T21:00:00Z", "snippet": "",
                         "data": {"ticker": "AAPL", "currency": "USD", "last": 228.22, "previous_close": 228.87,
                                  "change_pct": -0.28, "market_cap": 3.45e12, "as_of": "2024-11-14T21:00:00Z"}}],
    ("profile", "600519.SS"): [{"title": "贵州茅台 (600519.SS) profile", "url": "https://finance.yahoo.com/quote/600519.SS/profile",
                 "publisher": "FinSearch test pack", "published": None, "snippet": "",
                 "data": {"ticker": "600519.SS", "sector": "Consumer Defensive", "industry": "Beverages - Wineries & "
                          "Distilleries", "trailing_pe": 22.9, "price_to_book": 8.1}}],
}


def main(pack: Path = PACK) -> None:
    pack.mkdir(parents=True, exist_ok=True)
    for old in pack.glob("*.json"):
        old.unlink()
    (pack / "_pack.json").write_text(json.dumps(
        {"label": "Company documents test pack — fixture pages through the real adapters", "sample": True,
         "now": NOW.strftime("%Y-%m-%dT%H:%M:%SZ")}, ensure_ascii=False, indent=1) + "\n", "utf-8")
    patch = pytest.MonkeyPatch()
    try:
        china_sites.install(patch)
        edgar = Edgar()
        adapters = {"ashares": AShares(clock=lambda: NOW),
                    "sec": SecEdgar("FinSearch Tests tests@example.com", transport=edgar.transport, clock=lambda: NOW)}
        for question in QUESTIONS:
            for node in heuristic_plan(analyse(question, NOW), NOW):
                if node.source.startswith("cn_"):
                    evidence = adapters["ashares"].fetch(node.source, node.args)
                elif node.source.startswith("sec_"):
                    evidence = adapters["sec"].fetch(node.source, node.args)
                else:
                    evidence = INVENTED[node.source, node.args["ticker"]]
                write_recording(pack, node.source, node.args, evidence, NOW)
    finally:
        patch.undo()


if __name__ == "__main__":
    main()
