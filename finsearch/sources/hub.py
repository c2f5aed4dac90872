"""The data hub: the one door every source call goes through.

    call(source, args) → replay pack | cache (fresh; any age offline) | live adapter
                         → when blocked (Unreachable), the same for its spec's fallback

Whatever comes back — replayed or live — is sanitised into `Evidence` here, counted
in the run's stats, and (when recording) written into a pack. Failures surface as
`SourceError`s whose message is the node's reason.

A fallback's answer is a call to the fallback source in its own right: its evidence
says that source, it is cached and recorded under that source's key (never as the
blocked source's result), and a note says what was used instead.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from typing import Protocol

from ..catalogue import CATALOGUE, SourceSpec
from ..deadline import Deadline
from ..errors import FailureKind, NoData, NotCached, NotInPack, SourceError, Unreachable
from ..evidence import Evidence, parse_utc, sanitise
from ..settings import Settings
from ..source_args import canonical_args, check_args
from .cache.disk import Entry
from .coverage import PackCoverage
from .replay import open_pack, simulated_latency, write_recording
from .upstream import resilience

log = logging.getLogger(__name__)

FIRST_TRY_SHARE = 0.6      # of a node's time, for a source that has a fallback


class Adapter(Protocol):
    """A live data source. `fetch` returns raw evidence dicts (the Evidence contract's
    shape; untrusted) or raises SourceError with a reason fit for a user."""

    def fetch(self, source: str, args: dict) -> list[dict]: ...


@dataclasses.dataclass
class HubStats:
    calls: int = 0
    cache_hits: int = 0           # served by the source cache
    pack_reads: int = 0           # served by a replay pack (not the cache: a fresh server has none)
    upstream_calls: int = 0
    bytes: int = 0
    failures: int = 0

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class CallResult:
    evidence: tuple[Evidence, ...]
    origin: str               # "pack" | "cache" | "live"
    fetched_at: datetime | None
    sample: bool = False      # from a pack labelled as sample data
    # Sentences for the run's notes: what the sanitiser had to repair, a fallback used.
    problems: tuple[str, ...] = ()


class DataHub:
    def __init__(self, settings: Settings, adapters: Mapping[str, Adapter] | None = None,
                 cache=None, clock: Callable[[], datetime] | None = None):
        self.settings = settings
        self.adapters = dict(adapters or {})
        self.cache = cache
        # Real time, not the question's pinned `now`: freshness is about when data was fetched.
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.stats = HubStats()
        self._lock = threading.Lock()
        self.pack = open_pack(settings.pack) if settings.pack else None

    @property
    def sample(self) -> bool:
        return bool(self.pack and self.pack.info.sample)

    @property
    def coverage(self) -> PackCoverage | None:
        """What the offline sample holds (None unless the pack is a sample): a gap in its
        answers names it."""
        return self.pack.coverage() if self.pack and self.pack.info.sample else None

    def notices(self) -> list[str]:
        """What the run's reader should know about the data layer (a damaged cache replaced)."""
        take = getattr(self.cache, "take_notices", None)
        return take() if take else []

    def call(self, source: str, args: dict, deadline: Deadline | None = None) -> CallResult:
        """`source` on `args`; every upstream call made for it ends by `deadline` (the node's)."""
        spec = CATALOGUE.get(source)
        if spec is None:
            raise SourceError(f"unknown source {source!r}")
        if source in self.settings.disabled_sources:
            raise SourceError(f"the {source} source is switched off in settings", kind=FailureKind.SWITCHED_OFF)
        self._count(calls=1)
        try:
            fallback = spec.fallback if spec.fallback and spec.fallback not in self.settings.disabled_sources \
                and _takes(spec.fallback, args) else None
            # A source with a fallback gets part of the node's time, so that a hung source
            # still leaves the fallback time to answer.
            first = deadline.share(FIRST_TRY_SHARE) if fallback and deadline else deadline
            try:
                with resilience.deadline_scope(first):
                    result = self._resolve(source, canonical_args(args))
            except Unreachable as blocked:
                if fallback is None:
                    raise
                with resilience.deadline_scope(deadline):
                    result = self._fall_back(spec, args, blocked)
        except SourceError:
            self._count(failures=1)
            raise
        if not result.evidence:
            self._count(failures=1)
            raise NoData(_no_data_reason(source, args))
        return result

    def cached(self, source: str, args: dict) -> CallResult | None:
        """What `source` on `args` gives without asking upstream: the pack's recording, or the cache's
        entry while it is fresh (at any age offline); None when neither has it. A look, not a call: not
        counted in `stats` (a repeated question's kept answer is checked by it, `finsearch.answer_cache`)."""
        spec = CATALOGUE.get(source)
        if spec is None or source in self.settings.disabled_sources:
            return None
        args = canonical_args(args)
        if self.pack is not None:
            try:
                recording = self.pack.replay(source, args)
            except NotInPack:
                if self.cache is None or self.settings.offline or self.pack.info.sample:
                    return None
            else:
                fetched = parse_utc(recording.fetched_at) if recording.fetched_at else None
                return CallResult(sanitise(recording.evidence, source, spec.kind)[0], "pack", fetched,
                                  sample=self.pack.info.sample)
        entry = self.cache.get(source, args, any_age=self.settings.offline, now=self.clock()) if self.cache else None
        if entry is None:
            return None
        return CallResult(sanitise(entry.evidence, source, spec.kind)[0], "cache", entry.fetched_at)

    def _fall_back(self, spec: SourceSpec, args: dict, blocked: Unreachable) -> CallResult:
        """The call put to `spec.fallback` instead, with the arguments it declares.
        When that fails too, the node fails as blocked, with both reasons."""
        target = CATALOGUE[spec.fallback]
        carried = _carried(target, args)
        try:
            result = self._resolve(target.id, carried)
            if not result.evidence:
                raise NoData(_no_data_reason(target.id, carried))
        except SourceError as exc:
            raise Unreachable(f"{blocked}; {target.id} instead: {exc}", kind=blocked.kind) from exc
        note = f"{blocked}; used {target.id} instead"
        return dataclasses.replace(result, problems=(note, *result.problems))

    def _resolve(self, source: str, args: dict) -> CallResult:
        kind = CATALOGUE[source].kind
        if self.pack is not None:
            try:
                recording = self.pack.replay(source, args)
            except NotInPack:
                # Never mix a sample pack's invented data with real data.
                if self.cache is None or self.settings.offline or self.pack.info.sample:
                    raise
            else:
                self._count(pack_reads=1)
                time.sleep(simulated_latency(source, args, self.settings.replay_delay_s, self.settings.replay_jitter))
                evidence, problems = sanitise(recording.evidence, source, kind)
                fetched = parse_utc(recording.fetched_at) if recording.fetched_at else None
                return CallResult(evidence, "pack", fetched, sample=self.pack.info.sample, problems=problems)
        if self.cache is not None:
            entry = self.cache.get(source, args, any_age=self.settings.offline, now=self.clock())
            if entry is not None:
                self._count(cache_hits=1, bytes=entry.size)
                evidence, problems = sanitise(entry.evidence, source, kind)
                return self._recorded(source, args, CallResult(evidence, "cache", entry.fetched_at,
                                                               problems=problems))
        if self.settings.offline:
            raise NotCached(f"not cached offline: no stored {source} result for these arguments")
        adapter = self.adapters.get(source)
        if adapter is None:
            raise SourceError(f"no live {source} source is configured (set a replay pack or go online)")
        return self._recorded(source, args, self._fetch_live(adapter, source, kind, args))

    def _fetch_live(self, adapter: Adapter, source: str, kind: str, args: dict) -> CallResult:
        fresh: list[tuple[tuple[Evidence, ...], tuple[str, ...]]] = []

        def produce() -> list[dict]:
            self._count(upstream_calls=1)
            fresh.append(sanitise(adapter.fetch(source, dict(args)), source, kind))
            return [e.to_dict() for e in fresh[0][0]]

        if self.cache is None:
            items = produce()
            entry, cached = Entry(items, self.clock(), len(json.dumps(items, ensure_ascii=False))), False
        else:
            entry, cached = self.cache.fetch_through(source, args, produce, now=self.clock)
        self._count(bytes=entry.size, cache_hits=int(cached))
        evidence, problems = fresh[0] if fresh else sanitise(entry.evidence, source, kind)
        return CallResult(evidence, "cache" if cached else "live", entry.fetched_at, problems=problems)

    def _recorded(self, source: str, args: dict, result: CallResult) -> CallResult:
        """Write the call into the pack being recorded, whatever served it."""
        if self.settings.record_to is not None and result.evidence:
            write_recording(self.settings.record_to, source, args, [e.to_dict() for e in result.evidence],
                            result.fetched_at or self.clock())
        return result

    def _count(self, **deltas: int) -> None:
        with self._lock:
            for name, delta in deltas.items():
                setattr(self.stats, name, getattr(self.stats, name) + delta)


def _no_data_reason(source: str, args: dict) -> str:
    subject = args.get("ticker") or args.get("query") or "these arguments"
    return f"no data for {subject} from {source}"


def _carried(target: SourceSpec, args: dict) -> dict:
    """The arguments a fallback call gets: those its spec declares."""
    return canonical_args({name: value for name, value in args.items() if target.arg(name)})


def _takes(fallback: str, args: dict) -> bool:
    """Whether the fallback can be asked this call at all: Tencent's A-share bars are no
    fallback for a US ticker, nor for hourly bars (the node then keeps all its time)."""
    return not check_args(fallback, _carried(CATALOGUE[fallback], args))
