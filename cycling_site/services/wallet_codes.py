"""The wallet's six-digit codes: the phone and e-mail codes of the account verification, and the code that
confirms each withdrawal. One live code per purpose, a 60 s wait between requests, hourly caps per account
and per address; a code counts only for the phone or address it was sent to, only once, and five wrong tries
end it."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, col, select

from cycling_site.messages import wallet as msg
from cycling_site.models import Account, AccountCode, OutboxMessage
from cycling_site.models.common import as_utc
from cycling_site.services import codes, rate_limit
from cycling_site.services.validation import FormErrors, TooManyAttempts
from cycling_site.settings import settings

RESEND_WAIT = timedelta(seconds=60)
CODE_LIFETIME = timedelta(minutes=10)
OTP_LENGTH = 6
CODES_PER_ACCOUNT = "10/hour"
CODES_PER_ADDRESS = "30/hour"


def _latest(session: Session, account: Account, purpose: str) -> AccountCode | None:
    return session.exec(
        select(AccountCode)
        .where(AccountCode.account_id == account.id, AccountCode.purpose == purpose)
        .order_by(col(AccountCode.id).desc())
    ).first()


def _check_can_send(session: Session, account: Account, purpose: str, field_name: str, address: str) -> None:
    """Refuses a new code within 60 s of the last one, or past the hourly caps (TooManyAttempts, 429)."""
    latest = _latest(session, account, purpose)
    if latest is not None:
        left = RESEND_WAIT - (datetime.now(UTC) - as_utc(latest.created_at))
        if left > timedelta(0):
            seconds = max(int(left.total_seconds()), 1)
            raise TooManyAttempts({field_name: msg.OTP_WAIT.format(seconds=seconds)})
    used_up = rate_limit.first_used_up(
        [
            rate_limit.Cap(CODES_PER_ACCOUNT, ("wallet-code-account", str(account.id))),
            rate_limit.Cap(CODES_PER_ADDRESS, ("wallet-code-address", address or "-")),
        ]
    )
    if used_up is not None:
        raise TooManyAttempts({field_name: msg.OTP_TOO_MANY})


def issue(session: Session, account: Account, purpose: str, sent_to: str) -> str:
    """A new code for this purpose (the earlier one stops working), in the caller's transaction."""
    return codes.issue(session, account, purpose, CODE_LIFETIME, sent_to=sent_to, typed=True).code


@dataclass(frozen=True)
class Message:
    """How a code goes out: its channel (email, sms or whatsapp), subject, and text with {site} and {code}."""

    channel: str
    subject: str
    text: str


def send(
    session: Session, account: Account, purpose: str, to: str, message: Message, field_name: str, address: str
) -> None:
    """A new code for this purpose, queued to `to` in the outbox and committed, unless the wait or the caps
    refuse it (with their message beside `field_name`)."""
    _check_can_send(session, account, purpose, field_name, address)
    code = issue(session, account, purpose, to)
    text = message.text.format(site=settings.site_name, code=code)
    session.add(OutboxMessage(channel=message.channel, recipient=to, subject=message.subject, body=text))
    session.commit()


def well_formed(code: object) -> bool:
    text = str(code or "").strip()
    return len(text) == OTP_LENGTH and text.isascii() and text.isdigit()


def check(
    session: Session, account: Account, purpose: str, code: str, sent_to: str, field_name: str
) -> AccountCode:
    """The live code sent to exactly this phone or address; wrong, used, expired or for another number
    all answer the same."""
    latest = _latest(session, account, purpose)
    if latest is None or latest.used_at is not None or latest.sent_to != sent_to or not latest.key:
        raise FormErrors({field_name: msg.OTP_WRONG})
    try:
        row, _owner = codes.check(session, purpose, code, latest.key)
    except codes.CodeError:
        raise FormErrors({field_name: msg.OTP_WRONG}) from None
    return row


def take(session: Session, account: Account, purpose: str, code: str, sent_to: str, field_name: str) -> None:
    """Checks the code and uses it up in the caller's transaction, so the code is spent only if what it
    confirms is done, and both are seen at once. A right check holds the code's row until that commit
    (services/codes.py): of parallel requests with one code exactly one gets past here."""
    row = check(session, account, purpose, code, sent_to, field_name)
    row.used_at = datetime.now(UTC)
    session.add(row)
    session.flush()
