"""The rule-based answer streams a paragraph at a time, the lead first, as the model's answer
streams its tokens (issue 29 item 16): the lead is sent before the rest of the answer is
worked out, and the pieces make up the final answer exactly."""

from __future__ import annotations

from finsearch import pipeline
from finsearch.answer import compose
from finsearch.background.question import ANSWERING, BackgroundRun
from finsearch.events import AnswerDelta, RunFinished


def test_a_rules_only_run_streams_its_answer_lead_first(demo_settings, monkeypatch):
    real, written = compose.explanation_sentences, []

    def explained(*args, **kwargs):     # the paragraph after the lead, worked out from it
        written.append("explanation")
        return real(*args, **kwargs)

    monkeypatch.setattr(compose, "explanation_sentences", explained)
    pieces, rest_unwritten_at_first = [], None
    for event in pipeline.run("Why did NVDA fall last week?", settings=demo_settings):
        if isinstance(event, AnswerDelta):
            assert not event.restart
            if not pieces:
                rest_unwritten_at_first = not written
            pieces.append(event.text)
        elif isinstance(event, RunFinished):
            result = event.result
    assert result.answer.writer == "heuristic"
    assert len(pieces) > 1
    markdown = result.answer.markdown
    assert "".join(pieces) == markdown
    assert pieces[0] == markdown.split("\n\n")[0]
    assert pieces[0].startswith("NVIDIA (NVDA) fell 4.70% on 2024-10-11 after"), pieces[0]
    assert written and rest_unwritten_at_first, "the lead is sent before the rest of the answer is written"


def test_the_live_view_shows_the_lead_while_the_rules_write_the_rest(demo_settings, monkeypatch):
    """What the app polls (`RunView.answer_text`) holds the lead while the run is still answering."""
    import threading

    release, held = threading.Event(), threading.Event()
    real = compose.explanation_sentences

    def explained(*args, **kwargs):     # held until the test has looked at the live view
        held.set()
        assert release.wait(30), "the test never let the answer finish"
        return real(*args, **kwargs)

    monkeypatch.setattr(compose, "explanation_sentences", explained)
    run = BackgroundRun("Why did NVDA fall last week?", demo_settings).start()
    try:
        assert held.wait(60), "the rules never reached the end of the answer"
        view = run.view()
        assert view.status == ANSWERING
        assert view.answer_text.startswith("NVIDIA (NVDA) fell 4.70% on 2024-10-11 after"), view.answer_text
        assert "\n\n" not in view.answer_text, "the lead alone, the rest still being written"
    finally:
        release.set()
        assert run.join(60)
    done = run.view()
    assert done.result.answer.markdown.split("\n\n")[0] == view.answer_text
