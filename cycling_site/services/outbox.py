"""Queues every e-mail and text message; delivery reads from here, so nothing is lost."""

from sqlmodel import Session, col, select

from cycling_site.models import OutboxMessage


def queue_email(session: Session, recipient: str, subject: str, body: str) -> OutboxMessage:
    """Adds the message to the caller's transaction; it is kept only if that commits."""
    message = OutboxMessage(channel="email", recipient=recipient, subject=subject, body=body)
    session.add(message)
    return message


def recent_messages(session: Session, recipient: str | None = None, limit: int = 50) -> list[OutboxMessage]:
    query = select(OutboxMessage).order_by(col(OutboxMessage.id).desc()).limit(limit)
    if recipient:
        query = query.where(OutboxMessage.recipient == recipient.strip().lower())
    return list(session.exec(query))
