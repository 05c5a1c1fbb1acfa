"""The messaging client: sends one e-mail through the SMTP server of SMTP_URL.

smtp://host:port talks plain SMTP and upgrades with STARTTLS whenever the server offers it;
smtps://host:port uses TLS from the first byte. user:password in the URL logs in.
"""

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, parseaddr
from urllib.parse import unquote, urlsplit

import aiosmtplib

DEFAULT_PORTS = {"smtp": 25, "smtps": 465}
SEND_TIMEOUT_SECONDS = 30


class MailError(Exception):
    """The message was not accepted; the text says why (kept as the outbox's last_error)."""


@dataclass(frozen=True)
class SmtpServer:
    hostname: str
    port: int
    use_tls: bool
    username: str | None = None
    password: str | None = None

    @classmethod
    def from_url(cls, url: str) -> "SmtpServer":
        """Reads SMTP_URL; raises ValueError when it is not an smtp:// or smtps:// address."""
        parts = urlsplit(url.strip())
        if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
            raise ValueError("SMTP_URL must look like smtp://user:password@host:port or smtps://...")
        return cls(
            hostname=parts.hostname,
            port=parts.port or DEFAULT_PORTS[parts.scheme],
            use_tls=parts.scheme == "smtps",
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
        )


def _one_line(value: str) -> str:
    """Header values never carry line breaks (a broken header would fail the message forever)."""
    return " ".join(value.split())


def message_domain(sender: str) -> str:
    address = parseaddr(sender)[1]
    return address.rpartition("@")[2] or "localhost"


def build_message(sender: str, recipient: str, subject: str, body: str, message_id: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = _one_line(sender)
    message["To"] = _one_line(recipient)
    message["Subject"] = _one_line(subject)
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = message_id
    message.set_content(body)
    return message


async def send_email(
    server: SmtpServer, sender: str, recipient: str, subject: str, body: str, message_id: str
) -> None:
    """Hands the message to the server; raises MailError unless the server accepted it."""
    try:
        message = build_message(sender, recipient, subject, body, message_id)
        await aiosmtplib.send(
            message,
            hostname=server.hostname,
            port=server.port,
            use_tls=server.use_tls,
            start_tls=False if server.use_tls else None,
            username=server.username,
            password=server.password,
            timeout=SEND_TIMEOUT_SECONDS,
        )
    except (aiosmtplib.SMTPException, OSError, ValueError) as exc:
        raise MailError(f"{type(exc).__name__}: {exc}") from exc
