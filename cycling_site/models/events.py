"""Events, registrations and the files riders give with them; tracks; stored race results.

Times are UTC (shown in GMT+4). Structured parts of an event that are read whole and never queried
(category table, links, prize structure, winners, allowed dial codes) are JSON columns.
"""

from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import JSON, Column, Index
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class EventType(StrEnum):
    featured = "featured"
    all = "all"
    open = "open"


class EventGender:
    men = 0
    women = 1
    open = 2


class RegistrationStatus(StrEnum):
    pending = "pending"
    approved = "approved"
    declined = "declined"


def json_column(default):
    return Field(default_factory=default, sa_column=Column(JSON, nullable=False))


class Event(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=150)
    starts_at: datetime = utc_column()
    closes_at: datetime = utc_column()
    image: str = Field(default="", max_length=255)
    details: str = Field(default="")
    prize_money: int = Field(default=0, description="total prize money in fils (AED / 100)")
    distance_km: float = Field(default=0)
    elevation_m: int = Field(default=0)
    max_grade: float = Field(default=0)
    map_image: str = Field(default="", max_length=255)
    gender: int = Field(default=2)
    event_type: str = Field(default=EventType.all, max_length=10)
    accept: bool = Field(default=True)
    capacity: int = Field(default=100)
    # Pending and approved registrations; moved only by a guarded UPDATE so the last slot goes once.
    booked: int = Field(default=0)
    route_type: str = Field(default="", max_length=50)
    laps: int = Field(default=1)
    categories: dict = json_column(dict)
    links: dict = json_column(dict)
    winners: list = json_column(list)
    prize_structure: dict = json_column(dict)
    dob_required: bool = Field(default=False)
    identification: bool = Field(default=False)
    device: bool = Field(default=False)
    team: bool = Field(default=False)
    otp: bool = Field(default=False)
    # Riders declare their weight before and/or after the race, in the windows of models/weigh_ins.py.
    weigh_ins: bool = Field(default=False)
    team_help_text: str = Field(default="", max_length=500)
    dial_codes: list = json_column(list)
    # Which of spec 1's three category-description variants (0, 1, 2) the event's category text uses.
    category_variant: int = Field(default=0)
    created_at: datetime = utc_column(default_factory=utcnow)


class RiderFile(SQLModel, table=True):
    """A file a rider gave (ID images, age proof, device video): kept outside the web root, reusable."""

    __tablename__ = "rider_file"

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    kind: str = Field(max_length=20)
    name: str = Field(max_length=255)
    content_type: str = Field(max_length=50)
    stored_as: str = Field(max_length=80, unique=True)
    size: int
    created_at: datetime = utc_column(default_factory=utcnow)


class Registration(SQLModel, table=True):
    __table_args__ = (Index("ix_registration_event_account", "event_id", "account_id"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    account_id: int = Field(foreign_key="account.id", index=True)
    status: str = Field(default=RegistrationStatus.pending, max_length=10)
    first_name: str = Field(max_length=50)
    last_name: str = Field(max_length=50)
    email: str = Field(max_length=254)
    gender: int
    dob: date | None = None
    proof_file_id: int | None = Field(default=None, foreign_key="rider_file.id")
    id_type: str | None = Field(default=None, max_length=20)
    id_expiry: date | None = None
    front_file_id: int | None = Field(default=None, foreign_key="rider_file.id")
    back_file_id: int | None = Field(default=None, foreign_key="rider_file.id")
    device_platform: str | None = Field(default=None, max_length=10)
    device_model: str | None = Field(default=None, max_length=100)
    device_serial: str | None = Field(default=None, max_length=100)
    device_video_file_id: int | None = Field(default=None, foreign_key="rider_file.id")
    team_type: str | None = Field(default=None, max_length=1)
    team_name: str | None = Field(default=None, max_length=100)
    phone: str | None = Field(default=None, max_length=20)
    created_at: datetime = utc_column(default_factory=utcnow)
    decided_at: datetime | None = utc_column(default=None)


class PhoneVerification(SQLModel, table=True):
    """A phone the rider proved with a code; one registration may use it, within the hour."""

    __tablename__ = "phone_verification"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(max_length=64, unique=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    phone: str = Field(max_length=20)
    verified_at: datetime = utc_column(default_factory=utcnow)
    used_at: datetime | None = utc_column(default=None)


class Track(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    title: str = Field(max_length=100)
    description: str = Field(default="")
    image: str = Field(default="", max_length=255)
    position: int = Field(default=0)
