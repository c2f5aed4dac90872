"""What a webhook is sent: the generic signed JSON payload, or the message Slack, Feishu/Lark or
DingTalk accepts, with each one's signing.

    json      {"type": "finsearch.notice", "event_id", "notice": Notice.to_json()}, with headers
              X-FinSearch-Event (the event id), X-FinSearch-Timestamp (Unix seconds) and
              X-FinSearch-Signature: "sha256=" + hex HMAC-SHA256(secret, f"{timestamp}." + body)
              — the timestamp is signed too, so a receiver refusing old timestamps stops replays
    slack     incoming webhook: {"text": fallback, "blocks": [header, mrkdwn sections]}; `&`, `<`
              and `>` escaped in every text, so nothing retrieved can become a link or an
              @channel (https://api.slack.com/messaging/webhooks,
              https://docs.slack.dev/messaging/formatting-message-text/ "Escaping text")
    feishu    custom bot: {"msg_type": "post", "content": {"post": {"zh_cn"|"en_us": {"title",
              "content": [[{"tag": "text"|"a", …}]]}}}}; with a secret, "timestamp" (s) and "sign" =
              base64(HMAC-SHA256(key=f"{timestamp}\n{secret}", msg=b"")) in the body
              (https://open.feishu.cn/document/client-docs/bot-v3/add-custom-bot); it answers
              HTTP 200 with {"code": non-zero, "msg"} when it refuses
    dingtalk  robot: {"msgtype": "markdown", "markdown": {"title", "text"}}; with a secret, query
              parameters timestamp (ms) and sign = urlencode(base64(HMAC-SHA256(key=secret,
              msg=f"{timestamp}\n{secret}"))) (https://developers.dingtalk.com/document/robots/custom-robot-access);
              it answers 200 with {"errcode": non-zero, "errmsg"} when it refuses

Checked against Slack's formatting guide, and for Feishu and DingTalk against the signing code of
public clients (open-lark's custom_bot.rs, electricbubble/feishu-bot-api, Shawyeok/mcp-dingding-bot)
that follow the docs named above.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import json
import re
from typing import Literal
from urllib.parse import quote_plus

from ..answer.markdown import clean_model_markdown, href
from ..answer.markdown_builder import escape
from ..errors import ConfigError, DeliveryError
from ..phrases import say
from .notice import Notice
from .text import one_line

WebhookFormat = Literal["json", "slack", "feishu", "dingtalk"]
WEBHOOK_FORMATS: tuple[WebhookFormat, ...] = ("json", "slack", "feishu", "dingtalk")
SLACK_SECTION = 2900          # Slack's section text holds 3000 characters
SLACK_BLOCKS = 48             # and a message 50 blocks


@dataclasses.dataclass(frozen=True)
class Webhook:
    """One webhook: where, in which format, its secret. The URL of a Slack, Feishu or DingTalk
    hook is itself a credential, so neither it nor the secret is shown in a repr or a log."""
    url: str = dataclasses.field(repr=False)
    format: WebhookFormat = "json"
    secret: str | None = dataclasses.field(default=None, repr=False)
    name: str = "webhook"

    def __post_init__(self):
        if self.format not in WEBHOOK_FORMATS:
            raise ConfigError(f"a webhook's format is one of {', '.join(WEBHOOK_FORMATS)}")
        if self.format == "json" and not self.secret:
            raise ConfigError("a generic (json) webhook needs a secret: its receiver checks the signature with it")


@dataclasses.dataclass(frozen=True)
class Outgoing:
    url: str = dataclasses.field(repr=False)
    headers: dict[str, str]
    body: bytes


def _json(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _header_safe(text: str) -> str:
    return text if re.fullmatch(r"[\x21-\x7e]{1,200}", text) else hashlib.sha256(text.encode()).hexdigest()


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """The generic payload's X-FinSearch-Signature."""
    return "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def outgoing(webhook: Webhook, notice: Notice, now_s: float) -> Outgoing:
    """The request for `notice` to `webhook` at time `now_s` (Unix seconds)."""
    headers = {"Content-Type": "application/json; charset=utf-8"}
    if webhook.format == "json":
        body = _json({"type": "finsearch.notice", "event_id": notice.notice_id, "notice": notice.to_json()})
        stamp = str(int(now_s))
        headers |= {"X-FinSearch-Event": _header_safe(notice.notice_id), "X-FinSearch-Timestamp": stamp,
                    "X-FinSearch-Signature": signature(webhook.secret or "", stamp, body)}
        return Outgoing(webhook.url, headers, body)
    if webhook.format == "slack":
        return Outgoing(webhook.url, headers, _json(slack_message(notice)))
    if webhook.format == "feishu":
        message = feishu_message(notice)
        if webhook.secret:
            stamp = str(int(now_s))
            key = f"{stamp}\n{webhook.secret}".encode()
            message = {"timestamp": stamp, "sign": base64.b64encode(hmac.new(key, b"", hashlib.sha256).digest())
                       .decode(), **message}
        return Outgoing(webhook.url, headers, _json(message))
    url = webhook.url
    if webhook.secret:
        stamp = str(int(now_s * 1000))
        digest = hmac.new(webhook.secret.encode(), f"{stamp}\n{webhook.secret}".encode(), hashlib.sha256).digest()
        url += ("&" if "?" in url else "?") + f"timestamp={stamp}&sign={quote_plus(base64.b64encode(digest))}"
    return Outgoing(url, headers, _json(dingtalk_message(notice)))


# -- Slack -------------------------------------------------------------------------------------

def slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.M)


def slack_mrkdwn(markdown: str) -> str:
    """Answer markdown as Slack mrkdwn: escaped first (so nothing becomes a link or a mention),
    then **bold** and headings as *bold*."""
    return _HEADING.sub(r"*\1*", _BOLD.sub(r"*\1*", slack_escape(markdown)))


def _chunks(text: str, size: int) -> list[str]:
    out, current = [], ""
    for paragraph in text.split("\n\n"):
        while len(paragraph) > size:
            out.append(paragraph[:size])
            paragraph = paragraph[size:]
        if current and len(current) + len(paragraph) + 2 > size:
            out.append(current)
            current = ""
        current = f"{current}\n\n{paragraph}" if current else paragraph
    return [*out, current] if current else out


def slack_message(notice: Notice) -> dict:
    sections = _chunks(slack_mrkdwn(notice.markdown.strip()), SLACK_SECTION)
    refs = []
    for ref in notice.references:
        title, url = slack_escape(one_line(ref.title, 200)), href(ref.url)
        refs.append(f"[{ref.n}] <{url}|{title.replace('|', '¦')}>" if url else f"[{ref.n}] {title}")
    if refs:
        sections += _chunks(f"*{slack_escape(say('report.references', notice.language))}*\n" + "\n".join(refs),
                            SLACK_SECTION)
    blocks = [{"type": "header", "text": {"type": "plain_text", "text": one_line(notice.title, 150)}}]
    blocks += [{"type": "section", "text": {"type": "mrkdwn", "text": s}} for s in sections[:SLACK_BLOCKS]]
    return {"text": slack_escape(one_line(notice.title)), "blocks": blocks}


# -- Feishu / Lark -------------------------------------------------------------------------------

def feishu_message(notice: Notice) -> dict:
    """A rich-text post: every text is a `text` element (shown as is, no markup read in it);
    references are `a` elements to their http(s) URLs."""
    lines = [[{"tag": "text", "text": line}] for line in notice.markdown.strip().splitlines() if line.strip()]
    if notice.references:
        lines.append([{"tag": "text", "text": say("report.references", notice.language)}])
    for ref in notice.references:
        url, label = href(ref.url), f"[{ref.n}] {one_line(ref.title, 200)}"
        lines.append([{"tag": "a", "text": label, "href": url}] if url else [{"tag": "text", "text": label}])
    locale = "zh_cn" if notice.language == "zh" else "en_us"
    return {"msg_type": "post", "content": {"post": {locale: {"title": one_line(notice.title), "content": lines}}}}


# -- DingTalk ----------------------------------------------------------------------------------

def dingtalk_message(notice: Notice) -> dict:
    """Markdown: the answer's text cleaned as a model's is (HTML removed, links and images reduced
    to words), references as links built from escaped titles and http(s) URLs only."""
    parts = [f"#### {escape(one_line(notice.title))}", clean_model_markdown(notice.markdown.strip())]
    if notice.references:
        parts.append(f"**{say('report.references', notice.language)}**")
        for ref in notice.references:
            url, title = href(ref.url), escape(one_line(ref.title, 200))
            parts.append(f"{ref.n}. [{title}]({url})" if url else f"{ref.n}. {title}")
    return {"msgtype": "markdown", "markdown": {"title": one_line(notice.title, 100), "text": "\n\n".join(parts)}}


# -- what the receiver said --------------------------------------------------------------------

def refusal_in_body(format: WebhookFormat, body: bytes) -> DeliveryError | None:
    """Feishu and DingTalk say no with HTTP 200 and an error code in the body; None when it is a yes."""
    if format not in ("feishu", "dingtalk"):
        return None
    try:
        answer = json.loads(body.decode("utf-8", "replace"))
    except ValueError:
        return None
    if not isinstance(answer, dict):
        return None
    code = answer.get("code", answer.get("StatusCode", 0)) if format == "feishu" else answer.get("errcode", 0)
    if code in (0, None):
        return None
    said = one_line(str(answer.get("msg") or answer.get("errmsg") or ""), 120)
    return DeliveryError(f"{format} refused the message ({code}: {said})", transient=False)
