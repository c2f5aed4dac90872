"""The one error tree of FinSearch.

    FinSearchError
    ├── InputError        the question itself is unusable (empty, too long)
    │   └── ConfigError   an option or setting is unusable (a bad --now, a bad environment value)
    ├── PlanError         a plan failed validation (cycle, unknown source, …)
    ├── SourceError       a data source could not answer one node
    │   ├── NoData        the upstream answered, but with nothing for these args
    │   │   └── UnknownSymbol the upstream does not know the ticker at all
    │   ├── NotInPack     replay mode, and the pack holds no matching call
    │   ├── NotCached     offline mode, and the cache holds no entry
    │   └── Unreachable   network failure, refusal or timeout after retries
    │       ├── RateLimited   the upstream is rate-limiting us (after retries)
    │       ├── TimedOut      the upstream did not answer within the node's time
    │       └── Refused       the upstream refused the request (401/403, a session it rejects)
    ├── LLMError          the language model failed (unreachable, timeout, bad output)
    │   ├── Stopped       the user pressed Stop while the model was working
    │   └── ModelBudgetSpent  the operator's model budget (calls a minute or a day) is used up
    ├── StoreUnavailable  the shared store (Redis) cannot be reached: a run is not saved or loaded
    └── DeliveryError     a notice could not be delivered on a channel (transient: worth another try)

Errors caused by data or by the model are attached to the node or noted on the run;
only the edge (CLI, UI) turns them into messages for people. Every message here is
written to be shown as-is: it names what happened and, where there is one, the fix.
"""

from __future__ import annotations

import enum
import time
from typing import ClassVar


class FinSearchError(Exception):
    """Base class: `str(err)` is a message fit for a user."""


class InputError(FinSearchError):
    """The question cannot be answered as given."""


class ConfigError(InputError):
    """An option or setting cannot be used as given."""


class PlanError(FinSearchError):
    """A plan is invalid. `problems` lists every validation failure found."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("invalid plan: " + "; ".join(self.problems))


class FailureKind(str, enum.Enum):
    """Why a node has no evidence, as a person would be told it (the answer's gap sentences
    are written per kind); the node's `error` keeps the developer's reason."""
    NO_DATA = "no_data"
    UNKNOWN_SYMBOL = "unknown_symbol"
    NOT_IN_PACK = "not_in_pack"          # a replay pack (the offline sample) holds no such call
    NOT_CACHED = "not_cached"
    UNREACHABLE = "unreachable"
    RATE_LIMITED = "rate_limited"
    TIMED_OUT = "timed_out"
    REFUSED = "refused"
    STOPPED = "stopped"                  # the user pressed Stop
    OUT_OF_TIME = "out_of_time"          # the question's time budget ran out first
    SKIPPED = "skipped"                  # an earlier step it needed did not run
    LEFT_OUT = "left_out"                # the model's plan left out the rules' search: about another instrument
    SWITCHED_OFF = "switched_off"        # the source is switched off in settings
    NOT_SET_UP = "not_set_up"            # the source needs a setting first (SEC EDGAR: who is asking)
    FAILED = "failed"                    # anything else: a bug, a missing package, a bad argument


class SourceError(FinSearchError):
    """A source call failed; the message is the node's error reason, `kind` its FailureKind
    (the class's own unless given)."""
    KIND: ClassVar[FailureKind] = FailureKind.FAILED

    def __init__(self, *args, kind: FailureKind | None = None):
        super().__init__(*args)
        self.kind = kind or self.KIND


class NoData(SourceError):
    KIND = FailureKind.NO_DATA


class UnknownSymbol(NoData):
    """The upstream does not know the ticker (not merely nothing for these dates)."""
    KIND = FailureKind.UNKNOWN_SYMBOL


class NotInPack(SourceError):
    KIND = FailureKind.NOT_IN_PACK


class NotCached(SourceError):
    KIND = FailureKind.NOT_CACHED


class Unreachable(SourceError):
    KIND = FailureKind.UNREACHABLE


class RateLimited(Unreachable):
    """The upstream answered "too many requests" until our retries ran out: try later."""
    KIND = FailureKind.RATE_LIMITED


class TimedOut(Unreachable):
    KIND = FailureKind.TIMED_OUT


class Refused(Unreachable):
    KIND = FailureKind.REFUSED


class LLMError(FinSearchError):
    pass


class Stopped(LLMError):
    """The run was stopped while a model call was in flight."""


class ModelBudgetSpent(LLMError):
    """The operator's model budget for this `period` ("minute" or "day") is used up: the call was
    not made. `resets_at` is when the next period begins (epoch seconds)."""

    def __init__(self, period: str, calls: int, resets_at: float):
        self.period, self.calls, self.resets_at = period, calls, resets_at
        at = time.strftime("%H:%M", time.gmtime(resets_at))
        super().__init__(f"the server's model budget is used up ({calls} call{'' if calls == 1 else 's'} a {period}); "
                         f"it resets at {at} UTC")


class StoreUnavailable(FinSearchError):
    """The store of runs and conversations cannot be reached (Redis down or unreachable).
    Nothing was written; the run itself is unaffected."""


class DeliveryError(FinSearchError):
    """A notice was not delivered on a channel (`finsearch.delivery`). `transient`: a 5xx, a
    timeout, a refused or dropped connection — worth trying again; otherwise the receiver refused
    it (a 4xx, a bad address) and trying again would only be refused again. `retry_after_s`: how
    long the receiver asked us to wait (Retry-After), when it did. The message names no secret."""

    def __init__(self, message: str, *, transient: bool, retry_after_s: float | None = None):
        super().__init__(message)
        self.transient = transient
        self.retry_after_s = retry_after_s
