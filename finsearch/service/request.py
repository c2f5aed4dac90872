"""A question as a program sends it (the HTTP API's body, an MCP tool's arguments): read and
checked before anything runs, with the same rules and messages as the command line's flags."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ..errors import InputError
from ..plan.analysis import check_question
from ..plan.interpretation import Corrections
from ..settings import Settings, parse_now

FIELDS = ("question", "now", "tickers", "period")


@dataclasses.dataclass(frozen=True)
class AskRequest:
    """`question`, and what `ask` takes beside it: `now` (ISO time), `tickers` ("WORDS=TICKER",
    as `--ticker`) and `period` ("START:END", as `--period`)."""
    question: str
    now: str | None = None
    tickers: tuple[str, ...] = ()
    period: str | None = None

    @classmethod
    def from_json(cls, body: object) -> AskRequest:
        """From a JSON object; InputError naming the field that is missing or of the wrong shape.
        `tickers` may be a list of "WORDS=TICKER" or an object {"WORDS": "TICKER"}."""
        if not isinstance(body, Mapping):
            raise InputError('send a JSON object, for example {"question": "Why did NVDA fall last week?"}')
        unknown = sorted(str(k)[:40] for k in body if k not in FIELDS)
        if unknown:
            raise InputError(f"unknown field {unknown[0]!r}: a question takes {', '.join(FIELDS)}")
        question, now, period = body.get("question"), body.get("now"), body.get("period")
        if not isinstance(question, str):
            raise InputError('"question" must be a string, for example "Why did NVDA fall last week?"')
        for name, value in (("now", now), ("period", period)):
            if value is not None and not isinstance(value, str):
                raise InputError(f'"{name}" must be a string')
        return cls(question, now, _tickers(body.get("tickers")), period).checked()

    def checked(self) -> AskRequest:
        """This request, its question cleaned, once every field has been read as a run will
        read it (so a bad value is refused now, not in the middle of a run)."""
        question = check_question(self.question)
        if self.now is not None:
            parse_now(self.now)
        self.corrections()
        return dataclasses.replace(self, question=question)

    def corrections(self) -> Corrections:
        return Corrections.parse(list(self.tickers), self.period, flags=('"tickers"', '"period"'))

    def settings(self, base: Settings) -> Settings:
        """`base` (the server's own settings) with this request's time, when it pins one."""
        return base if self.now is None else base.replace(now=parse_now(self.now))


def _tickers(raw: object) -> tuple[str, ...]:
    if raw is None:
        return ()
    if isinstance(raw, Mapping):
        pairs = list(raw.items())
        if all(isinstance(k, str) and isinstance(v, str) for k, v in pairs):
            return tuple(f"{k}={v}" for k, v in pairs)
    elif isinstance(raw, list) and all(isinstance(t, str) for t in raw):
        return tuple(raw)
    raise InputError('"tickers" must be a list of "WORDS=TICKER" strings or an object {"WORDS": "TICKER"}, '
                     'for example {"SOL": "SOL-USD"}')
