"""Citation renumbering (also on a stream) and safe markdown."""

import pytest

from finsearch.answer.citations import Renumberer, markers, references, renumber
from finsearch.answer.markdown import clean_model_markdown, escape, link
from finsearch.evidence import Evidence

GIVEN = [Evidence.from_untrusted({"title": f"item {i}", "url": f"https://x.test/{i}"}, source="news", kind="news")
         for i in range(1, 6)]


def test_renumbered_by_first_use_and_unknown_ids_dropped():
    text, cited, dropped = renumber("A [4]. B [2][4]. C [9]. D [2, 5]. E [0].", GIVEN)
    assert text == "A [1]. B [2][1]. C . D [2][3]. E ."
    assert [e.title for e in cited] == ["item 4", "item 2", "item 5"]
    assert dropped == 2


def test_every_marker_resolves_to_a_reference():
    text, cited, _ = renumber("x [3] y [1] z [3] w [42]", GIVEN)
    refs = references(cited, lambda item: None)
    assert set(markers(text)) == {r.n for r in refs}
    assert [r.evidence_id for r in refs] == [GIVEN[2].id, GIVEN[0].id]


@pytest.mark.parametrize("pieces", [
    ["Nvidia fell [", "5", "] on Friday [2", "]."],
    ["Nvidia fell [5] on", " Friday [", "2]."],
    list("Nvidia fell [5] on Friday [2]."),
])
def test_streamed_markers_split_across_pieces(pieces):
    r = Renumberer(GIVEN)
    shown = "".join(r.feed(p) for p in pieces) + r.flush()
    assert shown == "Nvidia fell [1] on Friday [2]."


def test_escape_makes_text_inert():
    hostile = "[click](javascript:alert(1)) <b>x</b> *bold* `code` | # ~"
    out = escape(hostile)
    assert "](" not in out.replace("\\]", "") and "<b>" not in out
    assert out.startswith("\\[click\\]")


def test_link_only_for_http():
    assert link("t", "https://e.test/a(b)") == "[t](https://e.test/a%28b%29)"
    assert link("t", "javascript:alert(1)") == "t"
    assert link("t", "https://x.test)![v1.x](x.png)") == "t", "a host that closes the link is no host"


def test_model_markdown_keeps_format_drops_html_images_and_bad_links():
    text = ("**Up** [1]. [good](https://e.test) [bad](javascript:alert(1)) ![img](https://e.test/p.png) "
            "<script>alert(1)</script> <a href='x'>y</a>")
    out = clean_model_markdown(text)
    assert "**Up** [1]." in out and "good" in out and "](" not in out, "links become their words"
    assert "javascript" not in out and "![" not in out and "<script>" not in out and "<a " not in out
