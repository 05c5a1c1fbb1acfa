"""Phone verification for events that ask for it: a six-digit code by SMS or WhatsApp, through the outbox.

A code is typed with its key; once verified it stays good for one registration within the hour, so the
phone on a registration is always one the rider proved they hold.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import phonenumbers
from sqlalchemy import update
from sqlmodel import Session, col

from cycling_site.messages import accounts as accounts_msg
from cycling_site.messages import registration as msg
from cycling_site.models import Account, CodePurpose, OutboxMessage, PhoneVerification
from cycling_site.models.events import Event
from cycling_site.services import codes, rate_limit
from cycling_site.services.validation import FormErrors, TooManyAttempts, has_nul
from cycling_site.settings import settings

OTP_TYPES = ("sms", "whatsapp")
# 971 with the default DEFAULT_COUNTRY (the United Arab Emirates).
DEFAULT_DIAL_CODE = str(phonenumbers.country_code_for_region(settings.default_country))
PHONE_MIN_DIGITS = 6
PHONE_MAX_DIGITS = 11
OTP_MIN_LENGTH = 6
CODE_LIFETIME = timedelta(minutes=10)
VERIFIED_FOR = timedelta(hours=1)
# Each code is a paid message: caps per number (no inbox flooded), per account and per client address (no
# account, or crowd of accounts, pumping messages to number after number).
CODES_PER_NUMBER = "5/hour"
CODES_PER_ACCOUNT = "5/hour"
CODES_PER_ADDRESS = "20/hour"


@dataclass(frozen=True)
class Phone:
    dial_code: str
    number: str

    @property
    def full(self) -> str:
        """Digits only, dial code first: how a phone is stored and sent to."""
        return f"{self.dial_code}{self.number}"


def dial_codes(event: Event) -> list[str]:
    """The country codes the event accepts; 971 when it names none."""
    return [str(code) for code in event.dial_codes] or [DEFAULT_DIAL_CODE]


def default_dial_code(event: Event) -> str:
    allowed = dial_codes(event)
    return DEFAULT_DIAL_CODE if DEFAULT_DIAL_CODE in allowed else allowed[0]


def check_phone(event: Event, dial_code: str, number: str) -> Phone:
    """Spec 2 section 5: numeric, 6 to 11 digits, a possible number, a country code the event accepts."""
    dial_code = (dial_code or "").strip().lstrip("+")
    number = "".join((number or "").split())
    if dial_code not in dial_codes(event):
        raise FormErrors({"dial_code": msg.DIAL_CODE_INVALID})
    if not number.isdigit() or not number.isascii():
        raise FormErrors({"phone": msg.PHONE_INVALID})
    if not PHONE_MIN_DIGITS <= len(number) <= PHONE_MAX_DIGITS:
        raise FormErrors({"phone": msg.PHONE_INVALID})
    try:
        parsed = phonenumbers.parse(f"+{dial_code}{number}")
    except phonenumbers.NumberParseException:
        raise FormErrors({"phone": msg.PHONE_INVALID}) from None
    if not phonenumbers.is_possible_number(parsed):
        raise FormErrors({"phone": msg.PHONE_INVALID})
    return Phone(dial_code, number)


def _check_caps(account: Account, phone: Phone, address: str) -> None:
    per_number = rate_limit.Cap(CODES_PER_NUMBER, ("phone-code-number", phone.full))
    used_up = rate_limit.first_used_up(
        [
            per_number,
            rate_limit.Cap(CODES_PER_ACCOUNT, ("phone-code-account", str(account.id))),
            rate_limit.Cap(CODES_PER_ADDRESS, ("phone-code-address", address or "-")),
        ]
    )
    if used_up == per_number:
        raise TooManyAttempts({"phone": msg.OTP_TOO_MANY})
    if used_up is not None:
        raise TooManyAttempts({"phone": msg.OTP_SEND_LIMIT})


def send_code(
    session: Session, account: Account, event: Event, phone: Phone, channel: str, address: str
) -> str:
    """Queues a new code to the phone (earlier ones stop working) and answers the key to verify it with.

    `address` is the client's IP address, as the caller's request gives it."""
    if channel not in OTP_TYPES:
        raise FormErrors({"type": msg.OTP_TYPE_INVALID})
    if not event.otp:
        raise FormErrors({"phone": msg.OTP_SEND_FIRST})
    _check_caps(account, phone, address)
    issued = codes.issue(
        session, account, CodePurpose.verify_phone, CODE_LIFETIME, sent_to=phone.full, typed=True
    )
    text = msg.OTP_TEXT.format(code=issued.code)
    session.add(
        OutboxMessage(channel=channel, recipient=f"+{phone.full}", subject="Event registration", body=text)
    )
    session.commit()
    return issued.key or ""


def full_number(text: str) -> str:
    """A phone as sent back by a form or the API ("+971 50 123 4567"): its digits, dial code first."""
    return "".join(char for char in (text or "")[:40] if char.isdigit() and char.isascii())


def verify_code(session: Session, account: Account, key: str, phone: str, otp: str) -> None:
    """Uses the code up and records the verified phone; a wrong, used or expired code answers under the
    OTP field."""
    otp = (otp or "").strip()
    if len(otp) < OTP_MIN_LENGTH or not otp.isdigit() or not otp.isascii():
        raise FormErrors({"otp": msg.OTP_INVALID})
    if not key:
        raise FormErrors({"otp": msg.OTP_SEND_FIRST})
    try:
        row, owner = codes.check(session, CodePurpose.verify_phone, otp, key)
    except codes.CodeError as exc:
        message = str(exc)
        raise FormErrors(
            {"otp": msg.OTP_WRONG if message == accounts_msg.CODE_INVALID else message}
        ) from None
    phone = full_number(phone)
    if owner.id != account.id or row.sent_to != phone:
        raise FormErrors({"otp": msg.OTP_WRONG})
    row.used_at = datetime.now(UTC)
    session.add(row)
    session.add(PhoneVerification(key=key, account_id=account.id, phone=phone))
    session.commit()


def use_verified(session: Session, account: Account, key: str, phone: Phone) -> None:
    """Spends the verification for one registration, in the caller's transaction.

    The guarded UPDATE lets only one of two simultaneous submits with the same key through.
    """
    if not key or has_nul(key):
        raise FormErrors({"otp": msg.OTP_NOT_VERIFIED})
    now = datetime.now(UTC)
    spent = session.execute(
        update(PhoneVerification)
        .where(
            col(PhoneVerification.key) == (key or "")[:64],
            col(PhoneVerification.account_id) == account.id,
            col(PhoneVerification.phone) == phone.full,
            col(PhoneVerification.verified_at) > now - VERIFIED_FOR,
            col(PhoneVerification.used_at).is_(None),
        )
        .values(used_at=now)
    )
    if spent.rowcount != 1:
        raise FormErrors({"otp": msg.OTP_NOT_VERIFIED})
