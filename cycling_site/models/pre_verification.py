"""Rider pre-verification: the equipment, weight, height and video proof race control checks before a
rider may race premium events. The account's verification_status says where the rider stands; each
submission is kept, so a rejected rider's earlier attempts stay on record."""

from datetime import datetime

from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow
from cycling_site.models.race_control import ReviewStatus


class PreVerification(SQLModel, table=True):
    __tablename__ = "pre_verification"

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    smart_trainer: str = Field(max_length=60)
    secondary_power_source: str = Field(max_length=60)
    weight: float
    height: int
    video_link: str = Field(max_length=500)
    strava_link: str = Field(max_length=500)
    message: str = Field(default="", max_length=2000)
    status: str = Field(default=ReviewStatus.pending, max_length=10, index=True)
    category_id: int | None = Field(default=None)
    reason: str = Field(default="", max_length=1000)
    created_at: datetime = utc_column(default_factory=utcnow)
    decided_at: datetime | None = utc_column(default=None)
