"""Every e-mail and text message the site sends is kept here first."""

from datetime import datetime

from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class OutboxMessage(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    channel: str = Field(default="email", max_length=20)
    recipient: str = Field(index=True, max_length=254)
    subject: str = Field(max_length=200)
    body: str
    created_at: datetime = utc_column(default_factory=utcnow, index=True)
    sent_at: datetime | None = utc_column(default=None)
    attempts: int = Field(default=0)
    next_attempt_at: datetime | None = utc_column(default_factory=utcnow, index=True)
    last_error: str | None = Field(default=None, max_length=500)
