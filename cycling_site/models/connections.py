"""Fitness-app connections of a rider, and the OAuth state values that protect their callbacks."""

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class Connection(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("account_id", "network"),)

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    network: str = Field(max_length=30)
    external_user: str = Field(default="", max_length=200)
    access_token: str = Field(default="", max_length=4000)
    refresh_token: str = Field(default="", max_length=4000)
    expires_at: datetime | None = utc_column(default=None)
    created_at: datetime = utc_column(default_factory=utcnow)


class OAuthState(SQLModel, table=True):
    """A random state sent with an authorization request; the callback must bring it back once."""

    state: str = Field(primary_key=True, max_length=64)
    account_id: int = Field(foreign_key="account.id", index=True)
    network: str = Field(max_length=30)
    expires_at: datetime = utc_column()
