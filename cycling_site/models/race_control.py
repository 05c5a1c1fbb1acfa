"""Race control's decisions: one audit row per decision on any rider submission."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class ReviewKind(StrEnum):
    pre_verification = "pre_verification"
    weight_submission = "weight_submission"
    third_party_import = "third_party_import"
    registration = "registration"
    # Finance's decisions share the audit.
    wallet_verification = "wallet_verification"
    withdrawal = "withdrawal"
    prize_credit = "prize_credit"


class ReviewStatus(StrEnum):
    """Where every reviewed submission stands; a registration says declined for rejected."""

    pending = "pending"
    approved = "approved"
    rejected = "rejected"


class ReviewDecision(SQLModel, table=True):
    """Who decided what, when and why; written in the same transaction as the decision itself."""

    __tablename__ = "review_decision"
    __table_args__ = (Index("ix_review_decision_item", "kind", "item_id"),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=30)
    item_id: int
    rider_id: int = Field(foreign_key="account.id", index=True)
    decided_by: int = Field(foreign_key="account.id")
    decision: str = Field(max_length=20)
    reason: str = Field(default="", max_length=1000)
    decided_at: datetime = utc_column(default_factory=utcnow)
