"""Third-party import (spec 3): a rider's ride totals from another platform, with proof, for race control.

The wizard's rules (spec 3 section 5) are checked step by step and all again at the submit. Time is kept in
seconds (from days, hours and minutes), distance in km (miles converted), elevation in m. A rider has one
import waiting or approved at most (the database holds to it too); after a rejection a re-import is taken.
Race control decides through the console with `decide`; the approved totals show in the progress table.
"""

import math
from dataclasses import dataclass, fields

from pydantic import AnyHttpUrl, TypeAdapter, ValidationError
from sqlalchemy import bindparam
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from cycling_site.messages import third_party_import as msg
from cycling_site.models import Account, RiderFile
from cycling_site.models.common import as_utc, utcnow
from cycling_site.models.race_control import ReviewKind, ReviewStatus
from cycling_site.models.third_party_import import ImportStatus, ThirdPartyImport
from cycling_site.services import race_control, rider_files
from cycling_site.services.validation import FormErrors, has_nul
from cycling_site.wire.ids import row_id

PLATFORMS = ("Strava", "Zwift", "Trainer road", "Rouvy", "Bkool", "Others")
UNITS = ("kilometers", "miles")
KM_PER_MILE = 1.609344
PROOF_KIND = "import_proof"
MAX_PROOF_FILES = 10
MAX_DAYS = 36_500
MAX_DISTANCE = 10_000_000
MAX_ELEVATION = 100_000_000
LINK_MAX = 500
STEPS = ("platform", "stats", "proof")
# The console's words for the spec's statuses.
CONSOLE_STATUS = {
    ImportStatus.submitted: ReviewStatus.pending,
    ImportStatus.approved: ReviewStatus.approved,
    ImportStatus.rejected: ReviewStatus.rejected,
}
_LINK = TypeAdapter(AnyHttpUrl)


@dataclass
class ImportForm:
    """The wizard's fields as text, the way a form sends them."""

    migration_platform: str = ""
    days: str = ""
    hours: str = ""
    minutes: str = ""
    distance: str = ""
    distance_unit: str = ""
    elevation: str = ""
    profile_link: str = ""

    @classmethod
    def of(cls, values: dict) -> "ImportForm":
        """From a form's fields; unknown ones are ignored and text is trimmed."""
        known = {field.name for field in fields(cls)}
        return cls(
            **{
                name: str(value).strip()
                for name, value in values.items()
                if name in known and value is not None
            }
        )


@dataclass(frozen=True)
class RideStats:
    """The totals as stored: seconds, km and m."""

    total_ride_time: int
    total_distance: float
    total_elevation: float


# --- The wizard's rules ------------------------------------------------------------------------------


def check_platform(form: ImportForm) -> str:
    if not form.migration_platform:
        raise FormErrors({"migration_platform": msg.PLATFORM_REQUIRED})
    if form.migration_platform not in PLATFORMS:
        raise FormErrors({"migration_platform": msg.PLATFORM_UNKNOWN})
    return form.migration_platform


def _whole(text: str, most: int, too_low: str, too_high: str) -> tuple[int | None, str]:
    """A whole number from 0 to `most`, or the message for why not."""
    if not text:
        return None, msg.TIME_REQUIRED
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
        return None, msg.TIME_INTEGER
    number = int(text)
    if number < 0:
        return None, too_low
    return (number, "") if number <= most else (None, too_high)


def _amount(text: str, most: int, required: str, invalid: str) -> tuple[float | None, str]:
    if not text:
        return None, required
    try:
        number = float(text.replace(",", ""))
    except ValueError:
        return None, invalid
    return (number, "") if math.isfinite(number) and 0 <= number <= most else (None, invalid)


def check_stats(form: ImportForm) -> RideStats:
    """Step 2: time spent (days, hours, minutes, whole numbers), distance with its unit, elevation."""
    errors: dict[str, str] = {}
    days, errors["days"] = _whole(
        form.days, MAX_DAYS, msg.DAYS_NEGATIVE, msg.DAYS_TOO_MANY.format(days=MAX_DAYS)
    )
    hours, errors["hours"] = _whole(form.hours, 23, msg.HOURS_RANGE, msg.HOURS_RANGE)
    minutes, errors["minutes"] = _whole(form.minutes, 59, msg.MINUTES_RANGE, msg.MINUTES_RANGE)
    distance, errors["distance"] = _amount(
        form.distance, MAX_DISTANCE, msg.DISTANCE_REQUIRED, msg.DISTANCE_INVALID.format(most=MAX_DISTANCE)
    )
    if not form.distance_unit:
        errors["distance_unit"] = msg.DISTANCE_REQUIRED
    elif form.distance_unit not in UNITS:
        errors["distance_unit"] = msg.UNIT_INVALID
    elevation, errors["elevation"] = _amount(
        form.elevation,
        MAX_ELEVATION,
        msg.ELEVATION_REQUIRED,
        msg.ELEVATION_INVALID.format(most=MAX_ELEVATION),
    )
    errors = {name: text for name, text in errors.items() if text}
    if errors:
        raise FormErrors(errors)
    assert days is not None and hours is not None and minutes is not None
    assert distance is not None and elevation is not None
    return RideStats(
        total_ride_time=ride_seconds(days, hours, minutes),
        total_distance=to_km(distance, form.distance_unit),
        total_elevation=elevation,
    )


def ride_seconds(days: int, hours: int, minutes: int) -> int:
    return ((days * 24 + hours) * 60 + minutes) * 60


def to_km(distance: float, unit: str) -> float:
    """Kilometres, kept precise (a mile is exactly 1.609344 km; no rounding)."""
    return distance * KM_PER_MILE if unit == "miles" else distance


def check_link(link: str) -> str:
    """Step 3's profile link: an http or https address of a site."""
    if not link:
        raise FormErrors({"profile_link": msg.PROFILE_LINK_REQUIRED})
    if len(link) > LINK_MAX or has_nul(link) or any(char.isspace() for char in link):
        raise FormErrors({"profile_link": msg.PROFILE_LINK_INVALID})
    try:
        url = _LINK.validate_python(link)
    except ValidationError:
        raise FormErrors({"profile_link": msg.PROFILE_LINK_INVALID}) from None
    if not url.host or "." not in url.host.strip("."):
        raise FormErrors({"profile_link": msg.PROFILE_LINK_INVALID})
    return link


def check_file_count(count: int) -> None:
    if count < 1:
        raise FormErrors({"proof_files": msg.PROOF_REQUIRED})
    if count > MAX_PROOF_FILES:
        raise FormErrors({"proof_files": msg.TOO_MANY_FILES})


def form_errors(form: ImportForm, file_count: int) -> dict[str, str]:
    """Every message of every step for this form and this many proof files (empty when all is well)."""
    errors: dict[str, str] = {}
    checks = (
        lambda: check_platform(form),
        lambda: check_stats(form),
        lambda: check_link(form.profile_link),
        lambda: check_file_count(file_count),
    )
    for check in checks:
        try:
            check()
        except FormErrors as exc:
            errors.update(exc.errors)
    return errors


def check_step(step: str, form: ImportForm) -> None:
    """One step of the wizard, as its Next button checks it (the proof step is checked at the submit)."""
    if step == "platform":
        check_platform(form)
    elif step == "stats":
        check_stats(form)


# --- The rider's import ------------------------------------------------------------------------------


# Read on every dashboard load: built once.
_LATEST = (
    select(ThirdPartyImport)
    .where(ThirdPartyImport.account_id == bindparam("account_id"))
    .order_by(col(ThirdPartyImport.id).desc())
)


def latest(session: Session, account: Account) -> ThirdPartyImport | None:
    return session.exec(_LATEST, params={"account_id": account.id}).first()


def may_import(session: Session, account: Account) -> None:
    """Refused while an import waits, and once one is approved; after a rejection a re-import is taken."""
    row = latest(session, account)
    if row is not None and row.status == ImportStatus.submitted:
        raise FormErrors({"import": msg.ALREADY_WAITING})
    if row is not None and row.status == ImportStatus.approved:
        raise FormErrors({"import": msg.ALREADY_APPROVED})


def proof_files(session: Session, account: Account, file_ids: list) -> list[RiderFile]:
    """The rider's own proof files, each once; another rider's file is refused like a missing one."""
    check_file_count(len(set(map(str, file_ids))))
    rows: dict[int, RiderFile] = {}
    for file_id in file_ids:
        try:
            row = rider_files.owned(session, account, file_id, PROOF_KIND)
        except FormErrors as exc:
            raise FormErrors({"proof_files": next(iter(exc.errors.values()))}) from None
        rows[row.id] = row
    return list(rows.values())


def submit(session: Session, account: Account, form: ImportForm, file_ids: list) -> ThirdPartyImport:
    """Every rule again, then the import, waiting for race control. Bad input stores nothing."""
    may_import(session, account)
    errors = form_errors(form, len(set(map(str, file_ids))))
    if errors:
        raise FormErrors(errors)
    files = proof_files(session, account, file_ids)
    stats = check_stats(form)
    row = ThirdPartyImport(
        account_id=account.id,
        migration_platform=form.migration_platform,
        total_ride_time=stats.total_ride_time,
        total_distance=stats.total_distance,
        total_elevation=stats.total_elevation,
        profile_link=form.profile_link,
        proof_file_ids=[file.id for file in files],
    )
    session.add(row)
    try:
        session.commit()
    except IntegrityError:
        # Another submit of the same rider landed first.
        session.rollback()
        raise FormErrors({"import": msg.ALREADY_WAITING}) from None
    session.refresh(row)
    return row


def banner(row: ThirdPartyImport | None) -> str:
    """Which banner the Overview shows: offer (no import yet), submitted, approved (until Got It) or
    rejected; empty once an approved import has been seen."""
    if row is None:
        return "offer"
    if row.status == ImportStatus.approved and row.has_seen:
        return ""
    return row.status


def view(row: ThirdPartyImport | None) -> dict:
    """The rider's import as the dashboard and the API show it."""
    return {
        "status": row.status if row else "none",
        "banner": banner(row),
        "has_seen": row.has_seen if row else False,
        "migration_platform": row.migration_platform if row else None,
        "total_ride_time": row.total_ride_time if row else None,
        "total_distance": row.total_distance if row else None,
        "total_elevation": row.total_elevation if row else None,
        "reason": row.reason if row else "",
        "submitted_at": as_utc(row.created_at) if row else None,
    }


def set_has_seen(session: Session, account: Account) -> ThirdPartyImport:
    """Got It on the Congratulations banner: the approved import is marked seen (again, it stays seen)."""
    row = latest(session, account)
    if row is None or row.status != ImportStatus.approved:
        raise FormErrors({"import": msg.NOTHING_TO_SEE})
    if not row.has_seen:
        row.has_seen = True
        session.add(row)
        session.commit()
        session.refresh(row)
    return row


def approved_totals(session: Session, account: Account) -> RideStats | None:
    return totals_of(latest(session, account))


def totals_of(row: ThirdPartyImport | None) -> RideStats | None:
    """The approved import's totals, for the Other Platform column; None without an approved import."""
    if row is None or row.status != ImportStatus.approved:
        return None
    return RideStats(row.total_ride_time, row.total_distance, row.total_elevation)


# --- Race control ------------------------------------------------------------------------------------


def decide(session: Session, reviewer: Account, item_id: int, approve: bool, reason: str) -> ThirdPartyImport:
    """Approves or rejects a submitted import: the status move, the audit row and the rider's e-mail in
    one transaction. A rejection frees the rider for a re-import."""
    race_control.require_reviewer(reviewer)
    reason = race_control.clean_reason(approve, reason)
    number = row_id(item_id)
    if number is None:
        raise race_control.ReviewRefused(race_control.msg.NOT_FOUND)
    values: dict = {"reason": reason, "decided_at": utcnow()}
    if approve:
        values.update(status=ImportStatus.approved, has_seen=False)
    else:
        values.update(status=ImportStatus.rejected, current=None)
    race_control.claim(session, ThirdPartyImport, number, values, from_status=ImportStatus.submitted)
    row = session.get(ThirdPartyImport, number, populate_existing=True)
    assert row is not None
    rider = session.get(Account, row.account_id)
    assert rider is not None
    race_control.record(
        session,
        kind=ReviewKind.third_party_import,
        item_id=number,
        rider=rider,
        reviewer=reviewer,
        decision=ReviewStatus.approved if approve else ReviewStatus.rejected,
        reason=reason,
        subject=msg.APPROVED_SUBJECT if approve else msg.REJECTED_SUBJECT,
        body=(msg.APPROVED_BODY.format(platform=row.migration_platform) if approve else msg.REJECTED_BODY),
    )
    session.commit()
    session.refresh(row)
    return row


def _count(number: int, unit: str) -> str:
    return f"{number:,} {unit}" + ("" if number == 1 else "s")


def time_spent(seconds: int) -> str:
    """As the rider entered it: days, hours and minutes."""
    days, rest = divmod(seconds // 60, 24 * 60)
    hours, minutes = divmod(rest, 60)
    return f"{_count(days, 'day')} {_count(hours, 'hour')} {_count(minutes, 'minute')}"


def for_review(session: Session, status: str) -> list[dict]:
    """The imports of one console status (pending, approved or rejected), as the console shows them:
    waiting ones oldest first, decided ones newest first."""
    stored = {console: spec for spec, console in CONSOLE_STATUS.items()}.get(status)
    if stored is None:
        return []
    order = col(ThirdPartyImport.id) if stored == ImportStatus.submitted else col(ThirdPartyImport.id).desc()
    rows = session.exec(
        select(ThirdPartyImport, Account)
        .join(Account, col(Account.id) == ThirdPartyImport.account_id)
        .where(ThirdPartyImport.status == stored)
        .order_by(order)
    ).all()
    file_ids = {file_id for row, _rider in rows for file_id in row.proof_file_ids}
    files = {
        file.id: file for file in session.exec(select(RiderFile).where(col(RiderFile.id).in_(file_ids))).all()
    }
    return [_review_item(row, rider, files) for row, rider in rows]


def _review_item(row: ThirdPartyImport, rider: Account, files: dict[int, RiderFile]) -> dict:
    hours = row.total_ride_time / 3600
    return {
        "id": row.id,
        "rider_name": f"{rider.firstname} {rider.lastname}",
        "rider_email": rider.email,
        "status": CONSOLE_STATUS[ImportStatus(row.status)].value,
        "submitted_at": as_utc(row.created_at),
        "title": (
            f"{row.migration_platform}: {hours:,.1f} h, {row.total_distance:,.1f} km, "
            f"{row.total_elevation:,.0f} m"
        ),
        "details": [
            ["Platform", row.migration_platform],
            ["Total time spent", time_spent(row.total_ride_time)],
            ["Overall distance", f"{row.total_distance:,.3f} km"],
            ["Overall elevation", f"{row.total_elevation:,.0f} m"],
            ["Profile link", row.profile_link],
        ],
        "files": [
            {"id": file.id, "name": rider_files.served_name(file), "content_type": file.content_type}
            for file_id in row.proof_file_ids
            if (file := files.get(file_id)) is not None
        ],
        "reason": row.reason,
    }


def pending_count(session: Session) -> int:
    query = (
        select(func.count())
        .select_from(ThirdPartyImport)
        .where(ThirdPartyImport.status == ImportStatus.submitted)
    )
    return session.exec(query).one()
