"""The language-model seam: any OpenAI-compatible server through the official SDK.

    choose_backend(settings) → "openai" | "heuristic"
    LLMClient.complete(messages, schema=…) → LLMReply     one JSON or text reply
    LLMClient.stream(messages) → iterator of text pieces

Every failure becomes an `LLMError` whose message names what happened and the fix;
callers fall back to the heuristic backend and say so. Token usage and call counts
are kept per client (one client per run).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources

from .errors import LLMError
from .settings import Settings


def choose_backend(settings: Settings) -> str:
    """"openai" when a model server is configured (or demanded), else "heuristic"."""
    if settings.llm == "heuristic":
        return "heuristic"
    if settings.llm == "openai":
        return "openai"
    return "openai" if (settings.api_key or settings.base_url) else "heuristic"


@lru_cache(maxsize=16)
def prompt(name: str) -> str:
    """A prompt template from finsearch/prompts/NAME.md."""
    return resources.files("finsearch").joinpath(f"prompts/{name}.md").read_text("utf-8")


def fill(template: str, **values: str) -> str:
    """Replace {{name}} markers; the templates hold literal JSON braces elsewhere."""
    for name, value in values.items():
        template = template.replace("{{" + name + "}}", value)
    return template


@dataclasses.dataclass(frozen=True)
class LLMReply:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclasses.dataclass
class LLMUsage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class LLMClient:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.model = settings.model
        self.usage = LLMUsage()
        self._lock = threading.Lock()
        self._client = None
        self._schema_supported: bool | None = None
        self._unreachable: LLMError | None = None   # once the server is down, stop retrying this run

    def _sdk(self):
        if self._client is None:
            self._client = _shared_sdk_client(self.settings.api_key or "not-needed",   # local servers ignore it
                                              self.settings.base_url or None, self.settings.llm_timeout_s,
                                              self.settings.llm_retries)
        return self._client

    def close(self) -> None:
        """End this run's use of the model. The HTTP client itself is shared across runs
        (building one loads the TLS certificates; its pool keeps connections warm)."""
        self._client = None

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _count(self, prompt_tokens: int, completion_tokens: int) -> None:
        with self._lock:
            self.usage.calls += 1
            self.usage.prompt_tokens += prompt_tokens
            self.usage.completion_tokens += completion_tokens

    # -- one reply ------------------------------------------------------------------------

    def complete(self, messages: list[dict], *, schema: dict | None = None,
                 max_tokens: int = 1200) -> LLMReply:
        """One reply. With `schema`, ask for JSON matching it (JSON-schema response format
        where the server supports it, plain JSON mode or instructions otherwise)."""
        kwargs: dict = {"model": self.model, "messages": messages, "max_tokens": max_tokens,
                        "temperature": 0}
        if schema is not None and self._schema_supported is not False:
            kwargs["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": "reply", "schema": schema}}
        try:
            response = self._create(**kwargs)
        except _SchemaRefused:
            self._schema_supported = False
            kwargs.pop("response_format", None)
            response = self._create(**kwargs)
        if schema is not None and "response_format" in kwargs:
            self._schema_supported = True
        usage = getattr(response, "usage", None)
        prompt_tokens = getattr(usage, "prompt_tokens", 0) or 0
        completion_tokens = getattr(usage, "completion_tokens", 0) or 0
        self._count(prompt_tokens, completion_tokens)
        try:
            text = response.choices[0].message.content or ""
        except (AttributeError, IndexError, TypeError):
            raise LLMError("the model server sent a reply with no message in it") from None
        return LLMReply(text, prompt_tokens, completion_tokens)

    def _create(self, **kwargs):
        import openai

        if self._unreachable is not None:
            raise self._unreachable
        try:
            return self._sdk().chat.completions.create(**kwargs)
        except openai.BadRequestError as exc:
            if "response_format" in kwargs and _mentions_format(exc):
                raise _SchemaRefused() from exc
            raise self._remember(exc) from exc
        except openai.OpenAIError as exc:
            raise self._remember(exc) from exc

    def _remember(self, exc) -> LLMError:
        import openai

        error = _translate(exc, self.settings)
        if isinstance(exc, openai.APIConnectionError) and not isinstance(exc, openai.APITimeoutError):
            self._unreachable = error
        return error

    # -- streaming ------------------------------------------------------------------------

    def stream(self, messages: list[dict], *, max_tokens: int = 1500) -> Iterator[str]:
        """Text pieces as the model writes them; usage counted when the server reports it."""
        import openai

        if self._unreachable is not None:
            raise self._unreachable
        try:
            chunks = self._sdk().chat.completions.create(
                model=self.model, messages=messages, max_tokens=max_tokens, temperature=0.2,
                stream=True)
            prompt_tokens = completion_tokens = 0
            pieces = 0
            finished = False
            for chunk in chunks:
                usage = getattr(chunk, "usage", None)
                if usage:
                    prompt_tokens = usage.prompt_tokens or prompt_tokens
                    completion_tokens = usage.completion_tokens or completion_tokens
                for choice in getattr(chunk, "choices", None) or []:
                    piece = getattr(choice.delta, "content", None)
                    if piece:
                        pieces += 1
                        yield piece
                    finished = finished or bool(getattr(choice, "finish_reason", None))
            self._count(prompt_tokens, completion_tokens or pieces)
            if not finished:
                # A dropped connection can end the event stream early without an error.
                raise LLMError("the model's answer was cut off before it finished")
        except openai.OpenAIError as exc:
            raise self._remember(exc) from exc


_SDK_CLIENTS: OrderedDict[tuple, object] = OrderedDict()
_SDK_LOCK = threading.Lock()
_SDK_KEEP = 8


def _shared_sdk_client(api_key: str, base_url: str | None, timeout_s: float, retries: int):
    """One openai.OpenAI client per (key, server, timeout, retries), the least recently used
    closed when more than a few are alive."""
    try:
        import openai
    except ImportError as exc:     # pragma: no cover - a broken install
        raise LLMError("the openai package is missing: pip install -r requirements.txt") from exc
    key = (hashlib.sha256(api_key.encode()).hexdigest(), base_url, timeout_s, retries)
    with _SDK_LOCK:
        client = _SDK_CLIENTS.pop(key, None)
        if client is None:
            client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=retries)
        _SDK_CLIENTS[key] = client
        while len(_SDK_CLIENTS) > _SDK_KEEP:
            _SDK_CLIENTS.popitem(last=False)[1].close()
        return client


class _SchemaRefused(Exception):
    """The server does not accept the JSON-schema response format."""


def _mentions_format(exc) -> bool:
    return bool(re.search(r"response_format|json_schema|schema", str(exc), re.I))


def _translate(exc, settings: Settings) -> LLMError:
    import openai

    where = settings.base_url or "api.openai.com"
    if isinstance(exc, openai.APITimeoutError):
        return LLMError(f"the model at {where} did not answer within {settings.llm_timeout_s:g} s")
    if isinstance(exc, openai.APIConnectionError):
        return LLMError(f"cannot reach the model server at {where}; check OPENAI_BASE_URL "
                        "or choose the heuristic backend")
    if isinstance(exc, openai.AuthenticationError):
        return LLMError("the model server rejected the API key; check OPENAI_API_KEY "
                        "or choose the heuristic backend")
    if isinstance(exc, openai.RateLimitError):
        return LLMError(f"the model server at {where} is rate-limiting requests; try again shortly")
    if isinstance(exc, openai.NotFoundError):
        return LLMError(f"the model {settings.model!r} was not found at {where}; check FINSEARCH_MODEL")
    if isinstance(exc, openai.APIStatusError):
        return LLMError(f"the model server at {where} returned HTTP {exc.status_code}")
    return LLMError(f"the model call failed: {type(exc).__name__}")


_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.I)


def parse_json_object(text: str) -> dict:
    """The first JSON object in a reply (code fences and chatter around it tolerated)."""
    cleaned = _FENCE.sub("", text.strip())
    try:
        value = json.loads(cleaned)
    except ValueError:
        start = cleaned.find("{")
        if start < 0:
            raise LLMError("the model's reply held no JSON object") from None
        try:
            value, _ = json.JSONDecoder().raw_decode(cleaned[start:])
        except ValueError:
            raise LLMError("the model's reply was not valid JSON") from None
    if not isinstance(value, dict):
        raise LLMError("the model's reply was JSON but not an object")
    return value
