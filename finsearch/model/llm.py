"""The language-model seam: any OpenAI-compatible server through the official SDK.

    choose_backend(settings) → "openai" | "heuristic"
    LLMClient.complete(messages, call=…, schema=…) → LLMReply     one JSON or text reply
    LLMClient.stream(messages, call=…) → iterator of text pieces

`LLMClient` is the `LanguageModel` (finsearch.model.language_model) of every run with a
model; each request carries its `call` kind in the X-FinSearch-Call header.

Every call is bounded by the run's `Deadline` and ends at once on Stop. The SDK's own
retries are off: a model that times out, hangs, drips, or answers 5xx trips this run's
breaker after one failure, and the callers' rule-based fallbacks take over at once.
A 429 is waited out only when its Retry-After is short and fits the budget. Each request is
first taken from the operator's model budget (`budget`).

Every failure becomes an `LLMError` whose message names what happened and the fix;
callers fall back to the heuristic backend and say so. Token usage and call counts
are kept per client (one client per run) and per stage (each call's kind), priced from the
operator's table (`model.prices`): as the server reports them (a stream asks for its usage
chunk with `stream_options`), estimated from the text where it reports none (and marked so).
A server that refuses `stream_options` is asked once more without it, and this client
never sends it again.
"""

from __future__ import annotations

import functools
import queue
import threading
import time
from collections.abc import Callable, Iterator

from ..deadline import Deadline, unlimited
from ..errors import LLMError, ModelBudgetSpent, Stopped
from ..settings import Backend, Settings
from ..surrogates import replace_lone
from .budget import ModelBudget
from .language_model import CALL_HEADER, CallKind, LLMReply
from .prices import price_for
from .sdk import (
    close_stream,
    not_openai,
    read_stream,
    retry_after,
    shared_sdk_client,
    stream_error,
    timed_out,
    timeout_for,
    token_count,
    translate,
)
from .stream_watch import StreamWatch
from .text import estimate_prompt_tokens, estimate_tokens, strip_reasoning
from .usage import ModelUsage

RETRY_AFTER_MAX_S = 10.0       # the longest rate-limit wait worth making a person sit through
RESERVE_S = 2.0                # kept back from each call for the rule-based finish


def choose_backend(settings: Settings) -> Backend:
    """"openai" when a model server is configured (or demanded), else "heuristic"."""
    if settings.llm == "heuristic":
        return "heuristic"
    if settings.llm == "openai":
        return "openai"
    return "openai" if (settings.api_key or settings.base_url) else "heuristic"


# Servers that refused a JSON-schema request, remembered for the process: (base URL, model).
_NO_SCHEMA: set[tuple[str | None, str]] = set()


class LLMClient:
    def __init__(self, settings: Settings, deadline: Deadline | None = None):
        self.settings = settings
        self.model = settings.model
        self.deadline = deadline or unlimited()
        self._usage = ModelUsage()
        self._price = price_for(settings.model_prices, self.model)     # None: tokens only, no cost
        self._lock = threading.Lock()
        self._client = None
        self._broken: LLMError | None = None     # after a timeout, hang or server error: no more calls
        self._stream_usage = True                # ask streams for their usage chunk (until a server refuses)
        self._budget: ModelBudget | None = ModelBudget.of(settings)   # the operator's calls a minute / a day

    @property
    def available(self) -> bool:
        """Whether it is still worth calling the model in this run."""
        return self._broken is None and not self.deadline.over

    @property
    def failure(self) -> LLMError | None:
        """The failure that stopped this run from calling the model again, if one did."""
        return self._broken

    @property
    def usage(self) -> ModelUsage:
        return self._usage          # replaced whole under the lock, so always a consistent count

    def _sdk(self):
        if self._client is None:
            self._client = shared_sdk_client(self.settings)
        return self._client

    def close(self) -> None:
        """End this run's use of the model. The HTTP client itself is shared across runs
        (building one loads the TLS certificates; its pool keeps connections warm)."""
        self._client = None

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _count(self, stage: CallKind, calls: int = 0, prompt_tokens: int = 0, completion_tokens: int = 0,
               estimated: bool = False) -> None:
        with self._lock:
            self._usage = self._usage.counted(stage, self.model, calls=calls, prompt_tokens=prompt_tokens,
                                              completion_tokens=completion_tokens, estimated=estimated,
                                              price=self._price)

    # -- one reply ------------------------------------------------------------------------

    def complete(self, messages: list[dict], *, call: CallKind = "other", schema: dict | None = None,
                 max_tokens: int = 1200) -> LLMReply:
        """One reply, reasoning removed. With `schema`, ask for JSON matching it (the
        JSON-schema response format where the server takes it, instructions otherwise).
        An empty reply, or a tool call instead of text, is an LLMError."""
        kwargs: dict = {"model": self.model, "messages": messages, "max_tokens": max_tokens,
                        "temperature": 0, "extra_headers": {CALL_HEADER: call}}
        server = (self.settings.base_url, self.model)
        if schema is not None and server not in _NO_SCHEMA:
            kwargs["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": "reply", "schema": schema}}
        try:
            response = self._call(kwargs)
        except _SchemaRefused:
            _NO_SCHEMA.add(server)
            kwargs.pop("response_format")
            response = self._call(kwargs)
        if isinstance(response, str):          # the SDK hands back non-JSON bodies as text
            raise self._trip(LLMError(not_openai(self.settings)))
        try:
            message = response.choices[0].message
        except (AttributeError, IndexError, KeyError, TypeError):
            message = None
        content = getattr(message, "content", None)
        prompt_tokens, completion_tokens, estimated = _tokens(messages, content if isinstance(content, str) else "",
                                                              getattr(response, "usage", None))
        self._count(call, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, estimated=estimated)
        if message is None:
            raise LLMError("the model server sent a reply with no message in it")
        if content is not None and not isinstance(content, str):
            raise self._trip(LLMError("the model server sent a reply whose text is not text"))
        # A lone surrogate (a JSON escape of half an emoji) would make the run unsaveable.
        text = replace_lone(strip_reasoning(content or "")).strip()
        if not text:
            if getattr(message, "tool_calls", None):
                raise LLMError("the model answered with a tool call instead of text")
            raise LLMError("the model sent an empty reply")
        return LLMReply(text, prompt_tokens, completion_tokens)

    def _call(self, kwargs: dict, cap: float | None = None):
        """One SDK request within the budget (and within `cap` seconds, when given); a short
        Retry-After on a 429 is waited out once."""
        import openai

        ends = None if cap is None else time.monotonic() + cap
        for attempt in (1, 2):
            limit = self._limit() if ends is None else min(self._limit(), max(ends - time.monotonic(), 0.5))
            self._spend()
            self._count(kwargs["extra_headers"][CALL_HEADER], calls=1)
            timeout = timeout_for(limit)
            try:
                return self._bounded(functools.partial(self._sdk().chat.completions.create, **kwargs,
                                                       timeout=timeout), limit)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if "response_format" in kwargs:
                    raise _SchemaRefused() from exc    # any 400/422 to a schema request: try once without
                if "stream_options" in kwargs and "stream_options" in f"{exc} {exc.body!r}":
                    raise _StreamOptionsRefused() from exc
                raise translate(exc, self.settings) from exc
            except openai.RateLimitError as exc:
                wait = retry_after(exc)
                if attempt == 1 and wait is not None and wait <= min(RETRY_AFTER_MAX_S, self.deadline.remaining() / 4):
                    if not self.deadline.wait(wait):
                        raise Stopped("stopped by the user") from None
                    continue
                raise self._trip(translate(exc, self.settings, wait)) from exc
            except openai.APIStatusError as exc:
                error = translate(exc, self.settings)
                raise (self._trip(error) if exc.status_code >= 500 or exc.status_code in (401, 403, 404)
                       else error) from exc
            except openai.OpenAIError as exc:
                raise self._trip(translate(exc, self.settings)) from exc
            except (LLMError, _SchemaRefused, _StreamOptionsRefused):
                raise
            except Exception as exc:  # the SDK's parsing of a broken reply, a bad URL: all the model's fault
                raise self._trip(LLMError(f"the model server sent something unusable ({type(exc).__name__})")) \
                    from exc
        raise AssertionError("unreachable")                     # pragma: no cover

    def _limit(self) -> float:
        if self._broken is not None:
            raise self._broken
        if self.deadline.stopped:
            raise Stopped("stopped by the user")
        limit = self.deadline.cap(self.settings.llm_timeout_s, reserve=RESERVE_S)
        if limit <= 0.2:
            raise self._trip(LLMError(f"no time was left for the model within this question's "
                                      f"{self.deadline.seconds:g} s budget"))
        return limit

    def _spend(self) -> None:
        """Take this request from the operator's budget; a spent one ends the run's calls as a failure does."""
        try:
            self._budget is None or self._budget.spend()
        except ModelBudgetSpent as exc:
            raise self._trip(exc) from None

    def _bounded(self, request: Callable[[], object], limit: float):
        """Run `request` so that Stop or the time limit end the wait at once, whatever the
        server does (the request's own timeout then ends its thread soon after)."""
        box: dict = {}
        done = threading.Event()

        def work() -> None:
            try:
                box["value"] = request()
            except BaseException as exc:  # handed to the waiting caller as is
                box["error"] = exc
            finally:
                done.set()

        threading.Thread(target=work, name="finsearch-model-call", daemon=True).start()
        ends = time.monotonic() + limit
        while not done.wait(0.05):
            if self.deadline.stopped:
                raise Stopped("stopped by the user")
            if time.monotonic() >= ends:
                raise self._trip(timed_out(self.settings, limit))
        if "error" in box:
            raise box["error"]
        return box["value"]

    def _trip(self, error: LLMError) -> LLMError:
        """Remember a failure that makes further calls in this run pointless."""
        if not isinstance(error, Stopped) and self._broken is None:
            self._broken = error
        return error

    # -- streaming ------------------------------------------------------------------------

    def stream(self, messages: list[dict], *, call: CallKind = "other", max_tokens: int = 1500,
               begin_within: float | None = None) -> Iterator[str]:
        """Text pieces as the model writes them (reasoning fields ignored; `<think>` blocks
        are the caller's to filter). Abandoned with an LLMError when nothing comes within the
        call's time limit (a local model reads a long prompt for many seconds before its first
        token), when it then stalls for `settings.stream_stall_s`, drips below
        `StreamWatch`'s floor, or outlives the budget (`stream_watch`).

        `begin_within`: seconds from the request by which the reply must have begun (any piece,
        reasoning too). A server that took the request but is still reading the prompt then is
        given up for this call only (its stage falls back; a later, shorter or cached prompt may
        well be in time); one that has not even answered the request is a hang, as above."""
        asked = time.monotonic()
        stall = self.settings.stream_stall_s
        first_wait = max(stall, self.deadline.cap(self.settings.llm_timeout_s, reserve=RESERVE_S))
        kwargs: dict = {"model": self.model, "messages": messages, "max_tokens": max_tokens,
                        "temperature": 0.2, "stream": True, "extra_headers": {CALL_HEADER: call}}
        if self._stream_usage:
            # Without it OpenAI and most compatible servers send no usage in a stream at all.
            kwargs["stream_options"] = {"include_usage": True}
        try:
            chunks = self._call(kwargs, begin_within)
        except _StreamOptionsRefused:
            self._stream_usage = False
            kwargs.pop("stream_options")
            chunks = self._call(kwargs, None if begin_within is None else begin_within - (time.monotonic() - asked))
        response = getattr(chunks, "response", None)
        kind = response.headers.get("content-type", "") if response is not None else "text/event-stream"
        if "event-stream" not in kind and "json" not in kind:
            close_stream(chunks)
            raise self._trip(LLMError(not_openai(self.settings)))
        pieces: queue.Queue = queue.Queue()
        threading.Thread(target=read_stream, args=(chunks, pieces), name="finsearch-model-stream",
                         daemon=True).start()
        watch = StreamWatch(self.deadline, asked, first_wait, stall, begin_within)
        usage, finished = None, False
        written: list[str] = []
        try:
            while True:
                try:
                    kind, value = pieces.get(timeout=0.1)
                except queue.Empty:
                    kind, value = "idle", None
                now = time.monotonic()
                if given_up := watch.verdict(now):
                    error, ends_run = given_up
                    raise self._trip(error) if ends_run else error
                if kind == "idle":
                    continue
                if kind == "error":
                    raise self._trip(stream_error(value, self.settings))
                if kind == "end":
                    break
                text, finish, chunk_usage = value
                watch.heard_piece(now, bool(text))
                usage = usage if chunk_usage is None else chunk_usage
                finished = finished or finish
                if text:
                    written.append(text)
                    yield replace_lone(text)
        finally:
            close_stream(chunks)
            prompt_tokens, completion_tokens, estimated = _tokens(messages, "".join(written), usage)
            self._count(call, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, estimated=estimated)
        if not written:
            raise LLMError("the model sent no text" + (" (only a tool call)" if finished == "tool_calls" else ""))
        if not finished:
            # A dropped connection can end the event stream early without an error.
            raise LLMError("the model's answer was cut off before it finished")


def _tokens(messages: list[dict], text: str, usage) -> tuple[int, int, bool]:
    """A call's (prompt, completion) tokens and whether either was estimated: as `usage` reports
    them, each count the server left out (or garbled) estimated from the messages and the reply's `text`."""
    prompt_tokens, completion_tokens = token_count(usage, "prompt_tokens"), token_count(usage, "completion_tokens")
    return (prompt_tokens or estimate_prompt_tokens(messages),
            completion_tokens or int(estimate_tokens(text)),
            not prompt_tokens or (not completion_tokens and bool(text)))


class _SchemaRefused(Exception):
    """The server did not take a JSON-schema request."""


class _StreamOptionsRefused(Exception):
    """The server did not take `stream_options` (a 400 or 422 naming it)."""
