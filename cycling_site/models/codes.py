"""Single-use, expiring codes behind e-mailed links and typed codes.

Only a hash of each code is stored, so a database reader cannot use a live link.
"""

from datetime import datetime
from enum import StrEnum

from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow


class CodePurpose(StrEnum):
    verify_email = "verify_email"
    verify_otp = "verify_otp"
    parental_consent = "parental_consent"
    reset_password = "reset_password"
    delete_account = "delete_account"
    verify_phone = "verify_phone"
    wallet_phone = "wallet_phone"
    wallet_email = "wallet_email"
    withdrawal = "withdrawal"


class AccountCode(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    purpose: str = Field(max_length=30)
    code_hash: str = Field(max_length=64, unique=True)
    # A second, public handle for codes that are typed (the OTP page's key).
    key: str | None = Field(default=None, max_length=64, unique=True)
    sent_to: str | None = Field(default=None, max_length=254)
    failed_attempts: int = Field(default=0)
    created_at: datetime = utc_column(default_factory=utcnow)
    expires_at: datetime = utc_column()
    used_at: datetime | None = utc_column(default=None)
