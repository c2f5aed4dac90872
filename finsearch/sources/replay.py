"""Replay packs: folders of recorded source calls, so whole runs work with no network.

Each `*.json` file is one call: {"source", "args", "fetched_at", "evidence": [...]}.
An optional `_pack.json` describes the pack: {"label": "...", "sample": true, "now": "…Z"};
answers from a sample pack are labelled as sample data.

Lookup: the exact (source, canonical args); else the same source and primary key
(ticker, or query text): in the request's language first (a recording that names none comes
next, one in another language last), then one whose date range covers the request, then the
nearest range; else NotInPack. A pack is
untrusted input: its evidence goes through the same sanitiser as live results, and only its
regular files are read, each bounded as read (`untrusted_files`): a FIFO, a device, a link out
of the folder or a file too large is skipped, with why, as a file that is not a recording is.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import random
import threading
import time
from datetime import date
from pathlib import Path

from .. import surrogates
from ..catalogue import CATALOGUE, payload_of
from ..errors import NotInPack
from ..evidence import to_iso
from ..source_args import canonical_args, primary_key
from ..untrusted_files import read_bounded
from .coverage import PackCoverage
from .yahoo.price_stats import refocus_price_history

MANIFEST = "_pack.json"
MAX_FILE_BYTES = 5_000_000
MAX_MANIFEST_BYTES = 64_000

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Recording:
    source: str
    args: dict
    fetched_at: str | None
    evidence: list            # raw, untrusted dicts


@dataclasses.dataclass(frozen=True)
class SkippedFile:
    """A file of the pack that was not read as a recording, and why, for a person."""
    name: str
    why: str                  # "not valid JSON (…)", "a named pipe (FIFO), not a regular file", …

    def __str__(self) -> str:
        return f"{self.name}: {self.why}"


@dataclasses.dataclass(frozen=True)
class PackInfo:
    label: str = ""
    sample: bool = False
    now: str | None = None


class ReplayPack:
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise NotInPack(f"replay pack {self.folder} is not a folder")
        self._by_source: dict[str, list[Recording]] = {}
        self.skipped: list[SkippedFile] = []        # files that were not read as recordings
        self.info = self._read_manifest()
        for path in sorted(self.folder.glob("*.json")):
            if path.name == MANIFEST:
                continue
            try:
                recording = _read_recording(path, self.folder)
            except (OSError, ValueError, RecursionError) as exc:
                self._skip(path.name, exc)
            else:
                self._by_source.setdefault(recording.source, []).append(recording)

    def _skip(self, name: str, exc: Exception) -> None:
        skipped = SkippedFile(name, _why(exc))
        self.skipped.append(skipped)
        log.warning("replay pack %s: skipped %s", self.folder, skipped)

    def _read_manifest(self) -> PackInfo:
        """The pack's `_pack.json`, or PackInfo() when there is none or it is not one."""
        path = self.folder / MANIFEST
        if not path.exists() and not path.is_symlink():
            return PackInfo()
        try:
            raw = _read_json(path, MAX_MANIFEST_BYTES, self.folder)
        except (OSError, ValueError, RecursionError) as exc:
            self._skip(MANIFEST, exc)
            return PackInfo()
        if not isinstance(raw, dict):
            return PackInfo()
        return PackInfo(label=str(raw.get("label", ""))[:200], sample=bool(raw.get("sample")),
                        now=raw.get("now") if isinstance(raw.get("now"), str) else None)

    def __len__(self) -> int:
        return sum(len(v) for v in self._by_source.values())

    def coverage(self) -> PackCoverage:
        """The tickers each source holds calls for."""
        return PackCoverage({source: frozenset(str(r.args["ticker"]).upper() for r in recordings
                                               if r.args.get("ticker"))
                             for source, recordings in self._by_source.items()})

    def replay(self, source: str, args: dict) -> Recording:
        """`lookup`, with a nearby price history re-measured for the requested range."""
        recording = self.lookup(source, args)
        if payload_of(source) == "price_history" and canonical_args(recording.args) != canonical_args(args):
            recording = dataclasses.replace(recording, evidence=refocus_price_history(recording.evidence, args))
        return recording

    def lookup(self, source: str, args: dict) -> Recording:
        candidates = self._by_source.get(source, [])
        wanted = canonical_args(args)
        for rec in candidates:
            if canonical_args(rec.args) == wanted:
                return rec
        key = primary_key(args)
        same_key = [r for r in candidates if key is not None and primary_key(r.args) == key]
        if not same_key:
            what = f" for {key}" if key else ""
            raise NotInPack(f"not in replay pack: no {source} call{what}")
        return min(same_key, key=lambda r: (_language_distance(r.args, args), not _covers(r.args, args),
                                            _range_distance(r.args, args)))


def _language_distance(recorded: dict, wanted: dict) -> int:
    """0 in the asked language (or none asked), 1 for a recording that names none, 2 for another."""
    asked, said = wanted.get("lang"), recorded.get("lang")
    if not asked or said == asked:
        return 0
    return 1 if not said else 2


def _covers(recorded: dict, wanted: dict) -> bool:
    """The recording's date range holds the requested one (a request without dates is covered
    by any recording, and a recording without dates covers any request)."""
    try:
        if wanted.get("start") and recorded.get("start") and recorded["start"] > wanted["start"]:
            return False
        return not (wanted.get("end") and recorded.get("end") and recorded["end"] < wanted["end"])
    except TypeError:
        return False


def _range_distance(recorded: dict, wanted: dict) -> tuple[int, int]:
    """Days between the date ranges (0 for identical), then prefer the latest recording."""
    def day(args, name):
        try:
            return date.fromisoformat(args[name]).toordinal()
        except (KeyError, TypeError, ValueError):
            return None
    distance = 0
    for name in ("start", "end"):
        a, b = day(recorded, name), day(wanted, name)
        if a is not None and b is not None:
            distance += abs(a - b)
        elif (a is None) != (b is None):
            distance += 30
    return distance, -(day(recorded, "end") or 0)


def _read_json(path: Path, limit: int, folder: Path):
    """A pack file's JSON: a regular file inside `folder`, at most `limit` bytes as read
    (RefusedFile, an OSError, when not), UTF-8 (ValueError when not)."""
    return surrogates.loads(read_bounded(path, limit, within=folder).decode("utf-8"))


def _read_recording(path: Path, folder: Path) -> Recording:
    """One recording; OSError (RefusedFile: not a regular file of the pack, too large) or
    ValueError saying why the file is not one."""
    raw = _read_json(path, MAX_FILE_BYTES, folder)
    if not isinstance(raw, dict):
        raise ValueError("not a recording: not a JSON object")
    if raw.get("source") not in CATALOGUE:
        raise ValueError("not a recording: no source of this version's catalogue")
    args, evidence = raw.get("args"), raw.get("evidence")
    if not isinstance(args, dict) or not isinstance(evidence, list):
        raise ValueError('not a recording: no "args" object or no "evidence" list')
    fetched = raw.get("fetched_at")
    return Recording(raw["source"], args, fetched if isinstance(fetched, str) else None, evidence)


def _why(exc: Exception) -> str:
    """A skipped file's reason, as a person reads it."""
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
    if isinstance(exc, RecursionError):
        return "not a recording: nested too deeply"
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return str(exc)


def simulated_latency(source: str, args: dict, delay_s: float, jitter: float) -> float:
    """A replayed call's stand-in network delay: `delay_s` ± `jitter`, the same for the same
    call every time (seeded by the call), so benchmark runs are repeatable."""
    if delay_s <= 0:
        return 0.0
    seed = json.dumps([source, canonical_args(args)], sort_keys=True)
    return delay_s * (1 + random.Random(seed).uniform(-1, 1) * jitter)


class ReplayAdapter:
    """A pack played as if it were the live network, behind the cache (the benchmark's
    upstream): every call takes its simulated latency, then answers from the pack."""

    def __init__(self, pack: ReplayPack, delay_s: float = 0.0, jitter: float = 0.2):
        self.pack, self.delay_s, self.jitter = pack, delay_s, jitter

    def fetch(self, source: str, args: dict) -> list[dict]:
        time.sleep(simulated_latency(source, args, self.delay_s, self.jitter))
        return list(self.pack.replay(source, args).evidence)


_PACKS: dict[tuple[str, float], ReplayPack] = {}
_PACKS_LOCK = threading.Lock()


def open_pack(folder: Path) -> ReplayPack:
    """A pack, loaded once per folder and modification time."""
    folder = Path(folder).expanduser().resolve()
    try:
        stamp = folder.stat().st_mtime
    except OSError:
        raise NotInPack(f"replay pack {folder} does not exist") from None
    with _PACKS_LOCK:
        key = (str(folder), stamp)
        if key not in _PACKS:
            _PACKS[key] = ReplayPack(folder)
        return _PACKS[key]


def write_recording(folder: Path, source: str, args: dict, evidence: list[dict], fetched_at) -> Path:
    """Write one call into a pack folder (the `record` command)."""
    folder.mkdir(parents=True, exist_ok=True)
    canon = canonical_args(args)
    digest = hashlib.sha1(json.dumps([source, canon], sort_keys=True).encode()).hexdigest()[:10]
    key = (primary_key(canon) or "any").replace("/", "_").replace("^", "idx-")[:40]
    safe_key = "".join(ch if ch.isalnum() or ch in "-_.=" else "_" for ch in key)
    path = folder / f"{source}-{safe_key}-{digest}.json"
    record = {"source": source, "args": canon, "fetched_at": to_iso(fetched_at), "evidence": evidence}
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", "utf-8")
    return path
