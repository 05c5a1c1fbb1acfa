"""Column helpers shared by the tables."""

from datetime import UTC, datetime

from sqlalchemy import DateTime
from sqlmodel import Field


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def utc_column(**kwargs):
    """A timezone-aware UTC timestamp column; every time is stored in UTC."""
    return Field(sa_type=DateTime(timezone=True), **kwargs)
