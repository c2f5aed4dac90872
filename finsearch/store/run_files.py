"""The embedded backend: finished runs, reports and conversations as files under the data directory.

    runs/<run_id>.json                 one finished run or report (`record_of`: its to_record + owner)
    conversations/<conversation>.json  {"id", "run_ids": [...], "owner"?} in the order asked
    shares/<token>.json                a share link (`store.shares.Share`)

Nothing to install; right for one machine. Writes go to a temporary file first, then replace,
so a reader never sees half a record.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from ..result import RunResult
from .runs import RecordKind, RunSummary, Stored, id_of, parse_record, record_json, record_of, summary_of, valid_id
from .shares import Share, ShareKind, new_share_token, share_from_json


class FileRunStore:
    def __init__(self, data_dir: Path):
        self.runs = Path(data_dir).expanduser() / "runs"
        self.conversations = Path(data_dir).expanduser() / "conversations"
        self.share_dir = Path(data_dir).expanduser() / "shares"

    # -- runs ---------------------------------------------------------------------------------

    def save(self, result: Stored, conversation: str | None = None, *, owner: str | None = None) -> None:
        _write_json(self.runs / f"{id_of(result)}.json", record_of(result, owner))
        if isinstance(result, RunResult) and valid_id(conversation):
            ids = self.conversation(conversation)
            if result.run_id not in ids:
                value: dict = {"id": conversation, "run_ids": [*ids, result.run_id]}
                # The first owner given keeps the conversation (as Redis's HSETNX does).
                first_owner = self.conversation_owner(conversation) or owner
                if first_owner is not None:
                    value["owner"] = first_owner
                _write_json(self.conversations / f"{conversation}.json", value)

    def load(self, run_id: str, kind: RecordKind = "run") -> Stored | None:
        if not valid_id(run_id):
            return None
        try:
            text = (self.runs / f"{run_id}.json").read_text("utf-8")
        except (OSError, ValueError):
            return None
        return parse_record(text, run_id, kind)

    def delete(self, run_id: str, *, owner: str | None = None) -> bool:
        if not valid_id(run_id):
            return False
        if owner is not None and self.owner_of(run_id) != owner:
            return False
        try:
            (self.runs / f"{run_id}.json").unlink()
        except OSError:
            return False
        return True

    def owner_of(self, run_id: str) -> str | None:
        if not valid_id(run_id):
            return None
        try:
            owner = json.loads((self.runs / f"{run_id}.json").read_text("utf-8")).get("owner")
        except (OSError, ValueError, AttributeError, RecursionError):
            return None
        return owner if isinstance(owner, str) else None

    def list(self, limit: int = 200, *, owner: str | None = None) -> list[RunSummary]:
        stamped = []
        for path in self.runs.glob("*.json") if self.runs.is_dir() else ():
            try:
                stamped.append((path.stat().st_mtime, path))
            except OSError:                   # deleted meanwhile
                continue
        out: list[RunSummary] = []
        for saved, path in sorted(stamped, key=lambda sp: sp[0], reverse=True):
            if len(out) >= limit:
                break
            try:
                summary = summary_of(json.loads(path.read_text("utf-8")), saved)
            except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
                continue                      # a damaged record is left out of the list
            if owner is None or summary.owner == owner:
                out.append(summary)
        return out

    # -- conversations ------------------------------------------------------------------------

    def conversation(self, conversation: str) -> list[str]:
        raw = self._conversation_file(conversation)
        ids = raw.get("run_ids", []) if isinstance(raw, dict) else []
        return [i for i in ids if isinstance(i, str) and valid_id(i)] if isinstance(ids, list) else []

    def load_conversation(self, conversation: str) -> list[RunResult]:
        return [r for r in (self.load(i) for i in self.conversation(conversation)) if r is not None]

    def conversation_owner(self, conversation: str) -> str | None:
        raw = self._conversation_file(conversation)
        owner = raw.get("owner") if isinstance(raw, dict) else None
        return owner if isinstance(owner, str) else None

    def _conversation_file(self, conversation: str):
        if not valid_id(conversation):
            return None
        try:
            return json.loads((self.conversations / f"{conversation}.json").read_text("utf-8"))
        except (OSError, ValueError, RecursionError):
            return None

    # -- share links --------------------------------------------------------------------------

    def share(self, kind: ShareKind, run_ids: Sequence[str], owner: str, question: str) -> Share:
        link = Share(new_share_token(), kind, tuple(run_ids), owner, question, time.time())
        _write_json(self.share_dir / f"{link.token}.json", json.loads(link.to_json()))
        return link

    def shared(self, token: str) -> Share | None:
        if not valid_id(token):
            return None
        try:
            return share_from_json((self.share_dir / f"{token}.json").read_text("utf-8"))
        except OSError:
            return None

    def shares(self, owner: str) -> list[Share]:
        found = []
        for path in self.share_dir.glob("*.json") if self.share_dir.is_dir() else ():
            try:
                link = share_from_json(path.read_text("utf-8"))
            except OSError:                   # revoked meanwhile
                continue
            if link is not None and link.owner == owner:
                found.append(link)
        return sorted(found, key=lambda link: link.created, reverse=True)

    def revoke(self, token: str, owner: str) -> bool:
        link = self.shared(token)
        if link is None or link.owner != owner:
            return False
        try:
            (self.share_dir / f"{token}.json").unlink()
        except OSError:
            return False
        return True


def _write_json(path: Path, value: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(record_json(value))
        os.replace(tmp, path)
    except BaseException:
        try:                                   # never leave a stray temporary file behind
            os.unlink(tmp)
        except OSError:
            pass
        raise
