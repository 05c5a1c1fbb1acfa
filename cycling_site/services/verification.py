"""E-mail verification: a link (/verify-user, /verify-kid) and a typed code (the Verify OTP page)."""

from contextlib import suppress
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, AccountCode, CodePurpose
from cycling_site.services import codes, outbox, rate_limit
from cycling_site.services.validation import FormErrors, normalize_email
from cycling_site.settings import settings

LINK_LIFETIME = timedelta(hours=48)
OTP_LIFETIME = timedelta(hours=24)
OTP_LENGTH = 6


def send_verification(session: Session, account: Account) -> str:
    """Queues the e-mail with both a link and a code, in the caller's transaction; answers the code's key."""
    link = codes.issue(session, account, CodePurpose.verify_email, LINK_LIFETIME, sent_to=account.email)
    otp = codes.issue(
        session, account, CodePurpose.verify_otp, OTP_LIFETIME, sent_to=account.email, typed=True
    )
    page = "verify-kid" if account.is_kid else "verify-user"
    outbox.queue_email(
        session,
        account.email,
        f"Verify your {settings.site_name} account",
        f"Hi {account.firstname},\n\n"
        f"Welcome to {settings.site_name}! Confirm your e-mail address by opening this link:\n\n"
        f"{settings.site_url}/{page}?es={link.code}\n\n"
        f"Or enter this code on {settings.site_url}/auth/verification?key={otp.key}\n\n"
        f"    {otp.code}\n\n"
        "The link is valid for 48 hours and the code for 24 hours.",
    )
    return otp.key or ""


def _mark_verified(session: Session, account: Account) -> Account:
    account.email_verified = True
    # Either proof finishes verification: the other one stops working.
    now = datetime.now(UTC)
    for row in session.exec(
        select(AccountCode).where(
            AccountCode.account_id == account.id,
            AccountCode.purpose.in_([CodePurpose.verify_email, CodePurpose.verify_otp]),  # type: ignore[attr-defined]
            AccountCode.used_at.is_(None),  # type: ignore[union-attr]
        )
    ):
        row.used_at = now
    session.add(account)
    session.commit()
    return account


def verify_link(session: Session, code: str) -> Account:
    """Raises codes.CodeError with the reason when the link cannot be used."""
    account = codes.use(session, CodePurpose.verify_email, code)
    return _mark_verified(session, account)


def verify_otp(session: Session, key: str, otp: str) -> Account:
    otp = (otp or "").strip()
    if len(otp) != OTP_LENGTH or not otp.isdigit():
        raise FormErrors({"otp": msg.OTP_REQUIRED})
    account = codes.use(session, CodePurpose.verify_otp, otp, key=key or "")
    return _mark_verified(session, account)


def _resend(session: Session, account: Account | None) -> str | None:
    """The new key, or None when there is nothing to send; CodeLimit when the hourly cap is reached."""
    if account is None or account.deleted_at is not None or account.email_verified:
        return None
    if not rate_limit.allow_email("verification", account.email):
        raise codes.CodeLimit(msg.TOO_MANY_EMAILS)
    key = send_verification(session, account)
    session.commit()
    return key


def resend_for_link(session: Session, code: str) -> None:
    """Resend from a failed link page: the old (even expired) link names the account."""
    account = codes.owner(session, CodePurpose.verify_email, code=code or "")
    if account is None or account.deleted_at is not None:
        raise codes.CodeError(msg.CODE_INVALID)
    if account.email_verified:
        raise codes.CodeError(msg.EMAIL_VERIFIED)
    _resend(session, account)


def resend_for_key(session: Session, key: str) -> str:
    """A new code for the Verify OTP page (the spec's key/new); answers the new key."""
    new_key = _resend(session, codes.owner(session, CodePurpose.verify_otp, key=key or ""))
    if new_key is None:
        raise codes.CodeError(msg.CODE_INVALID)
    return new_key


def resend_for_email(session: Session, email: str, tell_limit: bool = False) -> None:
    """The same answer whether or not the address has an account, so the form cannot be used to find out;
    only the sign-in page, after a right password, is told when the hourly cap is reached."""
    normalized = normalize_email(email)
    if normalized is None:
        raise FormErrors({"email": msg.EMAIL_REQUIRED_VALID})
    account = session.exec(select(Account).where(Account.email == normalized)).first()
    if tell_limit:
        _resend(session, account)
        return
    with suppress(codes.CodeError):
        _resend(session, account)
