"""Bounded runs (issue 15 §3): how a run ends when the model misbehaves.

Each scenario scripts the bench's cooperative model (at the bench's current pace) to misbehave
in one way, asks the one-ticker question with the product's limits (its run deadline, model-call
timeout and stream stall window: `Settings`' defaults unless given), and reports the wall time
against the deadline, who wrote the plan and the answer (the model, or the rules after the
model failed), how many model calls were made (the per-run breaker should stop them after the
first failure) and the reason the run gave. Nothing here sets or changes those limits: it
measures what they do, so a regression shows as a figure.
"""

from __future__ import annotations

import collections
import dataclasses
import re
import time

from .. import pipeline
from ..model.language_model import CallKind
from ..model.loopback import Reply
from ..model.text import estimate_tokens
from ..settings import Settings
from .cooperative import answer_text, cooperative_model
from .scenarios import NOW, ONE_TICKER, Bench, median

REPEATS = 3                 # runs per scenario (each costs up to a model-call timeout)
DRIP_S = 1.0                # the drip-feeding model: one word of its answer a second …
RETRY_AFTER_S = 2           # … the rate-limited one: 429 to every call, "Retry-After: 2"
QUESTION = ONE_TICKER
_REASON = re.compile(r"^After the model failed \((.*)\), the rest of this run")


@dataclasses.dataclass(frozen=True)
class Limits:
    """The limits a run is held to (see Settings): the ones the bounded runs measure."""
    deadline_s: float
    llm_timeout_s: float
    stream_stall_s: float
    answer_due_s: float = Settings.answer_due_s

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        """The limits `settings` hold a run to (`Settings()`: the product's defaults)."""
        return cls(settings.deadline_s, settings.llm_timeout_s, settings.stream_stall_s, settings.answer_due_s)

    def apply(self, settings: Settings) -> Settings:
        # The speed runs stretch every limit so that nothing times out; these runs keep the
        # product's node timeout too.
        return settings.replace(deadline_s=self.deadline_s, llm_timeout_s=self.llm_timeout_s,
                                stream_stall_s=self.stream_stall_s, answer_due_s=self.answer_due_s,
                                node_timeout_s=Settings().node_timeout_s)


@dataclasses.dataclass(frozen=True)
class Misbehaviour:
    name: str
    label: str                                  # as the report line says it
    replies: tuple[tuple[CallKind, Reply], ...]  # what replaces the cooperative model's replies
    # Sources slower than the model's plan: the model is asked to rewrite only once its plan is
    # written (before that the rules rewrite), so a rewrite scenario needs the plan done first.
    sources_after_plan: bool = False


def _drip() -> Reply:
    # The scripted answer (~200 words), one word a second: it would take minutes to finish.
    return Reply(content=answer_text("NVDA"), token_delay_s=DRIP_S)


_RATE_LIMITED = Reply(status=429, headers={"Retry-After": str(RETRY_AFTER_S)})

MISBEHAVIOURS = (
    Misbehaviour("hang_plan", "hanging model (plan call)", (("plan", Reply(hang=True)),)),
    Misbehaviour("hang_rewrite", "hanging model (rewrite calls)", (("rewrite", Reply(hang=True)),),
                 sources_after_plan=True),
    Misbehaviour("hang_answer", "hanging model (answer call)", (("answer", Reply(hang=True)),)),
    Misbehaviour("drip_answer", f"drip-feeding model (a word every {DRIP_S:g} s)", (("answer", _drip()),)),
    Misbehaviour("rate_limited", f"429 storm (Retry-After: {RETRY_AFTER_S} s)",
                 tuple((kind, _RATE_LIMITED) for kind in ("plan", "rewrite", "answer"))),
)


@dataclasses.dataclass(frozen=True)
class BoundedRun:
    wall_ms: float
    planner: str                # "llm" | "heuristic"
    writer: str | None          # who wrote the answer; None when there was none
    answered: bool              # an answer with text in it was written
    model_calls: int            # requests the model server received
    reason: str | None          # the model failure the run named, if it named one


def run_once(bench: Bench, misbehaviour: Misbehaviour, limits: Limits) -> BoundedRun:
    """Ask the question once against a fresh model server scripted to misbehave."""
    model = cooperative_model(QUESTION, NOW, bench.pace)
    for kind, reply in misbehaviour.replies:
        model.on(kind, reply)
    try:
        settings = limits.apply(bench.settings("openai", QUESTION).replace(base_url=model.base_url))
        plan_s = bench.pace.seconds(estimate_tokens(model.replies["plan"][0].content, exact=True))
        hub = bench.hub(settings, bench.cache(), plan_s + 0.2 if misbehaviour.sources_after_plan else None)
        started = time.perf_counter()
        result = pipeline.ask(QUESTION, settings=settings, hub=hub)
        wall = (time.perf_counter() - started) * 1000
        calls = len(model.kinds())
    finally:
        model.stop()         # ends the calls still hanging on the server
    # The reason, without the server's port, which changes each run.
    address = model.base_url.split("/")[2]
    reasons = [m.group(1).replace(address, "loopback") for m in map(_REASON.match, result.notes) if m]
    answer = result.answer
    return BoundedRun(wall, result.planner, answer.writer if answer else None,
                      bool(answer and answer.markdown.strip()), calls, reasons[0] if reasons else None)


def measure(bench: Bench, limits: Limits, repeats: int = REPEATS, progress=lambda text: None) -> dict:
    """Every misbehaviour, `repeats` runs each: medians, the worst run, and how each ended."""
    scenarios = {}
    for misbehaviour in MISBEHAVIOURS:
        progress(f"bounded runs: {misbehaviour.label}")
        runs = [run_once(bench, misbehaviour, limits) for _ in range(repeats)]
        walls = [r.wall_ms for r in runs]
        scenarios[misbehaviour.name] = {
            "label": misbehaviour.label,
            "wall_ms": median(walls),
            "wall_ms_spread": [round(min(walls)), round(max(walls))],
            "share_of_deadline": round(median(walls) / (limits.deadline_s * 1000), 3),
            "within_deadline": all(w < limits.deadline_s * 1000 for w in walls),
            "answered": all(r.answered for r in runs),
            "planners": dict(collections.Counter(r.planner for r in runs)),
            "writers": dict(collections.Counter(str(r.writer) for r in runs)),
            "model_calls": int(median(r.model_calls for r in runs)),
            "reason": next((r.reason for r in runs if r.reason), None),
        }
    return {"question": QUESTION, "profile": bench.pace.name, "repeats": repeats,
            **dataclasses.asdict(limits), "scenarios": scenarios}


def targets(bounded: dict) -> dict:
    """Every run of every scenario ended before the deadline, with an answer written."""
    deadline_ms = bounded["deadline_s"] * 1000
    return {f"bounded {name}: worst ms, answered": {
        "value": s["wall_ms_spread"][1], "target": f"< {deadline_ms:g}",
        "ok": bool(s["within_deadline"] and s["answered"])} for name, s in bounded["scenarios"].items()}


def lines(bounded: dict) -> list[str]:
    """The report lines: "hanging model (plan call): finished in 11.4 s (deadline 45 s), …"."""
    out = [f"bounded runs · {bounded['question']} · model {bounded['profile']} · medians of {bounded['repeats']} · "
           f"deadline {bounded['deadline_s']:g} s, model call ≤ {bounded['llm_timeout_s']:g} s, "
           f"stream stall ≤ {bounded['stream_stall_s']:g} s"
           + (f", answer due {bounded['answer_due_s']:g} s" if "answer_due_s" in bounded else "")]
    for s in bounded["scenarios"].values():
        low, high = (ms / 1000 for ms in s["wall_ms_spread"])
        past = "" if s["within_deadline"] else ", PAST IT in some runs"
        calls = f"{s['model_calls']} model call{'s' if s['model_calls'] != 1 else ''}"
        out.append(f"  {s['label']}: finished in {s['wall_ms'] / 1000:.1f} s ({low:.1f}–{high:.1f}; deadline "
                   f"{bounded['deadline_s']:g} s{past}), {_authors(s)} · {calls}"
                   + (f" · {s['reason']}" if s["reason"] else ""))
    return out


def _authors(s: dict) -> str:
    """ "plan by the model, answer by rules"; "… answer by rules (2 of 3 runs)" when runs differed."""
    if not s["answered"]:
        return "NO ANSWER in some runs"
    return f"plan by {_by(s['planners'])}, answer by {_by(s['writers'])}"


def _by(authors: dict[str, int]) -> str:
    runs = sum(authors.values())
    author, count = max(authors.items(), key=lambda item: item[1])
    name = {"heuristic": "rules", "llm": "the model"}.get(author, author)
    return name + (f" ({count} of {runs} runs)" if count < runs else "")
