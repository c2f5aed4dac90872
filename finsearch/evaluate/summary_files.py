"""Reading an evaluation summary back, for the Evaluate page: a summary.json checked before it
is shown (size, depth, shape), and the folders the page may look in for them.

Written by `summary` (results files → summary.json and summary.md); read here, where what
comes in may be an upload or a file on disk that anyone could have put there.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import surrogates
from ..errors import InputError
from ..untrusted_files import read_bounded

_NUMBERS = ("n", "accuracy", "unparsed", "llm_calls_mean", "tokens_mean", "source_calls_mean", "prompt_tokens_total",
            "completion_tokens_total", "cost_usd_total")


SUMMARY_MAX_MB = 2                 # a real summary is a few kilobytes
SUMMARY_MAX_BYTES = SUMMARY_MAX_MB * 2**20   # an "MB" as the upload box counts it
SUMMARY_MAX_DEPTH = 12             # and a few levels deep
SUMMARY_MAX_DIGITS = 18            # a count or a sum of milliseconds; beyond it no real figure (and no table column)


class _NumberTooLong(ValueError):
    """A whole number in a summary longer than any of its figures."""


def parse_summary(text: str | bytes, name: str = "summary.json") -> dict:
    """A summary.json's content, checked; InputError saying what is wrong with it
    (including a file too large or nested too deeply to be a summary)."""
    if len(text) > SUMMARY_MAX_BYTES:
        raise InputError(f"{name} is {len(text) / 2**20:.1f} MB; a summary is at most {SUMMARY_MAX_MB} MB")
    unreadable = f"{name} is not a summary FinSearch can read"
    try:
        # A lone surrogate ("\ud800" in a variant's name) is U+FFFD: no page or table takes one.
        data = surrogates.loads(text, parse_int=_whole_number)
    except UnicodeDecodeError:
        raise InputError(f"{name} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except _NumberTooLong as exc:
        raise InputError(f"{unreadable}: {exc}") from None
    except ValueError:                              # any other value json cannot turn into Python
        raise InputError(f"{unreadable}: it holds a value that cannot be read") from None
    except RecursionError:
        raise InputError(f"{name} is nested too deeply to be an evaluation summary") from None
    if _depth(data) > SUMMARY_MAX_DEPTH:
        raise InputError(f"{name} is nested too deeply to be an evaluation summary")
    if not isinstance(data, dict) or not isinstance(data.get("variants"), dict):
        raise InputError(f"{name} is not an evaluation summary: it has no \"variants\" object")
    if not data["variants"]:
        raise InputError(f"{name} holds no variants")
    for variant, entry in data["variants"].items():
        if not isinstance(entry, dict):
            raise InputError(f"{name}: variant {variant!r} is not an object")
        for key in _NUMBERS:
            value = entry.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise InputError(f"{name}: variant {variant!r} has a non-numeric {key!r}")
        latency = entry.get("latency_ms", {})
        if not isinstance(latency, dict) or any(
                v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))) for v in latency.values()):
            raise InputError(f"{name}: variant {variant!r} has a malformed \"latency_ms\"")
        categories = entry.get("by_category", {})
        if not isinstance(categories, dict) or not all(isinstance(c, dict) for c in categories.values()):
            raise InputError(f"{name}: variant {variant!r} has a malformed \"by_category\"")
    return data


def read_summary(path: Path, within: Path | None = None) -> bytes:
    """A listed summary.json's bytes: a regular file (inside `within` when given, as
    `find_summaries` lists), refused past the limit as read (RefusedFile, an OSError, saying
    why) — not a FIFO, a device or a file that grew since it was listed."""
    return read_bounded(path, SUMMARY_MAX_BYTES, within=within)


def _whole_number(digits: str) -> int:
    """A JSON integer, refused (`_NumberTooLong`) past SUMMARY_MAX_DIGITS: read whole, one of
    more than 4,300 digits is Python's ValueError, and a long one overflows the page's table."""
    length = len(digits.lstrip("-"))
    if length > SUMMARY_MAX_DIGITS:
        raise _NumberTooLong(f"it holds a whole number {length:,} digits long")
    return int(digits)


def _depth(value, level: int = 0) -> int:
    if level > SUMMARY_MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def eval_folder(data_dir: Path, typed: str, allow_any: bool = False) -> Path:
    """The folder the Evaluate page may read for `typed`: relative paths are under
    `data_dir/eval`; anything that resolves outside `data_dir` is refused (InputError)
    unless the operator allows any folder (FINSEARCH_EVAL_ANY_FOLDER)."""
    root = (Path(data_dir).expanduser() / "eval")
    try:
        wanted = Path(typed.strip() or ".").expanduser()
        folder = (wanted if wanted.is_absolute() else root / wanted).resolve()
    except (ValueError, OSError, RuntimeError):     # a NUL byte, a symlink loop, no home directory for ~x
        raise InputError("That is not a folder name this page can read.") from None
    if not allow_any and not folder.is_relative_to(Path(data_dir).expanduser().resolve()):
        raise InputError("Only folders inside this server's data directory can be read here.")
    return folder


def find_summaries(folder: Path, limit: int = 200, within: Path | None = None) -> list[Path]:
    """summary.json files in `folder` and up to two levels below it, newest first; with
    `within`, only those that resolve inside it (a symlinked folder or file pointing out of
    the data directory is skipped, not followed)."""
    folder = Path(folder).expanduser()
    root = Path(within).expanduser().resolve() if within is not None else None
    found: list[Path] = []
    try:
        if not folder.is_dir():
            return []
        for pattern in ("summary.json", "*/summary.json", "*/*/summary.json"):
            found.extend(p for p in folder.glob(pattern)
                         if p.is_file() and (root is None or p.resolve().is_relative_to(root)))
        found = found[:limit]
        return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return found
