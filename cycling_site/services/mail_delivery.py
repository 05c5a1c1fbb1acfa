"""Delivers the outbox's e-mails through SMTP (SMTP_URL), retrying failures with a growing wait.

Without SMTP_URL nothing is sent: the messages stay in the outbox (the demo mailbox shows them).

A pass takes the due messages (not sent, fewer than MAIL_MAX_ATTEMPTS tries, next_attempt_at reached)
one by one:
1. claim it: one UPDATE moves its next_attempt_at CLAIM_SECONDS ahead, only if it is still due, and
   commits; so two workers (or two passes) never send the same message;
2. send it;
3. record the outcome in one transaction: sent_at, or attempts + 1, last_error and
   next_attempt_at = now + MAIL_RETRY_SECONDS x 2^(attempts - 1). A failed message is never dropped.

A crash after the server accepted a message but before step 3 committed leaves only the claim: the
message is sent again once the claim runs out. That is the chosen side: at least once, because a
repeated e-mail is a nuisance while a lost verification link locks a rider out. The repeat carries
the same Message-ID, which lets receiving mail systems recognise it.
"""

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, update
from sqlmodel import col, select

from cycling_site.clients import mail
from cycling_site.db import database_busy, get_session
from cycling_site.models import OutboxMessage
from cycling_site.models.common import utcnow
from cycling_site.settings import settings

logger = logging.getLogger(__name__)

POLL_SECONDS = 5
# After a pass that found the database busy (locked elsewhere), the wait for the next doubles, up to this.
BUSY_WAIT_MAX_SECONDS = 60
BATCH_SIZE = 20
# Far longer than one send can take (each SMTP step times out after 30 s).
CLAIM_SECONDS = 600
MAX_RETRY_DELAY = timedelta(days=1)
ERROR_MAX = 500


@dataclass(frozen=True)
class _Claimed:
    id: int
    recipient: str
    subject: str
    body: str
    attempts: int
    created_at: datetime


def retry_delay(attempts: int) -> timedelta:
    """The wait after the attempts-th failure: MAIL_RETRY_SECONDS, doubled after each failure."""
    seconds = settings.mail_retry_seconds * 2 ** min(max(attempts - 1, 0), 30)
    return min(timedelta(seconds=seconds), MAX_RETRY_DELAY)


def _due(now: datetime) -> list:
    return [
        OutboxMessage.channel == "email",
        col(OutboxMessage.sent_at).is_(None),
        OutboxMessage.attempts < settings.mail_max_attempts,
        or_(col(OutboxMessage.next_attempt_at).is_(None), col(OutboxMessage.next_attempt_at) <= now),
    ]


def _due_ids(now: datetime) -> list[int]:
    with get_session() as session:
        query = select(OutboxMessage.id).where(*_due(now)).order_by(col(OutboxMessage.id)).limit(BATCH_SIZE)
        return [message_id for message_id in session.exec(query) if message_id is not None]


def _claim(message_id: int, now: datetime) -> _Claimed | None:
    """Takes the message for this pass, or None when another pass took or sent it meanwhile."""
    with get_session() as session:
        result = session.exec(
            update(OutboxMessage)
            .where(col(OutboxMessage.id) == message_id, *_due(now))
            # From the wall clock: a long pass must not hand out a claim that has already run out.
            .values(next_attempt_at=max(now, utcnow()) + timedelta(seconds=CLAIM_SECONDS))
        )
        session.commit()
        if result.rowcount != 1:
            return None
        row = session.get(OutboxMessage, message_id)
        if row is None:
            return None
        return _Claimed(row.id, row.recipient, row.subject, row.body, row.attempts, row.created_at)


def _record(message: _Claimed, now: datetime, error: str | None) -> None:
    """Marks the message sent, or keeps it with its error and the time of the next try."""
    attempts = message.attempts + 1
    if error is None:
        values = {"attempts": attempts, "sent_at": now, "next_attempt_at": None}
    else:
        values = {
            "attempts": attempts,
            "last_error": error[:ERROR_MAX],
            "next_attempt_at": now + retry_delay(attempts),
        }
    with get_session() as session:
        session.exec(
            update(OutboxMessage)
            .where(col(OutboxMessage.id) == message.id, col(OutboxMessage.sent_at).is_(None))
            .values(**values)
        )
        session.commit()
    if error is not None and attempts >= settings.mail_max_attempts:
        logger.error(
            "E-mail %s to %s given up after %s attempts: %s", message.id, message.recipient, attempts, error
        )


def _message_id(message: _Claimed) -> str:
    """The same for every try of one message, so a repeat after a crash can be recognised."""
    domain = mail.message_domain(settings.mail_from)
    return f"<outbox-{message.id}.{message.created_at:%Y%m%d%H%M%S}@{domain}>"


async def _send(server: mail.SmtpServer, message: _Claimed) -> str | None:
    """None when the server accepted the message, else why not. Any failure counts as a try, so a message
    that can never be sent stops after MAIL_MAX_ATTEMPTS instead of coming back after every claim."""
    try:
        await mail.send_email(
            server, settings.mail_from, message.recipient, message.subject, message.body, _message_id(message)
        )
    except mail.MailError as exc:
        return str(exc)
    except Exception as exc:
        logger.exception("E-mail %s could not be built or sent", message.id)
        return f"{type(exc).__name__}: {exc}"
    return None


async def deliver_due(now: datetime | None = None) -> int:
    """One pass over the due e-mails; answers how many the server accepted. Does nothing without SMTP_URL."""
    if not settings.smtp_url:
        return 0
    server = mail.SmtpServer.from_url(settings.smtp_url)
    now = now or utcnow()
    delivered = 0
    for message_id in await asyncio.to_thread(_due_ids, now):
        message = await asyncio.to_thread(_claim, message_id, now)
        if message is None:
            continue
        error = await _send(server, message)
        if error is not None:
            logger.warning("E-mail %s to %s not sent: %s", message.id, message.recipient, error)
        await asyncio.to_thread(_record, message, now, error)
        if error is None:
            delivered += 1
    return delivered


async def deliver_forever(interval: float = POLL_SECONDS) -> None:
    """The site's lifespan task: a pass every few seconds while SMTP_URL is set, less often while the database
    is busy; returns at once otherwise."""
    if not settings.smtp_url:
        return
    try:
        mail.SmtpServer.from_url(settings.smtp_url)
    except ValueError as exc:
        logger.error("E-mail delivery is off: %s", exc)
        return
    wait = interval
    while True:
        try:
            await deliver_due()
            wait = interval
        except Exception as exc:
            if not database_busy(exc):
                wait = interval
                logger.exception("An e-mail delivery pass failed; the next pass tries again")
            else:
                # Backs off, so the riders' own work gets the database (and the threads waiting on it) first.
                wait = min(wait * 2, BUSY_WAIT_MAX_SECONDS)
                logger.warning("E-mail delivery found the database busy; next pass in %.1f s", wait)
        await asyncio.sleep(wait)
