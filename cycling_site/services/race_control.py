"""Race control's decisions, made the same way in every queue: a guarded status move, an audit row and an
e-mail to the rider in one transaction. The move only happens from the status the item had, so when two
race controllers decide the same item at once the second is told it is already decided and nothing
changes twice."""

from collections import defaultdict

from sqlalchemy import update
from sqlmodel import Session, SQLModel, col, select

from cycling_site.messages import race_control as msg
from cycling_site.models import Account, Role
from cycling_site.models.race_control import ReviewDecision, ReviewStatus
from cycling_site.services import outbox
from cycling_site.settings import settings

REVIEWERS = frozenset({Role.race_control, Role.admin})
REASON_MAX = 1000


class ReviewRefused(Exception):
    """The decision cannot be made; the message says why."""


class NotReviewer(ReviewRefused):
    """The account may not decide rider submissions."""


def is_reviewer(account: Account | None) -> bool:
    return account is not None and account.role in REVIEWERS and account.deleted_at is None


def require_reviewer(account: Account | None) -> Account:
    if account is None or not is_reviewer(account):
        raise NotReviewer(msg.NOT_RACE_CONTROL)
    return account


def clean_reason(approve: bool, reason: str | None) -> str:
    """A rejection tells the rider why; an approval may carry a note."""
    reason = (reason or "").strip()
    if not approve and not reason:
        raise ReviewRefused(msg.REASON_REQUIRED)
    if len(reason) > REASON_MAX:
        raise ReviewRefused(msg.REASON_TOO_LONG)
    return reason


def claim(
    session: Session,
    table: type[SQLModel],
    item_id: int,
    values: dict,
    from_status: str = ReviewStatus.pending,
) -> None:
    """Moves the item only if it still has `from_status`; otherwise says whether it is gone or decided."""
    moved = session.execute(
        update(table)
        .where(col(table.id) == item_id, col(table.status) == from_status)  # type: ignore[attr-defined]
        .values(**values)
    )
    if moved.rowcount == 1:  # type: ignore[attr-defined]
        return
    session.rollback()
    if session.get(table, item_id) is None:
        raise ReviewRefused(msg.NOT_FOUND)
    raise ReviewRefused(msg.ALREADY_DECIDED)


def record(
    session: Session,
    *,
    kind: str,
    item_id: int,
    rider: Account,
    reviewer: Account,
    decision: str,
    reason: str,
    subject: str,
    body: str,
    team: str = "race control",
) -> ReviewDecision:
    """The audit row and the rider's e-mail, in the caller's transaction (kept only if it commits); finance
    signs its own."""
    row = ReviewDecision(
        kind=kind,
        item_id=item_id,
        rider_id=rider.id,
        decided_by=reviewer.id,
        decision=decision,
        reason=reason,
    )
    session.add(row)
    outbox.queue_email(
        session,
        rider.email,
        f"{subject} · {settings.site_name}",
        f"Hi {rider.firstname},\n\n{body}\n\n"
        + (f"{team.capitalize()}'s note: {reason}\n\n" if reason else "")
        + f"Ride on,\n{settings.site_name} {team}",
    )
    return row


def with_history(session: Session, kind: str, found: list[dict]) -> list[dict]:
    """A console's items, each with its decisions (who, when, what, why)."""
    decisions = history(session, kind, [item["id"] for item in found])
    return [{**item, "history": decisions.get(item["id"], [])} for item in found]


def history(session: Session, kind: str, item_ids: list[int]) -> dict[int, list[dict]]:
    """Each item's decisions, oldest first, with the reviewer's name, as the console shows them."""
    if not item_ids:
        return {}
    rows = session.exec(
        select(ReviewDecision, Account)
        .join(Account, col(Account.id) == ReviewDecision.decided_by)
        .where(ReviewDecision.kind == kind, col(ReviewDecision.item_id).in_(item_ids))
        .order_by(col(ReviewDecision.id))
    )
    found: dict[int, list[dict]] = defaultdict(list)
    for decision, reviewer in rows:
        found[decision.item_id].append(
            {
                "decision": decision.decision,
                "reason": decision.reason,
                "decided_at": decision.decided_at,
                "decided_by": f"{reviewer.firstname} {reviewer.lastname}",
            }
        )
    return dict(found)
