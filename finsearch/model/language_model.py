"""The one model seam: what the planner, rewriter, writer and judge may ask of a model.

"No model" is `None` where a stage takes a `LanguageModel | None`; `LLMClient` (any
OpenAI-compatible server) is the implementation. Each call says what it is for (`CallKind`),
and the client sends that in the `X-FinSearch-Call` request header: a label from the fixed
set below, never a secret, ignored by real servers, and what the loopback model server
(`finsearch.model.loopback`) scripts its replies by instead of reading prompts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Literal, Protocol

from ..errors import LLMError
from .usage import ModelUsage

# What a call is for: the run's plan, rewrites and answer, the optional judge, a report's outline, sections and
# summary, and the evaluation's model-only answer and grading of a record ("other": a caller that did not say).
# It is also the stage a call's tokens are counted under (`model.usage`).
CallKind = Literal["plan", "rewrite", "answer", "judge", "llm_only", "grade", "outline", "section", "summary",
                   "other"]
CALL_HEADER = "X-FinSearch-Call"


@dataclasses.dataclass(frozen=True)
class LLMReply:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class LanguageModel(Protocol):
    @property
    def available(self) -> bool:
        """Whether it is still worth calling the model in this run."""

    @property
    def failure(self) -> LLMError | None:
        """The failure that stopped this run from calling the model again, if one did."""

    @property
    def usage(self) -> ModelUsage:
        """Its use so far in this run, per stage: requests made (retries included), tokens, cost."""

    def complete(self, messages: list[dict], *, call: CallKind = "other", schema: dict | None = None,
                 max_tokens: int = 1200) -> LLMReply:
        """One reply (JSON matching `schema` when given); an LLMError when there is none."""

    def stream(self, messages: list[dict], *, call: CallKind = "other", max_tokens: int = 1500,
               begin_within: float | None = None) -> Iterator[str]:
        """Text pieces as the model writes them; an LLMError when the stream fails, or when it has
        not begun within `begin_within` seconds of being asked (that call's failure only)."""

    def close(self) -> None: ...
