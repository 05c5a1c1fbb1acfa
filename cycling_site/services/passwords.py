"""Forgotten, reset and forced-reset passwords."""

from datetime import timedelta

from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, CodePurpose
from cycling_site.services import codes, outbox, rate_limit
from cycling_site.services.accounts import PASSWORD_MAX, PASSWORD_MIN, set_password
from cycling_site.services.validation import FormErrors, TooManyAttempts, normalize_email
from cycling_site.settings import settings

RESET_LIFETIME = timedelta(hours=1)
RESET_PATH = "/auth/forgot-password2"


def check_new_password(password: str, repeat: str) -> dict[str, str]:
    errors: dict[str, str] = {}
    if len(password or "") < PASSWORD_MIN:
        errors["password"] = msg.PASSWORD_TOO_SHORT
    elif len(password) > PASSWORD_MAX:
        errors["password"] = msg.too_long("Password", PASSWORD_MAX)
    if (repeat or "") != (password or ""):
        errors["repeatPassword"] = msg.PASSWORD_MISMATCH
    return errors


def request_reset(session: Session, email: str) -> None:
    """E-mails a single-use reset link; an unknown address answers 'Invalid email address provided.'
    as the spec says."""
    normalized = normalize_email(email)
    if normalized is None:
        raise FormErrors({"email": msg.EMAIL_REQUIRED_VALID})
    account = session.exec(select(Account).where(Account.email == normalized)).first()
    if account is None or account.deleted_at is not None:
        raise FormErrors({"email": msg.INVALID_EMAIL_PROVIDED})
    if not rate_limit.allow_email("password-reset", account.email):
        raise TooManyAttempts({"email": msg.TOO_MANY_EMAILS})
    issued = codes.issue(session, account, CodePurpose.reset_password, RESET_LIFETIME, sent_to=account.email)
    outbox.queue_email(
        session,
        account.email,
        f"Reset your {settings.site_name} password",
        f"Hi {account.firstname},\n\nSomebody asked to reset the password of your account. If it was you, "
        f"choose a new password here:\n\n{settings.site_url}{RESET_PATH}?code={issued.code}\n\n"
        "The link works once, within an hour. If it was not you, ignore this email.",
    )
    session.commit()


def forced_reset_code(session: Session, account: Account) -> str:
    """After a sign-in that answered 'key': the rider proved the old password, so the code goes straight
    to the reset page instead of through e-mail."""
    issued = codes.issue(session, account, CodePurpose.reset_password, RESET_LIFETIME)
    session.commit()
    return issued.code


def reset(session: Session, code: str, password: str, repeat: str) -> Account:
    """Raises FormErrors for the new password and codes.CodeError for the link."""
    errors = check_new_password(password, repeat)
    if errors:
        raise FormErrors(errors)
    account = codes.use(session, CodePurpose.reset_password, code)
    set_password(account, password)
    # Opening the e-mailed link proves the address as well as a verification link would.
    account.email_verified = True
    session.add(account)
    session.commit()
    return account
