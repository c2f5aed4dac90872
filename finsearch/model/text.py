"""What a model wrote, made usable: reasoning blocks removed, JSON read leniently.

Reasoning models put their thinking in `<think>…</think>` (some send only the closing
tag, having opened it in the prompt template); that text is never shown and never
parsed. Plans are JSON, but models add code fences, chatter, trailing commas and
comments: `parse_json_object` repairs what it can (json-repair) and the caller then
validates the result strictly, so leniency never lets a bad plan through.

Token counts are estimated here, without a tokenizer (`estimate_tokens`,
`estimate_prompt_tokens`): for a server that reports no usage, and for the loopback
server's pace.
"""

from __future__ import annotations

import json
import math
import re

from ..errors import LLMError

_TAGS = ("think", "thinking", "reasoning")
_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.I | re.S)
_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.I)
_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.I)


def strip_reasoning(text: str) -> str:
    """The reply without its reasoning: closed blocks removed, text before a lone closing
    tag removed, and everything after an opening tag that never closes removed."""
    text = _BLOCK.sub("", text or "")
    closes = list(_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end():]
    opened = _OPEN.search(text)
    if opened:
        text = text[: opened.start()]
    return text


class ReasoningFilter:
    """`strip_reasoning` for a stream: feed pieces, get the visible text so far.

    A tag may arrive split over pieces, so a trailing `<…` that could still become one is
    held back until the next piece decides it. Text already shown before a lone `</think>`
    cannot be taken back: `feed` then sets `restart`, and the caller discards what it showed."""

    def __init__(self):
        self._inside = False
        self._carry = ""
        self._shown = False
        self.restart = False

    def feed(self, piece: str) -> str:
        self.restart = False
        text, self._carry = self._carry + piece, ""
        out: list[str] = []
        while text:
            if self._inside:
                end = _CLOSE.search(text)
                if end is None:
                    self._carry = _partial_tag(text, closing=True)
                    break
                text, self._inside = text[end.end():], False
                continue
            start, end = _OPEN.search(text), _CLOSE.search(text)
            if end is not None and (start is None or end.start() < start.start()):
                out.clear()                      # a lone closing tag: all before it was reasoning
                self.restart = self._shown
                self._shown = False
                text = text[end.end():]
                continue
            if start is None:
                keep = _partial_tag(text, closing=False) or _partial_tag(text, closing=True)
                out.append(text[: len(text) - len(keep)])
                self._carry = keep
                break
            out.append(text[: start.start()])
            text, self._inside = text[start.end():], True
        visible = "".join(out)
        self._shown = self._shown or bool(visible)
        return visible

    def flush(self) -> str:
        tail, self._carry = self._carry, ""
        return "" if self._inside else tail


def _partial_tag(text: str, closing: bool) -> str:
    """The end of `text` when it could be the start of a reasoning tag, else ''."""
    cut = text.rfind("<")
    if cut < 0 or len(text) - cut > 12:
        return ""
    tail = text[cut:].lower()
    prefixes = [f"</{t}>" if closing else f"<{t}>" for t in _TAGS]
    return text[cut:] if any(p.startswith(tail) for p in prefixes) else ""


_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.I)


def parse_json_object(text: str) -> dict:
    """The JSON object in a reply: reasoning, fences and chatter around it tolerated, small
    syntax slips (trailing commas, comments, single quotes) repaired. LLMError when there
    is no object to be had."""
    cleaned = _FENCE.sub("", strip_reasoning(text).strip())
    start = cleaned.find("{")
    if start < 0:
        raise LLMError("the model's reply held no JSON object")
    try:
        value = json.loads(cleaned)
    except ValueError:
        try:
            value, _ = json.JSONDecoder().raw_decode(cleaned[start:])
        except ValueError:
            value = _repaired(cleaned[start:])
    if not isinstance(value, dict):
        raise LLMError("the model's reply was JSON but not an object")
    return value


def _repaired(text: str):
    import json_repair

    try:
        value = json_repair.loads(text)
    except Exception:  # the repairer's own failure modes are not ours to list
        value = None
    if not isinstance(value, dict) or not value:
        raise LLMError("the model's reply was not valid JSON")
    return value


def _cjk(ch: str) -> bool:
    code = ord(ch)
    return 0x3000 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF \
        or 0xFF00 <= code <= 0xFFEF


def estimate_tokens(text: str, exact: bool = False) -> float:
    """Output tokens in `text`, estimated as BPE tokenizers of GPT-4-class models come out on
    average: one per CJK character (ideographs, kana, hangul, full-width punctuation), one
    per four other characters. Whole tokens (at least 1 for any text) unless `exact`, which
    keeps the fraction so that pieces of a stream add up to the whole."""
    cjk = sum(1 for ch in text if _cjk(ch))
    tokens = cjk + (len(text) - cjk) / 4
    return tokens if exact else (max(1, math.ceil(tokens)) if text else 0)


# Chat formats wrap each message in a few tokens of markup and prime the reply with a few more
# (OpenAI's own counting recipe for chat models: 3 and 3).
_PER_MESSAGE, _PER_REPLY = 3, 3


def estimate_prompt_tokens(messages: list[dict]) -> int:
    """Prompt tokens of chat `messages` (string contents, or lists of text parts)."""
    total = _PER_REPLY
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(part.get("text", "") for part in content
                              if isinstance(part, dict) and isinstance(part.get("text"), str))
        total += _PER_MESSAGE + estimate_tokens(content if isinstance(content, str) else "")
    return int(total)
