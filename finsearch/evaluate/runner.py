"""Run a benchmark: every question of every variant, graded, into DIR/results-<variant>.jsonl
(a report request is written and scored by evaluate/reports.py instead).

- Questions of one variant run `concurrency` at a time (threads); variants run in turn.
- Each question has `timeout_s` from its start to its verdict; one that runs over is
  recorded with error "timed out" and correct false, and its run is told to stop.
- Resume: ids already in a variant's results file are skipped (with `retry_errors`, only
  those that were answered without an error); new rows are appended, a re-run id's last
  row counts, and the summary is recomputed from the whole file.
- Progress goes to `stream` as a plain-text bar when it is a terminal, else one final line.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import TextIO

from ..errors import InputError
from ..model.llm import LLMClient, choose_backend
from ..result import RunConfig
from ..settings import Settings
from ..terminal import terminal_text
from . import datasets, grading, reports, rewards, summary, variants
from .datasets import Question
from .variants import Attempt

TIMED_OUT = "timed out"
JUDGE_NEEDS_MODEL = ("grading FinSearchComp needs an LLM judge: set OPENAI_API_KEY or OPENAI_BASE_URL "
                     "(the judge runs on the same server; --judge-model picks its model)")


@dataclasses.dataclass(frozen=True)
class EvalConfig:
    dataset: Path
    fmt: str
    variants: tuple[str, ...] = ("full",)
    out: Path = Path("eval")
    concurrency: int = 1
    limit: int | None = None
    timeout_s: float = 180.0
    judge_model: str | None = None          # the FinSearchComp judge's model (default: the answering model)
    retry_errors: bool = False              # resume also re-runs ids whose row has an error (e.g. timed out)
    rewards: Path | None = None
    reward_weights: dict = dataclasses.field(default_factory=lambda: dict(rewards.DEFAULT_WEIGHTS))


def run_eval(config: EvalConfig, settings: Settings, stream: TextIO | None = None) -> dict:
    """Run, write results, summary.json / summary.md (and the rewards file); return the summary.

    Bad input (dataset, variants, options, a variant or judge without a model) raises
    InputError before any question runs.
    """
    stream = stream if stream is not None else sys.stderr
    questions = _prepare(config, settings)
    out = Path(config.out).expanduser()
    backend = choose_backend(settings)
    described = {**RunConfig.describe(settings, backend).to_json(), "timeout_s": config.timeout_s}
    if config.fmt == "finsearchcomp" or settings.judge:
        described["judge_model"] = config.judge_model or settings.judge_model or settings.model
    started = time.monotonic()
    answered = 0
    try:
        for variant in config.variants:
            answered += _run_variant(variant, questions, config, settings, out, stream)
    finally:
        result = summary.summarise(out, config.fmt, str(config.dataset), described)
        summary.write(out, result)
        if config.rewards:
            rows = [row for v in config.variants for row in summary.read_rows(summary.results_path(out, v))]
            rewards.write(config.rewards, rows, config.reward_weights)
    accuracies = ", ".join(f"{name} {_headline(v)}" for name, v in result["variants"].items()
                           if name in config.variants)
    line = (f"finsearch eval: {len(questions)} questions × {len(config.variants)} variants, {answered} run now, "
            f"in {time.monotonic() - started:.1f} s with {summary.describe_config(described)} — {accuracies} "
            f"→ {out / 'summary.md'}")
    print(terminal_text(line), file=stream, flush=True)
    return result


def _prepare(config: EvalConfig, settings: Settings) -> list[Question]:
    if config.concurrency < 1:
        raise InputError("--concurrency must be 1 or more")
    if config.timeout_s <= 0:
        raise InputError("--timeout must be a positive number of seconds")
    if config.limit is not None and config.limit < 1:
        raise InputError("--limit must be 1 or more")
    questions = datasets.load(config.dataset, config.fmt)
    if config.limit:
        questions = questions[: config.limit]
    if config.fmt == "report":
        reports.check(config.variants, settings)
    for variant in config.variants:
        variants.check(variant, settings)
    if config.fmt == "finsearchcomp" and choose_backend(settings) != "openai":
        raise InputError(JUDGE_NEEDS_MODEL)
    out = Path(config.out).expanduser()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the output folder {out}: {exc.strerror or exc}") from None
    return questions


def _run_variant(variant: str, questions: list[Question], config: EvalConfig, settings: Settings,
                 out: Path, stream: TextIO) -> int:
    path = summary.results_path(out, variant)
    done = {str(row["id"]) for row in summary.read_rows(path) if not (config.retry_errors and row.get("error"))}
    pending = [q for q in questions if q.id not in done]
    bar = Progress(stream, variant, len(questions), already=len(questions) - len(pending))
    pool = ThreadPoolExecutor(max_workers=config.concurrency, thread_name_prefix=f"eval-{variant}")
    abort = threading.Event()
    try:
        futures = [pool.submit(run_question, q, variant, config, settings, abort) for q in pending]
        for future in as_completed(futures):
            row = future.result()
            summary.append_row(path, row)
            bar.advance(row)
    except BaseException:                  # Ctrl-C: stop the questions in flight, keep what is written
        abort.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    bar.close()
    return len(pending)


def run_question(question: Question, variant: str, config: EvalConfig, settings: Settings,
                 abort: threading.Event | None = None) -> dict:
    """One result row: the question answered and graded within `config.timeout_s`
    (`abort` ends the wait early, when the whole run is being stopped)."""
    cancel = threading.Event()
    box: dict = {}
    started = time.perf_counter()

    def work() -> None:
        if config.fmt == "report":
            box["row"] = reports.report_row(question, variant, settings, cancel, config.judge_model)
            return
        try:
            attempt = variants.answer(question, variant, settings, cancel)
            box["latency_ms"] = round((time.perf_counter() - started) * 1000, 1)
            box["row"] = _graded(question, variant, attempt, config, settings, box["latency_ms"])
        except BaseException as exc:       # never lose a row to a bug in grading
            box["row"] = _row(question, variant, Attempt(error=f"unexpected error: {type(exc).__name__}: {exc}"),
                              _elapsed(started))

    worker = threading.Thread(target=work, daemon=True, name=f"eval-{variant}-{question.id}")
    worker.start()
    deadline = time.monotonic() + config.timeout_s
    while worker.is_alive() and time.monotonic() < deadline and not (abort and abort.is_set()):
        worker.join(min(0.2, max(0.0, deadline - time.monotonic())))
    if worker.is_alive() or "row" not in box:
        cancel.set()                       # the run stops at its next step; its result is discarded
        row = _row(question, variant, Attempt(error=TIMED_OUT), _elapsed(started))
        row["correct"] = False
        return row
    return box["row"]


def _graded(question: Question, variant: str, attempt: Attempt, config: EvalConfig, settings: Settings,
            latency_ms: float) -> dict:
    row = _row(question, variant, attempt, latency_ms)
    if attempt.answer is None:
        row["correct"] = False
        return row
    if config.fmt == "mcq":
        letter = grading.extract_letter(attempt.answer, question.options)
        row.update(prediction=letter, unparsed=letter is None, correct=letter == question.gold)
        return row
    judge_settings = settings.replace(model=config.judge_model or settings.model)
    with LLMClient(judge_settings) as client:
        verdict = grading.judge_record(question.record, attempt.answer, client)
    row.update(prediction=attempt.answer, judge=verdict.to_dict(), unparsed=verdict.score is None,
               correct=None if verdict.score is None else verdict.score == 1)
    return row


def _row(question: Question, variant: str, attempt: Attempt, latency_ms: float) -> dict:
    row = {
        "id": question.id, "variant": variant, "category": question.category,
        "prediction": None, "correct": None, "unparsed": False, "latency_ms": latency_ms,
        "llm_calls": attempt.llm_calls, "prompt_tokens": attempt.prompt_tokens,
        "completion_tokens": attempt.completion_tokens, "source_calls": attempt.source_calls,
        "graph": attempt.graph, "audit": attempt.audit, "error": attempt.error,
        "question": question.text, "answer": attempt.answer, "writer": attempt.writer,
        "presentation": attempt.presentation, "plan": attempt.plan,
        "usage": attempt.usage.to_json() if attempt.usage is not None else None,
    }
    if question.gold is not None:
        row["gold"] = question.gold
    if question.truncated:
        row["truncated"] = True
    return row


def _elapsed(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def _headline(variant: dict) -> str:
    """A variant's result in a few words: its accuracy, or for reports their trust and answers."""
    scored = variant.get("report")
    if scored:
        trust = scored.get("trust_mean")
        return (f"trust {'n/a' if trust is None else f'{trust:.2f}'}, "
                f"key questions answered {_percent(scored.get('answered_share'))}")
    return _percent(variant["accuracy"])


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


class Progress:
    """A plain-text progress bar on a terminal; silent otherwise (the caller prints one final line)."""

    WIDTH = 24

    def __init__(self, stream: TextIO, label: str, total: int, already: int = 0):
        self.stream, self.label, self.total = stream, label, total
        self.done = already
        self.correct = self.graded = self.unparsed = self.errors = 0
        self.started = time.monotonic()
        self.live = bool(getattr(stream, "isatty", lambda: False)())
        self._draw()

    def advance(self, row: dict) -> None:
        self.done += 1
        self.correct += row.get("correct") is True
        self.graded += row.get("correct") is not None
        self.unparsed += bool(row.get("unparsed"))
        self.errors += bool(row.get("error"))
        self._draw()

    def _draw(self) -> None:
        if not self.live:
            return
        filled = int(self.WIDTH * self.done / self.total) if self.total else self.WIDTH
        accuracy = f"{self.correct / self.graded:.0%}" if self.graded else "–"
        line = (f"\r{self.label:<15} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {self.done}/{self.total} "
                f"acc {accuracy} · unparsed {self.unparsed} · errors {self.errors} · "
                f"{time.monotonic() - self.started:.0f}s")
        self.stream.write(terminal_text(line))
        self.stream.flush()

    def close(self) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()
