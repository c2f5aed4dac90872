"""Hostile data and a model that repeats it, in a real browser: the page shows hostile text
as text (no planted link, no image fetched from loopback, no KaTeX, no Streamlit
directive or icon), keeps every citation a link even where a flagged figure is the same
number, survives malformed price rows with its references, Share, Export and chat input
intact, and exports HTML with nothing injected.

The app runs on a replay pack built here and a scripted model on loopback."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from finsearch.model.loopback import LoopbackModel, Reply
from finsearch.sources.replay import write_recording
from tests.browser_kit import ask, open_page, running_app, share_link, wait_for_answer
from tests.conftest import NOW
from tests.html_tags import Tags

pytestmark = pytest.mark.browser

PHISH = "https://example.com/w)[CLICK-FOR-REFUND](https://phish.example/login"
BEACON = "https://example.com/a)![x](http://127.0.0.1:9/beacon.png"
REFUND_TITLE = "Refunds for NVDA holders :red[BUY NOW] :material/warning: at $ cost"


def sessions(start: date, end: date) -> list[str]:
    days = (start + timedelta(days=i) for i in range((end - start).days + 1))
    return [d.isoformat() for d in days if d.weekday() < 5]


def prices(ticker: str, rows) -> list[dict]:
    return [{"title": f"{ticker} daily prices", "period": {"start": "2024-10-07", "end": "2024-10-13"},
             "data": {"ticker": ticker, "interval": "1d", "currency": "USD",
                      "columns": ["date", "open", "high", "low", "close", "volume"], "rows": rows,
                      "stats": {"biggest_moves": [{"date": "2024-10-11", "change_pct": -4.7}]}}}]


def build_pack(folder):
    good = [[day, 120.0 + i, 122.0 + i, 119.0 + i, 121.0 + i, 1_000_000 + i]
            for i, day in enumerate(sessions(date(2024, 7, 22), date(2024, 10, 11)))]
    bad = [["2024-10-10", "x", 1, 1, 1, 1], [None, 1, 1, 1, 1, 1], ["2024-10-10", 1, 2, 1, 1, -5], {"a": 1}, "row"]
    window = {"start": "2024-08-23", "end": "2024-10-13"}
    for ticker, rows in (("NVDA", good + bad), ("AMD", {"not": "rows"})):
        write_recording(folder, "price_history", {"ticker": ticker, **window}, prices(ticker, rows), NOW)
        write_recording(folder, "price_history", {"ticker": ticker, "start": "2024-10-07", "end": "2024-10-13"},
                        prices(ticker, rows), NOW)
    write_recording(folder, "news", {"ticker": "NVDA"}, [
        {"title": REFUND_TITLE, "url": PHISH, "publisher": "Totally Real :blue[News]",
         "published": "2024-10-11T12:00:00Z",
         "snippet": "Click [here](https://phish.example/login) ![x](http://127.0.0.1:9/beacon.png) now"},
        {"title": "Nvidia shares slide on export curbs, costs $5 and $6$", "url": BEACON, "publisher": "Wire",
         "published": "2024-10-11T15:00:00Z", "snippet": "Shares fell 4.7% on Friday; $x^2$ says the model."}], NOW)
    write_recording(folder, "web_search", {"ticker": "NVDA"}, [
        {"title": "Why Nvidia fell", "url": "https://example.com/why", "published": "2024-10-11T18:00:00Z",
         "snippet": "Reports of wider curbs."}], NOW)
    (folder / "_pack.json").write_text(json.dumps({"label": "hostile", "sample": False, "now": "2024-10-15T20:00:00Z"}))


REFUND = 1     # the number of the story "Refunds for NVDA…" among the evidence the writer is given


def hostile_answer(k: int) -> Reply:
    """The model repeats what the pages told it: planted links, an image, math, directives;
    and it cites [k] right before stating the number k (a figure no evidence holds)."""
    return Reply(stream_pieces=[
        f"NVIDIA fell last week. Per [{k}], the story counts {k} upgrades. ",
        "[Claim your refund](https://phish.example/claim) ![beacon](http://127.0.0.1:9/p.png) ",
        f"Revenue rose![{k}] 1https://phish.example/a htt&#112;s://phish.example/b ceo@phish.example :streamlit: ",
        f":red[BUY NOW] :material/warning: costs $5 and $6$ [{k}]."])


@pytest.fixture(scope="module")
def model():
    server = LoopbackModel()
    server.on("plan", Reply(content="no JSON today"))          # the rule-based plan and rewrites stand
    server.on("rewrite", Reply(content="no JSON today"))
    server.on("answer", hostile_answer(REFUND))
    yield server.start()
    server.stop()


@pytest.fixture(scope="module")
def app(tmp_path_factory, model):
    home = tmp_path_factory.mktemp("hostile")
    build_pack(home / "pack")
    with running_app(home, FINSEARCH_PACK=str(home / "pack"), FINSEARCH_OFFLINE="1",
                     FINSEARCH_NOW="2024-10-15T20:00:00Z", OPENAI_BASE_URL=model.base_url,
                     OPENAI_API_KEY="test-key") as running:
        yield running


@pytest.fixture
def page(browser, request):
    return open_page(browser, request, height=1600)


def anchors(page) -> list[tuple[str, str]]:
    return page.locator("[data-testid=stMain] a[href]").evaluate_all(
        "els => els.map(e => [e.textContent, e.href])")


def test_hostile_text_stays_text_and_links_go_only_where_they_say(page, app):
    ask(page, app.url, "Why did NVDA fall last week?")
    wait_for_answer(page)
    page.get_by_text(re.compile(r"^References \(\d+\)$")).first.click()   # make sure it is open
    links = anchors(page)
    hosts = {re.match(r"https?://([^/:]+)", href).group(1) for _, href in links if href.startswith("http")}
    assert "phish.example" not in hosts and "127.0.0.1" not in hosts
    assert not [t for t, _ in links if "CLICK-FOR-REFUND" in t or "Claim your refund" in t]
    assert page.locator("[data-testid=stMain] img").count() == 0, "no image at all: no beacon, no logo"
    assert page.locator(".katex").count() == 0, "no text became maths"
    colored = page.locator(".stMarkdownColoredText").all_inner_texts()
    assert not [t for t in colored if "BUY" in t or "News" in t], "no directive from a source or the model"
    answer = page.locator("[data-testid=stChatMessage] [data-testid=stMarkdownContainer]").all_inner_texts()
    text = "\n".join(answer).replace("\u2060", "")          # word joiners keep URLs and colons inert
    assert ":red[BUY NOW] :material/warning: costs $5 and $6$" in text, "shown literally"
    assert "Revenue rose![" in text and ":streamlit:" in text and "htt&#112;s://phish.example/b" in text
    assert "Claim your refund" in text and "Click [here]" not in text
    assert not [h for _, h in links if h.startswith("mailto:")]


def test_a_flagged_figure_never_breaks_the_citation_it_resembles(page, app, model):
    ask(page, app.url, "Why did NVDA fall last week?")
    wait_for_answer(page)
    assert re.search(rf"^\[{REFUND}\] \(news;[^\n]*Refunds for NVDA", model.last("answer")["messages"][1]["content"],
                     re.M), "the model cites the planted story"
    first = page.locator("[data-testid=stChatMessage] [data-testid=stMarkdownContainer]").filter(
        has_text="the story counts").first
    k = re.search(r"counts (\d+) upgrades", first.inner_text().replace("\u2060", "")).group(1)
    citation = first.locator("a", has_text=f"[{k}]")
    assert citation.count() >= 1, "the citation stays a link"
    assert citation.first.get_attribute("href").startswith("https://example.com/w%29%5BCLICK")
    marked = first.locator(".stMarkdownColoredBackground").all_inner_texts()
    assert k in marked, "the unsupported figure is highlighted where it is stated"


def test_malformed_price_rows_leave_the_page_whole(page, app):
    ask(page, app.url, "Compare NVDA and AMD last week")
    wait_for_answer(page)
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    assert page.locator(".js-plotly-plot").evaluate_all("els => els.flatMap(e => e.data.map(t => t.type))") \
        .count("candlestick") == 1, "NVDA's valid rows drew a chart; AMD's unusable rows none"
    assert page.get_by_role("button", name=re.compile("Share")).count() >= 1
    assert page.get_by_role("button", name=re.compile("Export HTML")).count() >= 1
    assert page.get_by_test_id("stChatInputTextArea").is_enabled()
    page.get_by_text(re.compile("What went wrong or was skipped")).first.click()
    page.get_by_text(re.compile(r"5 of \d+ price rows for NVDA were malformed and were dropped")).first \
        .wait_for(timeout=30_000)
    page.get_by_text(re.compile("price rows for AMD were not a list")).first.wait_for(timeout=30_000)


def test_the_exported_html_has_nothing_injected(page, app):
    ask(page, app.url, "Why did NVDA fall last week?")
    wait_for_answer(page)
    with page.expect_download(timeout=60_000) as download:
        page.get_by_role("button", name=re.compile("Export HTML")).first.click()
    html = Path(download.value.path()).read_text("utf-8")
    tags = Tags(html)
    assert not tags.images
    assert "phish.example" not in tags.hosts() and "127.0.0.1" not in tags.hosts()
    assert "<script>alert" not in html


def test_the_share_link_of_a_hostile_answer_is_read_only_text_too(page, app, browser):
    ask(page, app.url, "Why did NVDA fall last week?")
    wait_for_answer(page)
    link = share_link(page)
    other = browser.new_context().new_page()
    other.goto(link)
    other.get_by_text("Shared FinSearch answer (read-only)").wait_for(timeout=60_000)
    other.get_by_text(re.compile(r"^References \(\d+\)$")).first.wait_for(timeout=60_000)
    assert other.locator(".katex").count() == 0 and other.locator("img[src*='127.0.0.1']").count() == 0
    other.context.close()
