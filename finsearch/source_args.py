"""A call's arguments to a source: checked against its spec, and written one way so equal calls compare equal.

`check_args` is what plan validation, the rewriter and the hub's fallbacks ask; `canonical_args`
and `primary_key` are how the executor, the cache and the replay packs agree on when two calls
are one. The specs themselves, and which listing a ticker belongs to, are the catalogue's.
"""

from __future__ import annotations

import re
from datetime import date

from .catalogue import CATALOGUE, Arg, listing_of
from .timecontext import EARLIEST, LATEST

TICKER_RE = re.compile(r"^[\^]?[A-Z0-9][A-Z0-9.\-=&]{0,14}$")


def check_args(source: str, args: dict) -> list[str]:
    """Problems with `args` for `source` (empty when valid)."""
    spec = CATALOGUE.get(source)
    if spec is None:
        return [f"unknown source {source!r} (known: {', '.join(CATALOGUE)})"]
    if not isinstance(args, dict):
        return [f"{source}: args must be an object"]
    problems = []
    for name, value in args.items():
        arg = spec.arg(name)
        if arg is None:
            problems.append(f"{source}: unknown argument {name!r}")
        elif not _valid(arg, value):
            problems.append(f"{source}: bad value for {name!r}: {value!r}")
    for arg in spec.args:
        if arg.required and not args.get(arg.name):
            problems.append(f"{source}: missing argument {arg.name!r}")
    if spec.one_of and not any(args.get(name) for name in spec.one_of):
        problems.append(f"{source}: needs one of {', '.join(spec.one_of)}")
    if args.get("start") and args.get("end") and _valid_date(args["start"]) \
            and _valid_date(args["end"]) and args["start"] > args["end"]:
        problems.append(f"{source}: start {args['start']} is after end {args['end']}")
    return problems


def _valid(arg: Arg, value) -> bool:
    if value is None:
        return not arg.required
    if arg.type == "ticker":
        return isinstance(value, str) and bool(TICKER_RE.match(value)) \
            and (arg.listing is None or listing_of(value) == arg.listing)
    if arg.type == "date":
        return _valid_date(value)
    if arg.type == "choice":
        return value in arg.choices
    return isinstance(value, str) and 0 < len(value.strip()) <= 400


def _valid_date(value) -> bool:
    """YYYY-MM-DD within 1900–2199: the range anything downstream can compute with."""
    try:
        day = date.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return EARLIEST <= day <= LATEST


def canonical_args(args: dict) -> dict:
    """Args with empty values dropped and text normalised (tickers upper-cased, as Yahoo
    reads them), so equal calls compare equal."""
    out = {}
    for key in sorted(args):
        value = args[key]
        if value is None or value == "":
            continue
        out[key] = " ".join(value.split()) if isinstance(value, str) else value
        if key == "ticker" and isinstance(value, str):
            out[key] = out[key].upper()
    return out


def primary_key(args: dict) -> str | None:
    """What a call is about: its ticker, else its institution or query text (lower-cased)."""
    if args.get("ticker"):
        return str(args["ticker"]).upper()
    if args.get("filer"):
        return " ".join(str(args["filer"]).lower().split())
    if args.get("query"):
        return " ".join(str(args["query"]).lower().split())
    return None
