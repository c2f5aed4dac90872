"""The executive summary: by the model, one call over the written, cited sections; by the
rules, a thesis and a stance written from the report's findings (`findings`, `stance`).

The model may only cite numbers the sections cite; any other marker is dropped (and
counted in the report's notes), so the summary cannot point at nothing. Any failure leaves
the rules' summary in place.
"""

from __future__ import annotations

import re

from ..answer.citations import MARKER_PATTERN
from ..answer.markdown import clean_model_markdown
from ..errors import LLMError, Stopped
from ..model.language_model import LanguageModel
from ..model.prompts import fill, prompt
from ..model.reply_check import watched_reply
from ..phrases import Language, say
from ..phrases.numbers import money, pct
from .stance import Rules, stance, valuation_verdict

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


# -- the rules' summary -------------------------------------------------------------------------------

def rules_summary(rules: Rules, who: str, language: Language) -> str | None:
    """The summary from the findings (`Rules`), never from the sections' sentences: a thesis
    (results against expectations, the period's move, the price against the analysts' target),
    the stance with its reasons, each cited, and the not-investment-advice line; None when the
    findings hold none of it."""
    signals = rules.signals()
    thesis = _thesis(rules, who, language)
    if not signals and thesis is None:
        return None
    word = say(f"report.stance.{stance(signals)}", language)
    parts = [thesis] if thesis else []
    parts.append(say("report.stance_line", language, stance=word))
    signs = {1: "+", 0: "±", -1: "−"}
    parts.append("\n".join(f"- ({signs[s.sign]}) {s.reason}" for s in signals))
    parts.append("_" + say("report.not_advice", language) + "_")
    return "\n\n".join(p for p in parts if p)


def _thesis(rules: Rules, who: str, language: Language) -> str | None:
    f, clauses = rules.findings, []
    verdict, guidance = f.results, f.guidance
    if verdict or guidance:
        key = "_".join(x for x in (verdict, None if guidance is None else
                                   "guided_below" if guidance.direction < 0 else "guided_above") if x)
        refs = rules.refs(f.eps[0].item if f.eps else None, guidance.item if guidance else None)
        clauses.append(say(f"report.thesis.{key}", language, refs=refs))
    stats = f.stats
    if stats is not None and stats.return_pct is not None:
        clauses.append(say("report.thesis.rose" if stats.return_pct >= 0 else "report.thesis.fell", language,
                           share=pct(abs(stats.return_pct), False), refs=rules.refs(f.history)))
    target = rules.target()
    if target is not None:
        clauses.append(target.reason)
    if not clauses and f.price is not None:
        clauses.append(say("report.thesis.price", language, price=money(f.price.value, f.price.currency, language),
                           refs=rules.refs(f.price.item)))
    if not clauses:
        return None
    return say("report.thesis", language, who=who, clauses=say("report.thesis_sep", language).join(clauses))


def verdict_sentence(rules: Rules, language: Language) -> str | None:
    """The valuation section's verdict: cheap / fair / expensive against the analysts' target
    and the peer or the industry, with the reasons that decided it."""
    found = valuation_verdict(rules.signals())
    if found is None:
        return None
    verdict, used = found
    return say("report.verdict", language, verdict=say(f"report.verdict.{verdict}", language),
               reasons=say("report.thesis_sep", language).join(s.reason for s in used))
