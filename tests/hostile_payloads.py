"""Hostile values for fuzzing what a source parses, seeded, and the check every outcome must pass:
evidence whose text is inert, or a source failure FinSearch wrote on purpose.

`leaf(rng)` is one value a site could send where it should not (wrong type, NaN, infinity, a
number too large for a float, markup, a lone surrogate, control characters, strings of hundreds
of kilobytes built to make naive tag stripping quadratic); `mutate(rng, value)` copies a real
recorded answer with some of its values swapped for such leaves; `settled(call)` runs one source
call and checks what came of it.
"""

from __future__ import annotations

import json
import random
import re
import time
import traceback
from pathlib import Path

from finsearch.catalogue import CATALOGUE
from finsearch.errors import SourceError
from finsearch.evidence import sanitise
from finsearch.surrogates import has_lone

PACKAGE = Path(__file__).resolve().parents[1] / "finsearch"
HOSTILE_TEXT = [
    "<script>alert(1)</script>Revenue", "<img src=x onerror=alert(2)>", "javascript:alert(3)",
    "&lt;iframe src=//evil.test&gt;", "<a href='https://evil.test'>click</a>", "[x](https://evil.test)",
    "\ud800", "\x1b]0;PWNED\x07\x1b[2J", "\u202eevil", "../../../etc/passwd", "file:///etc/passwd", "",
    "   ", "NaN", "--", "9" * 5000, "2024-13-45", "9999-12-31 23:59:59", "1e999",
    "A" * 300_000,                       # a huge string
    "<script>" * 40_000,                 # openings that never close: quadratic for `<script\b.*?</script>`
    "<" * 300_000,                       # quadratic for `<[^>]*>`
    "<p" * 150_000,                      # and for `</?(?:p|div…)\b[^>]*>`
]
LEAVES = [None, True, False, 0, -1, 0.0, 1e308, -1e308, float("nan"), float("inf"), float("-inf"), 10**30,
          3.5, [], {}, [None], {"": None}, *HOSTILE_TEXT]
# A whole tag; a lone "<" is text (a "P/E < 10"), and every page escapes what it shows.
_TAG = re.compile(r"<[A-Za-z/!?][^<>]*>")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def leaf(rng: random.Random):
    return rng.choice(LEAVES)


def shape(rng: random.Random, fields: list[str], depth: int = 0):
    """A random nested value keyed by `fields`, hostile at the leaves."""
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return leaf(rng)
    if roll < 0.7:
        return {rng.choice(fields): shape(rng, fields, depth + 1) for _ in range(rng.randint(0, 5))}
    return [shape(rng, fields, depth + 1) for _ in range(rng.randint(0, 4))]


def mutate(rng: random.Random, value, rate: float = 0.05):
    """A copy of `value` (decoded JSON) with about `rate` of its values, at any depth, hostile."""
    if rng.random() < rate:
        return leaf(rng)
    if isinstance(value, dict):
        return {k: mutate(rng, v, rate) for k, v in value.items() if rng.random() > rate / 4}
    if isinstance(value, list):
        return [mutate(rng, v, rate) for v in value if rng.random() > rate / 4]
    return value


def to_json(value) -> bytes:
    """As a site would send it: NaN and Infinity as bare words, a lone surrogate escaped."""
    return json.dumps(value).encode()


def settled(call, source: str, within_s: float = 30.0, site: tuple[str, ...] = ()) -> str:
    """Run `call()` (one source call) and check its outcome: its items sanitised into evidence
    whose text is inert, or a SourceError that our own code meant, never a crash of our
    parsers wrapped as one; all within `within_s`. `site`: files that stand in for the site's
    library (a fake akshare). Returns "evidence" or the error's class name."""
    started = time.monotonic()
    try:
        items = call()
    except SourceError as exc:
        _not_our_crash(exc, source, site)
        outcome = type(exc).__name__
    else:
        assert isinstance(items, list), f"{source} returned {type(items).__name__}"
        evidence, _ = sanitise(items, source, CATALOGUE[source].kind)
        for item in evidence:
            inert(item.to_dict(), source)
        outcome = "evidence"
    spent = time.monotonic() - started
    assert spent < within_s, f"{source} took {spent:.1f} s on a hostile payload"
    return outcome


def inert(value, source: str, where: str = "item") -> None:
    """Every string in a sanitised item: no whole tag, no control or bidi character, no lone surrogate;
    the URL http(s) or none; the whole item storable as UTF-8 JSON."""
    if where == "item":
        assert value["url"] is None or value["url"].startswith(("http://", "https://")), value["url"]
        json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    if isinstance(value, str):
        assert not _TAG.search(value), f"{source} {where}: markup in {value[:80]!r}"
        assert not _CONTROL.search(value) and not has_lone(value), f"{source} {where}: {value[:80]!r}"
    elif isinstance(value, dict):
        for key, inner in value.items():
            inert(key, source, f"{where}.{key}")
            inert(inner, source, f"{where}.{key}")
    elif isinstance(value, list):
        for inner in value:
            inert(inner, source, f"{where}[]")


# The messages of the two catch-alls an adapter wraps an unforeseen exception in.
CATCH_ALLS = ("failed unexpectedly", "answered with a page akshare could not read")
# Where a site's failure may legitimately be raised: its library, or the transport under it.
SITE_LIBRARIES = ("akshare", "httpx", "httpcore", "requests", "urllib3", "curl_cffi")


def _not_our_crash(exc: SourceError, source: str, site: tuple[str, ...]) -> None:
    """A catch-all SourceError is fine when the site's library failed on what the site sent;
    not when our own code crashed on it (a TypeError in a builder, pandas misused on a bad
    column), which the message would blame on the site."""
    if not any(words in str(exc) for words in CATCH_ALLS):
        return
    cause = exc.__cause__
    frames = traceback.extract_tb(cause.__traceback__) if cause is not None else []
    ours = [i for i, frame in enumerate(frames) if Path(frame.filename).is_relative_to(PACKAGE)]
    last = frames[ours[-1]] if ours else None
    called = frames[ours[-1] + 1] if ours and ours[-1] + 1 < len(frames) else None
    assert called is not None and (called.filename in site
                                   or any(f"/{name}/" in called.filename for name in SITE_LIBRARIES)), (
        f"{source}: {type(cause).__name__} ({cause}) from our own "
        f"{Path(last.filename).name if last else '?'}:{last.lineno if last else '?'} "
        f"({last.line if last else ''}) ended as {type(exc).__name__}: {exc}")
