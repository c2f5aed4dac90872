"""The executive summary by the model: one call over the written, cited sections.

The model may only cite numbers the sections cite; any other marker is dropped (and
counted in the report's notes), so the summary cannot point at nothing. Any failure leaves
the rules' extractive summary in place.
"""

from __future__ import annotations

import re

from ..answer.citations import MARKER_PATTERN
from ..answer.markdown import clean_model_markdown
from ..errors import LLMError, Stopped
from ..model.language_model import LanguageModel
from ..model.llm import fill, prompt
from ..model.reply_check import watched_reply
from ..phrases import Language, say

_MARKER = re.compile(MARKER_PATTERN)
MAX_SECTIONS_CHARS = 16_000
SUMMARY_TOKENS = 600            # a few short paragraphs


def model_summary(question: str, sections: list[tuple[str, str]], references: int, language: Language,
                  model: LanguageModel) -> tuple[str | None, str | None]:
    """(the summary's markdown or None, a note for the reader or None)."""
    text = "\n\n".join(f"## {title}\n{body}" for title, body in sections)[:MAX_SECTIONS_CHARS]
    messages = [{"role": "user", "content": fill(prompt("report_summary"), question=question, sections=text,
                                                 language=say("language.name", language))}]
    try:
        # Streamed, so that a reply that has lost the thread is given up on in its first tokens.
        text = watched_reply(model, messages, call="summary", max_tokens=SUMMARY_TOKENS, prompts=("report_summary",))
    except (LLMError, Stopped) as exc:
        return None, f"The model's executive summary failed ({exc}); the rules wrote it."
    dropped = 0

    def keep(match: re.Match) -> str:
        nonlocal dropped
        numbers = [int(n) for n in re.findall(r"\d+", match.group(0))]
        good = [n for n in numbers if 1 <= n <= references]
        dropped += len(numbers) - len(good)
        return "".join(f"[{n}]" for n in dict.fromkeys(good))

    summary = _MARKER.sub(keep, clean_model_markdown(text)).strip()
    if not summary:
        return None, "The model's executive summary was empty; the rules wrote it."
    note = f"Dropped {dropped} citation(s) in the model's summary that pointed at no reference." if dropped else None
    return summary, note
