"""Confirming a watchlist's e-mail address: a new code mailed to it through the operator's SMTP server (the
`EmailChannel` every notice goes through), in the watchlist's language, and the code typed back checked.

`with_new_code` and `with_typed_code` compute the new `Channels` only (they may run twice inside
`Watchlists.update`); `mail_code` then mails the code of the watchlist as saved.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime, timezone
from typing import Literal

from ..delivery.notice import Notice
from ..delivery.smtp import EmailChannel
from ..errors import DeliveryError
from ..phrases import say
from ..settings import Settings
from .email_code import CODE_TTL, CodeOutcome, check_code, issue_code
from .watchlist import Channels, Watchlist

MailedOutcome = Literal["sent", "retry", "refused", "no_mail"]


@dataclasses.dataclass(frozen=True)
class Mailed:
    """How mailing a code went; `detail` is the delivery code's reason (no secret, no code in it)."""
    outcome: MailedOutcome
    detail: str = ""


def with_new_code(channels: Channels, now: datetime) -> tuple[Channels, str | None]:
    """`channels` waiting for a new code, and the code to mail; (`channels`, None) when there is no address or
    it is confirmed already (nothing to mail)."""
    if channels.email is None or channels.email_check.confirmed:
        return channels, None
    check, code = issue_code(now)
    return dataclasses.replace(channels, email_check=check), code


def with_typed_code(channels: Channels, typed: str, now: datetime) -> tuple[Channels, CodeOutcome]:
    """`channels` after the visitor typed `typed` for its address's code, and how that went."""
    if channels.email is None:
        return channels, "no_code"
    check, outcome = check_code(channels.email_check, typed, now)
    return dataclasses.replace(channels, email_check=check), outcome


def code_notice(watchlist: Watchlist, code: str, now: datetime) -> Notice:
    language = watchlist.language
    minutes = str(int(CODE_TTL.total_seconds() // 60))
    return Notice(f"code-{watchlist.watchlist_id}-{secrets.token_hex(6)}", watchlist.owner, "alert",
                  say("watch.confirm.title", language, code=code),
                  say("watch.confirm.text", language, code=code, minutes=minutes) + "\n", (), language, now)


def mail_code(watchlist: Watchlist, code: str, settings: Settings, now: datetime | None = None) -> Mailed:
    """Mail `code` to `watchlist`'s address (as saved), once, and say how it went. Not through the notices'
    once-per-event claims: each code is new, and a code that did not get through is replaced by another."""
    if settings.mail is None:
        return Mailed("no_mail")
    if watchlist.channels.email is None:
        return Mailed("refused", "no e-mail address")
    notice = code_notice(watchlist, code, now or datetime.now(timezone.utc))
    try:
        EmailChannel(settings.mail, watchlist.channels.email).send(notice)
    except DeliveryError as exc:
        return Mailed("retry" if exc.transient else "refused", str(exc))
    return Mailed("sent")
