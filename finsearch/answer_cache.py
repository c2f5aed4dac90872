"""A repeated question answered again without a model: its answer kept by its reading and its evidence.

A model's answer costs seconds and money; the same question asked again while its sources are
still fresh would be answered from the same evidence, so it is given again instead:

- **kept** (`keep`) after a run whose answer the model wrote, with nothing transient about it (not
  stopped, no search cut short, timed out or unreachable, the model never failing): the run's
  record, the calls its searches made, a fingerprint of what they returned, and when it was kept;
- **keyed** by the question's reading (`reading_key`): the question (case and spacing aside), its
  language, instruments, time context (absolute days), intents, what it inherited from the turn
  before, the user's corrections, and how the run is configured (model, data, weighting, the day);
- **given again** (`recall`) when a kept answer's calls, asked of the pack or the source cache
  only (`DataHub.cached`: never upstream, so a hit costs milliseconds), return exactly what they
  did: a call whose cache entry went stale, or evidence that changed, is a miss, and the question
  runs as usual (and keeps its new answer). A hit makes no model call at all, the plan's
  included; the answer says it is a cached answer and when it was written (`note.cached_answer`,
  `RunResult.cached_at`, `ask --json`'s `cached_at`).

The answers live where the source cache does (`sources/cache`: diskcache on disk, Redis when
configured), under keys of their own, in the same size bound and LRU. A damaged or foreign entry
reads as a miss, and the run that follows replaces it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
from datetime import datetime

from .context import RunContext
from .errors import FailureKind
from .evidence import Evidence, parse_utc, to_iso
from .graph import NodeStatus
from .model.usage import ModelUsage
from .phrases import say
from .result import RunConfig, RunResult, RunStats, new_id
from .source_args import canonical_args
from .sources.hub import CallResult

log = logging.getLogger(__name__)

VERSION = 1                      # bumped when what is kept, or how an answer is written, changes
MAX_RECORD_CHARS = 2_000_000     # one answer never crowds the sources out of the cache's bound
# A search that ended so is settled: asking again finds the same (a search cut short is not).
SETTLED = frozenset({FailureKind.NO_DATA, FailureKind.UNKNOWN_SYMBOL, FailureKind.NOT_IN_PACK, FailureKind.SKIPPED,
                     FailureKind.LEFT_OUT, FailureKind.SWITCHED_OFF, FailureKind.NOT_SET_UP})


@dataclasses.dataclass(frozen=True)
class Call:
    source: str
    args: dict


@dataclasses.dataclass(frozen=True)
class KeptAnswer:
    fingerprint: str                 # of what `calls` returned
    calls: tuple[Call, ...]          # the searches that found evidence, as they were made
    kept_at: datetime                # when the answer was written (UTC)
    record: dict                     # the run, as history stores it (`RunResult.to_record`)

    def to_json(self) -> str:
        return json.dumps({"version": VERSION, "fingerprint": self.fingerprint, "kept_at": to_iso(self.kept_at),
                           "calls": [[c.source, c.args] for c in self.calls], "record": self.record},
                          ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | None) -> KeptAnswer | None:
        """The kept answer, or None for anything else (damaged, foreign, an older version)."""
        try:
            raw = json.loads(text)
            kept_at = parse_utc(raw["kept_at"])
            calls = tuple(Call(str(source), dict(args)) for source, args in raw["calls"])
            if raw["version"] != VERSION or kept_at is None or not calls or not isinstance(raw["record"], dict) \
                    or not isinstance(raw["fingerprint"], str):
                return None
            return cls(raw["fingerprint"], calls, kept_at, raw["record"])
        except (TypeError, ValueError, KeyError, AttributeError):
            return None


def reading_key(ctx: RunContext) -> str:
    """The key of the question as this run reads it, with what else shapes its answer."""
    analysis, settings = ctx.analysis, ctx.settings
    reading = {
        "version": VERSION, "question": " ".join(analysis.question.casefold().split()),
        "language": analysis.language, "entities": [e.ticker for e in analysis.entities],
        "time": analysis.time_context.to_dict(), "intents": sorted(analysis.intents),
        "inherited": list(analysis.inherited), "corrections": ctx.corrections.to_json(),
        "config": RunConfig.describe(settings, ctx.backend).to_json(), "base_url": settings.base_url,
        "schedule": settings.schedule, "switched_off": sorted(settings.disabled_sources),
        "day": ctx.now.date().isoformat(),
    }
    return hashlib.sha256(json.dumps(reading, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()


def fingerprint(calls: tuple[Call, ...], found: list[tuple[Evidence, ...]]) -> str:
    """What the calls returned, item by item (their weights aside: those are the run's, not the source's)."""
    content = [[c.source, canonical_args(c.args), [{k: v for k, v in e.to_dict().items() if k != "time_weight"}
                                                   for e in items]] for c, items in zip(calls, found, strict=True)]
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()


def _found_now(ctx: RunContext, calls: tuple[Call, ...]) -> list[CallResult] | None:
    """What each call gives now from the pack or the cache (None when one gives nothing there)."""
    found = []
    for call in calls:
        result = ctx.hub.cached(call.source, call.args)
        if result is None or not result.evidence:
            return None
        found.append(result)
    return found


def _store(ctx: RunContext):
    """The cache that keeps answers for this run, or None (no cache; a judge or a recording wants a real run)."""
    hub, settings = ctx.hub, ctx.settings
    if hub is None or settings.judge or settings.record_to is not None or ctx.backend != "openai":
        return None
    cache = hub.cache
    return cache if cache is not None and hasattr(cache, "get_answer") else None


def recall(ctx: RunContext) -> RunResult | None:
    """The kept answer to this question, given again (no model call), when its evidence is still what
    it was; None otherwise."""
    store = _store(ctx)
    if store is None:
        return None
    kept = KeptAnswer.from_json(store.get_answer(reading_key(ctx)))
    if kept is None:
        return None
    found = _found_now(ctx, kept.calls)
    if found is None or fingerprint(kept.calls, [r.evidence for r in found]) != kept.fingerprint:
        return None
    try:
        stored = RunResult.from_record(kept.record)
    except Exception:   # a record this version cannot read: answer the question anew
        log.warning("a kept answer could not be read; answering again", exc_info=True)
        return None
    language = ctx.analysis.language
    note = say("note.cached_answer", language, when=f"{kept.kept_at:%Y-%m-%d %H:%M:%S}")
    stats = RunStats(source_calls=len(found), cache_hits=sum(r.origin == "cache" for r in found),
                     pack_reads=sum(r.origin == "pack" for r in found),
                     nodes_failed=sum(1 for n in stored.graph if n.status is not NodeStatus.DONE),
                     wall_ms=round(ctx.clock()))
    return dataclasses.replace(stored, run_id=new_id(), analysis=ctx.analysis, now=ctx.now,
                               config=RunConfig.describe(ctx.settings, ctx.backend), stats=stats,
                               notes=(note, *stored.notes), usage=ModelUsage(), judgement=None,
                               corrections=ctx.corrections, cached_at=kept.kept_at)


def keep(ctx: RunContext, result: RunResult) -> bool:
    """Keep `result`'s answer for the question asked again, when the model wrote it and nothing about
    the run was transient; whether it was kept."""
    store = _store(ctx)
    answer = result.answer
    if store is None or answer is None or answer.writer != "llm" or result.cancelled or result.cached_at \
            or (ctx.model is not None and ctx.model.failure is not None):
        return False
    if any(n.status is not NodeStatus.DONE and n.failure not in SETTLED for n in result.graph):
        return False
    calls = tuple(Call(n.source, canonical_args(n.args)) for n in result.graph if n.status is NodeStatus.DONE)
    found = _found_now(ctx, calls) if calls else None
    if found is None:
        return False            # a call only upstream could answer (a fallback's): nothing to check a repeat by
    kept = KeptAnswer(fingerprint(calls, [r.evidence for r in found]), calls, ctx.hub.clock(), result.to_record())
    text = kept.to_json()
    return len(text) <= MAX_RECORD_CHARS and store.put_answer(reading_key(ctx), text)
