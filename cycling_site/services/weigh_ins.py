"""Weight submissions (spec 1 sections 3, 4 and 7): which declarations a rider owes, the rules of the store
call, and race control's queue and decision.

An event with weigh-ins (its `weigh_ins` flag) opens a window per type (pre_weight, post_weight). A rider
registered for it (pending or approved) owes a declaration for each window that has not ended, until one
is pending or approved; a rejected one is owed again while the window is open. The dashboard shows an item
once its start has passed and takes it away at its end; the server holds the same window on every submit.
"""

import logging
import re
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import bindparam, exists, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from cycling_site.db import read_columns
from cycling_site.local_time import local, local_text
from cycling_site.messages import race_control as review_msg
from cycling_site.messages import registration as files_msg
from cycling_site.messages import weigh_ins as msg
from cycling_site.models import Account
from cycling_site.models.common import as_utc, utcnow
from cycling_site.models.events import Event, Registration, RegistrationStatus, RiderFile
from cycling_site.models.race_control import ReviewKind, ReviewStatus
from cycling_site.models.weigh_ins import WeighInType, WeighInWindow, WeightSubmission
from cycling_site.services import events, race_control, rider_files
from cycling_site.services.validation import FormErrors
from cycling_site.wire.ids import row_id

TYPES = tuple(WeighInType)
WEIGHT_MIN = Decimal(25)
WEIGHT_MAX = Decimal(200)
WEIGHT_STEP = Decimal("0.1")
WEIGHT_TEXT_MAX = 20
PROOF_KIND = "weight_proof"
MAX_PROOF_BYTES = rider_files.MAX_FILE_BYTES
# What race control's queue shows at most at once, newest decisions first after the pending ones.
REVIEW_LIMIT = 200
# A declaration that stands: the rider owes no other for that event and type.
HELD = (ReviewStatus.pending, ReviewStatus.approved)

# Digits with an optional decimal part, as typed: no sign, exponent, NaN or infinity.
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?")
_log = logging.getLogger(__name__)


class SubmissionRefused(FormErrors):
    """The declaration cannot be taken; its message says why and nothing is stored."""


def label(kind: str) -> str:
    """ "Pre" or "Post", as titles and messages name a type."""
    return msg.TYPE_LABELS.get(kind, "")


def title(kind: str, event_name: str, status: str) -> str:
    """The banner's title: "Pre-Weight Submission: Sunday Race (pending)"."""
    return msg.TITLE.format(label=label(kind), event=event_name, status=status)


def deadline_passed(kind: str, event_name: str) -> str:
    """The warning when a window ends before the rider declared (spec 1 section 8)."""
    return msg.DEADLINE_PASSED.format(label=label(kind), event=event_name)


def iso(moment: datetime) -> str:
    """A UTC time as the items carry it: ISO 8601 with Z, which browsers read the same everywhere."""
    return as_utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- What the rider owes -----------------------------------------------------------------------------


# The windows still to come of events the rider has a pending or approved registration for, and the rider's
# declarations for some events: read on every dashboard load, so built once (building a statement cost twice
# what running it did).
_OWED = (
    select(Event.id, Event.name, WeighInWindow.type, WeighInWindow.starts_at, WeighInWindow.ends_at)
    .join(Event, col(Event.id) == WeighInWindow.event_id)
    .where(
        col(Event.weigh_ins),
        WeighInWindow.ends_at > bindparam("now"),
        exists().where(
            Registration.event_id == Event.id,
            Registration.account_id == bindparam("account_id"),
            col(Registration.status).in_((RegistrationStatus.pending, RegistrationStatus.approved)),
        ),
    )
    .order_by(col(WeighInWindow.ends_at), col(WeighInWindow.starts_at), col(WeighInWindow.id))
)
_DECLARED = select(WeightSubmission.event_id, WeightSubmission.type, WeightSubmission.status).where(
    WeightSubmission.account_id == bindparam("account_id"),
    col(WeightSubmission.event_id).in_(bindparam("event_ids", expanding=True)),
)


def _declarations(session: Session, account: Account, event_ids: set[int]) -> dict[tuple[int, str], str]:
    """The status that counts of the rider's declarations per event and type: a held one over rejections."""
    if not event_ids:
        return {}
    rows = read_columns(session, _DECLARED, account_id=account.id, event_ids=sorted(event_ids)).all()
    found: dict[tuple[int, str], str] = {}
    for event_id, kind, status in rows:
        if found.get((event_id, kind)) not in HELD:
            found[(event_id, kind)] = status
    return found


def items(session: Session, account: Account, now: datetime | None = None) -> list[dict]:
    """Spec 1 "Weight submission item" for every declaration the rider owes: event_id, event_name, type,
    start_time, end_time (UTC), and status (pending, or rejected when race control sent one back). Windows
    not started yet are included (the page shows them at their start); ended ones are not. Soonest end
    first."""
    now = now or utcnow()
    rows = read_columns(session, _OWED, now=now, account_id=account.id).all()
    declared = _declarations(session, account, {row[0] for row in rows})
    owed = []
    for event_id, event_name, kind, starts_at, ends_at in rows:
        status = declared.get((event_id, kind))
        if status in HELD or kind not in TYPES:
            continue
        owed.append(
            {
                "event_id": event_id,
                "event_name": event_name,
                "type": kind,
                "start_time": iso(starts_at),
                "end_time": iso(ends_at),
                "status": msg.ITEM_REJECTED if status == ReviewStatus.rejected else msg.ITEM_PENDING,
            }
        )
    return owed


# --- The store call ----------------------------------------------------------------------------------


def parse_weight(value: object) -> float:
    """A weight in kg, 25 to 200 in steps of 0.1, as typed (a decimal comma too); anything else is refused
    with the message."""
    text = str(value).strip() if isinstance(value, str | int | float) and not isinstance(value, bool) else ""
    text = text.replace(",", ".", 1)
    number = Decimal(text) if len(text) <= WEIGHT_TEXT_MAX and _DECIMAL.fullmatch(text) else None
    if number is None or not WEIGHT_MIN <= number <= WEIGHT_MAX:
        raise SubmissionRefused({"weight": msg.WEIGHT_INVALID})
    if number != number.quantize(WEIGHT_STEP):
        raise SubmissionRefused({"weight": msg.WEIGHT_STEP})
    return float(number.quantize(WEIGHT_STEP))


def window_of(session: Session, event: Event, kind: str) -> WeighInWindow | None:
    if not event.weigh_ins:
        return None
    return session.exec(
        select(WeighInWindow).where(WeighInWindow.event_id == event.id, WeighInWindow.type == kind)
    ).first()


def _held(session: Session, account: Account, event: Event, kind: str) -> WeightSubmission | None:
    return session.exec(
        select(WeightSubmission).where(
            WeightSubmission.account_id == account.id,
            WeightSubmission.event_id == event.id,
            WeightSubmission.type == kind,
            col(WeightSubmission.status).in_(HELD),
        )
    ).first()


def _already(held: WeightSubmission) -> str:
    text = msg.ALREADY_APPROVED if held.status == ReviewStatus.approved else msg.PENDING_REVIEW
    return text.format(label=label(held.type))


def may_submit(session: Session, account: Account, event_id: object, kind: str, now: datetime) -> Event:
    """The event the rider may declare this type of weight for now, or why not (events.EventNotFound for an
    event that does not exist)."""
    if kind not in TYPES:
        raise SubmissionRefused({"type": msg.TYPE_INVALID})
    event = events.get_event(session, event_id)
    window = window_of(session, event, kind)
    if window is None:
        raise SubmissionRefused({"event": msg.NO_WEIGH_INS.format(label=label(kind))})
    if not events.is_registered(events.latest_registration(session, event, account)):
        raise SubmissionRefused({"event": msg.NOT_REGISTERED})
    if now < as_utc(window.starts_at):
        opens = f"{local(window.starts_at):%a %d %b %Y, %H:%M}"
        raise SubmissionRefused(
            {"event": msg.NOT_OPEN_YET.format(label=label(kind), event=event.name, opens=opens)}
        )
    if now >= as_utc(window.ends_at):
        raise SubmissionRefused({"event": deadline_passed(kind, event.name)})
    held = _held(session, account, event, kind)
    if held is not None:
        raise SubmissionRefused({"event": _already(held)})
    return event


# A proof chosen but never sent with a declaration is taken back when the rider next chooses one, once it is
# this old: a dialog still open in another tab keeps its own.
UNSENT_PROOF_KEPT_FOR = timedelta(days=1)


def keep_proof(
    session: Session, account: Account, name: str, data: bytes, now: datetime | None = None
) -> RiderFile:
    """Keeps the dialog's proof as soon as it is chosen: its Submit then only names the file, a small action
    that a dropped connection sends again and the site makes once. The rider's proofs chosen and never sent
    go then, after UNSENT_PROOF_KEPT_FOR."""
    sent = exists().where(WeightSubmission.proof_file_id == RiderFile.id)
    unsent = select(RiderFile).where(
        RiderFile.account_id == account.id,
        RiderFile.kind == PROOF_KIND,
        RiderFile.created_at < (now or utcnow()) - UNSENT_PROOF_KEPT_FOR,
        ~sent,
    )
    rider_files.discard(session, list(session.exec(unsent).all()))
    try:
        return rider_files.store(session, account, PROOF_KIND, name, data)
    except rider_files.FileRefused as exc:
        raise SubmissionRefused({"proof": next(iter(exc.errors.values()))}) from exc


def _kept_proof(session: Session, account: Account, file_id: object) -> RiderFile:
    """The rider's own proof kept by keep_proof, not yet the proof of another declaration."""
    row = rider_files.owned(session, account, file_id, PROOF_KIND)
    if session.exec(select(WeightSubmission.id).where(WeightSubmission.proof_file_id == row.id)).first():
        raise rider_files.FileRefused({PROOF_KIND: files_msg.FILE_NOT_FOUND})
    return row


def submit(
    session: Session,
    account: Account,
    event_id: object,
    kind: str,
    weight: object,
    proof: tuple[str, bytes] | None,
    now: datetime | None = None,
    *,
    kept_proof: object = None,
) -> WeightSubmission:
    """Checks everything (the window, the registration, no declaration held, the weight, the proof by its
    content and size), then keeps the proof as a private rider file and the declaration as pending. The proof
    comes with the call (`proof`: name and content) or was kept before (`kept_proof`: its file id). Bad input
    raises SubmissionRefused (or FileRefused) and leaves nothing stored."""
    now = now or utcnow()
    event = may_submit(session, account, event_id, kind, now)
    errors: dict[str, str] = {}
    try:
        weight_kg = parse_weight(weight)
    except SubmissionRefused as exc:
        errors.update(exc.errors)
    kept = None
    name, data = proof or ("", b"")
    try:
        if kept_proof is not None:
            kept = _kept_proof(session, account, kept_proof)
        elif proof is None:
            errors["proof"] = msg.PROOF_REQUIRED
        else:
            rider_files.check_content(PROOF_KIND, data)
    except rider_files.FileRefused as exc:
        errors["proof"] = next(iter(exc.errors.values()))
    if errors:
        raise SubmissionRefused(errors)
    stored = kept or rider_files.store(session, account, PROOF_KIND, name, data)
    # What a failed store takes back: the file stored by this call, never a proof kept before it.
    taken_back = [] if kept else [stored]
    try:
        submission = WeightSubmission(
            account_id=account.id,
            event_id=event.id,
            type=kind,
            weight_kg=weight_kg,
            proof_file_id=stored.id,
        )
        session.add(submission)
        session.commit()
    except IntegrityError as exc:
        # Another submit of this rider for the same event and type was kept first.
        session.rollback()
        rider_files.discard(session, taken_back)
        held = _held(session, account, event, kind)
        text = _already(held) if held else msg.PENDING_REVIEW.format(label=label(kind))
        raise SubmissionRefused({"event": text}) from exc
    except Exception:
        session.rollback()
        rider_files.discard(session, taken_back)
        raise
    session.refresh(submission)
    _log.info("Weight submission %s stored for account %s", submission.id, account.id)
    return submission


def submitted_message(kind: str) -> str:
    return msg.SUBMITTED.format(label=label(kind))


# --- Race control ------------------------------------------------------------------------------------


def pending_count(session: Session) -> int:
    """How many declarations wait for race control."""
    waiting = WeightSubmission.status == ReviewStatus.pending
    return session.exec(select(func.count()).select_from(WeightSubmission).where(waiting)).one()


def for_review(session: Session, status: str, limit: int = REVIEW_LIMIT) -> list[dict]:
    """Race control's queue (services/review_queues.py checks the reviewer): the declarations with this status
    (pending ones oldest first, decided ones newest first), each with its rider, event, window and proof."""
    order = (
        col(WeightSubmission.id)
        if status == ReviewStatus.pending
        else col(WeightSubmission.decided_at).desc()
    )
    rows = session.exec(
        select(WeightSubmission, Account, Event, RiderFile, WeighInWindow)
        .join(Account, col(Account.id) == WeightSubmission.account_id)
        .join(Event, col(Event.id) == WeightSubmission.event_id)
        .join(RiderFile, col(RiderFile.id) == WeightSubmission.proof_file_id)
        .join(
            WeighInWindow,
            (col(WeighInWindow.event_id) == WeightSubmission.event_id)
            & (col(WeighInWindow.type) == WeightSubmission.type),
            isouter=True,
        )
        .where(WeightSubmission.status == status)
        .order_by(order, col(WeightSubmission.id))
        .limit(max(1, min(limit, REVIEW_LIMIT)))
    ).all()
    return [
        {
            "id": submission.id,
            "rider_name": f"{rider.firstname} {rider.lastname}",
            "rider_email": rider.email,
            "status": submission.status,
            "submitted_at": as_utc(submission.created_at),
            "title": title(submission.type, event.name, submission.status),
            "details": [
                ["Event", event.name],
                ["Weigh-in", label(submission.type)],
                ["Declared weight", f"{submission.weight_kg:g} kg"],
                ["Profile weight", f"{rider.weight:g} kg"],
                *([["Window closes", local_text(window.ends_at)]] if window else []),
            ],
            "files": [
                {"id": proof.id, "name": rider_files.served_name(proof), "content_type": proof.content_type}
            ],
            "reason": submission.reason,
        }
        for submission, rider, event, proof, window in rows
    ]


def decide(
    session: Session, reviewer: Account, submission_id: object, approve: bool, reason: str | None = None
) -> WeightSubmission:
    """Approves or rejects a pending declaration: the guarded move, the audit row and the rider's e-mail in
    one transaction. A rejection needs a reason; the rider may then declare again while the window is open.
    Raises race_control.ReviewRefused (not race control, unknown, already decided, no reason)."""
    race_control.require_reviewer(reviewer)
    reason = race_control.clean_reason(approve, reason)
    number = row_id(submission_id)
    submission = session.get(WeightSubmission, number) if number else None
    if submission is None:
        raise race_control.ReviewRefused(review_msg.NOT_FOUND)
    decision = ReviewStatus.approved if approve else ReviewStatus.rejected
    race_control.claim(
        session,
        WeightSubmission,
        submission.id,
        {"status": decision, "reason": reason, "decided_at": utcnow()},
    )
    rider = session.get(Account, submission.account_id)
    event = session.get(Event, submission.event_id)
    window = window_of(session, event, submission.type) if event else None
    names = {
        "label": label(submission.type),
        "event": event.name if event else "",
        "weight": f"{submission.weight_kg:g}",
        "closes": f"{local(window.ends_at):%a %d %b %Y, %H:%M}" if window else "",
    }
    race_control.record(
        session,
        kind=ReviewKind.weight_submission,
        item_id=submission.id,
        rider=rider,
        reviewer=reviewer,
        decision=decision,
        reason=reason,
        subject=msg.DECISION_SUBJECT.format(**names),
        body=(msg.APPROVED_BODY if approve else msg.REJECTED_BODY).format(**names),
    )
    session.commit()
    session.refresh(submission)
    return submission
