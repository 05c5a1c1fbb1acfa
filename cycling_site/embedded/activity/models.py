"""Rides kept by the embedded activity service: a summary row per ride, its heavy data apart.

The summary table holds only what lists and progress read, so an activities page never loads a stream,
a curve or a file. Streams are one compressed blob per ride, not one row per sample.
"""

import uuid
from datetime import datetime

from sqlalchemy import Index, LargeBinary, UniqueConstraint
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class RideType:
    ride = "ride"
    workout = "workout"
    event = "event"


class Ride(SQLModel, table=True):
    __tablename__ = "activity_ride"
    __table_args__ = (
        UniqueConstraint("rider_uuid", "file_sha256", name="uq_activity_ride_rider_file"),
        Index("ix_activity_ride_rider_started", "rider_uuid", "started_at"),
        Index("ix_activity_ride_rider_type_started", "rider_uuid", "type", "started_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    file_id: str = Field(default_factory=lambda: str(uuid.uuid4()), unique=True, max_length=36)
    rider_uuid: str = Field(max_length=36)
    type: str = Field(default=RideType.ride, max_length=10)
    sport: str = Field(default="cycling", max_length=20)
    title: str = Field(max_length=100)
    route_name: str = Field(default="", max_length=100)
    started_at: datetime = utc_column()
    duration_s: int
    moving_s: int
    distance_m: float
    elevation_gain_m: float
    avg_power: float | None = None
    max_power: float | None = None
    normalized_power: float | None = None
    intensity: float | None = None
    training_load: float | None = None
    work_kj: float | None = None
    watts_per_kg: float | None = None
    avg_heart_rate: float | None = None
    max_heart_rate: float | None = None
    avg_cadence: float | None = None
    max_cadence: float | None = None
    avg_speed_kmh: float | None = None
    max_speed_kmh: float | None = None
    ftp: float
    weight_kg: float
    file_name: str = Field(max_length=120)
    file_sha256: str = Field(max_length=64)
    created_at: datetime = utc_column(default_factory=utcnow)


class RideData(SQLModel, table=True):
    """The original FIT file, the 1 Hz streams and the mean-maximal curve of one ride."""

    __tablename__ = "activity_ride_data"

    ride_id: int = Field(primary_key=True, foreign_key="activity_ride.id", ondelete="CASCADE")
    curve: bytes = Field(sa_type=LargeBinary)
    streams: bytes = Field(sa_type=LargeBinary)
    fit_file: bytes = Field(sa_type=LargeBinary)


class RiderCurve(SQLModel, table=True):
    """A rider's best curve over every ride, kept up to date at ingest so it is one read, never a rescan."""

    __tablename__ = "activity_rider_curve"

    rider_uuid: str = Field(primary_key=True, max_length=36)
    power: bytes = Field(sa_type=LargeBinary)
    power_weight: bytes = Field(sa_type=LargeBinary)
    updated_at: datetime = utc_column(default_factory=utcnow)
