"""What makes sessions and human checks single-use: revoked tokens and spent challenges."""

from datetime import datetime

from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column


class RevokedSession(SQLModel, table=True):
    """A signed token stays valid until its exp unless its jti is listed here."""

    jti: str = Field(primary_key=True, max_length=64)
    expires_at: datetime = utc_column(index=True)


class UsedHumanCheck(SQLModel, table=True):
    """A solved ALTCHA challenge counts once; its signature is kept until it expires."""

    signature: str = Field(primary_key=True, max_length=128)
    expires_at: datetime = utc_column(index=True)
