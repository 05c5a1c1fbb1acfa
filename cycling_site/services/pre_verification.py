"""Rider pre-verification (spec 3): the form's rules, the submission, and race control's decision.

Only a rider who has not submitted (or whose verification was rejected) may submit; the account moves to
pending by a guarded update, so two submissions sent at once make one. Approval verifies the rider in a
category and takes the verified weight and height onto the profile."""

import math
from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import update
from sqlmodel import Session, col, func, select

from cycling_site.messages import pre_verification as msg
from cycling_site.models import Account
from cycling_site.models.accounts import VerificationStatus
from cycling_site.models.common import utcnow
from cycling_site.models.pre_verification import PreVerification
from cycling_site.models.race_control import ReviewKind, ReviewStatus
from cycling_site.services import race_control
from cycling_site.services.events import CATEGORY_NAMES
from cycling_site.services.validation import FormErrors, has_nul

# Spec 3 section 3, in its order.
SMART_TRAINERS = (
    "Wahoo KICKR V5",
    "Wahoo KICKR V6",
    "Wahoo KICKR Move",
    "Wahoo KICKR Bike V1",
    "Wahoo KICKR Bike V2",
    "Wahoo KICKR Shift",
    "Wahoo KICKR Core",
    "Tacx Neo",
    "Tacx Neo 2T",
    "Tacx Neo 3M",
    "Tacx Neo Bike",
    "Tacx Neo Bike Plus",
    "Elite Justo",
    "Elite Justo 2",
    "Elite Justo Avanti",
    "Jet Black Victory",
)
SECONDARY_POWER_SOURCES = (
    "Power meter pedals",
    "Crank power meter",
    "Spider power meter",
    "Hub power meter",
    "Smart bike",
    "Other",
)
WEIGHT_MIN, WEIGHT_MAX = 25, 200
HEIGHT_MIN, HEIGHT_MAX = 50, 250
LINK_MAX = 500
MESSAGE_MAX = 2000
REDIRECT_SECONDS = 3
# Statuses from which the form may be sent: never sent, or sent and rejected (Resubmit Verification).
MAY_SUBMIT = (VerificationStatus.not_submitted, VerificationStatus.rejected)
CATEGORIES = tuple(range(1, len(CATEGORY_NAMES) + 1))


@dataclass(frozen=True)
class Form:
    """The seven fields of spec 3 section 3, as typed."""

    smartTrainer: str = ""
    secondaryPowerSource: str = ""
    weight: str = ""
    height: str = ""
    videoLink: str = ""
    stravaLink: str = ""
    message: str = ""


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _weight(text: str) -> float | None:
    """Kilograms in 25-200 with at most one decimal (the field's step is 0.1)."""
    value = _number(text)
    if value is None or not WEIGHT_MIN <= value <= WEIGHT_MAX or abs(value * 10 - round(value * 10)) > 1e-6:
        return None
    return round(value, 1)


def _height(text: str) -> int | None:
    value = _number(text)
    if value is None or not HEIGHT_MIN <= value <= HEIGHT_MAX or value != int(value):
        return None
    return int(value)


def is_web_link(text: str) -> bool:
    """An http:// or https:// address with a host: the only links race control opens."""
    parts = urlsplit(text)
    return parts.scheme in ("http", "https") and bool(parts.hostname) and " " not in text


def validate(form: Form) -> tuple[float, int]:
    """The weight and height as stored, or FormErrors with every field's message (spec 3 section 5)."""
    errors: dict[str, str] = {}
    values = {name: str(getattr(form, name) or "").strip() for name in Form.__dataclass_fields__}
    if has_nul(*values.values()):
        raise FormErrors({"form": msg.SUBMIT_FAILED})
    if values["smartTrainer"] not in SMART_TRAINERS:
        errors["smartTrainer"] = msg.SMART_TRAINER_REQUIRED
    if values["secondaryPowerSource"] not in SECONDARY_POWER_SOURCES:
        errors["secondaryPowerSource"] = msg.POWER_SOURCE_REQUIRED
    weight = _weight(values["weight"])
    if weight is None:
        errors["weight"] = msg.WEIGHT_INVALID if values["weight"] else msg.WEIGHT_REQUIRED
    height = _height(values["height"])
    if height is None:
        errors["height"] = msg.HEIGHT_INVALID if values["height"] else msg.HEIGHT_REQUIRED
    video = values["videoLink"]
    if not video:
        errors["videoLink"] = msg.VIDEO_REQUIRED
    elif len(video) > LINK_MAX:
        errors["videoLink"] = msg.LINK_TOO_LONG
    elif not is_web_link(video):
        errors["videoLink"] = msg.VIDEO_INVALID
    if not values["stravaLink"]:
        errors["stravaLink"] = msg.STRAVA_REQUIRED
    elif len(values["stravaLink"]) > LINK_MAX:
        errors["stravaLink"] = msg.LINK_TOO_LONG
    if len(values["message"]) > MESSAGE_MAX:
        errors["message"] = msg.MESSAGE_TOO_LONG
    if errors:
        raise FormErrors(errors)
    return weight, height  # type: ignore[return-value]


def may_submit(account: Account) -> bool:
    return account.verification_status in MAY_SUBMIT


def submit(session: Session, account: Account, form: Form) -> PreVerification:
    """Stores the submission and makes the rider pending, once: a second sending is refused."""
    weight, height = validate(form)
    moved = session.execute(
        update(Account)
        .where(col(Account.id) == account.id, col(Account.verification_status).in_(MAY_SUBMIT))
        .values(verification_status=VerificationStatus.pending)
    )
    if moved.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise FormErrors({"form": msg.ALREADY_SUBMITTED})
    row = PreVerification(
        account_id=account.id,
        smart_trainer=form.smartTrainer.strip(),
        secondary_power_source=form.secondaryPowerSource.strip(),
        weight=weight,
        height=height,
        video_link=form.videoLink.strip(),
        strava_link=form.stravaLink.strip(),
        message=form.message.strip(),
    )
    session.add(row)
    session.commit()
    session.refresh(row)
    session.refresh(account)
    return row


def latest(session: Session, account: Account) -> PreVerification | None:
    return session.exec(
        select(PreVerification)
        .where(PreVerification.account_id == account.id)
        .order_by(col(PreVerification.id).desc())
    ).first()


def rejection_reason(session: Session, account: Account) -> str:
    """Race control's reason, shown with Resubmit Verification."""
    if account.verification_status != VerificationStatus.rejected:
        return ""
    row = latest(session, account)
    return row.reason if row is not None and row.status == ReviewStatus.rejected else ""


def decide(
    session: Session,
    reviewer: Account,
    item_id: int,
    approve: bool,
    reason: str,
    category_id: int | None = None,
) -> PreVerification:
    """Approve in a category, or reject with a reason; the rider's status follows in the same transaction."""
    race_control.require_reviewer(reviewer)
    reason = race_control.clean_reason(approve, reason)
    if approve and category_id not in CATEGORIES:
        raise race_control.ReviewRefused(msg.CATEGORY_REQUIRED)
    status = ReviewStatus.approved if approve else ReviewStatus.rejected
    race_control.claim(
        session,
        PreVerification,
        item_id,
        {
            "status": status,
            "reason": reason,
            "category_id": category_id if approve else None,
            "decided_at": utcnow(),
        },
    )
    row = session.get(PreVerification, item_id)
    rider = session.get(Account, row.account_id)  # type: ignore[union-attr]
    assert row is not None and rider is not None
    session.refresh(row)
    rider.verification_status = VerificationStatus.approved if approve else VerificationStatus.rejected
    if approve:
        rider.category_id = category_id
        rider.weight = row.weight
        rider.height = row.height
    session.add(rider)
    race_control.record(
        session,
        kind=ReviewKind.pre_verification,
        item_id=item_id,
        rider=rider,
        reviewer=reviewer,
        decision=status,
        reason=reason,
        subject="You are verified" if approve else "Your verification was declined",
        body=(
            f"Race control has verified you. You race in CAT {category_id} from now on."
            if approve
            else "Race control could not verify you. You can correct your details and submit again "
            "from your dashboard."
        ),
    )
    session.commit()
    session.refresh(row)
    return row


def for_review(session: Session, status: str) -> list[dict]:
    rows = session.exec(
        select(PreVerification, Account)
        .join(Account, col(Account.id) == PreVerification.account_id)
        .where(PreVerification.status == status)
        .order_by(col(PreVerification.id))
    ).all()
    return [
        {
            "id": row.id,
            "rider_name": f"{rider.firstname} {rider.lastname}",
            "rider_email": rider.email,
            "status": row.status,
            "submitted_at": row.created_at,
            "title": f"{row.smart_trainer} · {row.weight:g} kg · {row.height} cm",
            "details": [
                ["Smart trainer", row.smart_trainer],
                ["Secondary power source", row.secondary_power_source],
                ["Weight", f"{row.weight:g} kg"],
                ["Height", f"{row.height} cm"],
                ["Video", row.video_link],
                ["Strava", row.strava_link],
                ["Message", row.message or "—"],
                *([["Category", f"CAT {row.category_id}"]] if row.category_id else []),
            ],
            "files": [],
            "reason": row.reason,
        }
        for row, rider in rows
    ]


def pending_count(session: Session) -> int:
    pending = PreVerification.status == ReviewStatus.pending
    return session.exec(select(func.count()).select_from(PreVerification).where(pending)).one()
