"""Race control's queues (role race_control or admin; every other account gets 403): counts, the items of a
queue by status with their decision history, and one decision per item.

Queues: pre_verification, weight_submission, third_party_import, registration. A decision on an item that
does not exist answers 404; on an item already decided, 400 "This item has already been decided.".
"""

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from cycling_site.api.answers import Answer, AnswerModel, Message
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.api.rules import whole
from cycling_site.messages import race_control as msg
from cycling_site.models import Account
from cycling_site.services import race_control, review_queues
from cycling_site.services.race_control import REASON_MAX

router = APIRouter(prefix="/race-control", tags=["race control"])

Kind = Literal[tuple(review_queues.QUEUES)]  # type: ignore[valid-type]
Status = Literal[review_queues.STATUSES]  # type: ignore[valid-type]


def reviewer(account: CurrentAccount) -> Account:
    return race_control.require_reviewer(account)


Reviewer = Annotated[Account, Depends(reviewer)]


class Counts(AnswerModel):
    pending: dict[str, int] = Field(description="Items waiting, per queue")


class FileOut(AnswerModel):
    id: int
    name: str
    content_type: str


class DecisionOut(AnswerModel):
    decision: str
    reason: str
    decided_at: datetime
    decided_by: str


class ItemOut(AnswerModel):
    id: int
    rider_name: str
    rider_email: str
    status: str
    submitted_at: datetime
    title: str
    details: list[list[str]] = Field(description="Label and value pairs")
    files: list[FileOut]
    reason: str
    history: list[DecisionOut]


class DecisionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    approve: StrictBool
    reason: str = Field(default="", max_length=REASON_MAX * 2, description="Required to reject")
    category_id: whole(ge=1, le=4) | None = Field(default=None, description="Pre-verification approvals only")


@router.get("/queues", responses=documented(401, 403, 503))
def queues(session: DB, account: Reviewer) -> Answer[Counts]:
    return Answer[Counts](data=Counts(pending=review_queues.pending_counts(session, account)))


@router.get("/{kind}", responses=documented(400, 401, 403, 404, 503))
def items(kind: Kind, session: DB, account: Reviewer, status: Status = "pending") -> Answer[list[ItemOut]]:
    found = review_queues.items(session, account, kind, status)
    return Answer[list[ItemOut]](data=[ItemOut.model_validate(item) for item in found])


@router.post("/{kind}/{item_id}/decision", responses=documented(400, 401, 403, 404, 413, 503))
def decide(kind: Kind, item_id: int, body: DecisionIn, session: DB, account: Reviewer) -> Message:
    review_queues.decide(session, account, kind, item_id, body.approve, body.reason, body.category_id)
    decision = "approved" if body.approve else "rejected"
    return Message(message=msg.DECIDED.format(decision=decision))
