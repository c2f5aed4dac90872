"""A finished report as a stored record and back: what the report page draws from it is the
same before and after, through JSON, and on both store backends; a report is listed, owned,
deleted and shared as a run is, and its id never opens as a run (nor a run's as a report)."""

from __future__ import annotations

import json
import re

from finsearch.answer import charts
from finsearch.export.report import html_document
from finsearch.research.record import from_record, to_record
from finsearch.research.result import Report
from finsearch.store import open_store
from tests.store_kit import sample_report, sample_run
from ui.research.view import chart_homes


def page_inputs(report: Report) -> dict:
    """What ui.research.view draws a finished report from."""
    audit = report.audit
    return {
        "markdown": report.markdown, "references": report.references, "cancelled": report.cancelled,
        "writer": report.writer, "sample": report.sample, "edited": report.outline.edited,
        "stats": report.stats, "notes": report.notes, "language": report.analysis.language,
        "entities": report.analysis.entities, "summary": audit.audit.summary(), "flagged": audit.audit.flagged,
        "grounding": audit.audit.grounding, "key_questions": audit.key_questions, "answered": audit.answered,
        "trust": audit.trust, "outline": report.outline,
        "sections": [(s.index, s.section, s.graph.to_dict()) for s in report.sections],
        "graph": report.graph.to_dict(), "charts": charts.price_payloads(report.graph),
    }


def test_a_report_survives_its_record_through_json_as_the_page_draws_it():
    report = sample_report("rep-roundtrip")
    back = from_record(json.loads(json.dumps(to_record(report), ensure_ascii=False)))
    assert back.report_id == "rep-roundtrip"
    assert back.question == "Analyse NVIDIA's recent performance and outlook"
    assert len(back.sections) == 7 and back.sections[0].section.title == "Business and segments"
    assert [p["ticker"] for p in charts.price_payloads(back.graph)][:1] == ["NVDA"]
    assert page_inputs(back) == page_inputs(report)
    texts = {s.index: s.section.title for s in report.sections}
    assert chart_homes(back, texts) == chart_homes(report, texts)
    assert back.to_dict() == report.to_dict(), "the report --json contract is unchanged by a round trip"
    assert same_html(html_document(back)) == same_html(html_document(report)), "the HTML download is the same"


def same_html(document: str) -> str:
    """The document with plotly's random element ids taken out (they differ on every export)."""
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "id", document)


def test_a_saved_report_loads_back_is_listed_as_a_report_and_is_its_owners(backend):
    store = open_store(backend.settings)
    store.save(sample_run("run-aaaaaaaa"), owner="anon:alice")
    store.save(sample_report("rep-bbbbbbbb"), owner="anon:alice")
    loaded = store.load("rep-bbbbbbbb", "report")
    assert loaded is not None and page_inputs(loaded) == page_inputs(sample_report("rep-bbbbbbbb"))
    assert [(s.run_id, s.kind) for s in store.list(owner="anon:alice")] == \
        [("rep-bbbbbbbb", "report"), ("run-aaaaaaaa", "run")]
    [listed, _] = store.list(owner="anon:alice")
    assert listed.question == "Analyse NVIDIA's recent performance and outlook"
    assert listed.asked_at.startswith("2024-11-22T21:00") and listed.backend == "heuristic"
    assert store.list(owner="anon:bob") == []
    assert store.owner_of("rep-bbbbbbbb") == "anon:alice"


def test_a_report_is_not_a_run_and_a_run_is_not_a_report(backend):
    store = open_store(backend.settings)
    store.save(sample_run("run-aaaaaaaa"), owner="anon:alice")
    store.save(sample_report("rep-bbbbbbbb"), owner="anon:alice")
    assert store.load("rep-bbbbbbbb") is None, "?run= with a report's id opens nothing"
    assert store.load("run-aaaaaaaa", "report") is None, "?report= with a run's id opens nothing"
    assert store.load("run-aaaaaaaa") is not None


def test_only_its_owner_deletes_a_report_and_a_share_link_names_it(backend):
    store = open_store(backend.settings)
    store.save(sample_report("rep-bbbbbbbb"), owner="anon:alice")
    link = store.share("report", ["rep-bbbbbbbb"], "anon:alice", "Analyse NVIDIA's recent performance and outlook")
    shared = store.shared(link.token)
    assert (shared.kind, shared.run_ids) == ("report", ("rep-bbbbbbbb",))
    assert store.delete("rep-bbbbbbbb", owner="anon:bob") is False
    assert store.load("rep-bbbbbbbb", "report") is not None
    assert store.delete("rep-bbbbbbbb", owner="anon:alice") is True
    assert store.load("rep-bbbbbbbb", "report") is None and store.list() == []


def test_a_damaged_report_record_is_absent_not_a_crash(backend):
    store = open_store(backend.settings)
    store.save(sample_report("rep-damaged1"), owner="anon:alice")
    record = to_record(sample_report("rep-damaged1"))
    del record["sections"][0]["graph"]                     # a record cut short, but still JSON
    damaged = json.dumps({**record, "owner": "anon:alice"})
    if backend.name == "files":
        (backend.settings.data_dir / "runs" / "rep-damaged1.json").write_text(damaged)
    else:
        backend.server.client().set("finsearch:run:rep-damaged1", damaged)
    assert store.load("rep-damaged1", "report") is None
    assert store.delete("rep-damaged1", owner="anon:alice") is True, "its owner can still delete it"
