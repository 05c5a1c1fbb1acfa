"""The sandbox's own table: its checkout sessions."""

from datetime import datetime

from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class SandboxCheckout(SQLModel, table=True):
    __tablename__ = "payments_checkout"

    id: str = Field(primary_key=True, max_length=80)
    idempotency_key: str | None = Field(default=None, max_length=255, unique=True)
    amount_total: int
    currency: str = Field(max_length=3)
    product_name: str = Field(default="", max_length=200)
    success_url: str = Field(max_length=2000)
    cancel_url: str = Field(max_length=2000)
    client_reference_id: str = Field(default="", max_length=200)
    customer_email: str = Field(default="", max_length=254)
    metadata_: dict = Field(default_factory=dict, sa_column=Column("metadata", JSON, nullable=False))
    status: str = Field(default="open", max_length=10)
    payment_status: str = Field(default="unpaid", max_length=10)
    created_at: datetime = utc_column(default_factory=utcnow)
    # The slow test card: paid once this moment has passed.
    pay_after: datetime | None = utc_column(default=None)
    paid_at: datetime | None = utc_column(default=None)
