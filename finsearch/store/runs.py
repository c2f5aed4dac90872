"""What a store of finished runs, reports and conversations offers, whichever backend holds them.

A stored run is `RunResult.to_record()`, plus `"owner"` when the run was saved for one. A
finished deep-research report is stored the same way (`research.record.to_record(report)`, whose `"kind"` is
`"report"`), under its own id in the same index: History lists both, and `delete`, `owner_of`
and the share links work on either. `load(id, kind)` opens only a record of that kind, so a
report's id is not a run (`?run=`) nor a run's a report (`?report=`). The
owner is an opaque identity string (`finsearch.hosting.identity`: History, deletion and conversations
are keyed by it); `None` means "no owner" (runs saved before identities, and the CLI's). Listing
with `owner=` returns only that owner's runs; deleting with `owner=` deletes only theirs.

Ids come from URLs (`?run=`, `?c=`), so every backend checks them against one strict
pattern before they touch a path or a key.

Errors: the file backend never raises on a read (a missing or damaged record is absent) and
raises `OSError` when a write fails; the Redis backend raises `StoreUnavailable` whenever
Redis cannot be reached, on reads and writes alike, so "down" is never mistaken for "absent".
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Sequence
from typing import Literal, Protocol

from ..model.usage import ModelUsage
from ..research import record as report_record
from ..research.result import Report
from ..result import RunResult
from ..surrogates import replace_lone
from .shares import Share, ShareKind

log = logging.getLogger(__name__)

RecordKind = Literal["run", "report"]
Stored = RunResult | Report

ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def valid_id(value: str | None) -> bool:
    return bool(value) and bool(ID_PATTERN.match(value))


@dataclasses.dataclass(frozen=True)
class RunSummary:
    run_id: str                # the run's id, or the report's
    question: str
    asked_at: str              # the run's `now`, ISO
    backend: str               # "heuristic" or the model name
    sample: bool
    saved: float               # when it was stored (epoch seconds), for ordering
    owner: str | None = None
    kind: RecordKind = "run"   # summaries stored before reports were kept are runs
    usage: ModelUsage | None = None   # model calls, tokens, cost; None: stored before usage was kept


class RunStore(Protocol):
    """Finished runs and the conversations they belong to."""

    def save(self, result: Stored, conversation: str | None = None, *, owner: str | None = None) -> None:
        """Store `result`, a run or a report (replacing one of the same id), and append a run to
        `conversation`."""

    def load(self, run_id: str, kind: RecordKind = "run") -> Stored | None:
        """The run (or, with kind="report", the report), or None when there is none of that kind
        by that id (or its record is damaged)."""

    def delete(self, run_id: str, *, owner: str | None = None) -> bool:
        """True when a run or report was deleted. With `owner`, only one saved for that owner is."""

    def owner_of(self, run_id: str) -> str | None:
        """The owner a run was saved for (None: no such run, or saved without one)."""

    def list(self, limit: int = 200, *, owner: str | None = None) -> list[RunSummary]:
        """Most recent first; only `owner`'s runs when one is given."""

    def conversation(self, conversation: str) -> list[str]:
        """The run ids of a conversation, in the order asked."""

    def load_conversation(self, conversation: str) -> list[RunResult]:
        """The conversation's runs that still exist, in the order asked."""

    def conversation_owner(self, conversation: str) -> str | None:
        """The owner whose run began the conversation (None: none was given)."""

    # Share links (`store.shares`): capabilities their owner makes and revokes.

    def share(self, kind: ShareKind, run_ids: Sequence[str], owner: str, question: str) -> Share:
        """A new share link to `run_ids` (a run, or a conversation's snapshot)."""

    def shared(self, token: str) -> Share | None:
        """What the link `token` shows, or None when there is no such (or a revoked) link."""

    def shares(self, owner: str) -> list[Share]:
        """`owner`'s live share links, newest first."""

    def revoke(self, token: str, owner: str) -> bool:
        """True when `owner`'s link `token` was revoked (another's link is left alone)."""


def id_of(result: Stored) -> str:
    return result.report_id if isinstance(result, Report) else result.run_id


def record_of(result: Stored, owner: str | None) -> dict:
    """What a backend stores for `result`: its record, with the owner when there is one."""
    record = report_record.to_record(result) if isinstance(result, Report) else result.to_record()
    if owner is not None:
        record["owner"] = owner
    return record


def summary_of(record: dict, saved: float) -> RunSummary:
    """The History line of a stored record. Raises KeyError/TypeError/AttributeError on a damaged one."""
    owner = str(record["owner"]) if record.get("owner") is not None else None
    if kind_of(record) == "report":
        backend = "model" if record["writer"] == "llm" else "heuristic"
        return RunSummary(str(record["report_id"]), str(record["question"]), str(record["now"]), backend,
                          bool(record.get("sample")), saved, owner, "report", _usage(record))
    config = record.get("config") or {}
    backend = config.get("model", "heuristic") if config.get("llm") == "openai" else "heuristic"
    return RunSummary(str(record["run_id"]), str(record["question"]), str(record["now"]), str(backend),
                      bool(record.get("sample_data")), saved, owner, usage=_usage(record))


def _usage(record: dict) -> ModelUsage | None:
    return ModelUsage.from_json(record["usage"]) if isinstance(record.get("usage"), dict) else None


def kind_of(record: dict) -> RecordKind:
    return "report" if record.get("kind") == "report" else "run"


def record_json(record: dict) -> str:
    """A record as a backend stores it: JSON with its lone surrogates as U+FFFD, so a save never
    fails on one (a last defence: text is mended where it enters, `finsearch.surrogates`)."""
    return replace_lone(json.dumps(record, ensure_ascii=False))


def summary_json(summary: RunSummary) -> str:
    return record_json({**dataclasses.asdict(summary),
                        "usage": summary.usage.to_json() if summary.usage is not None else None})


def summary_from_json(text: str) -> RunSummary | None:
    try:
        raw = json.loads(text)
        return RunSummary(**{**raw, "usage": _usage(raw)})
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None


def parse_record(text: str | bytes, run_id: str, kind: RecordKind = "run") -> Stored | None:
    """A stored record back as a RunResult (or a Report); a damaged one, or one of another
    kind, is absent, never a crash."""
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or kind_of(record) != kind:
        return None
    try:
        return report_record.from_record(record) if kind == "report" else RunResult.from_record(record)
    except Exception as exc:  # a damaged record is treated as absent, never as a crash
        log.warning("run %s could not be read: %s", run_id, type(exc).__name__)
        return None
