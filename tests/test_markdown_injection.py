"""Links and images injected into what a reader downloads (issue 31 §1): a report's or an
answer's markdown is built from our templates and from text we do not control — a section
title from a model's outline or a visitor's edit, a sub-query from a model's plan, a
headline, a publisher, a company's own description, a model's prose. Every builder is fuzzed
here with seeded hostile text in each of those places, and what it writes is rendered the way
a reader gets it (python-markdown for the .md and the HTML export, the HTML export itself,
the PDF's link annotations): nothing may fetch, link anywhere but a reference's address, or
run.
"""

from __future__ import annotations

import json
import random
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from finsearch.answer.markdown import written
from finsearch.answer.markdown_builder import Markdown, escape, md, say_md
from finsearch.export.answer_html import render
from finsearch.export.report import html_document
from finsearch.model.loopback import Reply
from finsearch.pipeline import ask
from finsearch.research.outline_text import parse_outline_text
from finsearch.research.run import outline_for, report
from tests.conftest import DEMO_PACK
from tests.test_research import NOW, NVIDIA, PACK

CANARY = "canary.invalid"
PHISH = "phish.invalid"
# What an export is made of besides the markdown: its style, its charts' scripts, the graph's SVG.
EXPORT_OWN = frozenset({"meta", "style", "script", "svg"})
# Each a way text has been made to link, fetch or run in markdown, HTML or Streamlit.
ATTACKS = (
    f"![c](http://{CANARY}/pixel.png)", "![f](file:///etc/passwd)", f"[Log in](https://{PHISH}/login)",
    "[x](javascript:alert(1))", f"<http://{PHISH}/auto>", f'<img src="http://{CANARY}/i.png" onerror="alert(1)">',
    f'<a href="https://{PHISH}/a">here</a>', "<script>alert(1)</script>", f"[ref]\n\n[ref]: https://{PHISH}/def",
    f"![r][1]\n[1]: http://{CANARY}/def.png", f"[1](https://{PHISH}/cite)", "&lt;img src=x&gt;", ":red[alarm]",
    "$x^2$", "`code`", f"www.{PHISH}", f"[[1]](https://{PHISH}/double)", "<!-- hidden -->", "**bold** _it_",
    f"![c](<http://{CANARY}/angle.png>)", f'<svg onload="fetch(\'http://{CANARY}\')">', "\\[escaped\\]",
)


def hostile(rng: random.Random, base: str = "") -> str:
    """`base` with one to three attacks around it."""
    parts = [base] if base else []
    for _ in range(rng.randint(1, 3)):
        parts.insert(rng.randint(0, len(parts)), rng.choice(ATTACKS))
    return " ".join(parts)


class _Tags(HTMLParser):
    """The elements of a page as a browser builds them: what links, what fetches, what runs."""

    ACTIVE = frozenset({"script", "svg", "iframe", "object", "embed", "style", "link", "meta", "base", "form"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []
        self.fetches: list[str] = []
        self.active: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if tag == "a" and name == "href":
                self.hrefs.append(value or "")
            elif name in ("src", "srcset", "data", "poster", "xlink:href", "background") or name.startswith("on"):
                self.fetches.append(f"{name}={value}")
            elif name == "style" and "url(" in (value or ""):
                self.fetches.append(value)
        if tag in self.ACTIVE or tag == "img":
            self.active.append(tag)


def assert_inert(html: str, allowed: set[str], where: str, own: frozenset[str] = frozenset()) -> None:
    """No link but to `allowed` (or an anchor on the page), nothing fetched, no element that runs
    or loads anything beyond the page's `own` (an export's own style and chart script)."""
    tags = _Tags()
    tags.feed(html)
    foreign = [h for h in tags.hrefs if h not in allowed and not h.startswith("#")]
    assert not foreign, f"{where}: links to {foreign[:5]}"
    assert not tags.fetches, f"{where}: fetches {tags.fetches[:5]}"
    assert not [t for t in tags.active if t not in own], f"{where}: elements {tags.active[:5]}"
    # An export's own scripts hold data (a chart's JSON): none of it may close its script.
    assert not [a for a in ATTACKS if a.startswith("<") and a in html], f"{where}: raw markup"


def rendered(markdown_text: str) -> str:
    """The markdown as a reader's viewer shows it: a downloaded .md opened in a CommonMark
    viewer (GitHub's, an editor's), with raw HTML on, as most have it."""
    return MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown_text)


def hostile_pack(root: Path, source: Path, seed: int, attack: str | None = None) -> Path:
    """A copy of `source` with hostile text in every title, publisher, snippet and description:
    `attack` after each, or seeded random attacks around each."""
    rng = random.Random(seed)
    shutil.copytree(source, root)

    def spoil(value, key=""):
        if isinstance(value, dict):
            return {k: spoil(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [spoil(v, key) for v in value]
        if isinstance(value, str) and key in ("title", "publisher", "snippet", "summary", "name", "body"):
            return f"{value} {attack}" if attack else hostile(rng, value)
        return value

    for path in root.glob("*.json"):
        if path.name != "_pack.json":
            data = json.loads(path.read_text("utf-8"))
            data["evidence"] = spoil(data.get("evidence", []))
            path.write_text(json.dumps(data), "utf-8")
    return root


# -- the builder itself ------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_a_builders_text_arguments_are_escaped_unless_already_markdown(seed):
    rng = random.Random(seed)
    title, query = hostile(rng, "Valuation"), hostile(rng, "NVDA P/E")
    built = Markdown("\n\n").join([md("## {}. {}", 1, title), say_md("report.still_missing", "en", what=query),
                                   md("- {} [{}]", query, 3), escape(title) + " " + title,
                                   say_md("report.gap", "zh", group=title, what=query, sections="1", count=2)])
    assert isinstance(built, Markdown)
    assert_inert(rendered(built), set(), "built")
    # What was escaped shows as it was typed: the words are all there.
    assert "Valuation" in built and "NVDA P/E" in built


@pytest.mark.parametrize("seed", range(40))
def test_a_writers_text_keeps_its_formatting_and_loses_every_link(seed):
    rng = random.Random(seed)
    table = "| a | b |\n|---|---|\n| 1 | 2 |"
    text = f"**Revenue** rose 94% [1]. {hostile(rng)}\n\n- {hostile(rng, 'a point')} [2]\n\n{table}"
    out = written(text)
    assert isinstance(out, Markdown) and written(out) is out
    html = rendered(out)
    assert_inert(html, set(), "written")
    assert "<strong>Revenue</strong>" in html and "<table>" in html and "[1]" in out


# -- reports: the visitor's outline edit, hostile evidence, the model's outline and plan ------------

def _report_allowed(done) -> set[str]:
    from finsearch.answer.markdown import href

    return {u for r in done.references if (u := href(r.url))} | {f"#ref-{r.n}" for r in done.references}


def _assert_report_inert(done, where: str) -> None:
    allowed = _report_allowed(done)
    assert_inert(rendered(done.markdown), allowed, f"{where}: the .md")
    assert_inert(html_document(done), allowed, f"{where}: the HTML", EXPORT_OWN)


@pytest.mark.parametrize("seed", range(3))
def test_a_report_from_a_hostile_outline_edit_and_hostile_sources_exports_nothing_live(tmp_path, settings, seed):
    rng = random.Random(seed)
    pack = hostile_pack(tmp_path / "pack", PACK, seed)
    run_settings = settings.replace(pack=pack, offline=True, now=NOW)
    drafted = outline_for(NVIDIA, settings=run_settings, now=NOW)
    edited = "\n".join(f"## {hostile(rng, s.title)}\n" + "\n".join(f"- {hostile(rng, q)}" for q in s.key_questions[:2])
                       for s in drafted.sections[:4])
    # A section about a company the pack lacks: its searches fail, so its sub-queries (the
    # visitor's words) are what the limitations say is still missing.
    edited += f"\n## {hostile(rng, 'Rivals')}\n- {hostile(rng, 'What is ZQXW stock price and news?')}"
    done = report(NVIDIA, settings=run_settings, now=NOW, outline=parse_outline_text(edited, drafted))
    assert done is not None and done.sections
    _assert_report_inert(done, f"seed {seed}")


def test_a_report_from_a_hostile_model_outline_plan_and_prose_exports_nothing_live(tmp_path, llm_settings, fake_llm):
    rng = random.Random(7)
    sections = [{"title": hostile(rng, "Results"), "key_questions": [hostile(rng, "What were NVIDIA's results?")]},
                {"title": hostile(rng, "Valuation"), "key_questions": [hostile(rng, "What is NVIDIA's P/E?")]}]
    fake_llm.on("outline", Reply(content=json.dumps({"type": "company", "sections": sections})))
    plan = {"nodes": [
        {"id": "n1", "sub_query": hostile(rng, "NVDA quote"), "source": "quote", "args": {"ticker": "NVDA"}},
        # Not in the pack: the search fails, and its sub-query is a limitation's words.
        {"id": "n2", "sub_query": hostile(rng, "ZQXW news"), "source": "news", "args": {"ticker": "ZQXW"}}]}
    fake_llm.on("plan", Reply(content=json.dumps(plan)))
    fake_llm.on("answer", Reply(content=f"NVIDIA's figures are in the cited source [1]. {hostile(rng)}"))
    fake_llm.on("summary", Reply(content=f"- Covered [1]. {hostile(rng)}"))
    done = report(NVIDIA, settings=llm_settings.replace(pack=PACK, offline=True, now=NOW), now=NOW)
    assert done.outline.by == "llm"
    _assert_report_inert(done, "the model's report")


# -- answers -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("seed", "question"), [
    (1, "Why did NVDA fall last week?"), (2, "Compare AAPL and MSFT year to date"), (3, "What's new with Tesla?"),
    (4, "贵州茅台最近一个月表现如何？"), (5, "What is NVDA's price now?"),
])
def test_an_answer_from_hostile_sources_and_a_hostile_question_exports_nothing_live(tmp_path, settings, seed,
                                                                                    question):
    rng = random.Random(seed)
    pack = hostile_pack(tmp_path / "pack", DEMO_PACK, seed)
    result = ask(hostile(rng, question), settings=settings.replace(pack=pack, offline=True))
    from finsearch.answer.markdown import href

    allowed = {u for r in result.answer.references if (u := href(r.url))}
    assert_inert(rendered(result.answer.markdown), allowed, f"answer {seed}: its markdown")
    assert_inert(render(result), allowed, f"answer {seed}: the HTML", EXPORT_OWN)
