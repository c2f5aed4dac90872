"""Finished runs and conversations on disk, under the data directory.

    runs/<run_id>.json                 one finished run (RunResult.to_record)
    conversations/<conversation>.json  {"id", "run_ids": [...]} in the order asked

Ids come from URLs (`?run=`, `?c=`), so they are checked against a strict pattern
before they touch a path. Writes go to a temporary file first, then replace.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
import tempfile
from pathlib import Path

from .result import RunResult

log = logging.getLogger(__name__)

ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def valid_id(value: str | None) -> bool:
    return bool(value) and bool(ID_PATTERN.match(value))


@dataclasses.dataclass(frozen=True)
class RunSummary:
    run_id: str
    question: str
    asked_at: str              # the run's `now`, ISO
    backend: str               # "heuristic" or the model name
    sample: bool
    saved: float               # file modification time, for ordering


class RunStore:
    def __init__(self, data_dir: Path):
        self.runs = Path(data_dir).expanduser() / "runs"
        self.conversations = Path(data_dir).expanduser() / "conversations"

    # -- runs ---------------------------------------------------------------------------------

    def save(self, result: RunResult, conversation: str | None = None) -> None:
        _write_json(self.runs / f"{result.run_id}.json", result.to_record())
        if valid_id(conversation):
            ids = self.conversation(conversation)
            if result.run_id not in ids:
                _write_json(self.conversations / f"{conversation}.json",
                            {"id": conversation, "run_ids": [*ids, result.run_id]})

    def load(self, run_id: str) -> RunResult | None:
        if not valid_id(run_id):
            return None
        try:
            record = json.loads((self.runs / f"{run_id}.json").read_text("utf-8"))
        except (OSError, ValueError, RecursionError):
            return None
        try:
            return RunResult.from_record(record)
        except Exception as exc:  # a damaged record is treated as absent, never as a crash
            log.warning("run %s could not be read: %s", run_id, type(exc).__name__)
            return None

    def delete(self, run_id: str) -> bool:
        if not valid_id(run_id):
            return False
        try:
            (self.runs / f"{run_id}.json").unlink()
        except OSError:
            return False
        return True

    def list(self, limit: int = 200) -> list[RunSummary]:
        """Most recent first."""
        stamped = []
        for path in self.runs.glob("*.json") if self.runs.is_dir() else ():
            try:
                stamped.append((path.stat().st_mtime, path))
            except OSError:                   # deleted meanwhile
                continue
        out = []
        for saved, path in sorted(stamped, key=lambda sp: sp[0], reverse=True)[:limit]:
            try:
                record = json.loads(path.read_text("utf-8"))
                config = record.get("config") or {}
                backend = config.get("model", "heuristic") if config.get("llm") == "openai" else "heuristic"
                out.append(RunSummary(str(record["run_id"]), str(record["question"]), str(record["now"]),
                                      str(backend), bool(record.get("sample_data")), saved))
            except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
                continue                      # a damaged record is left out of the list
        return out

    # -- conversations ------------------------------------------------------------------------

    def conversation(self, conversation: str) -> list[str]:
        if not valid_id(conversation):
            return []
        try:
            raw = json.loads((self.conversations / f"{conversation}.json").read_text("utf-8"))
        except (OSError, ValueError):
            return []
        return [i for i in raw.get("run_ids", []) if valid_id(i)]

    def load_conversation(self, conversation: str) -> list[RunResult]:
        return [r for r in (self.load(i) for i in self.conversation(conversation)) if r is not None]


def _write_json(path: Path, value: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(value, handle, ensure_ascii=False)
    os.replace(tmp, path)
