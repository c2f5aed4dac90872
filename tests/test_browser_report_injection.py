"""The red team's report attack, in real Chromium (issue 31 §1): a visitor edits a report's
outline so that its section titles and key questions carry images that call home, `file://`
images and links to a phishing page, on a pack whose headlines and publishers carry the same.
The report is researched and downloaded as Markdown, HTML and PDF, as a reader would:

- the downloaded HTML, opened in the browser from disk, fetches nothing at all (every request
  it makes is watched) and links only to its references;
- the PDF's link annotations point only at references;
- the Markdown, rendered as a CommonMark viewer would, has no link, image or HTML from the text,
  and the hostile words are still there to read, as text.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from tests.browser_kit import ask, open_page, running_app
from tests.test_browser_research import REPORT_PACK, click_until, wait_state
from tests.test_markdown_injection import CANARY, PHISH, assert_inert, hostile, hostile_pack, rendered
from tests.test_research import NVIDIA, PACK

pytestmark = pytest.mark.browser
# After every headline, publisher, snippet and description of the pack.
ATTACK = f"![c](http://{CANARY}/p.png) [Log in](https://{PHISH}/x) ![f](file:///etc/passwd)"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    pack = hostile_pack(tmp_path_factory.mktemp("hostile") / "pack", PACK, seed=11, attack=ATTACK)
    with running_app(tmp_path_factory.mktemp("injection"), **{**REPORT_PACK, "FINSEARCH_PACK": str(pack)},
                     FINSEARCH_RESEARCH_APPROVE_S="0") as app:
        yield app.url


@pytest.fixture
def page(browser, request):
    return open_page(browser, request)


def hostile_outline() -> str:
    rng = random.Random(31)
    sections = [("Valuation", "What are NVIDIA's P/E and market cap?"),
                ("Recent results", "Did NVIDIA beat estimates last quarter?"),
                ("Rivals", "What is ZQXW's stock price and news?")]      # not in the pack: its searches fail
    return "\n\n".join(f"## {hostile(rng, title)} ![c](http://{CANARY}/t.png)\n- {hostile(rng, ask)} "
                       f"[Log in](https://{PHISH}/login) ![f](file:///etc/passwd)" for title, ask in sections)


def download(page, name: str) -> bytes:
    button = page.get_by_role("button", name=re.compile(name))
    button.wait_for(timeout=120_000)
    with page.expect_download(timeout=60_000) as got:
        button.click()
    return Path(got.value.path()).read_bytes()


@pytest.mark.timeout(600)
def test_a_hostile_outline_edit_exports_a_report_that_fetches_and_links_nothing(page, app, browser, tmp_path):
    ask(page, app, "/report " + NVIDIA)
    wait_state(page, "outline")
    click_until(page, "Edit outline", ("editing",))
    page.get_by_label("Outline").fill(hostile_outline())
    click_until(page, "Research this outline", ("researching", "writing", "done"))
    assert wait_state(page, "done") == "done"
    page.get_by_text(re.compile(r"^References \([1-9]\d*\)$")).first.wait_for(timeout=30_000)
    # The page itself: the attack's words are shown as text, and nothing on it points at them.
    assert not page.locator(f'img[src*="{CANARY}"], img[src^="file:"], a[href*="{PHISH}"]').count()

    markdown = download(page, "Download Markdown").decode("utf-8")
    assert "Log in" in markdown and CANARY in markdown, "the hostile words stay readable, as text"
    assert_inert(rendered(markdown), set(re.findall(r"<(https?://[^>]+)>", markdown)), "the .md")

    # The HTML, opened from disk in a fresh context, with every request it makes watched.
    exported = tmp_path / "report.html"
    exported.write_bytes(download(page, "Download HTML"))
    reader = browser.new_context()
    asked: list[str] = []
    reader.on("request", lambda request: asked.append(request.url))
    opened = reader.new_page()
    opened.goto(exported.as_uri())
    opened.wait_for_load_state("load")
    opened.wait_for_timeout(500)                  # an image's fetch starts at parse time; give it a beat
    assert [u for u in asked if not u.startswith(("file://" + str(exported), "data:", "blob:"))] == [], asked
    links = opened.locator("a[href]").evaluate_all("as => as.map(a => a.getAttribute('href'))")
    assert links and all(h.startswith(("#ref-", "https://example.com/")) or h == "#" for h in links), links
    assert opened.locator("img").count() == 0
    reader.close()

    # The PDF: its link annotations go only to the references.
    page.get_by_role("button", name=re.compile("Make PDF")).click(timeout=30_000)
    from pypdf import PdfReader

    targets = [annot.get_object().get("/A", {}).get("/URI")
               for p in PdfReader(io.BytesIO(download(page, "Download PDF"))).pages for annot in p.get("/Annots", [])]
    targets = [str(t) for t in targets if t]
    assert all(t.startswith("https://example.com/") for t in targets), targets
