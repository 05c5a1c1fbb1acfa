"""Single-use, expiring codes: long random ones for e-mailed links, six digits with a key for typed ones."""

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import case, update
from sqlmodel import Session, col, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, AccountCode
from cycling_site.models.common import as_utc
from cycling_site.services.validation import has_nul

MAX_FAILED_TYPED_ATTEMPTS = 5


class CodeError(Exception):
    """The code cannot be used: its message says why."""


class CodeLimit(CodeError):
    """No new code now: the cap on codes sent to this address is reached (the API answers 429)."""


@dataclass(frozen=True)
class IssuedCode:
    code: str
    key: str | None
    expires_at: datetime


def hash_code(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def issue(
    session: Session,
    account: Account,
    purpose: str,
    lifetime: timedelta,
    sent_to: str | None = None,
    typed: bool = False,
) -> IssuedCode:
    """A new code for this purpose; earlier unused ones of the same purpose stop working."""
    now = datetime.now(UTC)
    for earlier in session.exec(
        select(AccountCode).where(
            AccountCode.account_id == account.id,
            AccountCode.purpose == purpose,
            AccountCode.used_at.is_(None),  # type: ignore[union-attr]
        )
    ):
        earlier.used_at = now
    code = f"{secrets.randbelow(10**6):06d}" if typed else secrets.token_urlsafe(32)
    key = secrets.token_urlsafe(24) if typed else None
    # Typed codes are short and may repeat: the key, not the code, must be unique.
    stored_hash = hash_code(f"{key}:{code}") if typed else hash_code(code)
    row = AccountCode(
        account_id=account.id,
        purpose=purpose,
        code_hash=stored_hash,
        key=key,
        sent_to=sent_to,
        expires_at=now + lifetime,
    )
    session.add(row)
    return IssuedCode(code, key, row.expires_at)


def _find(session: Session, purpose: str, code: str, key: str | None) -> AccountCode | None:
    if not code or len(code) > 200 or (key is not None and len(key) > 64) or has_nul(code, key):
        return None
    if key is None:
        row = session.exec(select(AccountCode).where(AccountCode.code_hash == hash_code(code))).first()
        return row if row is not None and row.purpose == purpose else None
    row = session.exec(select(AccountCode).where(AccountCode.key == key)).first()
    if row is None or row.purpose != purpose:
        return None
    if row.used_at is not None:
        return row
    return _judge(session, row, hmac.compare_digest(row.code_hash, hash_code(f"{key}:{code}")))


def _judge(session: Session, row: AccountCode, right: bool) -> AccountCode | None:
    """A typed guess counts only if the code is live with attempts left, decided by one guarded UPDATE, so
    parallel guesses cannot all be judged before any is counted. A wrong guess takes an attempt (the last
    one ends the code) and is committed at once; a right one takes none, so a rider's own checks before
    using the code never eat it, and its row stays locked until the caller's transaction ends."""
    wrong = 0 if right else 1
    counted = session.execute(
        update(AccountCode)
        .where(
            col(AccountCode.id) == row.id,
            col(AccountCode.used_at).is_(None),
            col(AccountCode.failed_attempts) < MAX_FAILED_TYPED_ATTEMPTS,
        )
        .values(
            failed_attempts=AccountCode.failed_attempts + wrong,
            used_at=case(
                (AccountCode.failed_attempts + wrong >= MAX_FAILED_TYPED_ATTEMPTS, datetime.now(UTC)),
                else_=None,
            ),
        )
        .execution_options(synchronize_session=False)
    )
    if counted.rowcount != 1:  # type: ignore[attr-defined]
        # Other guesses used up its attempts meanwhile: it is used, whatever this one said.
        session.refresh(row)
        return row
    if right:
        return row
    session.commit()
    return None


def check(session: Session, purpose: str, code: str, key: str | None = None) -> tuple[AccountCode, Account]:
    """The live code and its account, without using it up; CodeError says why not."""
    row = _find(session, purpose, code, key)
    if row is None:
        raise CodeError(msg.CODE_INVALID)
    if row.used_at is not None:
        raise CodeError(msg.CODE_USED)
    account = session.get(Account, row.account_id)
    if account is None or account.deleted_at is not None:
        raise CodeError(msg.CODE_INVALID)
    if as_utc(row.expires_at) < datetime.now(UTC):
        raise CodeError(msg.CODE_EXPIRED)
    return row, account


def use(session: Session, purpose: str, code: str, key: str | None = None) -> Account:
    """Uses the code up (in the caller's transaction) and answers its account."""
    row, account = check(session, purpose, code, key)
    row.used_at = datetime.now(UTC)
    session.add(row)
    return account


def owner(session: Session, purpose: str, *, code: str = "", key: str = "") -> Account | None:
    """The account a code (by value) or a typed code (by key) was issued to, even once expired or used,
    so that a fresh one can be sent."""
    if has_nul(code, key):
        return None
    if key:
        row = session.exec(select(AccountCode).where(AccountCode.key == key)).first()
    elif code:
        row = session.exec(select(AccountCode).where(AccountCode.code_hash == hash_code(code))).first()
    else:
        return None
    if row is None or row.purpose != purpose:
        return None
    return session.get(Account, row.account_id)
