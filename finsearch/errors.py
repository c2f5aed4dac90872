"""The one error tree of FinSearch.

    FinSearchError
    ├── InputError        the question itself is unusable (empty, too long)
    │   └── ConfigError   an option or setting is unusable (a bad --now, a bad environment value)
    ├── PlanError         a plan failed validation (cycle, unknown source, …)
    ├── SourceError       a data source could not answer one node
    │   ├── NoData        the upstream answered, but with nothing for these args
    │   ├── NotInPack     replay mode, and the pack holds no matching call
    │   ├── NotCached     offline mode, and the cache holds no entry
    │   └── Unreachable   network failure, refusal or timeout after retries
    │       └── RateLimited   the upstream is rate-limiting us (after retries)
    └── LLMError          the language model failed (unreachable, timeout, bad output)
        └── Stopped       the user pressed Stop while the model was working

Errors caused by data or by the model are attached to the node or noted on the run;
only the edge (CLI, UI) turns them into messages for people. Every message here is
written to be shown as-is: it names what happened and, where there is one, the fix.
"""

from __future__ import annotations


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


class SourceError(FinSearchError):
    """A source call failed; the message is the node's error reason."""


class NoData(SourceError):
    pass


class NotInPack(SourceError):
    pass


class NotCached(SourceError):
    pass


class Unreachable(SourceError):
    pass


class RateLimited(Unreachable):
    """The upstream answered "too many requests" until our retries ran out: try later."""


class LLMError(FinSearchError):
    pass


class Stopped(LLMError):
    """The run was stopped while a model call was in flight."""
