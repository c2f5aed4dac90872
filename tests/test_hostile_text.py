"""Hostile text from sources, models and questions stays text: URLs cannot close a link
and open another, model links go only to retrieved sources, Streamlit's directives and
KaTeX never fire on retrieved text, invisible and control characters are stripped, and
the CLI never echoes a control sequence. (The browser tests check the rendered page.)"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import unicodedata

import pytest

from finsearch.answer.citations import Reference
from finsearch.answer.markdown import (
    clean_model_markdown,
    for_streamlit,
    highlight,
    href,
    plain,
    plain_with_code,
    render_marks,
)
from finsearch.evidence import Evidence, plain_text
from finsearch.export.answer_html import answer_html
from finsearch.plan.analysis import check_question
from tests.conftest import ROOT
from tests.html_tags import Tags
from ui.views.answer import display_markdown

PHISH = "https://example.com/w)[CLICK-FOR-REFUND](https://phish.example/login"
BEACON = "https://example.com/a)![x](http://127.0.0.1:9/beacon.png"


def test_a_url_cannot_close_its_link_and_open_another():
    assert href(PHISH) == "https://example.com/w%29%5BCLICK-FOR-REFUND%5D%28https://phish.example/login"
    shown = display_markdown("Refunds are open [1].", [Reference(1, "web:1", "t", PHISH)])
    assert shown == "Refunds are open [\\[1\\]](https://example.com/w%29%5BCLICK-FOR-REFUND%5D%28https://phish.example/login)."


def test_an_exported_answer_has_no_injected_link_or_image(demo_result):
    answer = demo_result.answer
    refs = list(answer.references)
    refs[0], refs[1] = dataclasses.replace(refs[0], url=PHISH), dataclasses.replace(refs[1], url=BEACON)
    hostile = demo_result.__class__(**{**demo_result.__dict__, "answer": answer.__class__(
        answer.markdown, answer.language, refs, answer.writer)})
    tags = Tags(answer_html(hostile))
    assert not tags.images
    assert "phish.example" not in tags.hosts() and "127.0.0.1" not in tags.hosts()
    assert any(link.startswith("https://example.com/w%29%5BCLICK") for link in tags.links)


@pytest.mark.parametrize(("written", "shown"), [
    ("See [the filing](https://sec.example/f) now", "See the filing now"),
    ("[claim [your] refund](https://phish.example/x)", "\\[claim \\[your\\] refund\\](https:\u2060//phish.example/x)"),
    ("![p](http://127.0.0.1/p.png) and ![a[b]c](https://e.test/x.png)",
     "p and \\!\\[a\\[b\\]c\\](https:\u2060//e.test/x.png)"),
    ("Revenue rose![1] and **![2]**", "Revenue rose\\![1] and **\\![2]**"),
    ("htt&#112;s://evil.test and x&#64;evil.test", "htt\\&#112;s:\u2060//evil.test and x\\&#64;evil.test"),
    ("[d][zz]\n\n[zz]: https://evil.test", "\\[d\\]\\[zz\\]\n\n\\[zz\\]: https:\u2060//evil.test"),
    ("[[1]](https://evil.test) and [2]: x and [3]", "\\[[1]\\](https:\u2060//evil.test) and \\[2\\]: x and [3]"),
    # Two sources cited side by side stay two citations; a marker before anything else is text.
    ("fell 4.7% [2][6]. [1][2]: x [1][zz]", "fell 4.7% [2][6]. [1]\\[2\\]: x \\[1\\]\\[zz\\]"),
    ("note[^1] and `[a](https://evil.test)`", "note\\[^1\\] and \\`a\\`"),
    ("mail ceo@evil.test or www.evil.test, 1http://e.test", "mail ceo\u2060@evil.test or w\u2060ww.evil.test, "
                                                            "1http:\u2060//e.test"),
])
def test_a_model_can_write_no_link_image_reference_or_code(written, shown):
    assert for_streamlit(clean_model_markdown(written)) == shown


def test_model_angle_bracket_words_are_kept_and_html_is_not():
    out = clean_model_markdown("<Why did it fall?> It fell <b>7%</b> [1]. <script>alert(1)</script><img src=x>")
    assert out.startswith("\\<Why did it fall?>") and "7%" in out
    assert "<b>" not in out and "alert" not in out and "<img" not in out


@pytest.mark.parametrize(("text", "shown"), [
    ("costs $5 and $6$", "costs &#36;5 and &#36;6&#36;"),
    ("\\$x^2\\$", "\\\\&#36;x^2\\\\&#36;"),
    (":red[BUY NOW]", ":\u2060red\\[BUY NOW\\]"),
    ("note:red and :material/warning: :rocket:", "note:\u2060red and :\u2060material/warning: :\u2060rocket:"),
    (":streamlit: :+1: :100:", ":\u2060streamlit: :\u2060+1: :\u2060100:"),
    ("10:30, ratio 3:1, https://e.test/a", "10:30, ratio 3:1, https:\u2060//e.test/a"),
])
def test_retrieved_text_is_literal_in_streamlit(text, shown):
    assert plain(text) == shown


@pytest.mark.parametrize(("text", "shown"), [
    ("counted under `unparsed` and", "counted under `unparsed` and"),
    ("`<img src=x onerror=alert(1)>` [x](javascript:alert(2))",
     "`<img src=x onerror=alert(1)>` \\[x\\](javascript:\u2060alert(2))"),
    ("one ` alone <b>", "one \\` alone \\<b\\>"),
    ("`a\nb` *x*", "\\`a b\\` \\*x\\*"),
])
def test_code_spans_stay_code_and_the_rest_stays_text(text, shown):
    assert plain_with_code(text) == shown


@pytest.mark.parametrize(("ticker", "anchor"), [
    ("NVDA", "chart-t1-NVDA"), ("600519.SS", "chart-t1-600519-SS"), ("BRK-B", "chart-t1-BRK-B"),
    ('"><script>alert(1)</script>', "chart-t1--script-alert-1-script-"), ("a b#c)", "chart-t1-a-b-c-"),
])
def test_a_chart_anchor_is_safe_in_an_id_and_a_link_whatever_the_ticker(ticker, anchor):
    from finsearch.answer.chart_links import chart_id

    assert chart_id("t1", ticker) == anchor


def test_our_own_highlight_is_kept_and_never_lands_inside_a_citation():
    text = "NVDA fell 1% [1]; [2] counts 2 upgrades and 1 downgrade [1]."
    marked = render_marks(for_streamlit(highlight(text, [("1", "red-background"), ("2", "orange-background")])))
    assert marked == "NVDA fell 1% [1]; [2] counts \u2060:orange-background[2] upgrades and \u2060:red-background[1] " \
                     "downgrade [1]."


def test_a_flagged_figure_is_marked_in_its_own_sentence_and_nowhere_else():
    text = "**Stopped: 1 of 7 sections done.**\n\n> Trust.\n\n## 1. Valuation\n\nNVDA trades at **1** times sales [2]."
    flagged = ("1", "red-background", "NVDA trades at 1 times sales [2].")
    assert render_marks(highlight(text, [flagged])).endswith("at **\u2060:red-background[1]** times sales [2].")
    assert render_marks(highlight(text, [flagged])).count("background") == 1
    assert highlight("Stopped: 1 of 7.", [flagged]) == "Stopped: 1 of 7.", "its sentence is not here: no mark"
    after_its_citation = ("1", "red-background", "Per [1], the story counts 1 upgrades.")
    assert render_marks(highlight("Per [1], the story counts 1 upgrades.", [after_its_citation])) == \
        "Per [1], the story counts \u2060:red-background[1] upgrades."


def test_a_mark_never_lands_where_its_neighbours_would_make_it_a_link():
    marked = highlight("Price was \\5(//evil.test/p), then ::7(//e.test/q) and 5 and 7 later",
                       [("5", "red-background"), ("7", "red-background")])
    assert render_marks(marked) == "Price was \\5(//evil.test/p), then ::7(//e.test/q) and \u2060:red-background[5] " \
                                   "and \u2060:red-background[7] later"


def test_a_forged_mark_in_model_text_does_nothing():
    forged = "up \x01red-background\x025%\x03 [1]"
    assert ":red-background[" not in render_marks(for_streamlit(clean_model_markdown(forged)))


def test_every_unicode_format_character_and_control_is_stripped():
    every = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cf", "Cc")]
    hidden = [ch for ch in every if not ch.isspace()]
    hidden += ["\u034f", "\u115f", "\u1160", "\u3164", "\uffa0", "\u17b4", "\ufe0f", "\U000e0100"]
    assert plain_text("A" + "".join(hidden) + "B", 10_000) == "AB"
    spacing = [ch for ch in every if ch.isspace()]          # tab, line breaks, separators: one space
    assert plain_text("A" + "".join(spacing) + "B", 10_000) == "A B"


@pytest.mark.parametrize("ch", ["\u2060", "\ufeff", "\u00ad", "\u061c", "\u180e", "\u034f", "\u202e", "\U000e0041"])
def test_named_invisibles_vanish_from_titles_urls_and_questions(ch):
    item = Evidence.from_untrusted({"title": f"Nvi{ch}dia", "url": f"https://e.test/a{ch}b"}, source="news",
                                   kind="news")
    assert item.title == "Nvidia" and item.url == "https://e.test/ab"
    assert check_question(f"Why did N{ch}VDA fall?") == "Why did NVDA fall?"


def test_the_cli_never_echoes_control_sequences(tmp_path):
    question = "Why did NVDA fall last week?\x1b]0;owned\x07\x1b[2J\u009b31m\u202e"
    env = {"FINSEARCH_CACHE_DIR": str(tmp_path), "FINSEARCH_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path)}
    for extra in ([], ["--json"]):
        done = subprocess.run([sys.executable, "-m", "finsearch", "plan", question, "--now", "2024-10-15T20:00:00Z",
                               *extra], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        for stream in (done.stdout, done.stderr):
            assert not any(ch in stream for ch in "\x1b\x07\u009b\u202e")
    assert json.loads(done.stdout)["question"] == "Why did NVDA fall last week?]0;owned[2J31m"


@pytest.fixture(scope="module")
def demo_result(tmp_path_factory):
    from finsearch import pipeline
    from finsearch.settings import from_env
    from tests.conftest import DEMO_PACK, NOW

    home = tmp_path_factory.mktemp("hostile")
    settings = from_env({}, llm="heuristic", pack=DEMO_PACK, offline=True, now=NOW, cache_dir=home / "cache",
                        data_dir=home / "data")
    return pipeline.ask("Why did NVDA fall last week?", settings=settings)


@pytest.mark.parametrize("current, base, kind, expected", [
    ("http://127.0.0.1:8501/history", "", "run", "http://127.0.0.1:8501/?s=T"),       # from History: the chat page
    ("http://127.0.0.1:8501/", "", "conversation", "http://127.0.0.1:8501/?s=T"),
    ("http://127.0.0.1:8501/history?x=1", "", "report", "http://127.0.0.1:8501/research?s=T"),
    ("https://fs.example/app/history", "/app/", "run", "https://fs.example/app/?s=T"),  # served under a path
])
def test_a_share_link_names_the_page_that_opens_it_from_any_page(current, base, kind, expected):
    from ui.sharing import share_url

    assert share_url(current, base, "T", kind) == expected
