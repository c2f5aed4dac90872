"""The pre-planner: a question's analysis → a validated search graph.

Two backends behind `make_plan`:
- heuristic: intent rules (`plan_rules`), no model;
- LLM: one call returning a plan (at most `plan_token_cap` tokens) in the compact format the
  stream uses too (`compact`: one node a line; a JSON plan is read as well), validated into a
  SearchGraph; a plan with problems gets one repair call quoting them, a reply that is no plan
  at all none (the same prompt would cost the same time again); then the heuristic plan, noted
  as such. One format for both, so the prompt is one and the sequential schedule the benchmark
  compares with pays the same plan tokens.
  The model is shown the rules' reading as candidates (each instrument with how its words
  were read and its other readings, the period and whether it was assumed, the intents)
  and may plan for another instrument than the rules read; that is said in a note.

Plans are data: lines or JSON read as text and checked against the catalogue, never code.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime

from ..catalogue import CATALOGUE, listing_of
from ..errors import LLMError, PlanError, Stopped
from ..evidence import to_iso
from ..graph import MAX_NODES, ROOT, Author, SearchGraph, SearchNode
from ..model.language_model import LanguageModel
from ..model.prompts import fill, prompt
from ..model.text import parse_json_object
from ..phrases import say
from ..timecontext import TimeContext
from . import compact
from .analysis import Analysis
from .node_scanner import scan_plan
from .rules import heuristic_plan

PLAN_TOKENS_BASE, PLAN_TOKENS_PER_NODE, PLAN_TOKENS_MAX = 160, 70, 1000


def plan_token_cap(draft: list[SearchNode]) -> int:
    """How many tokens a model's plan may take: about a node's worth of JSON per draft node and
    room for a short preamble (a three-node plan: 370; never more than PLAN_TOKENS_MAX). A plan
    that needs more is not one a model should be writing."""
    return min(PLAN_TOKENS_MAX, PLAN_TOKENS_BASE + PLAN_TOKENS_PER_NODE * max(2, len(draft)))


@dataclasses.dataclass(frozen=True)
class PlanOutcome:
    graph: SearchGraph
    planner: Author
    notes: tuple[str, ...] = ()


def make_plan(analysis: Analysis, now: datetime, llm: LanguageModel | None = None,
              draft: list[SearchNode] | None = None) -> PlanOutcome:
    """The whole plan before anything runs (the paper's sequential way; a run on the graph
    schedule streams it instead, `plan.streamed`): the rule-based `draft` (made here when not
    given), or the model's improvement of it when there is a model."""
    draft = draft if draft is not None else heuristic_plan(analysis, now)
    if llm is None or not llm.available:
        return PlanOutcome(_graph(analysis, draft), "heuristic")
    draft = [n.copy() for n in draft]
    try:
        graph = _llm_plan(analysis, now, llm, draft)
        return PlanOutcome(graph, "llm", reread_notes(analysis, graph))
    except Stopped:
        return PlanOutcome(_graph(analysis, draft), "heuristic")
    except LLMError as exc:
        note = f"The LLM planner failed ({exc}); used the heuristic plan instead."
    return PlanOutcome(_graph(analysis, draft), "heuristic", (note,))


def _graph(analysis: Analysis, nodes: list[SearchNode]) -> SearchGraph:
    return SearchGraph.build(analysis.question, analysis.time_context, nodes)


# -- the LLM backend ---------------------------------------------------------------------------

def plan_messages(analysis: Analysis, now: datetime, draft: list[SearchNode]) -> list[dict]:
    """The plan prompt: the catalogue, then the question, the rules' reading of it and the draft.
    What changes from one question to the next comes last, so a server's prompt cache (llama.cpp's
    slots, a hosted provider's prefix cache) reads the system prompt and the catalogue only once:
    a small local model on a busy two-core machine reads 60-150 prompt tokens a second."""
    return [
        {"role": "system", "content": prompt("plan_system")},
        {"role": "user", "content": fill(
            prompt("plan_user"),
            now=to_iso(now),
            question=analysis.question,
            language=analysis.language,
            catalogue=render_catalogue(_listings(analysis)),
            candidates=render_candidates(analysis),
            time_context=json.dumps({**analysis.time_context.to_dict(), "assumed": not analysis.time_context.explicit},
                                    ensure_ascii=False),
            intents=", ".join(sorted(analysis.intents)) or "none found",
            draft=compact.render_plan(roots_first(draft), analysis.time_context, analysis.language),
            max_nodes=str(MAX_NODES),
        )},
    ]


def _listings(analysis: Analysis) -> frozenset[str] | None:
    """The markets of the question's stocks (and of the other readings of its words); None,
    all of them, when it names none or one the catalogue does not sort (an index, a currency)."""
    tickers = [t for e in analysis.entities for t in (e.ticker, *(r.ticker for r in e.alternatives)) if t]
    listings = {listing_of(t) for t in tickers}
    return None if not tickers or None in listings else frozenset(listings)


def _llm_plan(analysis: Analysis, now: datetime, llm: LanguageModel, draft: list[SearchNode]) -> SearchGraph:
    messages = plan_messages(analysis, now, draft)
    reply = llm.complete(messages, call="plan", max_tokens=plan_token_cap(draft))
    try:
        return plan_from_reply(analysis, reply.text, draft)
    except PlanError as exc:
        if scan_plan(reply.text)[0] is None and "{" not in reply.text and "[" not in reply.text:
            # Not a plan at all: asking again with the same prompt would only cost the same time.
            raise LLMError("its reply was not a plan") from None
        return repair_plan(analysis, llm, messages, reply.text, exc.problems, draft)


def repair_plan(analysis: Analysis, llm: LanguageModel, messages: list[dict], text: str,
                problems: list[str], draft: list[SearchNode] = ()) -> SearchGraph:
    """One more call quoting what was wrong with the plan `text`; LLMError when it fails too."""
    if not llm.available:
        raise LLMError(f"its plan was invalid: {'; '.join(problems[:3])}")
    messages = [
        *messages,
        {"role": "assistant", "content": text[:6000]},
        {"role": "user", "content": fill(prompt("plan_repair"), problems="\n".join(f"- {p}" for p in problems))},
    ]
    repaired = llm.complete(messages, call="plan", max_tokens=plan_token_cap(draft))
    try:
        return plan_from_reply(analysis, repaired.text, draft)
    except PlanError as exc:
        raise LLMError(f"its plan was invalid twice: {'; '.join(exc.problems[:3])}") from None


def plan_from_reply(analysis: Analysis, text: str, draft: list[SearchNode] = ()) -> SearchGraph:
    """A SearchGraph from a model's plan, compact lines or JSON, or PlanError listing every problem
    (`draft`: as `plan_from_json`). A reply whose first node is a line is read as lines; any other
    as JSON, as it was before there were lines."""
    form, scanned = scan_plan(text)
    if form != "lines":
        return plan_from_json(analysis, text, draft)
    nodes, problems = [], []
    for index, found in enumerate(scanned):
        try:
            if found.item is None:
                raise PlanError([f"node {index + 1}: {found.problem}"])
            nodes.append(node_from_json(found.item, index, analysis, draft))
        except PlanError as exc:
            problems.extend(exc.problems)
    if problems:
        raise PlanError(problems)
    return SearchGraph.build(analysis.question, analysis.time_context, nodes)


def plan_from_json(analysis: Analysis, text: str, draft: list[SearchNode] = ()) -> SearchGraph:
    """A SearchGraph from a model's JSON plan, or PlanError listing every problem (`draft`:
    the rules' plan, whose wording a data node without a sub_query takes)."""
    try:
        raw = parse_json_object(text)
    except LLMError as exc:
        raise PlanError([str(exc)]) from None
    items = raw.get("nodes")
    if not isinstance(items, list):
        raise PlanError(["the plan needs a 'nodes' list"])
    nodes, problems = [], []
    for index, item in enumerate(items):
        try:
            nodes.append(node_from_json(item, index, analysis, draft))
        except PlanError as exc:
            problems.extend(exc.problems)
    if problems:
        raise PlanError(problems)
    return SearchGraph.build(analysis.question, analysis.time_context, nodes)


def node_from_json(item, index: int, analysis: Analysis, draft: list[SearchNode] = ()) -> SearchNode:
    """One node of a model's plan, its shape checked (PlanError if not); what the prompt lets
    the model leave out is derived: no depends_on is none, no start and end are the node's
    period (the question's unless it says), no lang is the question's language, and a data
    node's missing sub_query is worded as the draft's same call is (else from the catalogue)."""
    default_tc = analysis.time_context
    where = f"node {index + 1}"
    if not isinstance(item, dict):
        raise PlanError([f"{where}: must be an object"])
    if not item.get("sub_query") and item.get("source") in CATALOGUE \
            and CATALOGUE[item["source"]].kind == "finance" and isinstance(item.get("args"), dict):
        item = {**item, "sub_query": _wording(item["source"], item["args"], draft)}
    missing = [k for k in ("id", "sub_query", "source", "args") if k not in item]
    if missing:
        raise PlanError([f"{where}: missing {', '.join(missing)}"])
    if not isinstance(item["id"], str) or not isinstance(item["sub_query"], str) \
            or not isinstance(item["source"], str):
        raise PlanError([f"{where}: id, sub_query and source must be strings"])
    deps = item.get("depends_on") or []
    if not isinstance(deps, list) or not all(isinstance(d, str) for d in deps):
        raise PlanError([f"{item['id']}: depends_on must be a list of node ids"])
    args = item["args"] if isinstance(item["args"], dict) else {}
    if not isinstance(item["args"], dict):
        raise PlanError([f"{item['id']}: args must be an object"])
    args = {k: v for k, v in args.items() if v not in (None, "")}
    tc = default_tc
    if isinstance(item.get("time_context"), dict):
        try:
            tc = TimeContext.from_dict({**item["time_context"], "label": default_tc.label})
        except (KeyError, TypeError, ValueError):
            raise PlanError([f"{item['id']}: time_context needs start and end as YYYY-MM-DD"]) from None
    takes = {a.name for a in CATALOGUE[item["source"]].args} if item["source"] in CATALOGUE else set()
    if {"start", "end"} <= takes and "start" not in args and "end" not in args:
        args |= {"start": tc.start.isoformat(), "end": tc.end.isoformat()}
    if "lang" in takes and "lang" not in args:
        args["lang"] = analysis.language
    return SearchNode(item["id"].strip(), item["sub_query"].strip()[:300], item["source"], args, tc,
                      depends_on=tuple(d for d in deps if d != ROOT))


def _wording(source: str, args: dict, draft: list[SearchNode]) -> str:
    """A data node's sub-query when the model wrote none: the draft's for the same call."""
    same = next((n.sub_query for n in draft if n.source == source
                 and {k: v for k, v in n.args.items() if k in args} == args), None)
    subject = args.get("ticker") or args.get("query") or ""
    return same or f"{subject} {CATALOGUE[source].description}".strip()


def plan_json(nodes: list[SearchNode], time_context: TimeContext | None = None, language: str | None = None) -> str:
    """Nodes as a JSON plan, in the shape a model that writes JSON writes (the plan prompt asks for
    `compact` lines; the benchmark and the tests compare the two). Given the question's period
    and language, what `node_from_json` derives is left out:
    an empty depends_on, start and end equal to the period, lang equal to the language, and
    the sub-query of a data node (the rules word it)."""
    def shown(n: SearchNode) -> dict:
        args = dict(n.args)
        if time_context is not None and (args.get("start"), args.get("end")) == \
                (time_context.start.isoformat(), time_context.end.isoformat()):
            del args["start"], args["end"]
        if language is not None and args.get("lang") == language:
            del args["lang"]
        if time_context is None:
            return {"id": n.id, "sub_query": n.sub_query, "source": n.source, "args": args,
                    "depends_on": list(n.depends_on)}
        worded = {} if n.kind == "finance" else {"sub_query": n.sub_query}
        return {"id": n.id, **worded, "source": n.source, "args": args} | \
            ({"depends_on": list(n.depends_on)} if n.depends_on else {})
    return json.dumps({"nodes": [shown(n) for n in nodes]}, ensure_ascii=False)


def roots_first(nodes: list[SearchNode]) -> list[SearchNode]:
    """The nodes as a streamed plan should list them: those that depend on nothing first (they
    can start as soon as they are written), the rest after, renumbered n1, n2, … in that order."""
    ordered = [n for n in nodes if not n.depends_on] + [n for n in nodes if n.depends_on]
    ids = {n.id: f"n{i}" for i, n in enumerate(ordered, 1)}
    return [dataclasses.replace(n.copy(), id=ids[n.id], depends_on=tuple(ids.get(d, d) for d in n.depends_on))
            for n in ordered]


def render_candidates(analysis: Analysis) -> str:
    """The rules' instruments as the model is shown them: candidates it may replace."""
    return json.dumps([{
        "words": e.mention or e.name, "name": e.name, "ticker": e.ticker, "kind": e.kind,
        "read_as": e.read_as if e.ticker else "not in the alias table (symbol_search looks it up)",
        "alternatives": [dataclasses.asdict(r) for r in e.alternatives],
    } for e in analysis.entities], ensure_ascii=False)


def reread_notes(analysis: Analysis, graph: SearchGraph) -> tuple[str, ...]:
    """A note when the model's plan is about instruments the rules did not read, so the
    reader knows the answer is not about what the interpretation first showed."""
    read = set(analysis.tickers)
    planned = list(dict.fromkeys(str(n.args["ticker"]).upper() for n in graph if n.args.get("ticker")))
    instead = [t for t in planned if t not in read]
    if not instead or not read:
        return ()
    return (say("note.planner_reread", analysis.language, planned=", ".join(instead), read=", ".join(sorted(read))),)


def render_catalogue(listings: frozenset[str] | None = None) -> str:
    """The catalogue as the plan prompt lists it, each source with its short code (`compact`) and its
    arguments in the order a plan line writes them; with `listings` (the question's tickers' markets),
    without the sources for stocks of other markets: a local model reads every line of a prompt
    before it writes, and an A-share's sources are no use for a question about AMD."""
    lines, codes = [], compact.source_codes()
    for spec in CATALOGUE.values():
        if listings is not None and any(a.listing is not None and a.listing not in listings for a in spec.args):
            continue
        args = ", ".join(
            f"{a.name}{'' if a.required else '?'}: {a.type}"
            + (f" ({'|'.join(a.choices)})" if a.choices else "")
            for a in spec.args)
        extra = f"; needs one of {', '.join(spec.one_of)}" if spec.one_of else ""
        code = f" ({codes[spec.id]})" if codes[spec.id] != spec.id else ""
        lines.append(f"- {spec.id}{code} [{spec.kind}] — {spec.description}. args: {args}{extra}")
    return "\n".join(lines)
