"""One question and its answer, live while it runs or finished.

Layout of the assistant's message: badges; how the question was read (as soon as it is
planned; its one-click alternatives work once the run has finished); a one-instrument answer's
key stats; the search graph beside the evidence panel
of the clicked node; the answer; the K-line charts; references; what went wrong; share
and export.
"""

from __future__ import annotations

import html
import json
import logging

import streamlit as st

from finsearch.answer import charts
from finsearch.answer.chart_links import chart_id, charted_tickers, references_id
from finsearch.answer.chart_style import chart_style
from finsearch.answer.citations import Reference
from finsearch.answer.markdown import plain
from finsearch.background.question import RunView
from finsearch.export import answer_html
from finsearch.graph import SearchGraph
from finsearch.phrases import Language, say
from finsearch.plan.analysis import language_of
from finsearch.result import RunResult
from finsearch.settings import CandleColours
from ui import identity, sharing, state
from ui.views import answer as answer_view
from ui.views import evidence as evidence_view
from ui.views import follow_ups as follow_ups_view
from ui.views import graph as graph_view
from ui.views import interpretation as interpretation_view
from ui.views import key_stats as key_stats_view
from ui.watch import button as watch_button
from ui.watch import mine as watch_mine

log = logging.getLogger(__name__)



def graph_and_evidence(graph: SearchGraph, key: str, draft: bool = False, live: bool = False,
                       language: Language = "en") -> None:
    left, right = st.columns([3, 2], gap="medium")
    with left:
        selected = graph_view.render(graph, key=key, draft=draft, live=live, language=language)
    with right:
        if selected:
            evidence_view.render(graph[selected], language)
        else:
            st.caption(say("ui.click_node", language))


@st.cache_resource(max_entries=64, show_spinner=False)
def _figures(payloads_json: str, names_json: str, language: Language,
             candle_colours: CandleColours) -> tuple[tuple[str, object], ...]:
    """The figures, built once per set of price data and style (the live view polls, and every
    click redraws a finished page). Kept as plotly `Figure`s, shared and never changed:
    `st.plotly_chart` copies a `Figure` as it is, where it would rebuild and re-validate a dict
    (about 30 ms a K-line, on every rerun)."""
    payloads, names = json.loads(payloads_json), json.loads(names_json)
    style = chart_style(language, candle_colours)
    return tuple(charts.figures_from(payloads, names, style))


def chart_anchors(graph: SearchGraph, references: list[Reference], key: str) -> dict[int, str]:
    """Reference number → the element id of its chart in this turn, for computed price data."""
    return {n: chart_id(key, ticker) for n, ticker in charted_tickers(graph, references).items()}


def chart_section(graph: SearchGraph, names: dict[str, str], key: str, language: Language = "en",
                  folded: bool = False) -> None:
    """The K-lines of a run, labelled in the question's `language`, coloured by the setting.
    `folded` (an earlier turn of a conversation): drawn only when asked for, since drawing every
    turn's charts took seconds of a restored conversation's first paint."""
    payloads = charts.price_payloads(graph)
    if not payloads:
        return
    if folded:
        for ticker in dict.fromkeys(p.get("ticker") for p in payloads if p.get("ticker")):
            st.html(f'<div id="{html.escape(chart_id(key, ticker))}" class="chart-anchor"></div>')
        if not st.toggle(say("ui.show_chart", language), key=f"{key}-show-charts"):
            return
    try:
        figures = _figures(json.dumps(payloads, sort_keys=True), json.dumps(names, sort_keys=True), language,
                           state.effective_settings().candle_colours)
    except Exception:  # payloads are checked where evidence enters; a chart never takes the page down
        log.exception("charts failed")
        st.caption(say("ui.chart_failed", language))
        return
    tickers = {p.get("ticker") for p in payloads}
    for title, figure in figures:
        if title in tickers and not folded:   # the price reference's link target (a K-line's title is its ticker)
            st.html(f'<div id="{html.escape(chart_id(key, title))}" class="chart-anchor"></div>')
        st.plotly_chart(figure, width="stretch", key=f"{key}-chart-{title}", config={"displaylogo": False})


def status_key(key: str, status: str) -> str:
    """The key of a turn's header: its class (`st-key-turn-<key>-<status>`) tells a browser test,
    or anyone reading the page, which state the run is in."""
    return f"turn-{key}-{status}"


def finished(result: RunResult, key: str, read_only: bool = False, save_error: str | None = None,
             on_correct: interpretation_view.OnCorrect | None = None, busy: bool = False,
             charts_folded: bool = False, on_ask: follow_ups_view.OnAsk | None = None) -> None:
    """A finished run: everything, from the stored result. `on_correct` re-plans the question
    read another way (none: the choices are shown, not offered); `busy`: another run is going;
    `charts_folded`: its charts wait for a click (an earlier turn of a conversation); `on_ask`
    asks a suggested follow-up as the next turn (none: no suggestions)."""
    answer = result.answer
    if save_error:
        st.warning(plain(save_error), icon=":material/cloud_off:")
    def header() -> None:
        with st.container(key=status_key(key, "stopped" if result.cancelled else "done")):
            answer_view.render_badges(result)
        interpretation_view.render(result.interpretation, key, None if read_only else on_correct, disabled=busy)
        key_stats_view.render(result, key, references, anchors)     # one instrument: its key figures, cited

    references = answer.references if answer else []
    charted = chart_anchors(result.graph, references, key)
    anchors = answer_view.citation_targets(references, charted, references_id(key))
    # The sample note stays with the answer: in sample mode "last week" is a week of the pack's year.
    show(key, header=header, graph=result.graph, notes=(result.clock_note,) if result.clock_note else (),
         answer_text=answer.markdown if answer else "", references=references,
         names={e.ticker: e.display(result.analysis.language) for e in result.analysis.entities if e.ticker},
         flagged=result.audit.flagged if result.audit else (), after_answer=lambda: _after_answer(result),
         anchors=anchors, language=result.analysis.language, charts_folded=charts_folded)
    answer_view.render_references(references, charted, references_id(key), result.analysis.language)
    answer_view.render_notes(result)
    if on_ask is not None and not read_only:
        follow_ups_view.render(result, key, on_ask, disabled=busy)
    actions(result, key, read_only, shareable=not save_error)


def _after_answer(result: RunResult) -> None:
    answer_view.render_audit(result)
    answer_view.render_usage(result)


def show(key: str, *, header, graph: SearchGraph | None, answer_text: str, references: list[Reference],
         names: dict[str, str], notes: tuple[str, ...] = (), error: str | None = None, flagged=(),
         after_answer=None, anchors: dict[int, str] | None = None, language: Language = "en",
         charts_folded: bool = False, draft: bool = False, live: bool = False) -> None:
    """The skeleton live and finished turns share, so the page does not jump between them
    (`draft`: the graph is the rules' plan, drawn while a model plans; `live`: drawn by the
    run's polling fragment)."""
    header()
    with st.container():
        for note in notes:
            st.info(plain(note), icon=":material/info:")
        if error:
            st.error(plain(error), icon=":material/error:")
    if graph is not None:
        graph_and_evidence(graph, key=f"{key}-graph", draft=draft, live=live, language=language)
    if answer_text:
        answer_view.render_answer(answer_text, references, flagged, anchors)
        if after_answer is not None:
            after_answer()
    if graph is not None:
        chart_section(graph, names, key, language, charts_folded)


def actions(result: RunResult, key: str, read_only: bool, shareable: bool = True) -> None:
    language = result.analysis.language
    row = st.container(horizontal=True)
    with row:
        if not read_only:              # a shared view is somebody else's to share
            if st.button(say("ui.share", language), icon=":material/link:", key=f"{key}-share-open"):
                sharing.share_answer(result, key, shareable)
        st.download_button(say("ui.export_html", language), data=lambda: answer_html.render(result),
                           file_name=f"finsearch-{result.run_id}.html", mime="text/html",
                           icon=":material/download:", key=f"{key}-export", on_click="ignore")
        if not read_only:              # watching adds to the visitor's own watchlist
            watch_button.render(result, key, watch_mine.watched(identity.visitor().owner))


def _status_text(status: str, view: RunView, language: Language) -> str:
    if status == "running" and view.waits_for_the_model:
        return say("ui.status.waiting_model", language)
    known = status in ("planning", "running", "answering", "stopping")
    return say(f"ui.status.{status}" if known else "ui.status.working", language)


def _while_running(corrections) -> None:
    """The interpretation's buttons are disabled while a run goes; a click cannot arrive."""


def live(view: RunView, key: str, on_stop) -> None:
    """A run in progress: status, Stop, the graph filling in, the answer streaming in, in the
    question's language (the answer's, once it is written)."""
    language = language_of(view.question)

    def header() -> None:
        status = "stopping" if view.stopping and not view.finished else view.status
        # The run bar floats above the chat box (ui/app.css: `runbar-`), in reach however far the page
        # has followed the graph; the container around it carries the state for tests and readers.
        with st.container(key=status_key(key, status)), \
                st.container(horizontal=True, vertical_alignment="center", key=f"runbar-{key}"):
            # Stopping… from the click on: the engine ends within a moment, but the page says so at once.
            st.markdown(f":orange[**{_status_text(status, view, language)}**] {view.elapsed_s:.1f} s")
            st.button(say("ui.stop", language), icon=":material/stop_circle:", key=f"{key}-stop", on_click=on_stop,
                      disabled=view.stopping or view.finished)
        if view.interpretation is not None:     # the choices are there, greyed, until the run ends
            interpretation_view.render(view.interpretation, key, _while_running, disabled=True)

    show(key, header=header, graph=view.graph, answer_text=view.answer_text, references=[], names={},
         notes=view.notes, error=view.error, language=language, draft=view.draft, live=True)
