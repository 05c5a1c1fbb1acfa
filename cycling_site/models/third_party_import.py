"""Ride totals a rider imports from another platform, with proof, for race control to review (spec 3)."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class ImportStatus(StrEnum):
    """The spec's words: submitted (under review), then approved or rejected."""

    submitted = "submitted"
    approved = "approved"
    rejected = "rejected"


class ThirdPartyImport(SQLModel, table=True):
    """One import. `current` is true while it is submitted or approved and empty once rejected: the unique
    (account_id, current) pair lets the database itself keep a rider to one import waiting or approved,
    while rejected ones (NULL, never equal) may be followed by a re-import."""

    __tablename__ = "third_party_import"
    __table_args__ = (UniqueConstraint("account_id", "current", name="uq_third_party_import_current"),)

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    migration_platform: str = Field(max_length=20)
    total_ride_time: int = Field(description="seconds")
    total_distance: float = Field(description="km")
    total_elevation: float = Field(description="m")
    profile_link: str = Field(max_length=500)
    proof_file_ids: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    status: str = Field(default=ImportStatus.submitted, max_length=10, index=True)
    current: bool | None = Field(default=True)
    has_seen: bool = Field(default=False)
    reason: str = Field(default="", max_length=1000)
    created_at: datetime = utc_column(default_factory=utcnow)
    decided_at: datetime | None = utc_column(default=None)
