"""Benchmark datasets → `Question`s.

Three formats:

- `mcq` (FinSearchBench-24 style), one record a question:
  `{"id", "question", "options": {"A": …, "B": …}, "answer": "B", "date": "2024-08-15", "category": …}`.
  `date` is the question's "now": 20:00 UTC that day, or a full ISO time as given. Options
  given as a list are lettered A, B, … in order.
- `finsearchcomp`, the public FinSearchComp records:
  `{"prompt_id", "prompt", "response_reference", "judge_prompt_template", "judge_system_prompt", "label"}`,
  graded by the record's own judge prompts (see grading.py).
- `report`, one deep research request a record: `{"question", "reference"?, "now"?, "id"?,
  "category"?}`; the report is scored by its audit (and, with a judge, its presentation and
  the share of the reference's key points it covers). Without an id, "report-N" by position.

A file is JSON Lines (one record a line, blank lines skipped) or one JSON array, which is
how the public FinSearchComp release ships (`data/finsearchcomp_data.json`). Every problem
is an InputError that names the line (or array item) and what is wrong with it.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timezone
from pathlib import Path

from ..errors import InputError
from ..plan.analysis import MAX_QUESTION_CHARS, language_of
from ..settings import parse_now
from .grading import has_answer_placeholder

FORMATS = ("mcq", "finsearchcomp", "report")
UNCATEGORISED = "uncategorised"
_MIN_PART = 20          # shortest a stem or option is cut to when a question must be shortened


@dataclasses.dataclass(frozen=True)
class Question:
    id: str
    text: str                          # what the system is asked (mcq: stem, options, how to answer)
    category: str
    language: str                      # "en" | "zh", of the question itself
    now: datetime | None = None        # the question's time; None → the settings' clock
    gold: str | None = None            # mcq: the correct letter
    options: dict[str, str] = dataclasses.field(default_factory=dict)
    record: dict = dataclasses.field(default_factory=dict)   # the raw record (judge prompts, reference)
    truncated: bool = False            # the mcq text was shortened to fit the pipeline's limit


def load(path: Path, fmt: str) -> list[Question]:
    """The questions of a dataset file, in file order; InputError on any bad record."""
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r} (choose {', '.join(FORMATS[:-1])} or {FORMATS[-1]})")
    parse = {"mcq": _mcq, "finsearchcomp": _finsearchcomp, "report": _report}[fmt]
    questions: list[Question] = []
    seen: dict[str, str] = {}
    for where, record in read_records(path):
        try:
            question = parse(record, where)
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        if question.id in seen:
            raise InputError(f"{path}: {where}: duplicate id {question.id!r} (first at {seen[question.id]})")
        seen[question.id] = where
        questions.append(question)
    if not questions:
        raise InputError(f"{path}: no records in the file")
    return questions


def read_records(path: Path) -> list[tuple[str, dict]]:
    """(where, record) pairs, where is "line N" (JSON Lines) or "item N" (a JSON array)."""
    path = Path(path).expanduser()
    if not path.exists():
        raise InputError(f"no such dataset file: {path}")
    if path.is_dir():
        raise InputError(f"{path} is a folder, not a dataset file")
    try:
        text = path.read_text("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno} ({exc.msg})") from None
        records = [(f"item {i}", item) for i, item in enumerate(items, start=1)]
    else:
        records = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append((f"line {number}", json.loads(line)))
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}: line {number} is not valid JSON ({exc.msg}, column {exc.colno})") from None
    for where, record in records:
        if not isinstance(record, dict):
            raise InputError(f"{path}: {where} is not a JSON object")
    return records


# -- mcq ------------------------------------------------------------------------------------

def _mcq(record: dict, where: str) -> Question:
    qid = _id(record.get("id"), where, "id")
    stem = _text(record.get("question"), where, "question")
    raw_options = record.get("options")
    if isinstance(raw_options, list) and len(raw_options) <= 26:       # ["…", "…"] → A, B, …
        raw_options = {chr(ord("A") + i): value for i, value in enumerate(raw_options)}
    if not isinstance(raw_options, dict) or len(raw_options) < 2:
        raise InputError(f"{where}: \"options\" must be an object with at least two lettered options")
    options: dict[str, str] = {}
    for key, value in raw_options.items():
        letter = str(key).strip(" .:)(（）").upper()
        if len(letter) != 1 or not "A" <= letter <= "Z":
            raise InputError(f"{where}: option key {key!r} is not a single letter A–Z")
        options[letter] = _text(value, where, f"options.{letter}")
    options = dict(sorted(options.items()))
    gold = str(record.get("answer") or "").strip().upper()
    if gold not in options:
        raise InputError(f"{where}: \"answer\" must be one of the option letters {', '.join(options)}, "
                         f"not {record.get('answer')!r}")
    now = _date(record.get("date"), where)
    language = language_of(stem)
    text, truncated = mcq_prompt(stem, options, language)
    category = str(record.get("category") or "").strip() or UNCATEGORISED
    return Question(qid, text, category, language, now, gold, options, record, truncated)


def mcq_prompt(stem: str, options: dict[str, str], language: str) -> tuple[str, bool]:
    """The text the system is asked: the stem, the options and how to state the letter,
    shortened (longest part first, with "…") to fit the pipeline's question limit."""
    parts = {"": stem, **options}
    text = _compose(parts, language)
    truncated = False
    while _length(text) > MAX_QUESTION_CHARS:
        key = max(parts, key=lambda k: len(parts[k]))
        current = parts[key]
        keep = max(_MIN_PART, len(current) - (_length(text) - MAX_QUESTION_CHARS) - 1)
        if keep >= len(current):
            raise InputError(f"the question and its {len(options)} options cannot be fitted into "
                             f"{MAX_QUESTION_CHARS:,} characters")
        parts[key] = current[:keep].rstrip() + "…"
        text = _compose(parts, language)
        truncated = True
    return text, truncated


def _compose(parts: dict[str, str], language: str) -> str:
    stem, options = parts[""], {k: v for k, v in parts.items() if k}
    letters = list(options)
    listed = "\n".join(f"{letter}. {text}" for letter, text in options.items())
    if language == "zh":
        choice = "、".join(letters[:-1]) + f" 或 {letters[-1]}"
        return (f"{stem}\n\n选项：\n{listed}\n\n"
                f"请先给出正确选项的字母，格式为“答案：X”（X 为 {choice} 之一），再简要说明理由。")
    choice = ", ".join(letters[:-1]) + f" or {letters[-1]}"
    return (f"{stem}\n\nOptions:\n{listed}\n\n"
            f"Reply with the letter of the correct option first, as \"Answer: X\" (X is {choice}), "
            "then explain briefly.")


def _length(text: str) -> int:
    return len(" ".join(text.split()))        # what the pipeline measures (whitespace collapsed)


def _date(value, where: str, name: str = "date") -> datetime | None:
    if value in (None, ""):
        return None
    raw = str(value).strip()
    try:
        if len(raw) == 10:                    # a day: the evening after the US close
            return datetime.strptime(raw, "%Y-%m-%d").replace(hour=20, tzinfo=timezone.utc)
        return parse_now(raw)
    except (ValueError, InputError):         # parse_now says ConfigError, which names no record
        raise InputError(f"{where}: \"{name}\" {value!r} is not a date (2024-08-15) or an ISO time") from None


# -- FinSearchComp ----------------------------------------------------------------------------

def _finsearchcomp(record: dict, where: str) -> Question:
    raw_id = record.get("prompt_id")
    if isinstance(raw_id, list) and len(raw_id) == 1:      # some releases wrap it in a list
        raw_id = raw_id[0]
    qid = _id(raw_id, where, "prompt_id")
    prompt = _text(record.get("prompt"), where, "prompt")
    _text(record.get("response_reference"), where, "response_reference")
    template = _text(record.get("judge_prompt_template"), where, "judge_prompt_template")
    _text(record.get("judge_system_prompt"), where, "judge_system_prompt")
    if not has_answer_placeholder(template):
        raise InputError(f"{where}: judge_prompt_template has no {{response}} placeholder for the answer")
    category = str(record.get("label") or "").strip() or UNCATEGORISED
    return Question(qid, prompt.strip(), category, language_of(prompt), record=record)


# -- report requests ---------------------------------------------------------------------------

def _report(record: dict, where: str) -> Question:
    raw_id = record.get("id")
    qid = _id(raw_id, where, "id") if raw_id is not None else "report-" + where.split()[-1]
    question = _text(record.get("question"), where, "question").strip()
    if _length(question) > MAX_QUESTION_CHARS:
        raise InputError(f"{where}: \"question\" is longer than {MAX_QUESTION_CHARS:,} characters")
    reference = record.get("reference")
    if reference is not None and not isinstance(reference, str):
        raise InputError(f"{where}: \"reference\" must be text")
    category = str(record.get("category") or "").strip() or UNCATEGORISED
    return Question(qid, question, category, language_of(question), now=_date(record.get("now"), where, "now"),
                    record={"reference": (reference or "").strip() or None})


# -- fields -----------------------------------------------------------------------------------

def _id(value, where: str, name: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        raise InputError(f"{where}: missing \"{name}\"")
    return str(value).strip()


def _text(value, where: str, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{where}: \"{name}\" must be non-empty text")
    return value
