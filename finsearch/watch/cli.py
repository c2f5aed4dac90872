"""`python -m finsearch brief TICKER… [--since DATE] [--now …] [--offline] [--pack …] [--json]` — the edge.

Prints the brief a watchlist of these instruments would get (`brief.write_brief`, the scheduled
job's own code): markdown and references, or with --json the notice as one JSON object (its
`markdown`, `references` and the notice's other fields). Bad input raises InputError, which the
main CLI prints on one line (exit 2).
"""

from __future__ import annotations

import argparse
from datetime import date
from pathlib import Path

from ..errors import InputError
from ..phrases import Language, say
from ..plan.analysis import language_of
from ..settings import LLM_CHOICES, parse_now
from ..settings import from_env as settings_from_env
from ..sources.setup import with_data_fallback
from ..terminal import json_text, terminal_text
from .brief import write_brief
from .watchlist import instrument_of


def add_parser(sub) -> argparse.ArgumentParser:
    """Register the `brief` subcommand on the main parser's subparsers."""
    p = sub.add_parser("brief", help="write the brief a watchlist of these instruments gets: moves and their "
                                     "causes, filings, analyst changes, earnings dates, cited",
                       description="Each TICKER is read as a question reads it: NVDA, 0700.HK, 600519, 茅台.")
    p.add_argument("tickers", nargs="+", metavar="TICKER", help="instruments to brief on")
    p.add_argument("--since", metavar="DATE", help="the day the brief covers from (default: a week before --now)")
    p.add_argument("--now", help="pin the current time (ISO, e.g. 2024-10-15T20:00:00Z)")
    p.add_argument("--json", action="store_true", help="print one JSON object: markdown, references and the notice")
    p.add_argument("--llm", choices=[c for c in LLM_CHOICES if c != "auto"],
                   help="backend (default: openai when a key or base URL is set, else heuristic)")
    p.add_argument("--model", help="model name for the OpenAI-compatible server")
    p.add_argument("--offline", action="store_true", help="use only cached or replayed data")
    p.add_argument("--pack", type=Path, help="replay pack folder (also FINSEARCH_PACK)")
    return p


def run(args: argparse.Namespace, say_line) -> int:
    """Run the `brief` subcommand; InputError on bad input (exit 2 in the caller)."""
    language: Language = language_of(" ".join(args.tickers))
    tickers = list(dict.fromkeys(instrument_of(t, language) for t in args.tickers))
    since = _since(args.since, language)
    overrides: dict = {}
    if args.now is not None:
        overrides["now"] = parse_now(args.now)
    for name in ("llm", "model", "pack"):
        if getattr(args, name):
            overrides[name] = getattr(args, name)
    if args.offline:
        overrides["offline"] = True
    settings, note = with_data_fallback(settings_from_env(**overrides))
    if note:
        say_line(f"finsearch: {note}")
    notice = write_brief(tickers, settings, since=since, language=language)
    if args.json:
        print(json_text(notice.to_json()))
        return 0
    lines = [f"# {notice.title}", "", notice.markdown.rstrip(), ""]
    for ref in notice.references:
        meta = " · ".join(x for x in (ref.publisher, ref.day) if x)
        lines.append(f"[{ref.n}] {ref.title}" + (f" — {meta}" if meta else "")
                     + (f"\n    {ref.url}" if ref.url else ""))
    print(terminal_text("\n".join(lines)))
    return 0


def _since(text: str | None, language: Language) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(say("watch.bad_since", language, text=text.strip()[:40])) from None
