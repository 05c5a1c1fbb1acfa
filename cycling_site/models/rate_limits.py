"""Rate limits kept in the database when no Redis is configured, so that every worker and a restart see
them."""

from datetime import datetime

from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column


class RateLimitWindow(SQLModel, table=True):
    """One limited key (a hash of its scope and parts, e.g. the phone codes of one account) and the times
    of its hits still inside the window; the row goes once `expires_at` has passed."""

    key: str = Field(primary_key=True, max_length=64)
    # Seconds since the epoch, oldest first.
    hits: list[float] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    expires_at: datetime = utc_column(index=True)
