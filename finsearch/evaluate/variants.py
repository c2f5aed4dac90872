"""The system variants of the paper's ablation, and answering one question as one of them.

    full             the pipeline with the settings as given
    llm-only         one model call (prompts/llm_only.md), no search
    no-time-weight   the pipeline with time weighting off (every evidence weight 1)
    no-rewriter      the pipeline with the query rewriter off

`answer(...)` never raises: whatever goes wrong is the attempt's `error`, so one bad
question cannot stop a benchmark run.
"""

from __future__ import annotations

import dataclasses
import threading
from datetime import datetime

from .. import pipeline
from ..answer.audit import audit
from ..answer.generator import Answer
from ..errors import FinSearchError, InputError
from ..evidence import to_iso
from ..graph import Author, NodeStatus, SearchGraph
from ..model.llm import LLMClient, choose_backend
from ..model.prompts import fill, prompt
from ..model.usage import ModelUsage
from ..phrases import say
from ..plan.analysis import analyse, check_question
from ..settings import Settings
from .datasets import Question

VARIANTS = ("full", "llm-only", "no-time-weight", "no-rewriter")
NEEDS_MODEL = ("the llm-only variant needs a model: set OPENAI_API_KEY or OPENAI_BASE_URL "
               "(and FINSEARCH_MODEL), or leave llm-only out of --variants")


@dataclasses.dataclass
class Attempt:
    """One question answered by one variant."""
    answer: str | None = None
    writer: Author | None = None       # who wrote the answer
    llm_calls: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    source_calls: int | None = None
    graph: dict | None = None          # {"nodes", "depth", "failed"}
    plan: list[dict] = dataclasses.field(default_factory=list)   # [{id, source, sub_query, status}]
    audit: dict | None = None          # {"coverage", "grounding", "trust"}
    presentation: float | None = None  # the optional judge's presentation score (--judge)
    error: str | None = None
    usage: ModelUsage | None = None    # the model's calls, tokens and cost per stage (the judge's too)


def parse_variants(text: str) -> tuple[str, ...]:
    """"full,llm-only" → ("full", "llm-only"); InputError naming an unknown one."""
    names = tuple(dict.fromkeys(part.strip() for part in (text or "").split(",") if part.strip()))
    if not names:
        raise InputError(f"no variants given (choose from {', '.join(VARIANTS)})")
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise InputError(f"unknown variant {unknown[0]!r} (choose from {', '.join(VARIANTS)})")
    return names


def check(variant: str, settings: Settings) -> None:
    """Fail fast, before any question runs, when a variant cannot run with these settings."""
    if variant == "llm-only" and choose_backend(settings) != "openai":
        raise InputError(NEEDS_MODEL)


def settings_for(variant: str, settings: Settings) -> Settings:
    if variant == "no-time-weight":
        return settings.replace(time_weighting=False)
    if variant == "no-rewriter":
        return settings.replace(rewriter=False)
    return settings


def answer(question: Question, variant: str, settings: Settings, cancel: threading.Event) -> Attempt:
    """Answer `question` as `variant`; errors are recorded on the attempt."""
    now = question.now or settings.clock()
    try:
        if variant == "llm-only":
            return _llm_only(question, settings, now)
        return _pipeline(question, settings_for(variant, settings), now, cancel)
    except FinSearchError as exc:
        return Attempt(error=str(exc))
    except Exception as exc:          # a bug must not end the whole benchmark run
        return Attempt(error=f"unexpected error: {type(exc).__name__}: {exc}")


def _pipeline(question: Question, settings: Settings, now: datetime, cancel: threading.Event) -> Attempt:
    result = pipeline.finished(pipeline.run(question.text, now=now, settings=settings, cancel=cancel))
    if result is None or result.answer is None:
        return Attempt(error="the run finished without an answer")
    stats = result.stats
    judgement = result.judgement or {}
    return Attempt(
        answer=result.answer.markdown, writer=result.answer.writer,
        llm_calls=stats.llm_calls, prompt_tokens=stats.prompt_tokens,
        completion_tokens=stats.completion_tokens, source_calls=stats.source_calls,
        graph=graph_summary(result.graph), plan=plan_of(result.graph), audit=_scores(result.audit),
        presentation=judgement.get("presentation_score"), usage=result.usage)


def _llm_only(question: Question, settings: Settings, now: datetime) -> Attempt:
    if choose_backend(settings) != "openai":
        raise InputError(NEEDS_MODEL)
    analysis = analyse(check_question(question.text), now)
    language = say("language.name", analysis.language)
    messages = [{"role": "system", "content": fill(prompt("llm_only"), now=to_iso(now), language=language)},
                {"role": "user", "content": question.text.strip()}]
    with LLMClient(settings) as client:
        reply = client.complete(messages, call="llm_only", max_tokens=1200)
        usage = client.usage
    text = reply.text.strip()
    graph = SearchGraph(analysis.question, analysis.time_context)     # nothing was searched
    attempt = Attempt(answer=text, writer="llm", llm_calls=1, prompt_tokens=reply.prompt_tokens,
                      completion_tokens=reply.completion_tokens, source_calls=0,
                      graph={"nodes": 0, "depth": 0, "failed": 0}, audit=_scores(audit(text, [], graph, analysis)),
                      usage=usage)
    if settings.judge:
        from ..answer.judge import judge

        with LLMClient(settings.replace(model=settings.judge_model or settings.model)) as client:
            verdict = judge(analysis.question, Answer(text, analysis.language, [], "llm"), graph, client)
            attempt.usage = usage.plus(client.usage)
        attempt.presentation = verdict.get("presentation_score")
    return attempt


def graph_summary(graph: SearchGraph) -> dict:
    return {"nodes": len(graph), "depth": graph.depth() if len(graph) else 0,
            "failed": sum(1 for n in graph if n.status is NodeStatus.FAILED)}


def plan_of(graph: SearchGraph) -> list[dict]:
    return [{"id": n.id, "source": n.source, "sub_query": n.sub_query, "status": n.status.value} for n in graph]


def _scores(result_audit) -> dict | None:
    if result_audit is None:
        return None
    return {"coverage": result_audit.coverage, "grounding": result_audit.grounding, "trust": result_audit.trust}
