"""A streamed reply judged as it arrives: the signs that a model has lost the thread, seen in
its first tokens rather than after a thousand.

Small local models fail in ways a hosted one does not (issue 27): a base model, or a chat
template that does not fit the model, so it writes the template's markup (`<|im_end|>`) over and
over; our own prompt written back; a sentence repeated until the token cap. Each is plain in the text long before
the reply ends, and none will turn into an answer, so the stream is abandoned at once.

`ReplyWatch` is fed the visible text (reasoning removed) and raises LLMError with the reason.
Asked for JSON, it also wants the JSON to open within JSON_OPENS_WITHIN characters (after any
reasoning: a reasoning model thinks first, then writes). What else a stage wants it judges
itself: the answer, that it cites the evidence (`answer.generator`). `watched_reply` reads a
whole streamed reply under a watch (the outline's).
"""

from __future__ import annotations

import re

from ..errors import LLMError
from .language_model import CallKind, LanguageModel
from .prompts import prompt
from .text import ReasoningFilter

# The markup of the common chat templates (ChatML, Gemma, Llama 3, Mistral, Phi, GPT-2's end of text):
# never part of an answer, and a sure sign the server's template does not fit its model.
_MARKUP = re.compile(r"<\|(?:im_start|im_end|eot_id|start_header_id|end_header_id|endoftext|end|user|assistant"
                     r"|system)\|>|<(?:start|end)_of_turn>|\[/?INST\]")
SCAFFOLD_MIN_CHARS = 18         # a prompt line (or the words before its first blank) this long is ours …
ECHO_ALONE_CHARS = 40           # … and one this long, written back alone, is an echo
LOOP_MIN_CHARS = 160            # a tail this long that repeats itself exactly …
LOOP_MAX_PERIOD = 200           # … with a period up to this long (at least three times over)
_CHECK_EVERY = 40               # characters between two looks for an echo or a loop
JSON_OPENS_WITHIN = 240         # visible characters a JSON reply may write before its JSON opens (~60 tokens)


def scaffold(names: tuple[str, ...]) -> tuple[str, ...]:
    """The fixed lines of the named prompts: each line, or its words before the first blank
    (`{{…}}`), when long enough to be ours alone, whitespace collapsed."""
    lines: list[str] = []
    for name in names:
        for line in prompt(name).splitlines():
            fixed = " ".join(line.split("{{")[0].split())
            if len(fixed) >= SCAFFOLD_MIN_CHARS:
                lines.append(fixed)
    return tuple(dict.fromkeys(lines))


class ReplyWatch:
    """Feed it the visible reply piece by piece; it raises LLMError once the reply is lost."""

    def __init__(self, prompts: tuple[str, ...] = (), json: bool = False):
        self._scaffold = scaffold(prompts)
        self._json = json
        self.text = ""
        self._looked = 0               # length of `text` at the last look for an echo or a loop

    def feed(self, visible: str) -> None:
        if not visible:
            return
        start = max(0, len(self.text) - 20)       # markup may arrive split over pieces
        self.text += visible
        if self._json and len(self.text) > JSON_OPENS_WITHIN and not any(c in self.text for c in "{["):
            raise LLMError(f"its reply was not JSON: it wrote {len(self.text)} characters of something else first")
        markup = _MARKUP.search(self.text, start)
        if markup:
            raise LLMError(f"it wrote chat-template markup ({markup.group(0)}), so it is not following the chat: "
                           "a base model, or a chat template that does not fit it")
        if len(self.text) - self._looked >= _CHECK_EVERY:
            self._looked = len(self.text)
            self._look()

    def finish(self) -> None:
        """The last look, once the reply has ended (a short reply may end between two looks)."""
        if len(self.text) > self._looked:
            self._looked = len(self.text)
            self._look()

    def _look(self) -> None:
        flat = " ".join(self.text.split())
        echoed = [line for line in self._scaffold if line in flat]
        # A long line of ours, or two: a short one alone ("when comparing several instruments.")
        # an answer may well write in its own words.
        if len(echoed) >= 2 or any(len(line) >= ECHO_ALONE_CHARS for line in echoed):
            raise LLMError(f"it wrote our prompt back (“{echoed[0][:40]}…”)")
        if looping(self.text):
            raise LLMError("it went round in a loop, writing the same text again and again")


def looping(text: str) -> bool:
    """Whether `text` ends in LOOP_MIN_CHARS or more that repeat with a short period, three times over."""
    for period in range(1, LOOP_MAX_PERIOD + 1):
        span = max(LOOP_MIN_CHARS, 2 * period)
        if len(text) < span + period:
            break
        if text[-span:] == text[-span - period:-period]:
            return True
    return False


def watched_reply(llm: LanguageModel, messages: list[dict], *, call: CallKind, max_tokens: int,
                  prompts: tuple[str, ...], json: bool = False) -> str:
    """A whole reply, streamed and judged as it arrives (`ReplyWatch`), reasoning removed:
    LLMError as soon as it is lost, not after `max_tokens`."""
    reasoning, watch = ReasoningFilter(), ReplyWatch(prompts, json)
    stream = llm.stream(messages, call=call, max_tokens=max_tokens)
    try:
        for piece in stream:
            visible = reasoning.feed(piece)
            if reasoning.restart:        # all before a lone </think> was reasoning
                watch = ReplyWatch(prompts, json)
            watch.feed(visible)
        watch.feed(reasoning.flush())
        watch.finish()
    finally:
        stream.close()                   # abandoning the reply closes its connection
    return watch.text
