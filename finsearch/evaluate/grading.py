"""Grading: the letter an mcq answer chose, and a FinSearchComp record's own LLM judge.

Letters are read in tiers, the first tier that finds anything decides, and a tier that
finds two different letters makes the answer unparsed (None), never a guess:

1. a stated choice: "Answer: B", "The correct option is (B)", "I choose B", "答案：B", "选B";
2. a marked letter: "(B)", "（B）", "**B**", or the answer opening with "B." / "B)";
3. the text of exactly one option quoted in the answer (an option contained in a longer
   quoted option does not count separately: "5%" inside "15%").

FinSearchComp records carry their judge: `judge_system_prompt`, and `judge_prompt_template`
with Python `str.format` placeholders — `{prompt}`, `{response_reference}`, `{response}`, and
`{ground_truth}` in the time-sensitive (T1) records (randomtutu/FinSearchComp eval.py). Aliases
`{question}`, `{reference}`, `{answer}` and `{{double}}` braces are accepted too. The verdict is
`answer_score` (0/1) in the first JSON object of the judge's reply that has one.
"""

from __future__ import annotations

import dataclasses
import json
import re

from ..errors import LLMError
from ..model.llm import LLMClient

# -- mcq letters ------------------------------------------------------------------------------

_KEY_EN = (r"\b(?i:final\s+answer|correct\s+(?:answer|option|choice)|best\s+(?:answer|option|choice)|answer"
           r"|i\s+(?:would\s+)?(?:choose|pick|select|go\s+with))\b")
_SEP_EN = r"(?:\s*(?i:is|would\s+be|should\s+be|=))?\s*[:：\-–]?[\s*_(\[（]*(?i:option\s+|choice\s+)?[*_(\[（]*"
_KEY_ZH = r"(?:正确答案|最终答案|答案|正确选项|应选|应该选|选择|选)"
_SEP_ZH = r"\s*(?:是|为|应为|应该是)?\s*[:：]?[\s*_(\[（【]*(?:选项)?"
_END = r"(?![A-Za-z0-9])"


def _tiers(letters: str) -> list[list[re.Pattern]]:
    cls = f"([{letters}])"
    stated = [re.compile(_KEY_EN + _SEP_EN + cls + _END), re.compile(_KEY_ZH + _SEP_ZH + cls + _END)]
    marked = [re.compile(rf"\({cls}\)"), re.compile(rf"（{cls}）"), re.compile(rf"\*\*{cls}\*\*"),
              re.compile(rf"\*\*{cls}[.)．:：]"), re.compile(rf"\A[\s*_#>]*\(?{cls}(?:[.)．:：、]|\s*\Z)")]
    return [stated, marked]


def extract_letter(text: str, options: dict[str, str]) -> str | None:
    """The option letter an answer chose, or None when it states none or is ambiguous."""
    if not text or not options:
        return None
    letters = "".join(sorted(options))
    for tier in _tiers(letters):
        found = {m.group(1) for pattern in tier for m in pattern.finditer(text)}
        if found:
            return found.pop() if len(found) == 1 else None
    return _quoted_option(text, options)


def _normalise(text: str) -> str:
    return " ".join(text.casefold().replace("**", "").split()).strip(" .。,，;；:：!！?？\"'“”")


def _quoted_option(text: str, options: dict[str, str]) -> str | None:
    haystack = _normalise(text)
    found: dict[str, str] = {}
    for letter, option in options.items():
        needle = _normalise(option)
        if len(needle) < 2:
            continue
        left = r"(?<![a-z0-9])" if needle[0].isalnum() and needle[0].isascii() else ""
        right = r"(?![a-z0-9])" if needle[-1].isalnum() and needle[-1].isascii() else ""
        if re.search(left + re.escape(needle) + right, haystack):
            found[letter] = needle
    kept = [letter for letter, needle in found.items()
            if not any(needle != other and needle in other for other in found.values())]
    return kept[0] if len(kept) == 1 else None


# -- FinSearchComp judge ----------------------------------------------------------------------

ALIASES = {"prompt": "question", "question": "question",
           "response_reference": "reference", "reference": "reference",
           "response": "answer", "answer": "answer",
           "ground_truth": "ground_truth"}
_NAMES = "|".join(sorted(ALIASES, key=len, reverse=True))
_TOKEN = re.compile(r"\{\{\s*(" + _NAMES + r")\s*\}\}|\{(" + _NAMES + r")\}|(\{\{)|(\}\})")
_SINGLE = re.compile(r"(?<!\{)\{(" + _NAMES + r")\}(?!\})")


def has_answer_placeholder(template: str) -> bool:
    return any(ALIASES[m.group(1) or m.group(2)] == "answer"
               for m in _TOKEN.finditer(template) if m.group(1) or m.group(2))


def fill_judge_prompt(template: str, *, question: str, reference: str, answer: str,
                      ground_truth: str | None = None) -> str:
    """The template with its placeholders filled in one pass (so text inside the answer is
    never read as a placeholder). A `str.format`-style template (single-brace placeholders)
    also has its doubled literal braces `{{ }}` turned into single ones, as format would."""
    values = {"question": question, "reference": reference, "answer": answer,
              "ground_truth": ground_truth if ground_truth is not None else reference}
    format_style = bool(_SINGLE.search(template))

    def replace(m: re.Match) -> str:
        name = m.group(1) or m.group(2)
        if name:
            return values[ALIASES[name]]
        brace = m.group(3) or m.group(4)
        return brace[0] if format_style else brace

    return _TOKEN.sub(replace, template)


def parse_verdict(reply: str) -> int | None:
    """`answer_score` 0 or 1 from the first JSON object in a reply that has one
    (code fences and prose around it tolerated); None when there is no readable verdict."""
    for text in (reply or "", (reply or "").replace("：", ":").replace("，", ",")):
        for obj in _objects(text):
            if "answer_score" in obj:
                return _score(obj["answer_score"])
    return None


def _objects(text: str):
    decoder = json.JSONDecoder()
    for m in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, m.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def _score(value) -> int | None:
    if isinstance(value, list) and len(value) == 1:        # the official scorer reads [[score]]
        return _score(value[0])
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and value in (0, 1):
        return int(value)
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return int(value.strip())
    return None


@dataclasses.dataclass(frozen=True)
class Verdict:
    score: int | None                  # 1 correct, 0 wrong, None unparsed
    reply: str = ""
    error: str | None = None           # the judge call itself failed
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def to_dict(self) -> dict:
        return {"score": self.score, "model": self.model, "reply": self.reply[:4000], "error": self.error,
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens}


def judge_record(record: dict, answer: str, client: LLMClient) -> Verdict:
    """Run a FinSearchComp record's own judge on `answer`."""
    user = fill_judge_prompt(record["judge_prompt_template"], question=record["prompt"],
                             reference=record["response_reference"], answer=answer,
                             ground_truth=record.get("ground_truth"))
    messages = [{"role": "system", "content": record["judge_system_prompt"]}, {"role": "user", "content": user}]
    try:
        reply = client.complete(messages, call="grade", max_tokens=800)
    except LLMError as exc:
        return Verdict(None, error=f"the judge failed: {exc}", model=client.model)
    return Verdict(parse_verdict(reply.text), reply.text, None, client.model, reply.prompt_tokens,
                   reply.completion_tokens)
