"""The openai SDK underneath `LLMClient`: shared clients, timeouts, and the SDK's
exception tree translated into `LLMError`s a person can act on.

    APITimeoutError          → "did not answer within N s"
    APIConnectionError       → "cannot reach …" (or "resolves to a private address", guarded)
    AuthenticationError      → "rejected the API key"
    RateLimitError           → "is rate-limiting requests (it asked to wait N s)"
    NotFoundError            → "the model … was not found"
    other APIStatusError     → "returned HTTP N"
    a non-JSON body          → "did not answer like an OpenAI-compatible model server"
"""

from __future__ import annotations

import hashlib
import queue
import threading
from collections import OrderedDict
from urllib.parse import urlsplit

from ..errors import LLMError
from ..settings import Settings

CONNECT_TIMEOUT_S = 5.0


def read_stream(chunks, out: queue.Queue) -> None:
    """The stream's reader thread: ("piece", (text, finish_reason, usage)) …, then "end" or "error".
    `usage` is the chunk's own (None on all but the last chunk of a stream that asked for it,
    whose `choices` are empty)."""
    try:
        for chunk in chunks:
            finish = None
            text = ""
            for choice in getattr(chunk, "choices", None) or []:
                piece = getattr(getattr(choice, "delta", None), "content", None)
                text += piece if isinstance(piece, str) else ""
                finish = finish or getattr(choice, "finish_reason", None)
            out.put(("piece", (text, finish, getattr(chunk, "usage", None))))
        out.put(("end", None))
    except Exception as exc:  # malformed chunks, dropped connections: all reach the consumer
        out.put(("error", exc))


def token_count(usage, name: str) -> int:
    """A usage count as reported, or 0 when the server reports something else."""
    value = getattr(usage, name, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9 else 0


def close_stream(chunks) -> None:
    try:
        chunks.close()
    except Exception:  # closing a broken stream may fail again; nothing more to do
        pass


_SDK_CLIENTS: OrderedDict[tuple, object] = OrderedDict()
_SDK_LOCK = threading.Lock()
_SDK_KEEP = 8


def shared_sdk_client(settings: Settings):
    """One openai.OpenAI client per (key, server, guard), the least recently used closed
    when more than a few are alive. The SDK never retries: `LLMClient` decides."""
    try:
        import openai
    except ImportError as exc:     # pragma: no cover - a broken install
        raise LLMError("the openai package is missing: pip install -r requirements.txt") from exc
    api_key = settings.api_key or "not-needed"              # local servers ignore it
    key = (hashlib.sha256(api_key.encode()).hexdigest(), settings.base_url, settings.model_guard,
           settings.visitor_endpoint)
    with _SDK_LOCK:
        client = _SDK_CLIENTS.pop(key, None)
        if client is None:
            http_client = None
            if settings.model_guard:
                from .endpoint import guarded_http_client

                http_client = guarded_http_client(timeout_for(settings.llm_timeout_s))
            try:
                client = openai.OpenAI(api_key=api_key, base_url=settings.base_url or None, max_retries=0,
                                       timeout=timeout_for(settings.llm_timeout_s),
                                       http_client=http_client)
            except Exception as exc:  # an unusable base URL
                raise LLMError(f"the model server address {where(settings)} cannot be used "
                               f"({type(exc).__name__}); check the base URL") from exc
            if settings.visitor_endpoint:
                # The SDK fills these from the operator's environment; they are not a visitor's to see.
                client.organization = client.project = client.webhook_secret = None
        _SDK_CLIENTS[key] = client
        while len(_SDK_CLIENTS) > _SDK_KEEP:
            _SDK_CLIENTS.popitem(last=False)[1].close()
        return client


def timeout_for(seconds: float):
    """The request's own timeouts, a little past the caller's limit: they end an abandoned
    request's thread. A stream's wait for bytes is bounded by the caller (`LLMClient.stream`:
    its first piece may take the whole limit, a long prompt being read before the first token)."""
    import httpx2

    return httpx2.Timeout(seconds + 1, connect=min(CONNECT_TIMEOUT_S, seconds + 1), read=seconds + 1)


def retry_after(exc) -> float | None:
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            return max(0.0, float(headers.get(name)) * scale)
        except (TypeError, ValueError):
            continue
    return None


def where(settings: Settings) -> str:
    """The model server as people may see it: its host, never a path, query or credentials."""
    if not settings.base_url:
        return "api.openai.com"
    try:
        parts = urlsplit(settings.base_url)
        return parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname else "the model server"
    except ValueError:
        return "the model server"


def timed_out(settings: Settings, seconds: float) -> LLMError:
    return LLMError(f"the model at {where(settings)} did not answer within {seconds:.0f} s")


def not_openai(settings: Settings) -> str:
    return (f"the server at {where(settings)} did not answer like an OpenAI-compatible model server "
            "(it sent a web page); check the base URL, which usually ends in /v1")


def stream_error(exc: Exception, settings: Settings) -> LLMError:
    import openai

    if isinstance(exc, openai.OpenAIError):
        return translate(exc, settings)
    if isinstance(exc, ValueError):                         # JSON decoding of a chunk
        return LLMError("the model's answer stream held a malformed chunk")
    return LLMError(f"the model's answer stream broke off ({type(exc).__name__})")


def translate(exc, settings: Settings, wait: float | None = None) -> LLMError:
    import openai

    from .endpoint import refused_internal

    host = where(settings)
    if refused_internal(exc):
        return LLMError(f"{host} resolves to a loopback or private address, which visitors may not use")
    if isinstance(exc, openai.APITimeoutError):
        return timed_out(settings, settings.llm_timeout_s)
    if isinstance(exc, openai.APIConnectionError):
        return LLMError(f"cannot reach the model server at {host}; check OPENAI_BASE_URL "
                        "or choose the heuristic backend")
    if isinstance(exc, openai.AuthenticationError):
        return LLMError("the model server rejected the API key; check OPENAI_API_KEY "
                        "or choose the heuristic backend")
    if isinstance(exc, openai.RateLimitError):
        asked = f" (it asked to wait {wait:.0f} s)" if wait else ""
        return LLMError(f"the model server at {host} is rate-limiting requests{asked}; try again shortly")
    if isinstance(exc, openai.NotFoundError):
        return LLMError(f"the model {settings.model!r} was not found at {host}; check FINSEARCH_MODEL")
    if isinstance(exc, openai.APIStatusError):
        return LLMError(f"the model server at {host} returned HTTP {exc.status_code}")
    if isinstance(exc, openai.APIResponseValidationError):
        return LLMError(not_openai(settings))
    return LLMError(f"the model call failed: {type(exc).__name__}")

