"""Weigh-ins: the windows an event opens for its riders' weight declarations (pre-race and post-race), and
the declarations themselves, each with its proof (a private rider file) and race control's decision.

Times are UTC. A rider holds at most one declaration per event and type that is not rejected (a partial
unique index, so two submits at once cannot both be kept); after a rejection the rider may declare again
while the window is open.
"""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Index, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class WeighInType(StrEnum):
    pre_weight = "pre_weight"
    post_weight = "post_weight"


class WeighInWindow(SQLModel, table=True):
    """When riders of an event with weigh-ins may declare one type of weight."""

    __tablename__ = "weigh_in_window"
    __table_args__ = (UniqueConstraint("event_id", "type", name="uq_weigh_in_window_event_type"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    type: str = Field(max_length=12)
    starts_at: datetime = utc_column()
    ends_at: datetime = utc_column()


_HELD = text("status != 'rejected'")


class WeightSubmission(SQLModel, table=True):
    """A rider's weight for one event and type, with the photo or video that shows it."""

    __tablename__ = "weight_submission"
    __table_args__ = (
        Index(
            "uq_weight_submission_held",
            "account_id",
            "event_id",
            "type",
            unique=True,
            sqlite_where=_HELD,
            postgresql_where=_HELD,
        ),
        Index("ix_weight_submission_status", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    event_id: int = Field(foreign_key="event.id")
    type: str = Field(max_length=12)
    weight_kg: float
    proof_file_id: int = Field(foreign_key="rider_file.id")
    status: str = Field(default="pending", max_length=10)
    reason: str = Field(default="", max_length=1000)
    created_at: datetime = utc_column(default_factory=utcnow)
    decided_at: datetime | None = utc_column(default=None)
