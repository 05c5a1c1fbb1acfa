"""Registering for an event: the wizard's steps and rules (spec 2 section 5), the one submit that enforces
every rule again on the server, and the status moves race control makes.

The last slot is taken by a guarded UPDATE on the event's booked counter, so of two riders racing for it
exactly one gets it; the same UPDATE locks the event row, so one rider's two submits cannot both land.
"""

from dataclasses import dataclass, fields, replace
from datetime import date, datetime, timedelta

from sqlalchemy import update
from sqlmodel import Session, col, func, select

from cycling_site.local_time import local
from cycling_site.messages import events as events_msg
from cycling_site.messages import registration as msg
from cycling_site.models import Account
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event, EventGender, Registration, RegistrationStatus, RiderFile
from cycling_site.models.race_control import ReviewKind, ReviewStatus
from cycling_site.services import events, phone_otp, race_control, rider_files
from cycling_site.services.validation import FormErrors, has_nul

MIN_AGE_YEARS = 10
YOUTH_FROM = date(2002, 1, 1)
MASTERS_UNTIL = date(1980, 12, 31)
EARLIEST_BIRTH = date(1900, 1, 1)
EXPIRY_DAYS_AHEAD = 10
GENDERS = {"0": EventGender.men, "1": EventGender.women}
ID_TYPES = {"nationalId": "National ID", "passport": "Passport"}
PLATFORMS = ("iOS", "Android")
TEAM_TYPES = {"y": "I have a team", "i": "Individual"}
NAME_MAX = 50
TEXT_MAX = 100
STEP_ORDER = ("disclaimer", "personal", "identity", "device", "team", "phone")


class RegistrationRefused(FormErrors):
    """The event does not take this rider now (closed, full, wrong gender, already registered)."""


@dataclass
class Application:
    """The merged data of every step, as text the way a form sends it."""

    disclaimer: bool = False
    first_name: str = ""
    last_name: str = ""
    gender: str = ""
    dob: str = ""
    proof: str = ""
    id_type: str = ""
    id_expiry: str = ""
    front: str = ""
    back: str = ""
    device_platform: str = "iOS"
    device_model: str = ""
    device_serial: str = ""
    device_video: str = ""
    team_type: str = "i"
    team_name: str = ""
    dial_code: str = phone_otp.DEFAULT_DIAL_CODE
    phone: str = ""
    otp_key: str = ""
    terms: bool = False

    @classmethod
    def of(cls, values: dict) -> "Application":
        """From a form's fields; unknown ones are ignored and text is trimmed."""
        known = {field.name: field for field in fields(cls)}
        chosen = {}
        for name, value in values.items():
            if name not in known or value is None:
                continue
            chosen[name] = value if isinstance(value, bool) else str(value).strip()
        return cls(**chosen)


def steps(event: Event) -> list[str]:
    """The wizard's steps for this event, in order: the flags add identity, device, team and phone."""
    flags = {"identity": event.identification, "device": event.device, "team": event.team, "phone": event.otp}
    return [step for step in STEP_ORDER if flags.get(step, True)]


def file_kinds(event: Event) -> set[str]:
    """The files this event's steps ask for."""
    kinds = {"proof"} if event.dob_required else set()
    kinds |= {"front", "back"} if event.identification else set()
    return kinds | ({"device_video"} if event.device else set())


def _years_before(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def latest_birth_date(today: date) -> date:
    """The latest selectable date of birth: 10 years ago today."""
    return _years_before(today, MIN_AGE_YEARS)


def earliest_expiry(today: date) -> date:
    """The earliest ID expiry date, also the picker's default: 10 days from today."""
    return today + timedelta(days=EXPIRY_DAYS_AHEAD)


def proof_required(dob: date) -> bool:
    """Youth and masters riders prove their age: born on or before 1980-12-31 or on or after 2002-01-01."""
    return dob <= MASTERS_UNTIL or dob >= YOUTH_FROM


def parse_date(text: str) -> date | None:
    try:
        return date.fromisoformat(text) if text and len(text) == 10 else None
    except ValueError:
        return None


def _text_errors(form: Application, labels: dict[str, str], limit: int) -> dict[str, str]:
    errors = {}
    for name, label in labels.items():
        value = getattr(form, name)
        if not value:
            errors[name] = msg.FIELD_REQUIRED.format(label=label)
        elif len(value) > limit or has_nul(value):
            errors[name] = f"{label} must be at most {limit} characters."
    return errors


def _file_error(session: Session, account: Account, form: Application, kind: str, errors: dict) -> None:
    try:
        rider_files.owned(session, account, getattr(form, kind), kind)
    except rider_files.FileRefused as exc:
        errors.update(exc.errors)


def _personal(session: Session, event: Event, account: Account, form: Application, today: date) -> dict:
    errors = _text_errors(form, {"first_name": "First name", "last_name": "Last name"}, NAME_MAX)
    if form.gender not in GENDERS:
        errors["gender"] = msg.GENDER_INVALID
    elif event.gender != EventGender.open and GENDERS[form.gender] != event.gender:
        errors["gender"] = events_msg.MEN_ONLY if event.gender == EventGender.men else events_msg.WOMEN_ONLY
    if not event.dob_required:
        return errors
    dob = parse_date(form.dob)
    if not form.dob:
        errors["dob"] = msg.FIELD_REQUIRED.format(label="Date of birth")
    elif dob is None or dob < EARLIEST_BIRTH:
        errors["dob"] = "Please enter a valid date of birth."
    elif dob > latest_birth_date(today):
        errors["dob"] = msg.DOB_TOO_RECENT
    elif proof_required(dob) and not form.proof:
        errors["proof"] = msg.PROOF_REQUIRED
    if form.proof:
        _file_error(session, account, form, "proof", errors)
    return errors


def _identity(session: Session, account: Account, form: Application, today: date) -> dict:
    errors = {}
    if form.id_type not in ID_TYPES:
        errors["id_type"] = msg.ID_TYPE_INVALID
    if not form.front:
        errors["front"] = msg.FIELD_REQUIRED.format(label="Front image")
    else:
        _file_error(session, account, form, "front", errors)
    if form.id_type != "passport":
        if not form.back:
            errors["back"] = msg.FIELD_REQUIRED.format(label="Back image")
        else:
            _file_error(session, account, form, "back", errors)
    expiry = parse_date(form.id_expiry)
    if not form.id_expiry:
        errors["id_expiry"] = msg.FIELD_REQUIRED.format(label="Expiry date")
    elif expiry is None:
        errors["id_expiry"] = "Please enter a valid expiry date."
    elif expiry < earliest_expiry(today):
        errors["id_expiry"] = msg.EXPIRY_TOO_SOON
    return errors


def _device(session: Session, account: Account, form: Application) -> dict:
    errors = _text_errors(
        form, {"device_model": "Trainer model name", "device_serial": "Trainer serial number"}, TEXT_MAX
    )
    if form.device_platform not in PLATFORMS:
        errors["device_platform"] = msg.PLATFORM_INVALID
    if form.device_video:
        _file_error(session, account, form, "device_video", errors)
    return errors


def _team(form: Application) -> dict:
    if form.team_type not in TEAM_TYPES:
        return {"team_type": msg.TEAM_TYPE_INVALID}
    if form.team_type == "y" and not form.team_name:
        return {"team_name": msg.REQUIRED}
    if len(form.team_name) > TEXT_MAX or has_nul(form.team_name):
        return {"team_name": f"Team name must be at most {TEXT_MAX} characters."}
    return {}


def _phone(event: Event, form: Application) -> dict:
    try:
        phone_otp.check_phone(event, form.dial_code, form.phone)
    except FormErrors as exc:
        return exc.errors
    if not form.otp_key:
        return {"otp": msg.OTP_NOT_VERIFIED}
    return {} if form.terms else {"terms": msg.TERMS_REQUIRED}


def step_errors(
    session: Session, event: Event, account: Account, step: str, form: Application, today: date
) -> dict[str, str]:
    """The messages of one step, by field; empty when the step may move on."""
    if step == "disclaimer":
        return {} if form.disclaimer else {"disclaimer": msg.DISCLAIMER_REQUIRED}
    if step == "personal":
        return _personal(session, event, account, form, today)
    if step == "identity":
        return _identity(session, account, form, today)
    if step == "device":
        return _device(session, account, form)
    if step == "team":
        return _team(form)
    return _phone(event, form)


def check_step(session: Session, event: Event, account: Account, step: str, form: Application) -> None:
    errors = step_errors(session, event, account, step, form, local(utcnow()).date())
    if errors:
        raise FormErrors(errors)


def may_register(session: Session, event: Event, account: Account, now: datetime) -> None:
    """The rules of spec 2 section 4 that stop a registration, as the rider's status message."""
    registration = events.latest_registration(session, event, account)
    if events.is_registered(registration):
        raise RegistrationRefused({"event": msg.ALREADY_REGISTERED})
    if not events.is_open(event, now):
        raise RegistrationRefused({"event": events_msg.CLOSED})
    if not events.gender_allowed(event, account):
        gender_message = events_msg.MEN_ONLY if event.gender == EventGender.men else events_msg.WOMEN_ONLY
        raise RegistrationRefused({"event": gender_message})
    if events.is_full(event):
        raise RegistrationRefused({"event": events_msg.ROOM_FULL})


def _take_slot(session: Session, event: Event) -> None:
    taken = session.execute(
        update(Event)
        .where(col(Event.id) == event.id, col(Event.booked) < col(Event.capacity))
        .values(booked=Event.booked + 1)
    )
    if taken.rowcount != 1:
        session.rollback()
        raise RegistrationRefused({"event": events_msg.ROOM_FULL})


def _file_id(form: Application, kind: str) -> int | None:
    return int(getattr(form, kind)) if getattr(form, kind) else None


def submit(session: Session, account: Account, event_id: object, form: Application) -> Registration:
    """Checks every step again, takes a slot and stores the registration as pending, all or nothing."""
    event = events.get_event(session, event_id)
    now = utcnow()
    may_register(session, event, account, now)
    form = replace(form, disclaimer=True) if form.disclaimer else form
    errors: dict[str, str] = {}
    for step in steps(event):
        errors.update(step_errors(session, event, account, step, form, local(now).date()))
    if errors:
        raise FormErrors(errors)
    _take_slot(session, event)
    try:
        # The slot's row lock is held now: a second submit of this rider waits here and finds this one.
        if events.is_registered(events.latest_registration(session, event, account)):
            raise RegistrationRefused({"event": msg.ALREADY_REGISTERED})
        phone = phone_otp.check_phone(event, form.dial_code, form.phone) if event.otp else None
        if phone is not None:
            phone_otp.use_verified(session, account, form.otp_key, phone)
        registration = _registration(event, account, form, phone)
        session.add(registration)
        session.commit()
    except Exception:
        session.rollback()
        raise
    session.refresh(registration)
    return registration


def _registration(event: Event, account: Account, form: Application, phone) -> Registration:
    identity = event.identification
    device = event.device
    return Registration(
        event_id=event.id,
        account_id=account.id,
        first_name=form.first_name,
        last_name=form.last_name,
        email=account.email,
        gender=GENDERS[form.gender],
        dob=parse_date(form.dob) if event.dob_required else None,
        proof_file_id=_file_id(form, "proof") if event.dob_required else None,
        id_type=form.id_type if identity else None,
        id_expiry=parse_date(form.id_expiry) if identity else None,
        front_file_id=_file_id(form, "front") if identity else None,
        back_file_id=_file_id(form, "back") if identity and form.id_type != "passport" else None,
        device_platform=form.device_platform if device else None,
        device_model=form.device_model if device else None,
        device_serial=form.device_serial if device else None,
        device_video_file_id=_file_id(form, "device_video") if device else None,
        team_type=form.team_type if event.team else None,
        team_name=form.team_name if event.team and form.team_type == "y" else None,
        phone=phone.full if phone else None,
    )


def decide(session: Session, reviewer: Account, item_id: int, approve: bool, reason: str) -> Registration:
    """Race control approves or declines a pending registration; a decline gives the slot back, so the
    rider may rejoin. Guarded like every race-control decision: one decision per registration."""
    race_control.require_reviewer(reviewer)
    reason = race_control.clean_reason(approve, reason)
    status = RegistrationStatus.approved if approve else RegistrationStatus.declined
    race_control.claim(session, Registration, item_id, {"status": status, "decided_at": utcnow()})
    registration = session.get(Registration, item_id)
    assert registration is not None
    session.refresh(registration)
    if not approve:
        session.execute(
            update(Event)
            .where(col(Event.id) == registration.event_id, col(Event.booked) > 0)
            .values(booked=Event.booked - 1)
        )
    event = session.get(Event, registration.event_id)
    rider = session.get(Account, registration.account_id)
    assert event is not None and rider is not None
    race_control.record(
        session,
        kind=ReviewKind.registration,
        item_id=item_id,
        rider=rider,
        reviewer=reviewer,
        decision=status,
        reason=reason,
        subject=f"Your registration for {event.name}",
        body=events_msg.APPROVED if approve else events_msg.DECLINED,
    )
    session.commit()
    session.refresh(registration)
    return registration


def _file_row(session: Session, file_id: int | None) -> dict | None:
    row = session.get(RiderFile, file_id) if file_id else None
    if row is None:
        return None
    return {"id": row.id, "name": rider_files.served_name(row), "content_type": row.content_type}


def for_review(session: Session, status: str) -> list[dict]:
    """Registrations as race control's console lists them; "rejected" lists the declined ones."""
    stored = RegistrationStatus.declined if status == ReviewStatus.rejected else status
    rows = session.exec(
        select(Registration, Event)
        .join(Event, col(Event.id) == Registration.event_id)
        .where(Registration.status == stored)
        .order_by(col(Registration.id))
    ).all()
    reasons = race_control.history(session, ReviewKind.registration, [row.id for row, _ in rows])
    found = []
    for row, event in rows:
        files = [
            file
            for file_id in (row.proof_file_id, row.front_file_id, row.back_file_id, row.device_video_file_id)
            if (file := _file_row(session, file_id)) is not None
        ]
        details = [
            ["Event", event.name],
            ["Gender", {0: "Men", 1: "Women"}.get(row.gender, "Open")],
            *([["Date of birth", row.dob.isoformat()]] if row.dob else []),
            *([["ID", f"{ID_TYPES.get(row.id_type)} until {row.id_expiry}"]] if row.id_type else []),
            *(
                [["Device", f"{row.device_platform} {row.device_model} ({row.device_serial})"]]
                if row.device_platform
                else []
            ),
            *([["Team", row.team_name or "No team"]] if row.team_type else []),
            *([["Phone", row.phone]] if row.phone else []),
        ]
        decided = reasons.get(row.id, [])
        found.append(
            {
                "id": row.id,
                "rider_name": f"{row.first_name} {row.last_name}",
                "rider_email": row.email,
                "status": ReviewStatus.rejected if row.status == RegistrationStatus.declined else row.status,
                "submitted_at": row.created_at,
                "title": event.name,
                "details": details,
                "files": files,
                "reason": decided[-1]["reason"] if decided else "",
            }
        )
    return found


def pending_count(session: Session) -> int:
    pending = Registration.status == RegistrationStatus.pending
    return session.exec(select(func.count()).select_from(Registration).where(pending)).one()


def _file_summary(row) -> dict | None:
    return {"key": str(row.id), "name": rider_files.served_name(row), "size": row.size} if row else None


def user_data(session: Session, account: Account) -> dict:
    """Spec 2 "Event user data": what the wizard fills in from the account, the rider's last registration
    and the files on record."""
    last = session.exec(
        select(Registration)
        .where(Registration.account_id == account.id)
        .order_by(col(Registration.id).desc())
    ).first()
    files = rider_files.on_record(session, account)
    phone = (last.phone or "") if last else ""
    return {
        "email": account.email,
        "first_name": account.firstname,
        "last_name": account.lastname,
        "gender": account.gender,
        "dob": account.dob.isoformat() if account.dob else "",
        "country": account.country,
        "phone": phone,
        "id_type": (last.id_type or "") if last else "",
        "expiry": last.id_expiry.isoformat() if last and last.id_expiry else "",
        "device": (last.device_platform or "") if last else "",
        "device_model": (last.device_model or "") if last else "",
        "device_serial": (last.device_serial or "") if last else "",
        "team_name": (last.team_name or "") if last else "",
        "files": {kind: _file_summary(row) for kind, row in files.items()},
    }
