"""Money on a ledger: every change of a balance is an entry, written with the change itself.

Amounts are whole numbers: coins, gems, satoshi. An entry's idempotency key is unique per currency, so
a retried request can never move the same money twice; the balance row is a cache of the entries' sum,
changed only by guarded updates that never let it go below zero."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, CheckConstraint, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class Currency(StrEnum):
    coin = "COIN"
    gem = "GEM"
    btc = "BTC"


class LedgerEntry(SQLModel, table=True):
    __tablename__ = "ledger_entry"
    __table_args__ = (
        UniqueConstraint("currency", "idempotency_key", name="uq_ledger_entry_key"),
        Index("ix_ledger_entry_account_currency", "account_id", "currency"),
    )

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id")
    currency: str = Field(max_length=4)
    # Signed: a credit is positive, a debit negative.
    amount: int = Field(sa_column=Column(BigInteger, nullable=False))
    reason: str = Field(max_length=30)
    reference: str = Field(default="", max_length=120)
    idempotency_key: str = Field(max_length=120)
    created_at: datetime = utc_column(default_factory=utcnow)


class Balance(SQLModel, table=True):
    __table_args__ = (CheckConstraint("amount >= 0", name="ck_balance_not_negative"),)

    account_id: int = Field(foreign_key="account.id", primary_key=True)
    currency: str = Field(max_length=4, primary_key=True)
    amount: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
