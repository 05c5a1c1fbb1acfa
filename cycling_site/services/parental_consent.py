"""Parental consent: a kid's account works only once a parent approves it through an e-mailed link.

Only the kid's own sign-up or sign-in can ask for consent: it hands the consent page a short-lived signed
handle, never the kid's uuid (anyone who knew a uuid could otherwise send the request to themselves)."""

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, CodePurpose
from cycling_site.models.common import as_utc
from cycling_site.services import codes, outbox, tokens
from cycling_site.services.accounts import age_on, erase_personal_data
from cycling_site.services.validation import FormErrors, TooManyAttempts, normalize_email
from cycling_site.settings import settings

RESEND_WAIT = timedelta(seconds=300)
APPROVAL_LIFETIME = timedelta(days=7)
APPROVAL_PATH = "/parental-approval"
HANDLE_PURPOSE = "consent_request"
HANDLE_LIFETIME = timedelta(hours=1)


@dataclass(frozen=True)
class ConsentRequest:
    """What the parent sees before deciding."""

    child_name: str
    child_age: int
    child_email: str


def consent_handle(child: Account) -> str:
    """What the kid's sign-up or sign-in gives the consent page (as its childUserId)."""
    return tokens.sign_link(child.uuid, HANDLE_PURPOSE, HANDLE_LIFETIME)


def _child(session: Session, handle: str) -> Account | None:
    claims = tokens.read_link(handle, HANDLE_PURPOSE)
    if claims is None:
        return None
    return session.exec(select(Account).where(Account.uuid == claims["sub"])).first()


def is_approved(session: Session, handle: str) -> bool:
    child = _child(session, handle)
    return child is not None and child.parent_approved and child.deleted_at is None


def request_consent(session: Session, handle: str, parent_email: str) -> None:
    """Sends (or sends again) the approval e-mail; at most one every five minutes."""
    child = _child(session, handle)
    if child is None:
        raise FormErrors({"form": msg.CONSENT_REQUEST_EXPIRED})
    if not child.is_kid or child.parent_approved or child.deleted_at is not None:
        raise FormErrors({"form": msg.CONSENT_NOT_NEEDED})
    normalized = normalize_email(parent_email)
    if normalized is None:
        raise FormErrors({"parentEmail": msg.EMAIL_REQUIRED_VALID})
    if normalized == child.email:
        raise FormErrors({"parentEmail": msg.PARENT_EMAIL_IS_CHILD})
    now = datetime.now(UTC)
    if child.parent_consent_sent_at and now - as_utc(child.parent_consent_sent_at) < RESEND_WAIT:
        raise TooManyAttempts({"form": msg.CONSENT_WAIT})
    child.parent_email = normalized
    child.parent_consent_sent_at = now
    issued = codes.issue(session, child, CodePurpose.parental_consent, APPROVAL_LIFETIME, sent_to=normalized)
    outbox.queue_email(
        session,
        normalized,
        f"{child.firstname} asks for your consent on {settings.site_name}",
        f"Hello,\n\n{child.firstname} {child.lastname} ({child.email}) has created an account on "
        f"{settings.site_name}, a site for indoor cycling races. Riders under 18 need the consent of a "
        f"parent or guardian. Please approve or decline the account here:\n\n"
        f"{settings.site_url}{APPROVAL_PATH}?code={issued.code}\n\nThe link is valid for 7 days.",
    )
    session.add(child)
    session.commit()


def review(session: Session, code: str, today: date | None = None) -> ConsentRequest:
    """Raises codes.CodeError when the link cannot be used."""
    _row, child = codes.check(session, CodePurpose.parental_consent, code)
    today = today or datetime.now(UTC).date()
    return ConsentRequest(f"{child.firstname} {child.lastname}", age_on(child.dob, today), child.email)


def decide(session: Session, code: str, approve: bool) -> Account:
    """Approving lets the kid sign in; declining erases the account."""
    child = codes.use(session, CodePurpose.parental_consent, code)
    if approve:
        child.parent_approved = True
    else:
        erase_personal_data(session, child)
    session.add(child)
    session.commit()
    return child
