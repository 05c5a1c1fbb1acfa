"""The results service's own tables: the races it has results for, and their lines of results.

A race is known by the id the site's event has (the wire's eventId); the service keeps the race's name and
start itself, as an outside service would."""

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column


class Race(SQLModel, table=True):
    __tablename__ = "result_race"

    event_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    name: str = Field(max_length=150)
    starts_at: datetime = utc_column()


class ResultLine(SQLModel, table=True):
    """One rider's finish on one day of a race."""

    __tablename__ = "result_line"
    __table_args__ = (UniqueConstraint("event_id", "day_id", "position", name="uq_result_line_place"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="result_race.event_id", index=True)
    day_id: int = Field(default=1)
    position: int
    rider_name: str = Field(max_length=120)
    category: int = Field(default=1)
    time_s: float
    watts_per_kg: float
