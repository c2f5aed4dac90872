"""`python -m finsearch.bench [--json]`: how fast a question runs on real models' latency.

For each model profile (time to first token + output tokens per second) and scenario: time
to the first graph node, to the first evidence, to the first answer token, total wall, the
theoretical critical path, model calls and output tokens on it, and the same plan run the
paper's way (one node at a time, a model rewrite before each), and the same question asked again on a
warm cache (the kept answer, `answer_cache`). Then the bounded runs
(`bounded`): how a run ends under a hanging, a drip-feeding and a rate-limiting model, against
the product's deadline (--bounded: only those). --local-model URL: only the real-local-model
profile (`local_model`), against a real server. Prints a table; with --json, also one JSON
object on the last line. Every figure is a median over --repeats runs (at least 5; the bounded
runs: 3 each), measured side by side in one process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

from ..graph import SearchGraph
from ..model.loopback import PROFILES, Pace
from ..plan.analysis import analyse
from ..plan.rules import heuristic_plan
from ..settings import Settings
from . import bounded, local_model
from .scenarios import CROWD, NOW, ONE_TICKER, TWO_TICKERS, Bench, Sources, at_once, median


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m finsearch.bench", description=__doc__.splitlines()[0])
    p.add_argument("--json", action="store_true", help="also print one JSON object on the last line")
    p.add_argument("--repeats", type=int, default=5, help="runs per measurement (at least 5)")
    p.add_argument("--profile", action="append", choices=list(PROFILES), dest="profiles",
                   help="model latency profile (repeatable; default: all of them)")
    p.add_argument("--ttft-ms", type=float, help="a custom profile instead: time to first token …")
    p.add_argument("--tokens-per-s", type=float, default=90.0, help="… and output tokens per second")
    p.add_argument("--source-delay-ms", type=float, default=300, help="each source call (± jitter)")
    p.add_argument("--jitter", type=float, default=0.2, help="± fraction of the source delay, fixed seed")
    p.add_argument("--bounded", action="store_true",
                   help="only the bounded runs: a hanging, a drip-feeding and a rate-limiting model")
    p.add_argument("--local-model", metavar="URL",
                   help="only the real-local-model profile, against the OpenAI-compatible server at URL "
                        "(e.g. http://127.0.0.1:8080/v1 from scripts/local-model.sh)")
    p.add_argument("--local-model-name", metavar="NAME", help="… its model (default: the first it lists)")
    product = bounded.Limits.of(Settings())
    p.add_argument("--deadline-s", type=float, default=product.deadline_s,
                   help="the bounded runs' run deadline (default: the product's, %(default)g s)")
    p.add_argument("--llm-timeout-s", type=float, default=product.llm_timeout_s,
                   help="… their longest model call (default %(default)g s)")
    p.add_argument("--stream-stall-s", type=float, default=product.stream_stall_s,
                   help="… their stream stall window (default %(default)g s)")
    p.add_argument("--answer-due-s", type=float, default=product.answer_due_s,
                   help="… and when their answer is due (default %(default)g s)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.local_model:
        return _local(args)
    repeats = max(5, args.repeats)
    if args.ttft_ms is not None:
        paces = [Pace("custom", args.ttft_ms / 1000, args.tokens_per_s)]
    else:
        paces = [PROFILES[name] for name in (args.profiles or PROFILES)]
    bench = Bench(paces[0], Sources(args.source_delay_ms / 1000, args.jitter))
    limits = bounded.Limits(args.deadline_s, args.llm_timeout_s, args.stream_stall_s, args.answer_due_s)
    try:
        if args.bounded:
            report = {"bounded": bounded.measure(bench, limits, progress=_progress), **_machine(bench, repeats)}
            report["targets"] = bounded.targets(report["bounded"])
        else:
            report = measure(bench, paces, repeats, _progress, limits)
    finally:
        bench.close()
    print(table(report))
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    return 0 if all(t["ok"] for t in report["targets"].values()) else 1


def _local(args) -> int:
    """The real-local-model profile alone: it takes minutes, and a server the rest does not need."""
    repeats = max(3, min(args.repeats, 5))
    figures = local_model.profile(args.local_model, args.local_model_name, repeats, progress=_progress)
    report = {"local_model": figures, **_machine(None, repeats)}
    report["targets"] = {name: _target(*t) for name, t in local_model.targets(figures).items()}
    print(table(report))
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    return 0 if all(t["ok"] for t in report["targets"].values()) else 1


def _progress(text: str) -> None:
    print(f"… {text}", file=sys.stderr, flush=True)


QUESTIONS = (("one_ticker", ONE_TICKER), ("two_tickers", TWO_TICKERS))


def measure(bench: Bench, paces: list[Pace], repeats: int, progress=lambda text: None,
            limits: bounded.Limits | None = None) -> dict:
    """Every figure of the default run; the bounded runs too when `limits` are given."""
    bench.run(ONE_TICKER, "heuristic", bench.cache(), source_delay_s=0)   # imports, warm-up
    profiles: dict[str, dict] = {}
    for pace in paces:
        bench.use(pace)
        scenarios: dict[str, dict] = {}
        for name, question in QUESTIONS:
            progress(f"{pace.name}: {name}, cold cache")
            runs = [bench.run(question, "openai", bench.cache()) for _ in range(repeats)]
            progress(f"{pace.name}: {name}, the paper's sequential schedule")
            sequential = [bench.run(question, "openai", bench.cache(), schedule="sequential")
                          for _ in range(repeats)]
            progress(f"{pace.name}: {name}, the same question again")
            scenarios[name] = _figures(runs, sequential, question) | {
                "first_evidence_bound_ms": _first_evidence_bound(bench)} | _again(bench, question, repeats)
        profiles[pace.name] = {"ttft_ms": pace.ttft_s * 1000, "tokens_per_s": pace.tokens_per_s,
                               "scenarios": scenarios}
    heuristic = {}
    for name, question in QUESTIONS:
        progress(f"heuristic: {name}, cold cache")
        heuristic[name] = _figures([bench.run(question, "heuristic", bench.cache()) for _ in range(repeats)],
                                   [bench.run(question, "heuristic", bench.cache(), schedule="sequential")
                                    for _ in range(repeats)], question)
    bench.use(paces[0])
    progress("warm-cache repeats")
    warm = {}
    for backend in ("heuristic", "openai"):
        cache = bench.cache()
        bench.run(ONE_TICKER, backend, cache)
        warm[backend] = median(bench.run(ONE_TICKER, backend, cache).wall_ms for _ in range(repeats))
    progress(f"{len(CROWD)} questions at once")
    crowd = {backend: round(median(at_once(bench, backend, CROWD) for _ in range(repeats)), 2)
             for backend in ("heuristic", "openai")}
    progress("overhead with no injected delay")
    overhead = median(bench.run(ONE_TICKER, "heuristic", bench.cache(), source_delay_s=0).wall_ms
                      for _ in range(max(20, repeats)))
    report = {
        "profiles": profiles,
        "heuristic": heuristic,
        "warm_repeat_ms": warm["heuristic"], "warm_repeat_ms_llm": warm["openai"],
        "parallel_questions_per_s": crowd["heuristic"], "parallel_questions_per_s_llm": crowd["openai"],
        "crowd_profile": paces[0].name,
        "overhead_ms": overhead,
    }
    if limits is not None:
        report["bounded"] = bounded.measure(bench, limits, progress=progress)
    report |= _machine(bench, repeats)
    report["targets"] = targets(report, paces)
    return report


def _machine(bench: Bench | None, repeats: int) -> dict:
    """Where and how it was measured (the injected source delay: none for a replay pack played as is)."""
    return {
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "repeats": repeats,
        "sources": {"delay_ms": bench.sources.delay_s * 1000 if bench else 0.0,
                    "jitter": bench.sources.jitter if bench else 0.0},
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def _figures(runs: list, sequential: list, question: str) -> dict:
    wall = median(r.wall_ms for r in runs)
    seq = median(r.wall_ms for r in sequential)
    return {
        "first_node_ms": median(r.first_node_ms for r in runs),
        "first_evidence_ms": median(r.first_evidence_ms for r in runs),
        "first_token_ms": median(r.first_token_ms for r in runs),
        "wall_ms": wall,
        "wall_ms_spread": [round(min(r.wall_ms for r in runs)), round(max(r.wall_ms for r in runs))],
        "critical_path_ms": median(r.critical_path_ms for r in runs),
        "critical_path_ratio": median((r.wall_ms / r.critical_path_ms for r in runs), 3),
        "llm_calls_critical_path": int(median(r.critical_path.llm_calls for r in runs)),
        "output_tokens_critical_path": int(median(r.critical_path.output_tokens for r in runs)),
        "plan_tokens": int(median(r.plan_tokens for r in runs)),
        "llm_calls": int(median(r.llm_calls for r in runs)),
        "rewrite_calls": int(median(r.rewrites for r in runs)),
        "refetched_after_rewrite": int(median(r.refetched for r in runs)),
        "dependency_levels": _levels(question),
        "source_calls": int(median(r.stats.source_calls for r in runs)),
        "sequential_wall_ms": seq,
        "sequential_llm_calls": int(median(r.llm_calls for r in sequential)),
        "speedup_vs_sequential": round(seq / wall, 2) if wall else None,
    }


def _again(bench: Bench, question: str, repeats: int) -> dict:
    """The same question asked again on a warm cache, its sources still fresh: the kept answer, no model."""
    cache = bench.cache()
    bench.run(question, "openai", cache)
    again = [bench.run(question, "openai", cache) for _ in range(repeats)]
    return {"again_ms": median(r.wall_ms for r in again), "again_llm_calls": int(median(r.llm_calls for r in again))}


def _first_evidence_bound(bench: Bench) -> float:
    """One source latency (at its slowest) + 100 ms: the rules' draft runs at once, whatever the model."""
    return round((bench.sources.delay_s * (1 + bench.sources.jitter) + 0.1) * 1000, 1)


def targets(report: dict, paces: list[Pace]) -> dict:
    """Issue 15's targets, on gpt-4o-class when it was measured (else the first profile)."""
    name = "gpt-4o-class" if "gpt-4o-class" in report["profiles"] else paces[0].name
    sc = report["profiles"][name]["scenarios"]
    one = sc["one_ticker"]
    out = {
        f"{name}: first evidence (one ticker)": _target(one["first_evidence_ms"], "<=",
                                                        one["first_evidence_bound_ms"]),
        f"{name}: wall / critical path (worst)": _target(max(s["critical_path_ratio"] for s in sc.values()),
                                                         "<=", 1.15),
        # On the two-ticker question, as always: on one ticker the answer alone (~4 s on gpt-4o-class)
        # is ~40 % of the sequential run, so no schedule can be 2.5× faster there.
        f"{name}: speedup vs sequential (two tickers)": _target(sc["two_tickers"]["speedup_vs_sequential"],
                                                                ">=", 2.5),
        "overhead_ms": _target(report["overhead_ms"], "<=", 50),
        "warm_repeat_ms": _target(report["warm_repeat_ms"], "<=", 200),
    }
    if name == "gpt-4o-class" and report["sources"]["delay_ms"] == 300:
        out["gpt-4o-class: one-ticker wall ms"] = _target(one["wall_ms"], "<=", 6000)
        # Issue 35: the answer begins once its lead's evidence is in; a repeat is the kept answer.
        out["gpt-4o-class: first answer token ms (one ticker)"] = _target(one["first_token_ms"], "<=", 2000)
        out["gpt-4o-class: first answer token ms (two tickers)"] = _target(sc["two_tickers"]["first_token_ms"],
                                                                          "<=", 2500)
    out[f"{name}: the same question again ms (worst)"] = _target(max(s["again_ms"] for s in sc.values()), "<=", 300)
    out[f"{name}: model calls, the same question again"] = _target(max(s["again_llm_calls"] for s in sc.values()),
                                                                   "<=", 0)
    if "bounded" in report:
        out |= bounded.targets(report["bounded"])
    return out


def _levels(question: str) -> int:
    """Dependency levels of the question's plan (the bench's model plans as the rules do)."""
    analysis = analyse(question, NOW)
    return SearchGraph.build(question, analysis.time_context, heuristic_plan(analysis, NOW)).depth()


def _target(value, op: str, bound) -> dict:
    ok = value <= bound if op == "<=" else value >= bound
    return {"value": value, "target": f"{op} {bound:g}", "ok": bool(ok)}


COLUMNS = (("1st node", "first_node_ms", 0), ("1st evid.", "first_evidence_ms", 0),
           ("1st token", "first_token_ms", 0), ("wall ms", "wall_ms", 0), ("crit. path", "critical_path_ms", 0),
           ("ratio", "critical_path_ratio", 2), ("LLM calls", "llm_calls", 0),
           ("LLM cp", "llm_calls_critical_path", 0),
           ("tok cp", "output_tokens_critical_path", 0), ("plan tok", "plan_tokens", 0),
           ("seq. ms", "sequential_wall_ms", 0), ("speedup", "speedup_vs_sequential", 2),
           ("again ms", "again_ms", 0))


def table(report: dict) -> str:
    src = report["sources"]
    medians = f" · medians of {report['repeats']} runs" if "profiles" in report else ""
    lines = [f"FinSearch benchmark · {report['cores']} cores, load {report['load_average'][0]:g}{medians}"
             f" · sources {src['delay_ms']:.0f} ms ± {src['jitter']:.0%}"]
    if "profiles" in report:
        lines += _speed(report)
    if "local_model" in report:
        lines += _local_lines(report["local_model"])
    if "bounded" in report:
        lines += ["", *bounded.lines(report["bounded"])]
    lines += ["", f"{'target':<50}{'value':>10}  {'goal':<10}"]
    for name, t in report["targets"].items():
        lines.append(f"{name:<50}{t['value']:>10}  {t['target']:<10}{'ok' if t['ok'] else 'MISSED'}")
    return "\n".join(lines)


def _speed(report: dict) -> list[str]:
    head = f"{'scenario':<14}" + "".join(f"{title:>11}" for title, _, _ in COLUMNS)
    lines = []
    for name, profile in report["profiles"].items():
        lines += ["", f"model {name}: TTFT {profile['ttft_ms']:.0f} ms, {profile['tokens_per_s']:g} tok/s", head]
        lines += [_row(scenario, s) for scenario, s in profile["scenarios"].items()]
    lines += ["", "no model (rules only)", head]
    lines += [_row(scenario, s) for scenario, s in report["heuristic"].items()]
    return lines + ["", f"warm repeat: heuristic {report['warm_repeat_ms']:.0f} ms, LLM "
                        f"{report['warm_repeat_ms_llm']:.0f} ms · {len(CROWD)} questions at once "
                        f"({report['crowd_profile']}): heuristic {report['parallel_questions_per_s']:.2f}/s, "
                        f"LLM {report['parallel_questions_per_s_llm']:.2f}/s",
                    f"overhead {report['overhead_ms']:.1f} ms · peak RSS {report['peak_rss_mb']:.0f} MB"]


def _local_lines(figures: dict) -> list[str]:
    wire = figures["wire"]
    kinds = " · ".join(f"{kind} {_fmt(k['ttft_ms'])} ms" for kind, k in wire["by_kind"].items())
    lines = ["", f"real local model {figures['model']}: TTFT {_fmt(wire['ttft_ms'])} ms ({kinds}), "
                 f"{_fmt(wire['tokens_per_s'], 1)} tok/s over {wire['calls']} calls",
             f"plan by the model in {figures['plan_success']:.0%} of runs, answer in "
             f"{figures['answer_success']:.0%} · first question (cold) {figures['first_question_wall_ms']:.0f} ms",
             f"{'run':<12}{'n':>4}{'1st evid.':>11}{'1st text':>11}{'wall ms':>11}{'worst':>11}  stages"]
    for kind, k in figures["kinds"].items():
        stages = ", ".join(f"{stage}: " + "/".join(f"{by} {n}" for by, n in sorted(counts.items()))
                           for stage, counts in k["stages"].items())
        lines.append(f"{kind:<12}{k['runs']:>4}{_fmt(k['first_evidence_ms']):>11}{_fmt(k['first_text_ms']):>11}"
                     f"{_fmt(k['wall_ms']):>11}{_fmt(k['worst_wall_ms']):>11}  {stages}")
    return lines


def _row(scenario: str, s: dict) -> str:
    return f"{scenario:<14}" + "".join(f"{_fmt(s.get(key), digits):>11}" for _, key, digits in COLUMNS)


def _fmt(value, digits: int = 0) -> str:
    return "-" if value is None else f"{value:.{digits}f}"
