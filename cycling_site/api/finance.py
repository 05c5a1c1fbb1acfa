"""Finance's console (roles finance or admin; every other account gets 403): wallet verifications and
withdrawals to decide, and prize money of past events to credit.

A decision on an item that does not exist answers 404; on one already decided, 400 "This item has already
been decided.". Documents open through POST /api/events/file_download, which makes short-lived links for
finance on wallet documents."""

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from cycling_site.api.answers import Answer, AnswerModel, Message
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.api.race_control import ItemOut
from cycling_site.api.rules import Whole
from cycling_site.messages import race_control as race_control_msg
from cycling_site.messages import wallet as msg
from cycling_site.models import Account
from cycling_site.services import finance, review_queues, wallet
from cycling_site.services.finance import TRANSACTION_ID_MAX
from cycling_site.services.race_control import REASON_MAX

router = APIRouter(prefix="/finance", tags=["finance"])

Kind = Literal[tuple(finance.QUEUES)]  # type: ignore[valid-type]
Status = Literal[review_queues.STATUSES]  # type: ignore[valid-type]


def officer(account: CurrentAccount) -> Account:
    return finance.require_officer(account)


Officer = Annotated[Account, Depends(officer)]


class Counts(AnswerModel):
    pending: dict[str, int] = Field(description="Items waiting, per queue")


class DecisionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    approve: StrictBool = Field(description="For a withdrawal: true marks it paid")
    reason: str = Field(default="", max_length=REASON_MAX * 2, description="Required to reject")
    transaction_id: str = Field(
        default="",
        max_length=TRANSACTION_ID_MAX * 2,
        pattern=r"^\s*([0-9a-fA-F]{64})?\s*$",
        description="The payout's Bitcoin transaction id (64 hexadecimal characters): required to pay",
    )


class PrizeRider(AnswerModel):
    account_id: int
    name: str
    email: str
    credited: str = Field(description="BTC credited for this event, empty when none yet")
    credited_at: datetime | None


class PrizeEvent(AnswerModel):
    id: int
    name: str
    starts_at: datetime
    riders: list[PrizeRider]


class PrizeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    event_id: Whole = Field(ge=1)
    account_id: Whole = Field(ge=1)
    amount: str = Field(max_length=wallet.AMOUNT_TEXT_MAX * 2, description="BTC, at most 6 decimals")


@router.get("/queues", responses=documented(401, 403, 503))
def queues(session: DB, account: Officer) -> Answer[Counts]:
    return Answer[Counts](data=Counts(pending=finance.pending_counts(session, account)))


@router.get("/prizes", responses=documented(401, 403, 503))
def prizes(session: DB, account: Officer) -> Answer[list[PrizeEvent]]:
    """Past events, newest first, with their riders and what each was credited."""
    found = finance.prize_events(session, account)
    return Answer[list[PrizeEvent]](data=[PrizeEvent.model_validate(event) for event in found])


@router.post("/prizes", responses=documented(400, 401, 403, 404, 413, 503))
def credit_prize(body: PrizeIn, session: DB, account: Officer) -> Message:
    """Credits one rider's prize money of a past event to their wallet, once per rider and event."""
    credit = finance.credit_prize(session, account, body.event_id, body.account_id, body.amount)
    rider = session.get(Account, credit.account_id)
    name = f"{rider.firstname} {rider.lastname}" if rider else ""
    return Message(message=msg.PRIZE_CREDITED.format(amount=wallet.btc_text(credit.amount), rider=name))


@router.get("/{kind}", responses=documented(400, 401, 403, 404, 503))
def items(kind: Kind, session: DB, account: Officer, status: Status = "pending") -> Answer[list[ItemOut]]:
    found = finance.items(session, account, kind, status)
    return Answer[list[ItemOut]](data=[ItemOut.model_validate(item) for item in found])


@router.post("/{kind}/{item_id}/decision", responses=documented(400, 401, 403, 404, 413, 503))
def decide(kind: Kind, item_id: int, body: DecisionIn, session: DB, account: Officer) -> Message:
    """Approving a verification lets the rider withdraw; paying a withdrawal records its transaction id;
    rejecting either needs a reason (a rejected withdrawal's hold goes back to the rider's balance)."""
    finance.decide(session, account, kind, item_id, body.approve, body.reason, body.transaction_id)
    decision = "approved" if body.approve else "rejected"
    return Message(message=race_control_msg.DECIDED.format(decision=decision))
