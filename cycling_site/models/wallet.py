"""The prize wallet (spec 3): its account verification, withdrawal requests and prize credits.

The BTC balance itself is on the ledger (satoshi); these tables hold what finance reviews and decides."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import JSON, BigInteger, Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class WalletStatus(StrEnum):
    """The spec's verificationStatus; `unverified` is a rider with no verification on record."""

    unverified = "unverified"
    pending = "pending"
    approved = "approved"
    rejected = "rejected"


class WalletVerification(SQLModel, table=True):
    """One submitted verification. `current` is true while it is pending or approved and empty once
    rejected: the unique (account_id, current) pair keeps a rider to one verification waiting or approved
    in the database itself, while a rejected one may be followed by another."""

    __tablename__ = "wallet_verification"
    __table_args__ = (UniqueConstraint("account_id", "current", name="uq_wallet_verification_current"),)

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    binance_email: str = Field(max_length=254)
    phone: str = Field(max_length=20, description="E.164")
    wallet_address: str = Field(max_length=100)
    passport_file_id: int = Field(foreign_key="rider_file.id")
    screenshot_file_ids: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    status: str = Field(default=WalletStatus.pending, max_length=10, index=True)
    current: bool | None = Field(default=True)
    reason: str = Field(default="", max_length=1000)
    created_at: datetime = utc_column(default_factory=utcnow)
    decided_at: datetime | None = utc_column(default=None)


class WithdrawalStatus(StrEnum):
    """Approved means paid out (finance gives the transaction id)."""

    pending = "pending"
    approved = "approved"
    rejected = "rejected"


class Withdrawal(SQLModel, table=True):
    """A withdrawal request; its amount plus fee was held on the ledger when it was made."""

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    amount: int = Field(sa_column=Column(BigInteger, nullable=False), description="satoshi")
    fee: int = Field(sa_column=Column(BigInteger, nullable=False), description="satoshi")
    currency: str = Field(default="BTC", max_length=4)
    email: str = Field(max_length=254)
    wallet_address: str = Field(max_length=100)
    month: str = Field(max_length=7, description="YYYY-MM (UTC) the request counts against")
    status: str = Field(default=WithdrawalStatus.pending, max_length=10, index=True)
    transaction_id: str = Field(default="", max_length=100)
    reason: str = Field(default="", max_length=1000)
    requested_at: datetime = utc_column(default_factory=utcnow)
    decided_at: datetime | None = utc_column(default=None)
    # The request's idempotency key, scoped to the rider: the same request sent again (its answer lost on
    # a dropped connection) finds this one instead of making a second.
    request_key: str | None = Field(default=None, max_length=100, unique=True)

    @property
    def total(self) -> int:
        return self.amount + self.fee


class WithdrawalMonth(SQLModel, table=True):
    """Requests a rider has made in a month: raised only by a guarded update below the monthly limit, so
    parallel requests cannot pass it."""

    __tablename__ = "withdrawal_month"

    account_id: int = Field(foreign_key="account.id", primary_key=True)
    month: str = Field(max_length=7, primary_key=True)
    used: int = Field(default=0)


class PrizeCredit(SQLModel, table=True):
    """Prize money of one event credited to one rider's wallet, at most once (the ledger key says so too)."""

    __tablename__ = "prize_credit"
    __table_args__ = (UniqueConstraint("event_id", "account_id", name="uq_prize_credit_rider"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    amount: int = Field(sa_column=Column(BigInteger, nullable=False), description="satoshi")
    position: int | None = Field(default=None)
    credited_by: int = Field(foreign_key="account.id")
    credited_at: datetime = utc_column(default_factory=utcnow)
