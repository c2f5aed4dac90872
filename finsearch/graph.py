"""The search graph: a DAG of sub-queries, each mapped to one data source.

A typed wrapper over a networkx DiGraph. Each `SearchNode` carries the method's five
features — sub-query, source, time weight, time context, response (evidence) — plus
its id, args, status, the sub-query before rewriting, timing and error. The root
(`n0`) is the user's question; nodes without dependencies hang from it.

Only the executor's coordinating thread mutates a graph; events carry copies.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Iterator
from typing import Literal

import networkx as nx

from .catalogue import CATALOGUE
from .errors import FailureKind, PlanError
from .evidence import Evidence
from .source_args import check_args
from .timecontext import TimeContext

Author = Literal["llm", "heuristic"]     # who wrote a plan, a rewrite or an answer: the model or the rules
AddedBy = Literal["plan", "model", "rewriter"]   # the first plan; the model's streamed plan over the rules' draft;
                                                 # a follow-up the rewriter added

ROOT = "n0"
MAX_NODES = 12          # planned nodes; the rewriter may add up to MAX_FOLLOW_UPS more
MAX_FOLLOW_UPS = 3


class NodeStatus(str, enum.Enum):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    SKIPPED = "skipped"

    @property
    def finished(self) -> bool:
        return self in (NodeStatus.DONE, NodeStatus.FAILED, NodeStatus.SKIPPED)


@dataclasses.dataclass
class SearchNode:
    id: str
    sub_query: str
    source: str
    args: dict
    time_context: TimeContext
    depends_on: tuple[str, ...] = ()
    original_sub_query: str = ""
    status: NodeStatus = NodeStatus.PENDING
    error: str | None = None             # the developer's reason (shown in the node's details)
    failure: FailureKind | None = None   # what kind of failure it was (the answer's gap sentence)
    evidence: tuple[Evidence, ...] = ()
    elapsed_ms: int | None = None
    rewritten_by: Author | None = None   # set when the rewriter changed it
    added_by: AddedBy = "plan"
    llm_calls: int = 0                   # model calls made for this node (rewriting)
    started_ms: float | None = None      # offsets from the run's start, for timing views
    finished_ms: float | None = None

    def __post_init__(self):
        if not self.original_sub_query:
            self.original_sub_query = self.sub_query

    @property
    def kind(self) -> str:
        spec = CATALOGUE.get(self.source)
        return spec.kind if spec else "unknown"

    @property
    def time_weight(self) -> float | None:
        """The node's weight: the highest weight among its evidence."""
        weights = [e.time_weight for e in self.evidence if e.time_weight is not None]
        return max(weights) if weights else None

    @property
    def rewritten(self) -> bool:
        return self.rewritten_by is not None

    def copy(self) -> SearchNode:
        return dataclasses.replace(self, args=dict(self.args))

    @classmethod
    def from_dict(cls, raw: dict) -> SearchNode:
        """A node as `to_dict` wrote it (stored runs)."""
        return cls(
            id=raw["id"], sub_query=raw["sub_query"], source=raw["source"], args=dict(raw.get("args") or {}),
            time_context=TimeContext.from_dict(raw["time_context"]),
            depends_on=tuple(raw.get("depends_on") or ()),
            original_sub_query=raw.get("original_sub_query") or raw["sub_query"],
            status=NodeStatus(raw.get("status", "pending")), error=raw.get("error"),
            failure=_failure_kind(raw.get("failure")),
            evidence=tuple(Evidence.from_stored(e) for e in raw.get("evidence") or () if isinstance(e, dict)),
            elapsed_ms=raw.get("elapsed_ms"), rewritten_by=raw.get("rewritten_by"),
            added_by=raw.get("added_by", "plan"), llm_calls=raw.get("llm_calls", 0),
            started_ms=raw.get("started_ms"), finished_ms=raw.get("finished_ms"))

    def to_dict(self, with_evidence: bool = True) -> dict:
        out = {
            "id": self.id, "sub_query": self.sub_query,
            "original_sub_query": self.original_sub_query,
            "source": self.source, "kind": self.kind, "args": dict(self.args),
            "depends_on": list(self.depends_on),
            "time_context": self.time_context.to_dict(),
            "time_weight": self.time_weight, "status": self.status.value,
            "error": self.error, "failure": self.failure.value if self.failure else None,
            "elapsed_ms": self.elapsed_ms, "started_ms": self.started_ms, "finished_ms": self.finished_ms,
            "rewritten_by": self.rewritten_by, "added_by": self.added_by, "llm_calls": self.llm_calls,
        }
        if with_evidence:
            out["evidence"] = [e.to_dict() for e in self.evidence]
        return out


def _failure_kind(raw) -> FailureKind | None:
    """A stored node's failure kind; records from before kinds were kept have none."""
    try:
        return FailureKind(raw) if raw else None
    except ValueError:
        return FailureKind.FAILED


class SearchGraph:
    """The question (root) and its validated sub-query nodes."""

    def __init__(self, question: str, time_context: TimeContext):
        self.question = question
        self.time_context = time_context
        self.nodes: dict[str, SearchNode] = {}
        self._dag = nx.DiGraph()
        self._dag.add_node(ROOT)

    # -- building ------------------------------------------------------------------------

    @classmethod
    def build(cls, question: str, time_context: TimeContext,
              nodes: Iterable[SearchNode], max_nodes: int = MAX_NODES) -> SearchGraph:
        """A graph of `nodes`, or PlanError listing every problem found."""
        nodes = list(nodes)
        problems = validate_nodes(nodes, max_nodes)
        if problems:
            raise PlanError(problems)
        graph = cls(question, time_context)
        for node in nodes:
            graph._insert(node)
        return graph

    def add_follow_up(self, node: SearchNode) -> None:
        """Add a node the rewriter proposed; raises PlanError if it does not fit."""
        follow_ups = sum(1 for n in self.nodes.values() if n.added_by == "rewriter")
        if follow_ups >= MAX_FOLLOW_UPS:
            raise PlanError([f"at most {MAX_FOLLOW_UPS} follow-up nodes"])
        problems = validate_nodes([*self.nodes.values(), node], len(self.nodes) + 1)
        if problems:
            raise PlanError(problems)
        node.added_by = "rewriter"
        self._insert(node)

    def apply(self, node: SearchNode) -> None:
        """Mirror a node from the event stream: replace it, or add it if it is new."""
        if node.id in self.nodes:
            self.nodes[node.id] = node
        else:
            self._insert(node)

    def _insert(self, node: SearchNode) -> None:
        self.nodes[node.id] = node
        self._dag.add_node(node.id)
        parents = [d for d in node.depends_on if d != ROOT] or [ROOT]
        for parent in parents:
            self._dag.add_edge(parent, node.id)

    # -- reading -------------------------------------------------------------------------

    def __iter__(self) -> Iterator[SearchNode]:
        return iter(self.nodes.values())

    def __len__(self) -> int:
        return len(self.nodes)

    def __getitem__(self, node_id: str) -> SearchNode:
        return self.nodes[node_id]

    def parents(self, node_id: str) -> list[SearchNode]:
        return [self.nodes[p] for p in self._dag.predecessors(node_id) if p != ROOT]

    def children(self, node_id: str) -> list[SearchNode]:
        return [self.nodes[c] for c in self._dag.successors(node_id)]

    def edges(self) -> list[tuple[str, str]]:
        return sorted(self._dag.edges(), key=lambda e: (_order(e[0]), _order(e[1])))

    def topological(self) -> list[SearchNode]:
        return [self.nodes[n] for n in nx.topological_sort(self._dag) if n != ROOT]

    def depth(self) -> int:
        """Dependency levels below the root (1 for a flat plan)."""
        return int(self.longest_chain(lambda node: 1)[0])

    def longest_chain(self, cost: Callable[[SearchNode], float]) -> tuple[float, list[str]]:
        """The chain of dependent nodes with the largest total `cost(node)`."""
        best: dict[str, tuple[float, list[str]]] = {}
        for node_id in nx.topological_sort(self._dag):
            if node_id == ROOT:
                best[ROOT] = (0.0, [])
                continue
            base = max((best[p] for p in self._dag.predecessors(node_id)), key=lambda b: b[0])
            best[node_id] = (base[0] + cost(self.nodes[node_id]), [*base[1], node_id])
        return max(best.values(), key=lambda b: b[0])

    def next_id(self) -> str:
        return f"n{max((_order(n) for n in self.nodes), default=0) + 1}"

    def copy(self) -> SearchGraph:
        clone = SearchGraph(self.question, self.time_context)
        for node in self.nodes.values():
            clone._insert(node.copy())
        return clone

    @classmethod
    def from_dict(cls, question: str, time_context: TimeContext, raw: dict) -> SearchGraph:
        graph = cls(question, time_context)
        for item in raw.get("nodes", []):
            if item.get("id") != ROOT:
                graph._insert(SearchNode.from_dict(item))
        return graph

    def to_dict(self, with_evidence: bool = True) -> dict:
        root = {"id": ROOT, "sub_query": self.question, "original_sub_query": self.question,
                "source": "question", "kind": "question", "args": {}, "depends_on": [],
                "time_context": self.time_context.to_dict(), "time_weight": None,
                "status": "done", "error": None, "elapsed_ms": None,
                "rewritten_by": None, "added_by": "plan"}
        if with_evidence:
            root["evidence"] = []
        nodes = [root] + [n.to_dict(with_evidence) for n in self.nodes.values()]
        return {"nodes": nodes, "edges": [list(e) for e in self.edges()]}


def validate_nodes(nodes: list[SearchNode], max_nodes: int = MAX_NODES) -> list[str]:
    """Every problem with a list of nodes as a plan: empty when it is a valid DAG."""
    problems: list[str] = []
    if not nodes:
        problems.append("the plan has no nodes")
    if len(nodes) > max_nodes:
        problems.append(f"too many nodes: {len(nodes)} (at most {max_nodes})")
    ids = [n.id for n in nodes]
    for node_id in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(f"duplicate node id {node_id!r}")
    if ROOT in ids:
        problems.append(f"{ROOT!r} is the question itself and cannot be a node id")
    known = set(ids) | {ROOT}
    dag = nx.DiGraph()
    for node in nodes:
        if not node.sub_query.strip():
            problems.append(f"{node.id}: empty sub_query")
        problems.extend(f"{node.id}: {p}" for p in check_args(node.source, node.args))
        for dep in node.depends_on:
            if dep not in known:
                problems.append(f"{node.id}: depends on unknown node {dep!r}")
            elif dep == node.id:
                problems.append(f"{node.id}: depends on itself")
            elif dep != ROOT:
                dag.add_edge(dep, node.id)
    if dag.number_of_nodes() and not nx.is_directed_acyclic_graph(dag):
        cycle = " → ".join(u for u, _ in nx.find_cycle(dag))
        problems.append(f"dependency cycle: {cycle}")
    return problems


def _order(node_id: str) -> int:
    digits = node_id[1:] if node_id.startswith("n") else ""
    return int(digits) if digits.isdigit() else 10_000

