"""Race control's queues, one per kind of rider submission, each with the same three calls, so the console
and the API treat every queue alike."""

from collections.abc import Callable
from dataclasses import dataclass

from sqlmodel import Session

from cycling_site.messages import race_control as msg
from cycling_site.models import Account
from cycling_site.models.race_control import ReviewKind, ReviewStatus
from cycling_site.services import pre_verification, race_control, registrations, third_party_import, weigh_ins

STATUSES = tuple(ReviewStatus)


@dataclass(frozen=True)
class Queue:
    kind: str
    title: str
    for_review: Callable[[Session, str], list[dict]]
    decide: Callable[..., object]
    pending_count: Callable[[Session], int]


QUEUES: dict[str, Queue] = {
    queue.kind: queue
    for queue in (
        Queue(
            ReviewKind.pre_verification,
            "Pre-verifications",
            pre_verification.for_review,
            pre_verification.decide,
            pre_verification.pending_count,
        ),
        Queue(
            ReviewKind.weight_submission,
            "Weight submissions",
            weigh_ins.for_review,
            weigh_ins.decide,
            weigh_ins.pending_count,
        ),
        Queue(
            ReviewKind.third_party_import,
            "Third-party imports",
            third_party_import.for_review,
            third_party_import.decide,
            third_party_import.pending_count,
        ),
        Queue(
            ReviewKind.registration,
            "Event registrations",
            registrations.for_review,
            registrations.decide,
            registrations.pending_count,
        ),
    )
}


def queue(kind: str) -> Queue:
    found = QUEUES.get(kind)
    if found is None:
        raise race_control.ReviewRefused(msg.NOT_FOUND)
    return found


def pending_counts(session: Session, reviewer: Account) -> dict[str, int]:
    race_control.require_reviewer(reviewer)
    return {kind: found.pending_count(session) for kind, found in QUEUES.items()}


def items(session: Session, reviewer: Account, kind: str, status: str) -> list[dict]:
    """The queue's items in that status, each with its decisions (who, when, what, why)."""
    race_control.require_reviewer(reviewer)
    if status not in STATUSES:
        raise race_control.ReviewRefused(msg.UNKNOWN_STATUS)
    return race_control.with_history(session, kind, queue(kind).for_review(session, status))


def decide(
    session: Session,
    reviewer: Account,
    kind: str,
    item_id: int,
    approve: bool,
    reason: str,
    category_id: int | None = None,
) -> None:
    """One decision; only pre-verifications carry a category (the rider's verified CAT)."""
    race_control.require_reviewer(reviewer)
    chosen = queue(kind)
    if kind == ReviewKind.pre_verification:
        chosen.decide(session, reviewer, item_id, approve, reason, category_id=category_id)
    else:
        chosen.decide(session, reviewer, item_id, approve, reason)
