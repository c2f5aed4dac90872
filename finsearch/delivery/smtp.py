"""E-mail over the operator's SMTP server (`Settings.mail`: FINSEARCH_SMTP_*).

STARTTLS (the default) or TLS from the first byte, with the system's certificates; a server that
does not offer STARTTLS when it was asked for is refused before any login, so the password never
crosses in the clear. The password is only handed to `smtplib.login`; no log line or error names
it (nor the server's reply, which is reduced to its code).

What is worth another try (`DeliveryError.transient`): a refused, dropped or timed-out connection,
a 4xx reply (greylisting, a full queue). Not: a 5xx reply, a refused login, a bad certificate, a
bad address.
"""

from __future__ import annotations

import dataclasses
import smtplib
import ssl

from ..errors import DeliveryError
from ..settings import MailServer
from .mail import mail_message
from .notice import Notice

TIMEOUT_S = 20.0


@dataclasses.dataclass(frozen=True)
class EmailChannel:
    """E-mail to one address through the operator's server."""
    server: MailServer
    to: str = dataclasses.field(repr=False)      # personal: hashed in the claim, not logged
    timeout_s: float = TIMEOUT_S
    label: str = "e-mail"
    idempotent: bool = False

    @property
    def key(self) -> str:
        return f"email:{self.to.strip().lower()}"

    def send(self, notice: Notice) -> None:
        try:
            message = mail_message(notice, self.server.sender, self.to.strip())
        except ValueError as exc:
            raise DeliveryError("the e-mail address is not one address", transient=False) from exc
        try:
            self._send(message)
        except smtplib.SMTPAuthenticationError as exc:
            raise DeliveryError(f"the mail server refused the login ({exc.smtp_code})", transient=False) from None
        except smtplib.SMTPNotSupportedError:
            raise DeliveryError("the mail server does not offer STARTTLS; not logging in without it",
                                transient=False) from None
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _ in exc.recipients.values()]
            raise DeliveryError(f"the mail server refused the recipient ({', '.join(map(str, codes))})",
                                transient=all(400 <= c < 500 for c in codes)) from None
        except smtplib.SMTPResponseException as exc:
            raise DeliveryError(f"the mail server answered {exc.smtp_code}",
                                transient=400 <= exc.smtp_code < 500) from None
        except ssl.SSLCertVerificationError:
            raise DeliveryError("the mail server's certificate could not be verified", transient=False) from None
        except (smtplib.SMTPException, OSError) as exc:    # refused, dropped, timed out
            raise DeliveryError(f"the mail server could not be reached ({type(exc).__name__})",
                                transient=True) from None

    def _send(self, message) -> None:
        server = self.server
        context = ssl.create_default_context()
        if server.security == "ssl":
            client = smtplib.SMTP_SSL(server.host, server.port, timeout=self.timeout_s, context=context)
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=self.timeout_s)
        with client:
            if server.security == "starttls":
                client.starttls(context=context)
            if server.user and server.password:
                client.login(server.user, server.password)
            client.send_message(message)
