"""Hong Kong announcements from HKEXnews (hk_announcements): the adapter over real HTTP against the
site's answers served on loopback (tests/hkex_site.py, fixtures in tests/fixtures/hkex), and the plans
that ask for them. Expected values are read off the fixture rows by hand: DATE_TIME is Hong Kong
time, UTC+8 all year."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timezone
from functools import partial

import pytest

from finsearch.errors import NoData, RateLimited, Refused, TimedOut, UnknownSymbol, Unreachable
from finsearch.evidence import sanitise
from finsearch.plan.analysis import analyse
from finsearch.plan.rules import heuristic_plan
from finsearch.sources.hkex.adapter import HkexNews, forget_stock_ids
from finsearch.sources.upstream.bounded import TooLarge
from tests.hkex_site import NOW, HkexSite
from tests.hostile_payloads import mutate, settled, shape, to_json

DOCS = "https://www1.hkexnews.hk/listedco/listconews/sehk/2024"


@pytest.fixture
def hkex_site(no_waiting) -> Iterator[HkexSite]:
    """HKEXnews on loopback; retries against it never sleep; no stock id remembered from another test."""
    forget_stock_ids()
    site = HkexSite().start()
    yield site
    site.stop()


@pytest.fixture
def hkex(hkex_site) -> HkexNews:
    return HkexNews(site=hkex_site.url, clock=lambda: NOW, timeout_s=5.0)


def test_tencents_filings_newest_first_with_links_release_times_and_types(hkex):
    items = hkex.fetch("hk_announcements", {"ticker": "0700.HK"})

    first = items[0]
    assert first["title"] == "Next Day Disclosure Return"
    assert first["url"] == f"{DOCS}/1015/2024101500871.pdf"
    assert first["published"] == "2024-10-15T09:30:00Z"             # 17:30 in Hong Kong
    assert first["publisher"] == "HKEXnews 披露易"
    assert first["snippet"] == ("TENCENT (00700) Next Day Disclosure Returns - [Share Buyback]: "
                                "Next Day Disclosure Return")
    assert first["data"] == {"ticker": "0700.HK", "stock_code": "00700",
                             "document_type": "Next Day Disclosure Returns - [Share Buyback]", "file_type": "PDF",
                             "file_size": "89KB", "news_id": "11606122", "matched": 15}
    # Seven daily buyback returns and a monthly return were filed: the newest five returns are kept,
    # so that what Tencent announced is not crowded out.
    assert [(i["published"][:10], i["title"]) for i in items[4:]] == [
        ("2024-10-09", "Next Day Disclosure Return"),
        ("2024-10-04", "VOLUNTARY ANNOUNCEMENT - PROGRESS OF SHARE BUY-BACK PROGRAMME & CANCELLATION OF "
                       "SHARES BOUGHT BACK"),
        ("2024-09-20", "LIST OF DIRECTORS AND THEIR ROLES AND FUNCTIONS"),
        ("2024-09-13", "CONNECTED TRANSACTION ; RENEWAL OF THE FRAMEWORK AGREEMENT"),
        ("2024-08-14", "ANNOUNCEMENT OF THE RESULTS FOR THE THREE AND SIX MONTHS ENDED 30 JUNE 2024"),
        ("2024-07-31", "DATE OF BOARD MEETING")]
    assert len(items) == 10
    # A link to the site itself is rebased on https://www1; one to another host, and a row with no
    # document, are no evidence.
    assert items[7]["url"] == f"{DOCS}/0913/2024091301391.pdf"
    assert all(i["url"].startswith("https://www1.hkexnews.hk/listedco/") for i in items)
    assert items[8]["data"]["document_type"] == "Announcements and Notices - [Interim Results]"


def test_the_evidence_passes_the_sanitiser_as_it_is(hkex):
    items = hkex.fetch("hk_announcements", {"ticker": "0700.HK"})
    evidence, problems = sanitise(items, "hk_announcements", "news")
    assert problems == ()
    assert [(e.title, e.url, e.published) for e in evidence] == [(i["title"], i["url"], i["published"]) for i in items]


def test_the_lookup_and_the_search_are_the_site_pages_own_requests(hkex, hkex_site):
    hkex.fetch("hk_announcements", {"ticker": "0700.HK", "start": "2024-10-08", "end": "2024-10-15"})

    lookup, search = hkex_site.sent
    assert lookup.path == "/search/prefix.do"
    assert lookup.query == {"callback": "callback", "lang": "EN", "type": "A", "name": "00700", "market": "SEHK"}
    assert search.path == "/search/titleSearchServlet.do"
    assert search.query == {"sortDir": "0", "sortByOptions": "DateTime", "category": "0", "market": "SEHK",
                            "stockId": "7609", "documentType": "-1", "fromDate": "20241008", "toDate": "20241015",
                            "title": "", "searchType": "0", "t1code": "-2", "t2Gcode": "-2", "t2code": "-2",
                            "rowRange": "100", "lang": "E"}
    assert search.headers["referer"] == "https://www1.hkexnews.hk/search/titlesearch.xhtml"
    assert search.headers["x-requested-with"] == "XMLHttpRequest"


def test_without_a_period_the_last_year_in_hong_kong_days(hkex, hkex_site):
    hkex.fetch("hk_announcements", {"ticker": "0700.HK"})
    (search,) = hkex_site.searched()
    assert (search["fromDate"], search["toDate"]) == ("20231016", "20241015")


def test_a_period_ending_after_today_ends_today_in_hong_kong(hkex_site):
    # 17:00 UTC on the 15th is 01:00 on the 16th in Hong Kong.
    late = HkexNews(site=hkex_site.url, clock=lambda: datetime(2024, 10, 15, 17, 0, tzinfo=timezone.utc))
    late.fetch("hk_announcements", {"ticker": "0700.HK", "start": "2024-10-01", "end": "2024-12-31"})
    (search,) = hkex_site.searched()
    assert (search["fromDate"], search["toDate"]) == ("20241001", "20241016")


def test_the_stock_id_is_looked_up_once(hkex, hkex_site):
    hkex.fetch("hk_announcements", {"ticker": "0700.HK"})
    hkex.fetch("hk_announcements", {"ticker": "0700.HK", "lang": "zh"})
    assert hkex_site.count("prefix.do") == 1
    assert [q["stockId"] for q in hkex_site.searched()] == ["7609", "7609"]


def test_chinese_titles_for_a_chinese_question(hkex, hkex_site):
    items = hkex.fetch("hk_announcements", {"ticker": "0700.HK", "lang": "zh"})
    assert hkex_site.searched()[0]["lang"] == "ZH"
    assert [(i["title"], i["url"], i["published"]) for i in items] == [
        ("翌日披露報表", f"{DOCS}/1015/2024101500872_c.pdf", "2024-10-15T09:30:00Z"),
        ("截至二零二四年九月三十日止之股份發行人的證券變動月報表", f"{DOCS}/1002/2024100200635_c.pdf",
         "2024-10-02T08:45:00Z"),
        ("截至二零二四年六月三十日止三個月及六個月業績公布", f"{DOCS}/0814/2024081400666_c.pdf",
         "2024-08-14T08:35:00Z")]
    assert items[0]["snippet"] == "騰訊控股 (00700) 翌日披露報表 - [股份購回]: 翌日披露報表"


def test_a_release_before_eight_in_the_morning_is_the_day_before_in_utc(hkex, hkex_site):
    row = json.loads(json.loads(hkex_site.searches["7609", "E"])["result"])[0]
    row.update(DATE_TIME="01/10/2024 07:45", TITLE="EARLY NOTICE")
    hkex_site.searches["7609", "E"] = json.dumps({"result": json.dumps([row]), "hasNextRow": False}).encode()
    (item,) = hkex.fetch("hk_announcements", {"ticker": "0700.HK"})
    assert (item["title"], item["published"]) == ("EARLY NOTICE", "2024-09-30T23:45:00Z")


def test_the_prefix_search_gives_only_the_exact_codes_id(hkex, hkex_site):
    # 00285's lookup lists 02858 and a warrant 28500 too; nothing was filed in the period.
    with pytest.raises(NoData, match=r"lists no filings for 0285.HK \(00285\) between 2024-10-08 and 2024-10-15"):
        hkex.fetch("hk_announcements", {"ticker": "0285.HK", "start": "2024-10-08", "end": "2024-10-15"})
    assert hkex_site.searched()[0]["stockId"] == "20247"


@pytest.mark.parametrize("empty", [b'{"result":"null","hasNextRow":false}', b'{"result":null,"hasNextRow":false}',
                                   b'{"result":"[]","hasNextRow":false,"recordCnt":0}'])
def test_a_quiet_period_is_no_data(hkex, hkex_site, empty):
    hkex_site.searches["7609", "E"] = empty
    with pytest.raises(NoData, match="lists no filings for 0700.HK"):
        hkex.fetch("hk_announcements", {"ticker": "0700.HK"})


def test_a_code_hkexnews_does_not_list_is_an_unknown_symbol(hkex, hkex_site):
    with pytest.raises(UnknownSymbol, match="lists no stock with the code 09999"):
        hkex.fetch("hk_announcements", {"ticker": "9999.HK"})
    assert hkex_site.count("titleSearchServlet") == 0


def test_a_ticker_of_another_market_is_refused_before_anything_is_sent(hkex, hkex_site):
    with pytest.raises(Exception, match=r"is not a Hong Kong ticker \(0700.HK\)"):
        hkex.fetch("hk_announcements", {"ticker": "600519.SS"})
    assert hkex_site.sent == []


def test_only_the_periods_filings_are_kept(hkex):
    # The fake answers every row whatever the dates asked; the site filters, and so does the builder.
    items = hkex.fetch("hk_announcements", {"ticker": "0700.HK", "start": "2024-10-04", "end": "2024-10-14"})
    assert [(i["published"], i["title"][:26]) for i in items] == [
        ("2024-10-14T09:28:00Z", "Next Day Disclosure Return"), ("2024-10-11T09:33:00Z", "Next Day Disclosure Return"),
        ("2024-10-10T09:31:00Z", "Next Day Disclosure Return"), ("2024-10-09T09:29:00Z", "Next Day Disclosure Return"),
        ("2024-10-08T09:35:00Z", "Next Day Disclosure Return"), ("2024-10-04T11:00:00Z", "VOLUNTARY ANNOUNCEMENT - P")]


# -- answered from them -------------------------------------------------------------------------

class _Nothing:
    def fetch(self, source, args):
        raise NoData(f"nothing recorded for {source}")


def ask(question: str, hkex, tmp_path):
    from finsearch import pipeline
    from finsearch.catalogue import CATALOGUE
    from finsearch.settings import from_env
    from finsearch.sources.hub import DataHub

    settings = from_env({}, cache_dir=tmp_path / "cache", data_dir=tmp_path / "data", llm="heuristic", now=NOW,
                        node_timeout_s=5.0)
    hub = DataHub(settings, adapters={source: _Nothing() for source in CATALOGUE} | {"hk_announcements": hkex})
    result = pipeline.ask(question, settings=settings, hub=hub)
    by_id = {e.id: e for n in result.graph for e in n.evidence}
    return result.answer.markdown.replace("\\", ""), {r.n: by_id[r.evidence_id] for r in result.answer.references}


def test_a_chinese_question_is_answered_from_the_filings_with_their_links(hkex, tmp_path):
    text, cited = ask("腾讯控股最近有什么公告", hkex, tmp_path)
    assert text.startswith("腾讯控股（0700.HK）的最新消息：“翌日披露報表”（HKEXnews 披露易，2024-10-15）[1]。")
    assert (cited[1].source, cited[1].url) == ("hk_announcements", f"{DOCS}/1015/2024101500872_c.pdf")


def test_an_english_question_lists_the_latest_filings_with_their_links(hkex, tmp_path):
    text, cited = ask("Tencent's latest HKEX filing", hkex, tmp_path)
    assert text.startswith("The latest on Tencent (0700.HK): “Next Day Disclosure Return” (HKEXnews 披露易, "
                           "2024-10-15) [1]; “VOLUNTARY ANNOUNCEMENT - PROGRESS OF SHARE BUY-BACK PROGRAMME & "
                           "CANCELLATION OF SHARES BOUGHT BACK” (HKEXnews 披露易, 2024-10-04) [2];")
    results = next(n for n, e in cited.items() if e.title.startswith("ANNOUNCEMENT OF THE RESULTS"))
    assert f"HKEXnews 披露易: ANNOUNCEMENT OF THE RESULTS FOR THE THREE AND SIX MONTHS ENDED 30 JUNE 2024 [{results}]" \
        in text
    assert cited[results].url == f"{DOCS}/0814/2024081400665.pdf"
    assert {e.source for e in cited.values()} == {"hk_announcements"}


# -- the site's bad days ---------------------------------------------------------------------

def test_a_block_is_refused_and_not_retried(hkex, hkex_site):
    hkex_site.fail("403", on="titleSearchServlet")
    with pytest.raises(Refused, match=r"HKEXnews \(披露易\) refused the title search \(HTTP 403\)"):
        hkex.fetch("hk_announcements", {"ticker": "0700.HK"})
    assert hkex_site.count("titleSearchServlet") == 1


def test_a_rate_limit_is_retried_then_answered(hkex, hkex_site, no_waiting):
    hkex_site.fail("429", on="titleSearchServlet", times=1)
    items = hkex.fetch("hk_announcements", {"ticker": "0700.HK"})
    assert items[0]["url"] == f"{DOCS}/1015/2024101500871.pdf"
    assert hkex_site.count("titleSearchServlet") == 2 and len(no_waiting) == 1


def test_a_rate_limit_that_lasts_says_so(hkex, hkex_site):
    hkex_site.fail("429", on="titleSearchServlet")
    with pytest.raises(RateLimited, match=r"HKEXnews \(披露易\) rate-limited the request; retried 2 times"):
        hkex.fetch("hk_announcements", {"ticker": "0700.HK"})


def test_a_server_error_that_lasts_is_unreachable(hkex, hkex_site):
    hkex_site.fail("503", on="prefix.do")
    with pytest.raises(Unreachable, match=r"HKEXnews \(披露易\) returned a server error; retried 2 times"):
        hkex.fetch("hk_announcements", {"ticker": "0700.HK"})


@pytest.mark.parametrize(("fault", "on", "said"), [
    ("maintenance", "titleSearchServlet", "answered the title search with something that is not its results"),
    ("changed", "titleSearchServlet", "answered the title search with something that is not its results"),
    ("maintenance", "prefix.do", "answered the stock lookup with something that is not its stock list"),
])
def test_a_page_of_another_shape_is_unreachable_never_no_data(hkex, hkex_site, fault, on, said):
    hkex_site.fail(fault, on=on)
    with pytest.raises(Unreachable, match=said) as caught:
        hkex.fetch("hk_announcements", {"ticker": "0700.HK"})
    assert not isinstance(caught.value, NoData)


def test_a_dropped_connection_is_retried(hkex, hkex_site):
    hkex_site.fail("reset", on="titleSearchServlet", times=1)
    assert hkex.fetch("hk_announcements", {"ticker": "0700.HK"})
    assert hkex_site.count("titleSearchServlet") == 2


def test_an_answer_slower_than_the_call_may_wait_times_out(hkex_site):
    hkex_site.fail("slow", on="titleSearchServlet")
    hkex_site.slow_s = 2.0
    with pytest.raises(TimedOut, match="HKEXnews"):
        HkexNews(site=hkex_site.url, clock=lambda: NOW, timeout_s=1.0).fetch("hk_announcements",
                                                                             {"ticker": "0700.HK"})


def test_an_endless_answer_stops_at_the_limit(hkex, hkex_site):
    hkex_site.fail("endless", on="titleSearchServlet")
    with pytest.raises(TooLarge, match=r"HKEXnews \(披露易\) sent more than 4 MB"):
        hkex.fetch("hk_announcements", {"ticker": "0700.HK"})


# -- what the plans ask for ---------------------------------------------------------------

def planned(question: str) -> tuple[list[str], dict[str, dict]]:
    analysis = analyse(question, NOW)
    return [e.ticker for e in analysis.entities], {n.source: n.args for n in heuristic_plan(analysis, NOW)}


@pytest.mark.parametrize(("question", "ticker", "lang"), [
    ("美团最新公告", "3690.HK", "zh"),
    ("腾讯控股最近有什么公告", "0700.HK", "zh"),
    ("Tencent's latest HKEX filing", "0700.HK", "en"),
    ("小米港交所公告", "1810.HK", "zh"),
    ("meituan announcements this month", "3690.HK", "en"),
    ("did meituan file anything with the exchange this week", "3690.HK", "en"),
    ("How did Tencent respond to the report?", "0700.HK", "en"),
    ("any new notices from hsbc holdings at hkex?", "0005.HK", "en"),       # the noun, then "at HKEX"
    ("hkex filings of 1810 this week", "1810.HK", "en"),                     # a code beside the venue's name
    ("1810在港交所发布的最新公告", "1810.HK", "zh"),
    ("阿里巴巴在披露易上的公告", "9988.HK", "zh"),                        # HKEXnews: the Hong Kong listing
])
def test_a_hong_kong_stocks_filings_are_asked_of_hkexnews(question, ticker, lang):
    tickers, nodes = planned(question)
    assert tickers == [ticker]                                # HKEX is where the filing is, not a company
    assert nodes["hk_announcements"]["ticker"] == ticker
    assert nodes["hk_announcements"]["lang"] == lang


def test_the_period_asked_is_the_period_searched():
    _, nodes = planned("meituan announcements this month")
    assert (nodes["hk_announcements"]["start"], nodes["hk_announcements"]["end"]) == ("2024-10-01", "2024-10-15")


@pytest.mark.parametrize(("question", "tickers", "asked"), [
    ("HKEX latest announcement", ["0388.HK"], True),          # the exchange operator is the subject
    ("港交所股价", ["0388.HK"], False),
    ("apple announcements", ["AAPL"], False),                 # an American company's announcements are news
    ("腾讯股价", ["0700.HK"], False),
    ("hkex vs 1810 this month", ["0388.HK", "1810.HK"], False),   # compared with a code: the operator's stock
])
def test_the_exchange_itself_and_other_questions(question, tickers, asked):
    found, nodes = planned(question)
    assert found == tickers
    assert ("hk_announcements" in nodes) is asked
    assert "sec_filings" not in nodes


# -- seeded random damage ----------------------------------------------------------------------

def _damaged_search(rng: random.Random, body: bytes) -> bytes:
    envelope = json.loads(body)
    rows = json.loads(envelope["result"])
    roll = rng.random()
    if roll < 0.6:          # damage inside the rows, still twice-encoded as the site sends them
        envelope["result"] = json.dumps(mutate(rng, rows, rate=rng.choice([0.05, 0.2, 0.5])))
    elif roll < 0.8:        # the rows as random shapes of the site's field names
        envelope["result"] = json.dumps([shape(rng, list(rows[0])) for _ in range(rng.randint(1, 12))])
    else:                   # damage to the envelope itself
        envelope = mutate(rng, envelope, rate=0.3)
    return to_json(envelope)


@pytest.mark.parametrize("seed", range(8))
def test_no_damaged_answer_crashes_hangs_or_leaks_markup(hkex, hkex_site, seed):
    rng = random.Random(seed)
    original = hkex_site.searches["7609", "E"]
    outcomes = []
    for _ in range(6):
        hkex_site.searches["7609", "E"] = _damaged_search(rng, original)
        outcomes.append(settled(partial(hkex.fetch, "hk_announcements", {"ticker": "0700.HK"}), "hk_announcements"))
        items = [] if outcomes[-1] != "evidence" else hkex.fetch("hk_announcements", {"ticker": "0700.HK"})
        assert all(i["url"].startswith("https://www1.hkexnews.hk/listedco/") for i in items)
    assert set(outcomes) <= {"evidence", "NoData", "Unreachable"}, outcomes


@pytest.mark.parametrize("lookup", [
    b'callback({"more":"1","stockInfo":[{"stockId":"7609<script>","code":"00700"}]});',
    b'callback({"more":"1","stockInfo":[{"stockId":null,"code":"00700"},{"stockId":[1],"code":"00700"}]});',
    b'callback({"more":"1","stockInfo":{"stockId":7609}});', b"callback(" + b"[" * 100_000 + b");",
    b'<html><body>Access Denied</body></html>', b'callback();', b"",
])
def test_a_damaged_lookup_is_no_stock_or_unreachable(hkex, hkex_site, lookup):
    hkex_site.lookups["00700"] = lookup
    outcome = settled(partial(hkex.fetch, "hk_announcements", {"ticker": "0700.HK"}), "hk_announcements")
    assert outcome in ("UnknownSymbol", "Unreachable")
    assert hkex_site.count("titleSearchServlet") == 0
