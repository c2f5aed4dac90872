"""A visitor's edits of where a watchlist's notices go: an e-mail address set or cleared, a webhook added or removed.

A new e-mail address is kept unconfirmed: nothing is mailed to it until the code `email_confirm` mails is typed.

Each edit reads what the visitor typed, refuses it with an InputError in the watchlist's language (an address
that is no address, a URL that is not http(s), a hook inside the network where delivery would refuse it), and
returns the new `Channels`. A generic webhook's signing secret is made here, once: the caller shows it to the
visitor that one time, and nothing shows it again (`WebhookTarget.shown` never does).
"""

from __future__ import annotations

import dataclasses
import secrets
import unicodedata
from urllib.parse import urlsplit

from ..errors import InputError
from ..model.endpoint import is_internal_host
from ..phrases import Language, say
from ..settings import Settings
from .email_code import EmailCheck
from .watchlist import WEBHOOK_KINDS, Channels, WebhookKind, WebhookTarget

MAX_WEBHOOKS = 5
MAX_URL = 2000
MAX_SECRET = 200


@dataclasses.dataclass(frozen=True)
class NewWebhook:
    """A webhook just added: the channels now, the hook, and its generated secret (generic only) to show once."""
    channels: Channels
    hook: WebhookTarget
    generated_secret: str | None = dataclasses.field(default=None, repr=False)


def internal_hooks_allowed(settings: Settings) -> bool:
    """Whether hooks inside the network are called: only where the operator lets visitors name internal
    servers at all (FINSEARCH_VISITOR_MODEL_SERVERS=any) — the rule the deliver job applies."""
    return settings.visitor_model_servers == "any"


def with_email(channels: Channels, text: str, settings: Settings, language: Language) -> Channels:
    """`channels` with the address `text` (cleared when blank); InputError when it is no one address or no mail
    server is configured to send it. A new address is unconfirmed (`email_code`: sent nothing until its code is
    typed back); the same address again keeps where its confirmation stands."""
    address = unicodedata.normalize("NFKC", text or "").strip()[:254]
    if not address:
        return dataclasses.replace(channels, email=None, email_check=EmailCheck())
    if settings.mail is None:
        raise InputError(say("watch.channels.no_mail", language))
    if address == channels.email:
        return channels
    try:
        return dataclasses.replace(channels, email=address, email_check=EmailCheck())
    except ValueError:
        raise InputError(say("watch.channels.bad_email", language, text=address[:60])) from None


def with_webhook(channels: Channels, kind: str, url: str, secret: str, settings: Settings,
                 language: Language) -> NewWebhook:
    """`channels` with one more webhook of `kind` at `url`. A generic hook's secret is made here; a Feishu
    or DingTalk hook takes the signing secret its bot shows (optional); a Slack hook has none."""
    if kind not in WEBHOOK_KINDS:
        raise InputError(say("watch.channels.bad_kind", language))
    url, secret = (url or "").strip(), (secret or "").strip()
    _check_url(url, settings, language)
    if kind == "slack" and secret:
        raise InputError(say("watch.channels.slack_no_secret", language))
    if len(secret) > MAX_SECRET or any(ch.isspace() for ch in secret):
        raise InputError(say("watch.channels.bad_secret", language))
    generated = secrets.token_urlsafe(32) if kind == "generic" else None
    hook = WebhookTarget(_kind(kind), url, generated or secret or None)
    if any(w.key == hook.key for w in channels.webhooks):
        raise InputError(say("watch.channels.hook_twice", language))
    if len(channels.webhooks) >= MAX_WEBHOOKS:
        raise InputError(say("watch.channels.too_many_hooks", language, most=str(MAX_WEBHOOKS)))
    return NewWebhook(dataclasses.replace(channels, webhooks=(*channels.webhooks, hook)), hook, generated)


def without_webhook(channels: Channels, key: str) -> Channels:
    """`channels` without the webhook whose key is `key` (the same channels when there is none)."""
    return dataclasses.replace(channels, webhooks=tuple(w for w in channels.webhooks if w.key != key))


def _kind(kind: str) -> WebhookKind:
    return kind        # type: ignore[return-value]   # checked against WEBHOOK_KINDS above


def _check_url(url: str, settings: Settings, language: Language) -> None:
    """Refused here as delivery would refuse it later: not http(s), no host, inside the network."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:             # an unclosed [ of an IPv6 host, a bad port
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host or len(url) > MAX_URL \
            or any(ch.isspace() for ch in url):
        raise InputError(say("watch.channels.bad_url", language))
    if not internal_hooks_allowed(settings) and is_internal_host(host):
        raise InputError(say("watch.channels.internal_url", language, host=host[:80]))
