"""A run's events as `ask --events` prints them, one JSON object each: what the command line, the
HTTP API's event stream and the MCP server's progress all send, so a run is timed the same way
from any of them."""

from __future__ import annotations

from ..events import AnswerDelta, ChartsReady, Event, NodeFailed, NodeFinished, PlanDrafted, PlanReady, RunFinished


def event_line(event: Event) -> dict:
    """An event as one line: its type and time, and what identifies it — never evidence, prompts
    or settings (so never a secret)."""
    line: dict = {"type": type(event).__name__, "at_ms": round(event.at_ms, 1)}
    if isinstance(event, PlanReady):
        line["planner"] = event.planner
        if event.model_plans:
            line["model_plans"] = True
    if isinstance(event, (PlanDrafted, PlanReady)):
        line["nodes"] = [n.id for n in event.graph]
    node = getattr(event, "node", None)
    if node is not None:
        line |= {"node": node.id, "status": node.status.value, "source": node.source}
        if node.depends_on:
            line["depends_on"] = list(node.depends_on)
        if isinstance(event, (NodeFinished, NodeFailed)):
            line["evidence"] = len(node.evidence)
    if isinstance(event, AnswerDelta):
        line |= {"chars": len(event.text)} | ({"restart": True} if event.restart else {})
    if isinstance(event, ChartsReady):
        line["charts"] = len(event.charts)
    if isinstance(event, RunFinished):
        line["wall_ms"] = event.result.stats.wall_ms if event.result.stats else None
    return line
