"""Contact us messages (stored, and e-mailed to support) and newsletter subscribers.

A flood guard limits messages and new subscriptions per address (services/rate_limit.py: in Redis or the
database, so a restart keeps it); only what passes the form's checks counts, so a visitor correcting a typo is
never held back.
"""

import unicodedata
from dataclasses import dataclass
from datetime import timedelta, timezone

import phonenumbers
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from cycling_site.messages import contact as msg
from cycling_site.models import ContactMessage, Subscriber
from cycling_site.models.common import utcnow
from cycling_site.services import outbox, rate_limit
from cycling_site.services.accounts import FormErrors, TooManyAttempts, normalize_email
from cycling_site.settings import settings

NAME_MAX = 100
PHONE_MAX = 30
MESSAGE_MIN = 10
MESSAGE_MAX = 5000
PHONE_REGION = "AE"
SUBSCRIBE_LIMIT = "10/hour"
GMT4 = timezone(timedelta(hours=4), "GMT+4")


@dataclass
class ContactForm:
    name: str = ""
    phone: str = ""
    email: str = ""
    message: str = ""


def _clean(text: str, keep_lines: bool = False) -> str:
    """NFC text without control characters; line breaks kept only where asked (the message)."""
    text = unicodedata.normalize("NFC", str(text or "")).replace("\r\n", "\n").replace("\r", "\n")
    kept = []
    for char in text:
        if keep_lines and char in "\n\t":
            kept.append(char)
        elif char.isspace():
            kept.append(" ")
        elif unicodedata.category(char) != "Cc":
            kept.append(char)
    cleaned = "".join(kept)
    return cleaned.strip() if keep_lines else " ".join(cleaned.split())


def normalize_phone(raw: str) -> str | None:
    """'' when not given, the number in E.164 when it is a real number (AE by default), else None."""
    raw = _clean(raw)
    if not raw:
        return ""
    if len(raw) > PHONE_MAX:
        return None
    try:
        number = phonenumbers.parse(raw, PHONE_REGION)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def _checked(form: ContactForm) -> ContactMessage:
    """A maximum counts the characters as sent (as the API schema's maxLength does), a minimum those kept."""
    errors: dict[str, str] = {}
    name = _clean(form.name)
    if not name:
        errors["name"] = msg.NAME_REQUIRED
    elif len(form.name) > NAME_MAX:
        errors["name"] = msg.too_long("Name", NAME_MAX)
    phone = normalize_phone(form.phone)
    if phone is None:
        errors["phone"] = msg.PHONE_INVALID
    email = normalize_email(_clean(form.email))
    if email is None:
        errors["email"] = msg.EMAIL_REQUIRED
    message = _clean(form.message, keep_lines=True)
    if len(message) < MESSAGE_MIN:
        errors["message"] = msg.MESSAGE_TOO_SHORT
    elif len(form.message) > MESSAGE_MAX:
        errors["message"] = msg.too_long("Message", MESSAGE_MAX)
    if errors:
        raise FormErrors(errors)
    return ContactMessage(name=name, phone=phone or "", email=email, message=message)


def _support_body(row: ContactMessage) -> str:
    sent = row.created_at.astimezone(GMT4).strftime("%d/%m/%Y %H:%M GMT+4")
    return (
        "A visitor wrote through the Contact us page.\n\n"
        f"Name: {row.name}\n"
        f"Email: {row.email}\n"
        f"Phone: {row.phone or msg.PHONE_NOT_GIVEN}\n"
        f"Sent: {sent}\n\n"
        f"{row.message}\n\n"
        f"Reply to {row.email} to answer."
    )


def send_message(session: Session, form: ContactForm, address: str = "") -> ContactMessage:
    """Stores the message and queues it to support in one transaction; bad input stores nothing."""
    row = _checked(form)
    if rate_limit.first_used_up(
        [rate_limit.Cap(settings.contact_limit_per_address, ("contact", address or "-"))]
    ):
        raise TooManyAttempts({"form": msg.TOO_MANY_MESSAGES})
    row.created_at = utcnow()
    session.add(row)
    outbox.queue_email(
        session,
        settings.support_email.strip().lower(),
        msg.SUPPORT_SUBJECT.format(name=row.name),
        _support_body(row),
    )
    session.commit()
    return row


def subscribe(session: Session, email: str, address: str = "") -> Subscriber:
    """The subscriber for this address, added if new; subscribing twice is no error and adds no row."""
    normalized = normalize_email(_clean(email))
    if normalized is None:
        raise FormErrors({"email": msg.EMAIL_REQUIRED})
    query = select(Subscriber).where(Subscriber.email == normalized)
    if existing := session.exec(query).first():
        return existing
    if rate_limit.first_used_up([rate_limit.Cap(SUBSCRIBE_LIMIT, ("subscribe", address or "-"))]):
        raise TooManyAttempts({"email": msg.TOO_MANY_SUBSCRIPTIONS})
    subscriber = Subscriber(email=normalized)
    session.add(subscriber)
    try:
        session.commit()
    except IntegrityError:
        # The same address subscribed at the same moment from elsewhere.
        session.rollback()
        return session.exec(query).one()
    return subscriber
