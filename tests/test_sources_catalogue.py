"""The source catalogue as the one place a source is declared: a new source needs its
builder and one SourceSpec, and is then planned, checked, cached and served like the
others; the live adapters and freshness defaults come from the specs; the sources
package has no import loops."""

from __future__ import annotations

import ast
import dataclasses
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from finsearch.catalogue import CATALOGUE, SourceSpec, load
from finsearch.errors import SourceError
from finsearch.graph import SearchNode, validate_nodes
from finsearch.plan.compact import read_line, source_codes
from finsearch.plan.planner import render_catalogue
from finsearch.settings import Settings, from_env
from finsearch.source_args import check_args
from finsearch.sources.cache.disk import SourceCache
from finsearch.sources.china.adapter import AShares
from finsearch.sources.hkex.adapter import HkexNews
from finsearch.sources.hub import DataHub
from finsearch.sources.news.adapter import NewsSource
from finsearch.sources.sec.adapter import SecEdgar
from finsearch.sources.setup import live_adapters
from finsearch.sources.web.adapter import WebSearch
from finsearch.sources.yahoo.adapter import YahooFinance
from finsearch.sources.yahoo.request import Request, item
from finsearch.timecontext import TimeContext
from tests.conftest import NOW
from tests.fake_yfinance import Company, FakeYF

SOURCES_DIR = Path(__file__).resolve().parent.parent / "finsearch" / "sources"


# -- a throw-away source, added the way a real one would be ------------------------------

def short_interest(req: Request) -> list[dict]:
    """Edit 1 of 2, the adapter code: a Yahoo Finance builder like prices.quote."""
    info = req.optional(lambda: req.ticker().info)
    shares = info.get("sharesShort") if isinstance(info, dict) else None
    if not shares:
        raise req.no_data()
    return [item(f"{req.symbol} short interest", f"{req.symbol}: {shares:,} shares sold short",
                 {"ticker": req.symbol, "shares_short": shares}, url=req.url, published=req.now_iso)]


# Edit 2 of 2, the spec: written into catalogue.CATALOGUE (with `_TICKER` as its arg); here
# the fixture below adds it for one test.
SHORT_INTEREST = SourceSpec(
    "short_interest", "finance", "shares sold short and days to cover", (CATALOGUE["quote"].arg("ticker"),),
    family="fundamentals", freshness_s=12 * 3600, adapter=".yahoo.adapter:YahooFinance",
    builder="tests.test_sources_catalogue:short_interest")


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(CATALOGUE, SHORT_INTEREST.id, SHORT_INTEREST)


def test_a_new_source_is_shown_to_the_model_and_checked_in_plans(registered):
    # its short code is derived ("si" is sec_insiders', so it takes a letter more): no prompt edit
    assert render_catalogue().splitlines()[-1] == (
        "- short_interest (sin) [finance] — shares sold short and days to cover. args: ticker: ticker")
    assert read_line("3. sin(AAPL) <- 1", 3) == {"id": "n3", "source": "short_interest", "args": {"ticker": "AAPL"},
                                                 "depends_on": ["n1"]}
    today = TimeContext(date(2024, 10, 15), date(2024, 10, 15), "today")
    node = SearchNode("n1", "AAPL short interest", "short_interest", {"ticker": "AAPL"}, today)
    assert validate_nodes([node]) == [] and node.kind == "finance"
    assert check_args("short_interest", {}) == ["short_interest: missing argument 'ticker'"]
    assert check_args("short_interest", {"ticker": "AAPL", "start": "2024-10-01"}) == [
        "short_interest: unknown argument 'start'"]


def test_a_new_source_gets_its_freshness_and_its_adapter_from_its_spec(registered, tmp_path):
    assert Settings().freshness_s["short_interest"] == 43200
    assert from_env({"FINSEARCH_FRESHNESS": "short_interest=60"}).freshness_s["short_interest"] == 60
    adapters = live_adapters(Settings(cache_dir=tmp_path))
    assert adapters["short_interest"] is adapters["quote"]      # the one Yahoo Finance adapter


def test_a_new_source_is_served_and_cached_through_the_hub(registered, tmp_path):
    settings = from_env({}, cache_dir=tmp_path / "cache", llm="heuristic", now=NOW)
    yf = FakeYF({"AAPL": Company(info={"sharesShort": 94_120_000})})
    clock = [datetime(2026, 1, 5, 15, 0, tzinfo=timezone.utc)]
    hub = DataHub(settings, adapters={"short_interest": YahooFinance(yf=yf, clock=lambda: NOW)},
                  cache=SourceCache(tmp_path / "c", settings.freshness_s, 10 ** 7), clock=lambda: clock[0])
    first = hub.call("short_interest", {"ticker": "aapl"})
    assert first.origin == "live"
    assert [(e.title, e.snippet, e.kind) for e in first.evidence] == [
        ("AAPL short interest", "AAPL: 94,120,000 shares sold short", "finance")]
    clock[0] += timedelta(hours=11)
    assert hub.call("short_interest", {"ticker": "aapl"}).origin == "cache"     # fresh for 12 h
    clock[0] += timedelta(hours=2)
    assert hub.call("short_interest", {"ticker": "aapl"}).origin == "live"


def test_an_adapter_refuses_a_source_its_spec_gives_to_another(monkeypatch):
    elsewhere = dataclasses.replace(SHORT_INTEREST, adapter=".news.adapter:NewsSource")
    monkeypatch.setitem(CATALOGUE, elsewhere.id, elsewhere)
    with pytest.raises(SourceError, match="Yahoo Finance does not serve the short_interest source"):
        YahooFinance(yf=FakeYF()).fetch("short_interest", {"ticker": "AAPL"})


# -- the real catalogue ---------------------------------------------------------------------

def test_every_source_names_a_loadable_adapter_and_builder():
    for spec in CATALOGUE.values():
        adapter = load(spec.adapter)
        assert callable(adapter.from_settings) and callable(adapter.fetch), spec.id
        assert spec.builder is None or callable(load(spec.builder)), spec.id


def test_every_source_has_its_own_short_code_for_plan_lines():
    assert source_codes() == {
        "quote": "quote", "price_history": "ph", "financials": "financials", "earnings": "earnings",
        "analyst": "analyst", "profile": "profile", "holders": "holders", "dividends": "dividends",
        "symbol_search": "ss", "news": "news", "web_search": "ws", "cn_top_holders": "cth", "cn_announcements": "ca",
        "cn_business": "cb", "cn_dividends": "cd", "cn_financial_abstract": "cfa", "cn_profit_forecast": "cpf",
        "hk_dividends": "hd", "cn_profile": "cp", "cn_industry_compare": "cic", "cn_daily_bars": "cdb",
        "cn_stock_news": "csn", "hk_announcements": "ha", "sec_filings": "sf", "sec_section": "sse",
        "sec_facts": "sfa", "sec_insiders": "si", "sec_13f": "s1"}


def test_freshness_defaults_per_source():
    assert Settings().freshness_s == {
        "quote": 60, "news": 300, "price_history": 3600, "financials": 86400, "profile": 86400,
        "earnings": 21600, "analyst": 21600, "holders": 86400, "dividends": 86400,
        "symbol_search": 86400, "web_search": 3600, "cn_top_holders": 86400, "cn_announcements": 3600,
        "cn_business": 86400, "cn_dividends": 86400, "cn_financial_abstract": 86400, "cn_profit_forecast": 21600,
        "hk_dividends": 86400, "cn_profile": 86400, "cn_industry_compare": 21600, "cn_daily_bars": 3600,
        "cn_stock_news": 1800, "hk_announcements": 3600, "sec_filings": 21600,
        "sec_section": 86400, "sec_facts": 86400, "sec_insiders": 10800, "sec_13f": 86400}


def test_live_adapters_are_built_once_per_class_from_the_settings(tmp_path):
    adapters = live_adapters(Settings(cache_dir=tmp_path, news_feeds=("https://example.com/{ticker}.rss",)))
    assert list(adapters) == list(CATALOGUE)
    assert {type(a) for a in adapters.values()} == {YahooFinance, NewsSource, WebSearch, AShares, HkexNews, SecEdgar}
    finance = {source for source, a in adapters.items() if isinstance(a, YahooFinance)}
    assert len({id(adapters[s]) for s in finance}) == 1
    assert adapters["quote"].cache_dir == tmp_path / "yfinance"
    assert adapters["news"].feeds == ("https://example.com/{ticker}.rss",)


def test_the_sources_package_has_no_import_loops():
    """Every import between modules of finsearch/sources, at the top or inside a function."""
    imports = {path.stem: _sibling_imports(path) for path in SOURCES_DIR.glob("*.py")}
    loops = []

    def walk(module: str, trail: tuple[str, ...]) -> None:
        for imported in sorted(imports.get(module, ())):
            if imported in trail:
                loops.append(trail[trail.index(imported):] + (imported,))
            else:
                walk(imported, trail + (imported,))

    for module in imports:
        walk(module, (module,))
    assert loops == []


def _sibling_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update([node.module] if node.module else [alias.name for alias in node.names])
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("finsearch.sources."):
            found.add(node.module.split(".")[2])
    return found


def test_a_ticker_in_any_case_is_one_call_for_the_cache_and_the_pack():
    from finsearch.source_args import canonical_args, primary_key
    from finsearch.sources.cache.disk import SourceCache

    assert canonical_args({"ticker": " nvda ", "start": "2024-10-07"}) == {"start": "2024-10-07", "ticker": "NVDA"}
    assert SourceCache.key("quote", {"ticker": "600519.ss"}) == SourceCache.key("quote", {"ticker": "600519.SS"})
    assert primary_key({"query": "Apple Inc"}) == "apple inc"          # queries keep their own rule
