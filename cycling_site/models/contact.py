"""What visitors send through the contact form, and newsletter subscribers."""

from datetime import datetime

from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class ContactMessage(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100)
    phone: str = Field(default="", max_length=30)
    email: str = Field(max_length=254)
    message: str = Field(max_length=5000)
    created_at: datetime = utc_column(default_factory=utcnow)


class Subscriber(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(unique=True, max_length=254)
    created_at: datetime = utc_column(default_factory=utcnow)
