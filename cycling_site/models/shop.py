"""What riders own from the shop, and their card orders for gems."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class OwnedItem(SQLModel, table=True):
    __tablename__ = "owned_item"
    __table_args__ = (UniqueConstraint("account_id", "item_id", name="uq_owned_item"),)

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    item_id: str = Field(max_length=60)
    coins_paid: int = Field(default=0)
    created_at: datetime = utc_column(default_factory=utcnow)


class OrderStatus(StrEnum):
    open = "open"
    paid = "paid"
    expired = "expired"


class GemOrder(SQLModel, table=True):
    """A gem bundle paid by card: credited once, when the provider says it is paid."""

    __tablename__ = "gem_order"

    id: str = Field(primary_key=True, max_length=36)
    account_id: int = Field(foreign_key="account.id", index=True)
    bundle_id: str = Field(max_length=30)
    gems: int
    amount_fils: int
    currency: str = Field(default="aed", max_length=3)
    status: str = Field(default=OrderStatus.open, max_length=10)
    provider_session_id: str | None = Field(default=None, max_length=255, unique=True)
    created_at: datetime = utc_column(default_factory=utcnow)
    settled_at: datetime | None = utc_column(default=None)
