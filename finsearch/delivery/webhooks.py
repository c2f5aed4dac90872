"""Sending a webhook: one POST with an explicit timeout, no redirects followed (a 3xx is a refusal:
a hook that moved must be changed by its owner, and a redirect must not carry a signed notice to
another host), the answer read up to `MAX_ANSWER` bytes, and the outcome sorted as `attempts`
needs it: a 5xx, 408, 429, a timeout or a failed connection is worth another try (429 and 503 with
their Retry-After), any other 4xx is not, nor a refusal written in a 200's body (Feishu, DingTalk).

Hooks pointing inside the network (loopback, private addresses) are refused unless the caller
allows them (`allow_internal`: an operator's own receiver; tests on loopback).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import httpx

from ..errors import DeliveryError
from ..model.endpoint import is_internal_host
from ..sources.upstream.http import USER_AGENT
from .notice import Notice
from .webhook_formats import Webhook, outgoing, refusal_in_body

MAX_ANSWER = 64_000
TIMEOUT = httpx.Timeout(10.0, connect=5.0)


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return max(0.0, float(response.headers.get("Retry-After", "")))
    except ValueError:
        return None          # an HTTP date, or nothing: our own backoff decides


@dataclasses.dataclass(frozen=True)
class WebhookChannel:
    webhook: Webhook
    allow_internal: bool = False
    clock: Callable[[], float] = time.time
    transport: httpx.BaseTransport | None = None      # the test seam (httpx's own)
    idempotent: bool = False

    @property
    def key(self) -> str:
        return f"webhook:{self.webhook.url}"

    @property
    def label(self) -> str:
        return f"webhook {self.webhook.name} ({self.webhook.format})"

    def send(self, notice: Notice) -> None:
        parts = urlsplit(self.webhook.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise DeliveryError("a webhook's URL must start with http:// or https://", transient=False)
        if not self.allow_internal and is_internal_host(parts.hostname):
            raise DeliveryError("this webhook points inside the network; it is not called", transient=False)
        request = outgoing(self.webhook, notice, self.clock())
        try:
            with httpx.Client(timeout=TIMEOUT, follow_redirects=False, transport=self.transport,
                              headers={"User-Agent": USER_AGENT}) as client:
                with client.stream("POST", request.url, content=request.body, headers=request.headers) as response:
                    answer = _bounded(response)
        except httpx.TimeoutException:
            raise DeliveryError("the webhook did not answer in time", transient=True) from None
        except httpx.HTTPError as exc:               # refused, reset, DNS: nothing was received
            raise DeliveryError(f"the webhook could not be reached ({type(exc).__name__})", transient=True) from None
        status = response.status_code
        if 300 <= status < 400:
            raise DeliveryError(f"the webhook redirected (HTTP {status}); redirects are not followed", transient=False)
        if status in (408, 429) or status >= 500:
            raise DeliveryError(f"the webhook answered HTTP {status}", transient=True,
                                retry_after_s=_retry_after(response))
        if status >= 400:
            raise DeliveryError(f"the webhook refused the notice (HTTP {status})", transient=False)
        refusal = refusal_in_body(self.webhook.format, answer)
        if refusal is not None:
            raise refusal


def _bounded(response: httpx.Response) -> bytes:
    """At most MAX_ANSWER bytes of the answer: a receiver cannot make us read a flood."""
    kept = bytearray()
    for chunk in response.iter_bytes():
        kept += chunk[:MAX_ANSWER - len(kept)]
        if len(kept) >= MAX_ANSWER:
            break
    return bytes(kept)
