"""A report's progress as JSON lines, both ways. `ReportTeller` turns what a running `BackgroundReport`
shows (its views and its sections' search graphs) into lines as they change — the report job says them
on its progress — and `ReportPicture` folds those lines back into a `ReportView` and section graphs, in
the page or API server that follows the job from another process (or the same one).

    OutlineReady   the outline (drafted, then as approved), its section titles, `done` of `total`
    SectionStarted, SectionDone   a section, with `done` of `total`        (these three: the API's stream)
    State          status, stopping, held, approved, when it is researched on its own, notes, errors
    Node           one search of a section, as it starts, is rewritten and settles (with its evidence)
    Unsaved        the whole report, when the store could not take it (else it is read from the store)
    and last, the outcome: `report --json`'s object, or {"type": "Error", "error": …}
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

from ..graph import SearchGraph, SearchNode
from ..research.outline import Outline
from ..research.record import from_record, to_record
from ..research.result import Report
from .report import ReportView, SectionState

API_LINES = ("OutlineReady", "SectionStarted", "SectionDone")     # what a program following a report is told
STOPPED_EARLY = "stopped before any research"
_STEPS = ("waiting", "researching", "done")


class ReportTeller:
    """What changed since the last call, as lines. Its state is what it has told: call it with each view."""

    def __init__(self) -> None:
        self._outline: dict | None = None
        self._state: dict | None = None
        self._approve_at: float | None = None
        self._sections: dict[int, str] = {}
        self._nodes: dict[tuple[int, str], tuple] = {}

    def lines(self, view: ReportView, graph_of: Callable[[int], SearchGraph | None]) -> list[dict]:
        told: list[dict] = []
        if view.outline is not None and view.outline.to_json() != self._outline:
            self._outline = view.outline.to_json()
            self._sections, self._nodes = {}, {}
            told.append({"type": "OutlineReady", "sections": [s.title for s in view.outline.sections],
                         "outline": self._outline, "done": 0, "total": len(view.outline.sections)})
        total = len(view.sections)
        for section in view.sections:
            steps = self._steps(section)
            if "researching" in steps:
                told.append(self._section_line(section, "researching", total))
            graph = graph_of(section.index) if section.searches else None
            for node in graph or ():           # a section's searches, told before the section is said done
                mark = (node.status, node.sub_query, len(node.evidence), node.rewritten_by)
                if self._nodes.get((section.index, node.id)) != mark:
                    self._nodes[(section.index, node.id)] = mark
                    told.append({"type": "Node", "section": section.index, "node": node.to_dict()})
            if "done" in steps:
                told.append(self._section_line(section, "done", total))
        state = self._state_of(view)           # last: "writing" once every section before it is told done
        if state != self._state:
            self._state = state
            told.append({"type": "State"} | state)
        return told

    def _steps(self, section: SectionState) -> tuple[str, ...]:
        """What a section went through since it was last told: it may have started and ended between looks."""
        was = self._sections.get(section.index, "waiting")
        return _STEPS[_STEPS.index(was) + 1:_STEPS.index(section.status) + 1]

    def _section_line(self, section: SectionState, step: str, total: int) -> dict:
        self._sections[section.index] = step
        done = sum(1 for status in self._sections.values() if status == "done")
        kind = "SectionStarted" if step == "researching" else "SectionDone"
        return {"type": kind, "index": section.index, "title": section.title, "done": done, "total": total}

    def _state_of(self, view: ReportView) -> dict:
        if view.approve_in_s is None:
            self._approve_at = None
        elif self._approve_at is None:          # told once: a countdown of its own would be a line a second
            self._approve_at = round(time.time() + view.approve_in_s, 1)
        return {"status": view.status, "stopping": view.stopping, "held": view.held, "approved": view.approved,
                "approve_at": self._approve_at, "error": view.error, "save_error": view.save_error,
                "notes": list(view.notes)}


def outcome_of(view: ReportView) -> dict:
    """Once the report has ended: `report --json`'s object, or {"type": "Error", …}."""
    if view.report is not None:
        return view.report.to_dict() | ({"save_error": view.save_error} if view.save_error else {})
    error = view.error or (STOPPED_EARLY if view.status == "stopped" else "the report ended without being written")
    return {"type": "Error", "error": error}


def unsaved_line(report: Report) -> dict:
    """The whole report, for a follower that cannot read it from the store (it could not be saved)."""
    return {"type": "Unsaved", "record": to_record(report)}


@dataclasses.dataclass
class ReportPicture:
    """A report as its lines have told it so far."""
    question: str
    outline: Outline | None = None
    state: dict = dataclasses.field(default_factory=dict)
    sections: dict[int, SectionState] = dataclasses.field(default_factory=dict)
    graphs: dict[int, SearchGraph] = dataclasses.field(default_factory=dict)
    unsaved: Report | None = None
    outcome: dict | None = None              # the last line, once told

    def fold(self, line: dict) -> None:
        kind = line.get("type")
        if kind == "OutlineReady":
            self.outline = Outline.from_json(line["outline"])
            self.sections = {i: SectionState(i, s.title, "waiting") for i, s in enumerate(self.outline.sections, 1)}
            self.graphs = {}
        elif kind == "State":
            self.state = {k: v for k, v in line.items() if k != "type"}
        elif kind in ("SectionStarted", "SectionDone") and line.get("index") in self.sections:
            section = self.sections[line["index"]]
            self.sections[section.index] = dataclasses.replace(
                section, status="researching" if kind == "SectionStarted" else "done")
        elif kind == "Node" and line.get("section") in self.sections:
            self._node(line["section"], SearchNode.from_dict(line["node"]))
        elif kind == "Unsaved":
            self.unsaved = from_record(line["record"])
        elif "report_id" in line or kind == "Error":
            self.outcome = line

    def _node(self, index: int, node: SearchNode) -> None:
        section = self.sections[index]
        graph = self.graphs.setdefault(index, SearchGraph(section.title, node.time_context))
        graph.apply(node)
        settled = sum(1 for n in graph if n.status.value in ("done", "failed", "skipped"))
        self.sections[index] = dataclasses.replace(section, searches=len(graph), settled=settled)

    def view(self, status: str, elapsed_s: float, report: Report | None, error: str | None = None,
             stopping: bool = False) -> ReportView:
        """The picture as a view, with what only its follower knows: the status it shows, the time, the report."""
        state = self.state
        approve_at = state.get("approve_at")
        return ReportView(
            self.question, status, self.outline, tuple(self.sections[i] for i in sorted(self.sections)), report,
            error or state.get("error"), stopping or bool(state.get("stopping")), bool(state.get("held")),
            bool(state.get("approved")), max(0.0, approve_at - time.time()) if approve_at is not None else None,
            elapsed_s, tuple(state.get("notes", ())), state.get("save_error"))
