"""Accounts: riders (adults and kids), race control, finance and admins."""

import uuid
from datetime import date, datetime
from enum import StrEnum

from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class Role(StrEnum):
    rider = "rider"
    race_control = "race_control"
    finance = "finance"
    admin = "admin"


class VerificationStatus(StrEnum):
    not_submitted = "not submitted"
    pending = "pending"
    approved = "approved"
    rejected = "rejected"


# The United Arab Emirates (ISO 3166 numeric), for rows written without one; services start a rider in the
# DEFAULT_COUNTRY setting.
DEFAULT_COUNTRY_ID = 784
DEFAULT_GENDER = 0


class Account(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    uuid: str = Field(default_factory=lambda: str(uuid.uuid4()), unique=True, index=True, max_length=36)
    email: str = Field(unique=True, index=True, max_length=254)
    password_hash: str = Field(max_length=255)
    role: str = Field(default=Role.rider, max_length=20)
    firstname: str = Field(max_length=50)
    lastname: str = Field(max_length=50)
    country: int = Field(default=DEFAULT_COUNTRY_ID)
    gender: int = Field(default=DEFAULT_GENDER)
    weight: float = Field(default=70)
    height: int = Field(default=175)
    dob: date
    is_kid: bool = Field(default=False)
    is_normal_user: bool = Field(default=True)
    parent_email: str | None = Field(default=None, max_length=254)
    parent_approved: bool = Field(default=False)
    email_verified: bool = Field(default=False)
    must_reset_password: bool = Field(default=False)
    marketing_consent: bool = Field(default=False)
    avatar: str | None = Field(default=None, max_length=255)
    jersey: str = Field(default="jersey-red.svg", max_length=100)
    verification_status: str = Field(default=VerificationStatus.not_submitted, max_length=20)
    # Game figures (PlayerPersonalStruct / PlayerProfileStruct): level, functional threshold power, category.
    level: int = Field(default=1)
    ftp: int = Field(default=200)
    category_id: int | None = Field(default=None)
    created_at: datetime = utc_column(default_factory=utcnow)
    # Sessions issued before this moment end (a new password signs every device out).
    password_changed_at: datetime | None = utc_column(default=None)
    parent_consent_sent_at: datetime | None = utc_column(default=None)
    deleted_at: datetime | None = utc_column(default=None)
