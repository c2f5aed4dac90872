"""Results files → summary.json and summary.md (read back by `summary_files`).

One rule makes accuracy the same computation for both formats: a result row's `correct`
is true, false or null, and accuracy = true ÷ (true + false).

- mcq: an answer whose letter cannot be read is `unparsed` and `correct: false` — it stays
  in the denominator, as a wrong answer.
- finsearchcomp: a judge reply with no readable verdict is `unparsed` and `correct: null` —
  it is left out of the denominator (the answer was neither right nor wrong, the grading failed).
- Either format: a question that failed or timed out is `correct: false`.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from pathlib import Path

from .variants import VARIANTS

RESULTS_GLOB = "results-*.jsonl"
NOTES = {
    "mcq": "Accuracy = correct ÷ questions. An answer whose option letter cannot be read (none stated, "
           "or more than one) is counted under `unparsed` and as not correct.",
    "finsearchcomp": "Accuracy = judged correct ÷ judged questions. A judge reply without a readable "
                     "`answer_score` (0 or 1) is counted under `unparsed` and left out of the denominator.",
    "report": "A report has no gold answer: it is scored by its audit. Integrity = reports whose every citation "
              "resolves ÷ reports written; coverage and trust are means over the reports; figures traced = "
              "(supported + derived) ÷ all figures, summed over the reports; key questions answered = answered ÷ "
              "asked, summed; rubric is the mean of the rule-based rubric's 0–10 score. With `--judge`: "
              "presentation is the mean of the eight criteria, each (score − 1) ÷ 4, "
              "and reference the mean share of a reference answer's key points the report covers.",
}
COMMON_NOTE = ("A question that failed or timed out counts as not correct. Latency is the time to answer "
               "(grading excluded); p90 by linear interpolation. LLM calls and tokens are the system's own: "
               "the FinSearchComp judge's are not included. Tokens in / out and cost are summed over the "
               "variant's questions (an answer's --judge included, a report's judge not); the cost, in USD from "
               "FINSEARCH_MODEL_PRICES, only when every question that called a model had a price.")


def results_path(out: Path, variant: str) -> Path:
    return Path(out) / f"results-{variant}.jsonl"


def read_rows(path: Path) -> list[dict]:
    """The result rows of a results file, one per id (a re-run question's last row wins);
    a damaged line (an interrupted write) is skipped."""
    rows: dict[str, dict] = {}
    if not Path(path).exists():
        return []
    for line in Path(path).read_text("utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "id" in row:
            rows[str(row["id"])] = row
    return list(rows.values())


def append_row(path: Path, row: dict) -> None:
    """Append one row, starting a new line if an interrupted write left the last one open."""
    path = Path(path)
    needs_newline = path.exists() and path.stat().st_size > 0 and not path.read_bytes().endswith(b"\n")
    with path.open("a", encoding="utf-8") as handle:
        handle.write(("\n" if needs_newline else "") + json.dumps(row, ensure_ascii=False) + "\n")


def variant_names(out: Path) -> list[str]:
    """The variants with a results file in `out`, in the canonical order."""
    names = [p.name[len("results-"):-len(".jsonl")] for p in Path(out).glob(RESULTS_GLOB)]
    return sorted(names, key=lambda n: (VARIANTS.index(n) if n in VARIANTS else len(VARIANTS), n))


# -- computing ----------------------------------------------------------------------------------

def summarise_rows(rows: list[dict]) -> dict:
    latencies = [float(r["latency_ms"]) for r in rows if isinstance(r.get("latency_ms"), (int, float))]
    out = _accuracy(rows)
    out.update({
        "errors": sum(1 for r in rows if r.get("error")),
        "latency_ms": {"mean": _round(_mean(latencies), 1), "median": _round(_percentile(latencies, 50), 1),
                       "p90": _round(_percentile(latencies, 90), 1)},
        "llm_calls_mean": _round(_mean(_known(rows, "llm_calls")), 3),
        "tokens_mean": _round(_mean([(r.get("prompt_tokens") or 0) + (r.get("completion_tokens") or 0)
                                     for r in rows if r.get("prompt_tokens") is not None]), 1),
        "source_calls_mean": _round(_mean(_known(rows, "source_calls")), 3),
        **_usage_totals(rows),
    })
    if any(isinstance(r.get("report"), dict) for r in rows):
        out["report"] = _report_scores(rows)
    categories = sorted({r.get("category") or "uncategorised" for r in rows})
    out["by_category"] = {c: _accuracy([r for r in rows if (r.get("category") or "uncategorised") == c])
                          for c in categories}
    return out


def _usage_totals(rows: list[dict]) -> dict:
    """Tokens in and out summed over the rows (a row's `usage` where it has one, else its own
    counts, as results written before usage was kept), and the cost: the sum of the rows' costs
    when every row that called a model had one, else None (a partial sum would read as the whole)."""
    prompt = completion = 0
    costs: list[float | None] = []
    for row in rows:
        usage = row.get("usage") if isinstance(row.get("usage"), dict) else None
        row_in = (usage or row).get("prompt_tokens")
        row_out = (usage or row).get("completion_tokens")
        prompt += int(row_in) if isinstance(row_in, (int, float)) else 0
        completion += int(row_out) if isinstance(row_out, (int, float)) else 0
        if (usage or {}).get("calls") or row.get("llm_calls"):
            cost = (usage or {}).get("cost_usd")
            costs.append(float(cost) if isinstance(cost, (int, float)) else None)
    priced = bool(costs) and all(c is not None for c in costs)
    return {"prompt_tokens_total": prompt, "completion_tokens_total": completion,
            "cost_usd_total": round(sum(costs), 6) if priced else None}


def _report_scores(rows: list[dict]) -> dict:
    scored = [r["report"] for r in rows if isinstance(r.get("report"), dict)]
    figures = {k: sum(int(s.get(k) or 0) for s in scored) for k in ("supported", "derived", "misattributed",
                                                                     "unsupported")}
    total = sum(figures.values())
    asked = sum(int(s.get("key_questions") or 0) for s in scored)
    judged = [r for r in rows if isinstance(r.get("presentation"), (int, float))]
    criteria = sorted({c for r in judged for c in ((r.get("judge") or {}).get("presentation") or {})})
    return {
        "reports": len(scored),
        "integrity": _round(_mean([1.0 if s.get("integrity") else 0.0 for s in scored]), 4),
        "coverage_mean": _round(_mean(_known(scored, "coverage")), 4),
        "trust_mean": _round(_mean(_known(scored, "trust")), 4),
        "figures": {**figures, "total": total},
        "figures_traced": round((figures["supported"] + figures["derived"]) / total, 4) if total else None,
        "answered_share": round(sum(int(s.get("answered") or 0) for s in scored) / asked, 4) if asked else None,
        "presentation_mean": _round(_mean(_known(rows, "presentation")), 4),
        "criteria_mean": {c: _round(_mean([float(v) for r in judged
                                           if isinstance(v := r["judge"]["presentation"].get(c), int)]), 2)
                          for c in criteria},
        "reference_mean": _round(_mean(_known(rows, "reference_score")), 4),
        **_rubric_scores(rows),
    }


def _rubric_scores(rows: list[dict]) -> dict:
    """The rubric's mean score and, per criterion, the share of the reports it applies to that pass it."""
    rubrics = [r["rubric"] for r in rows if isinstance(r.get("rubric"), dict)]
    applied: dict[str, list[float]] = {}
    for rubric in rubrics:
        for c in rubric.get("criteria") or []:
            if c.get("applies"):
                applied.setdefault(c["name"], []).append(1.0 if c.get("passed") else 0.0)
    return {"rubric_mean": _round(_mean(_known(rubrics, "score")), 2),
            "rubric_passed": {name: _round(_mean(passed), 4) for name, passed in applied.items()}}


def _accuracy(rows: list[dict]) -> dict:
    correct = sum(1 for r in rows if r.get("correct") is True)
    graded = sum(1 for r in rows if r.get("correct") is not None)
    return {"n": len(rows), "accuracy": round(correct / graded, 4) if graded else None, "correct": correct,
            "unparsed": sum(1 for r in rows if r.get("unparsed"))}


def summarise(out: Path, fmt: str, dataset: str, config: dict | None = None) -> dict:
    """The summary of every results file in `out`; `config` describes the latest run."""
    variants = {name: summarise_rows(read_rows(results_path(out, name))) for name in variant_names(out)}
    return {"format": fmt, "dataset": dataset,
            "generated_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "config": config or {}, "notes": [NOTES.get(fmt, ""), COMMON_NOTE], "variants": variants}


def write(out: Path, summary: dict) -> None:
    Path(out, "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", "utf-8")
    Path(out, "summary.md").write_text(markdown(summary), "utf-8")


def _known(rows: list[dict], key: str) -> list[float]:
    return [float(r[key]) for r in rows if isinstance(r.get(key), (int, float))]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


# -- presenting ----------------------------------------------------------------------------------

COLUMNS = ("variant", "n", "accuracy", "unparsed", "errors", "latency mean (ms)", "latency median (ms)",
           "latency p90 (ms)", "LLM calls", "tokens", "source calls", "tokens in (sum)", "tokens out (sum)",
           "cost (USD)")


def table_rows(summary: dict) -> list[dict]:
    """One dict per variant, keyed by COLUMNS (the table of summary.md and the Evaluate page)."""
    rows = []
    for name, v in summary["variants"].items():
        latency = v.get("latency_ms") or {}
        values = (name, v.get("n"), v.get("accuracy"), v.get("unparsed"), v.get("errors"), latency.get("mean"),
                  latency.get("median"), latency.get("p90"), v.get("llm_calls_mean"), v.get("tokens_mean"),
                  v.get("source_calls_mean"), v.get("prompt_tokens_total"), v.get("completion_tokens_total"),
                  v.get("cost_usd_total"))
        rows.append(dict(zip(COLUMNS, values, strict=True)))
    return rows


def category_rows(summary: dict) -> list[dict]:
    """One dict per category: {"category", <variant>: accuracy, …}."""
    names = list(summary["variants"])
    categories = sorted({c for v in summary["variants"].values() for c in (v.get("by_category") or {})})
    return [{"category": c, **{n: (summary["variants"][n].get("by_category") or {}).get(c, {}).get("accuracy")
                               for n in names}} for c in categories]


REPORT_COLUMNS = ("variant", "n", "errors", "integrity", "coverage", "figures traced", "supported", "derived",
                  "misattributed", "unsupported", "key questions answered", "trust", "rubric", "presentation",
                  "reference", "latency mean (ms)", "latency median (ms)", "latency p90 (ms)", "LLM calls",
                  "tokens", "source calls", "tokens in (sum)", "tokens out (sum)", "cost (USD)")


def report_rows(summary: dict) -> list[dict]:
    """One dict per variant of a report evaluation, keyed by REPORT_COLUMNS."""
    rows = []
    for base, v in zip(table_rows(summary), summary["variants"].values(), strict=True):
        scored = v.get("report") or {}
        figures = scored.get("figures") or {}
        rows.append({**base, "integrity": scored.get("integrity"), "coverage": scored.get("coverage_mean"),
                     "figures traced": scored.get("figures_traced"), **{k: figures.get(k) for k in (
                         "supported", "derived", "misattributed", "unsupported")},
                     "key questions answered": scored.get("answered_share"), "trust": scored.get("trust_mean"),
                     "rubric": scored.get("rubric_mean"),
                     "presentation": scored.get("presentation_mean"), "reference": scored.get("reference_mean")})
    return rows


def markdown(summary: dict) -> str:
    lines = [f"# FinSearch evaluation — {summary.get('format', '?')}", "",
             f"Dataset: `{summary.get('dataset', '?')}` · generated {summary.get('generated_at', '?')}"]
    if summary.get("config"):
        lines.append("Latest run: " + describe_config(summary["config"]))
    lines.append("")
    lines += [note for note in summary.get("notes", []) if note]
    if summary.get("format") == "report":
        lines += ["", *_table(report_rows(summary), REPORT_COLUMNS)]
        criteria = _criteria_rows(summary)
        if criteria:
            lines += ["", "## Presentation by criterion (mean score, 1–5)", "",
                      *_table(criteria, ("criterion", *summary["variants"]))]
        return "\n".join(lines) + "\n"
    lines += ["", *_table(table_rows(summary), COLUMNS)]
    categories = category_rows(summary)
    if categories:
        lines += ["", "## Accuracy by category", "", *_table(categories, ("category", *summary["variants"]))]
    return "\n".join(lines) + "\n"


def _criteria_rows(summary: dict) -> list[dict]:
    names = list(summary["variants"])
    means = {n: (summary["variants"][n].get("report") or {}).get("criteria_mean") or {} for n in names}
    criteria = sorted({c for m in means.values() for c in m})
    return [{"criterion": c, **{n: means[n].get(c) for n in names}} for c in criteria]


def describe_config(config: dict) -> str:
    """"model gpt-4o-mini (judge gpt-4o), live data" — who answered and graded, on which data."""
    model = config.get("model") if config.get("llm") == "openai" else "the heuristic backend (no model)"
    parts = [f"model {model}" if config.get("llm") == "openai" else str(model)]
    if config.get("judge_model"):
        parts[0] += f" (judge {config['judge_model']})"
    if config.get("data"):
        parts.append(f"{config['data']} data")
    return ", ".join(parts)


def _table(rows: list[dict], columns) -> list[str]:
    out = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        out.append("| " + " | ".join(_cell(row.get(c)) for c in columns) + " |")
    return out


def _cell(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if abs(value) < 10 else f"{value:,.1f}".removesuffix(".0")
    return str(value).replace("|", "\\|")
