"""Finance's work (roles finance and admin): wallet verifications to approve or reject, withdrawals to pay
or reject, and prize money of past events credited to the riders' wallets.

Decisions are made as race control makes them (services.race_control): a guarded status move, so a second
officer deciding the same request is told it is already decided; an audit row; an e-mail to the rider;
all in one transaction with the money they move. A rejected withdrawal gives its hold back to the balance
and its turn back to the month; a prize is credited at most once per rider and event (a unique row and
the ledger's key both say so).
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from cycling_site.messages import race_control as race_control_msg
from cycling_site.messages import wallet as msg
from cycling_site.models import Account, Currency, Event, Registration, Role
from cycling_site.models.common import as_utc, utcnow
from cycling_site.models.events import RegistrationStatus, RiderFile
from cycling_site.models.race_control import ReviewKind, ReviewStatus
from cycling_site.models.wallet import (
    PrizeCredit,
    WalletStatus,
    WalletVerification,
    Withdrawal,
    WithdrawalStatus,
)
from cycling_site.services import ledger, race_control, rider_files, wallet
from cycling_site.services.race_control import NotReviewer, ReviewRefused
from cycling_site.services.validation import FormErrors
from cycling_site.wire.ids import row_id

OFFICERS = frozenset({Role.finance, Role.admin})
TEAM = "finance"
TRANSACTION_ID_MAX = 64
PRIZE_EVENTS_SHOWN = 20


def is_officer(account: Account | None) -> bool:
    return account is not None and account.role in OFFICERS and account.deleted_at is None


def require_officer(account: Account | None) -> Account:
    if account is None or not is_officer(account):
        raise NotReviewer(msg.NOT_FINANCE)
    return account


def _number(item_id: object) -> int:
    number = row_id(item_id)
    if number is None:
        raise ReviewRefused(race_control_msg.NOT_FOUND)
    return number


def _file_out(file: RiderFile) -> dict:
    return {"id": file.id, "name": rider_files.served_name(file), "content_type": file.content_type}


def _order(status: str, table: type[WalletVerification] | type[Withdrawal]):
    """Waiting items oldest first (first come, first served), decided ones newest first."""
    return col(table.id) if status == ReviewStatus.pending else col(table.id).desc()


def verifications_for_review(session: Session, status: str) -> list[dict]:
    """Wallet verifications of one status, in the shape of race control's items (so one console shows
    both)."""
    rows = session.exec(
        select(WalletVerification, Account)
        .join(Account, col(Account.id) == WalletVerification.account_id)
        .where(WalletVerification.status == status)
        .order_by(_order(status, WalletVerification))
    ).all()
    file_ids = {row.passport_file_id for row, _ in rows} | {
        file_id for row, _ in rows for file_id in row.screenshot_file_ids
    }
    files = {file.id: file for file in session.exec(select(RiderFile).where(col(RiderFile.id).in_(file_ids)))}
    found = []
    for row, rider in rows:
        documents = [
            files[file_id] for file_id in [row.passport_file_id, *row.screenshot_file_ids] if file_id in files
        ]
        found.append(
            {
                "id": row.id,
                "rider_name": f"{rider.firstname} {rider.lastname}",
                "rider_email": rider.email,
                "status": row.status,
                "submitted_at": as_utc(row.created_at),
                "title": f"Wallet verification: {row.wallet_address}",
                "details": [
                    ["Binance e-mail", row.binance_email],
                    ["Phone", row.phone],
                    ["Wallet address", row.wallet_address],
                    ["Phone and e-mail codes", "Both proven at submission"],
                ],
                "files": [_file_out(file) for file in documents],
                "reason": row.reason,
            }
        )
    return found


def _verified_addresses(session: Session, account_ids: set[int]) -> dict[int, str]:
    """Each rider's latest approved wallet address, the only one finance pays to (a wallet being changed
    keeps it until finance approves the new one)."""
    rows = session.exec(
        select(WalletVerification.account_id, WalletVerification.wallet_address)
        .where(
            col(WalletVerification.account_id).in_(account_ids),
            WalletVerification.status == WalletStatus.approved,
        )
        .order_by(col(WalletVerification.id))
    ).all()
    return dict(rows)


def _destination(row: Withdrawal, verified: str | None) -> list[list[str]]:
    """Where the request pays to beside the verified address, with a warning when they differ."""
    lines = [["Pay to", row.wallet_address], ["Verified address", verified or msg.NO_VERIFIED_ADDRESS]]
    if verified != row.wallet_address:
        lines.append(["Warning", msg.NOT_THE_VERIFIED_ADDRESS])
    return lines


def withdrawals_for_review(session: Session, status: str) -> list[dict]:
    rows = session.exec(
        select(Withdrawal, Account)
        .join(Account, col(Account.id) == Withdrawal.account_id)
        .where(Withdrawal.status == status)
        .order_by(_order(status, Withdrawal))
    ).all()
    verified = _verified_addresses(session, {row.account_id for row, _rider in rows})
    return [
        {
            "id": row.id,
            "rider_name": f"{rider.firstname} {rider.lastname}",
            "rider_email": rider.email,
            "status": row.status,
            "submitted_at": as_utc(row.requested_at),
            "title": f"{wallet.request_no(row)}: {wallet.btc_text(row.amount)} BTC",
            "details": [
                ["Amount", f"{wallet.btc_text(row.amount)} BTC"],
                ["Fee", f"{wallet.btc_text(row.fee)} BTC"],
                ["Held", f"{wallet.btc_text(row.total)} BTC"],
                *_destination(row, verified.get(row.account_id)),
                ["E-mail", row.email],
                *([["Transaction id", row.transaction_id]] if row.transaction_id else []),
            ],
            "files": [],
            "reason": row.reason,
        }
        for row, rider in rows
    ]


def _rider(session: Session, account_id: int) -> Account:
    rider = session.get(Account, account_id)
    assert rider is not None
    return rider


def decide_verification(
    session: Session, officer: Account, item_id: object, approve: bool, reason: str
) -> WalletVerification:
    """Approves (the rider may withdraw) or rejects (the rider may verify again) a pending verification."""
    require_officer(officer)
    reason = race_control.clean_reason(approve, reason)
    number = _number(item_id)
    values: dict = {"reason": reason, "decided_at": utcnow()}
    if approve:
        values["status"] = WalletStatus.approved
    else:
        values.update(status=WalletStatus.rejected, current=None)
    race_control.claim(session, WalletVerification, number, values)
    row = session.get(WalletVerification, number, populate_existing=True)
    assert row is not None
    race_control.record(
        session,
        kind=ReviewKind.wallet_verification,
        item_id=number,
        rider=_rider(session, row.account_id),
        reviewer=officer,
        decision=ReviewStatus.approved if approve else ReviewStatus.rejected,
        reason=reason,
        subject=msg.VERIFICATION_APPROVED_SUBJECT if approve else msg.VERIFICATION_REJECTED_SUBJECT,
        body=msg.VERIFICATION_APPROVED_BODY if approve else msg.VERIFICATION_REJECTED_BODY,
        team=TEAM,
    )
    session.commit()
    session.refresh(row)
    return row


def clean_transaction_id(text: object) -> str:
    """The payout's Bitcoin transaction id, which the rider's transaction links to: nothing else is taken."""
    transaction_id = str(text or "").strip()
    if not transaction_id:
        raise ReviewRefused(msg.TRANSACTION_ID_REQUIRED)
    if not wallet.TRANSACTION_ID.match(transaction_id):
        raise ReviewRefused(msg.TRANSACTION_ID_INVALID)
    return transaction_id.lower()


def release_key(withdrawal_id: int) -> str:
    return f"withdrawal-release:{withdrawal_id}"


def decide_withdrawal(
    session: Session,
    officer: Account,
    item_id: object,
    approve: bool,
    reason: str,
    transaction_id: str = "",
) -> Withdrawal:
    """Marks a pending withdrawal paid (with the payout's transaction id; the hold becomes the payout) or
    rejects it (the hold goes back to the balance, the request back to its month)."""
    require_officer(officer)
    reason = race_control.clean_reason(approve, reason)
    paid_as = clean_transaction_id(transaction_id) if approve else ""
    number = _number(item_id)
    values: dict = {"reason": reason, "decided_at": utcnow()}
    values.update(status=WithdrawalStatus.approved if approve else WithdrawalStatus.rejected)
    if approve:
        values["transaction_id"] = paid_as
    race_control.claim(session, Withdrawal, number, values)
    row = session.get(Withdrawal, number, populate_existing=True)
    assert row is not None
    amount, total = wallet.btc_text(row.amount), wallet.btc_text(row.total)
    if not approve:
        ledger.move(
            session,
            ledger.Move(
                row.account_id,
                Currency.btc,
                row.total,
                "withdrawal_release",
                f"withdrawal:{number}",
                release_key(number),
            ),
        )
        wallet.give_back_request(session, row)
    race_control.record(
        session,
        kind=ReviewKind.withdrawal,
        item_id=number,
        rider=_rider(session, row.account_id),
        reviewer=officer,
        decision=ReviewStatus.approved if approve else ReviewStatus.rejected,
        reason=reason,
        subject=msg.WITHDRAWAL_PAID_SUBJECT if approve else msg.WITHDRAWAL_REJECTED_SUBJECT,
        body=(
            msg.WITHDRAWAL_PAID_BODY.format(amount=amount, address=row.wallet_address, transaction_id=paid_as)
            if approve
            else msg.WITHDRAWAL_REJECTED_BODY.format(amount=amount, total=total)
        ),
        team=TEAM,
    )
    session.commit()
    session.refresh(row)
    return row


@dataclass(frozen=True)
class Queue:
    kind: str
    title: str
    table: type[WalletVerification] | type[Withdrawal]
    for_review: Callable[[Session, str], list[dict]]


QUEUES: dict[str, Queue] = {
    queue.kind: queue
    for queue in (
        Queue(
            ReviewKind.wallet_verification,
            "Wallet verifications",
            WalletVerification,
            verifications_for_review,
        ),
        Queue(ReviewKind.withdrawal, "Withdrawals", Withdrawal, withdrawals_for_review),
    )
}


def pending_counts(session: Session, officer: Account) -> dict[str, int]:
    require_officer(officer)
    return {
        kind: session.exec(
            select(func.count()).select_from(queue.table).where(queue.table.status == ReviewStatus.pending)
        ).one()
        for kind, queue in QUEUES.items()
    }


def items(session: Session, officer: Account, kind: str, status: str) -> list[dict]:
    """A queue's items in that status, each with its decisions (who, when, what, why)."""
    require_officer(officer)
    queue = QUEUES.get(kind)
    if queue is None:
        raise ReviewRefused(race_control_msg.NOT_FOUND)
    if status not in tuple(ReviewStatus):
        raise ReviewRefused(race_control_msg.UNKNOWN_STATUS)
    return race_control.with_history(session, kind, queue.for_review(session, status))


def decide(
    session: Session,
    officer: Account,
    kind: str,
    item_id: object,
    approve: bool,
    reason: str,
    transaction_id: str = "",
) -> None:
    require_officer(officer)
    if kind == ReviewKind.withdrawal:
        decide_withdrawal(session, officer, item_id, approve, reason, transaction_id)
    elif kind == ReviewKind.wallet_verification:
        decide_verification(session, officer, item_id, approve, reason)
    else:
        raise ReviewRefused(race_control_msg.NOT_FOUND)


def prize_key(event_id: int, account_id: int) -> str:
    return f"prize:{event_id}:{account_id}"


def prize_events(session: Session, officer: Account, now: datetime | None = None) -> list[dict]:
    """Past events, newest first, each with its riders (approved registrations) and what they were
    credited."""
    require_officer(officer)
    now = now or utcnow()
    events = session.exec(
        select(Event)
        .where(col(Event.starts_at) < now)
        .order_by(col(Event.starts_at).desc())
        .limit(PRIZE_EVENTS_SHOWN)
    ).all()
    event_ids = [event.id for event in events]
    riders = session.exec(
        select(Registration, Account)
        .join(Account, col(Account.id) == Registration.account_id)
        .where(col(Registration.event_id).in_(event_ids), Registration.status == RegistrationStatus.approved)
        .order_by(col(Account.firstname), col(Account.lastname))
    ).all()
    credits = {
        (credit.event_id, credit.account_id): credit
        for credit in session.exec(select(PrizeCredit).where(col(PrizeCredit.event_id).in_(event_ids)))
    }
    found = []
    for event in events:
        entrants = []
        seen: set[int] = set()
        for registration, rider in riders:
            if registration.event_id != event.id or rider.id in seen:
                continue
            seen.add(rider.id)
            credit = credits.get((event.id, rider.id))
            entrants.append(
                {
                    "account_id": rider.id,
                    "name": f"{rider.firstname} {rider.lastname}",
                    "email": rider.email,
                    "credited": wallet.btc_text(credit.amount) if credit else "",
                    "credited_at": as_utc(credit.credited_at) if credit else None,
                }
            )
        found.append(
            {"id": event.id, "name": event.name, "starts_at": as_utc(event.starts_at), "riders": entrants}
        )
    return found


def credit_prize(
    session: Session,
    officer: Account,
    event_id: object,
    account_id: object,
    amount_text: object,
    now: datetime | None = None,
) -> PrizeCredit:
    """Credits one rider's prize money of one past event, in BTC, once: a second credit is refused and
    moves nothing."""
    require_officer(officer)
    now = now or utcnow()
    event = session.get(Event, _number(event_id))
    rider = session.get(Account, _number(account_id))
    if event is None or rider is None:
        raise ReviewRefused(race_control_msg.NOT_FOUND)
    if as_utc(event.starts_at) >= now:
        raise ReviewRefused(msg.PRIZE_EVENT_NOT_OVER)
    took_part = session.exec(
        select(Registration.id).where(
            Registration.event_id == event.id,
            Registration.account_id == rider.id,
            Registration.status == RegistrationStatus.approved,
        )
    ).first()
    if took_part is None or rider.is_kid:
        raise ReviewRefused(msg.PRIZE_NOT_RIDER)
    try:
        amount = wallet.parse_btc(amount_text)
    except FormErrors:
        raise ReviewRefused(msg.PRIZE_AMOUNT_INVALID) from None
    credit = PrizeCredit(event_id=event.id, account_id=rider.id, amount=amount, credited_by=officer.id)
    try:
        session.add(credit)
        session.flush()
        moved = ledger.move(
            session,
            ledger.Move(
                rider.id, Currency.btc, amount, "prize", f"event:{event.id}", prize_key(event.id, rider.id)
            ),
        )
        if not moved:
            raise IntegrityError("prize", {}, Exception("already credited"))
        race_control.record(
            session,
            kind=ReviewKind.prize_credit,
            item_id=credit.id,
            rider=rider,
            reviewer=officer,
            decision="credited",
            reason="",
            subject=msg.PRIZE_SUBJECT,
            body=msg.PRIZE_BODY.format(amount=wallet.btc_text(amount), event=event.name),
            team=TEAM,
        )
        session.commit()
    except IntegrityError:
        session.rollback()
        raise ReviewRefused(msg.PRIZE_ALREADY_CREDITED) from None
    session.refresh(credit)
    return credit
