"""A notice as an e-mail: a plain-text part (the markdown as text, references with their URLs) and an
HTML part rendered as the exported answer is (`export.answer_html.markdown_html`: every retrieved
or written text escaped before it is converted, only http(s) links clickable).

Its Message-ID names the event and the recipient, so a mail system that sees the same notice twice
can tell (the claim in `claims` is what keeps us from sending it twice).
"""

from __future__ import annotations

import hashlib
import html
from email.message import EmailMessage
from email.utils import formatdate

from ..answer.markdown import href
from ..export.answer_html import markdown_html
from ..phrases import say
from .notice import Notice
from .text import one_line, plain_text

STYLE = ("body{font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;max-width:760px;"
         "color:#1f2430;line-height:1.55} a{color:#1d5fbf} ol.refs li{margin:.25rem 0} .meta{color:#667}")


def message_id(notice: Notice, to: str, sender: str) -> str:
    digest = hashlib.sha256(f"{notice.notice_id}\n{to.lower()}".encode()).hexdigest()[:32]
    return f"<notice-{digest}@{sender.rpartition('@')[2] or 'finsearch'}>"


def notice_html(notice: Notice) -> str:
    """The HTML part: title, the cited text, the references (titles escaped, http(s) links only)."""
    items = []
    for ref in notice.references:
        title = html.escape(one_line(ref.title, 300))
        url = href(ref.url)
        head = f'<a href="{html.escape(url)}">{title}</a>' if url else title
        meta = " · ".join(html.escape(x) for x in (ref.publisher or "", ref.day or "") if x)
        items.append(f'<li id="ref-{ref.n}">{head}{" <span class=meta>— " + meta + "</span>" if meta else ""}</li>')
    refs = (f"<h2>{html.escape(say('report.references', notice.language))}</h2><ol class=\"refs\">"
            + "".join(items) + "</ol>") if items else ""
    lang = "zh" if notice.language == "zh" else "en"
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><style>{STYLE}</style></head><body>'
            f"<h1>{html.escape(one_line(notice.title))}</h1>"
            f"<div>{markdown_html(notice.markdown, notice.references)}</div>{refs}</body></html>")


def mail_message(notice: Notice, sender: str, to: str) -> EmailMessage:
    """The message for `to` (raises ValueError on an address that is no address)."""
    if any(ch in to for ch in "\r\n,;<>") or "@" not in to:
        raise ValueError("not one e-mail address")
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = one_line(notice.title)
    message["Date"] = formatdate(notice.created_at.timestamp())
    message["Message-ID"] = message_id(notice, to, sender)
    message["Auto-Submitted"] = "auto-generated"      # RFC 3834: no out-of-office replies to it
    message.set_content(plain_text(notice))
    message.add_alternative(notice_html(notice), subtype="html")
    return message
