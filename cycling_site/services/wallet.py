"""The prize wallet (spec 3): its summary, transactions and withdrawal requests.

BTC is held on the ledger in satoshi and shown with 6 decimals, so every amount a rider types or sees is a
whole number of 0.000001 BTC (100 satoshi); the fee is rounded up to that step. A withdrawal holds its
amount plus fee on the ledger when it is made (two requests can never spend the same satoshi) and counts
against the month by a guarded update (parallel requests cannot pass the limit); a rejection gives both
back. A withdrawal goes only to the approved verification's address and e-mail, each one confirmed with a
code e-mailed there, and the rider is e-mailed that it was made.
"""

import math
import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation

from embit.networks import NETWORKS
from embit.script import address_to_scriptpubkey
from sqlalchemy import func, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from cycling_site.local_time import local_text
from cycling_site.messages import wallet as msg
from cycling_site.models import Account, CodePurpose, Currency
from cycling_site.models.common import as_utc, utcnow
from cycling_site.models.ledger import LedgerEntry
from cycling_site.models.wallet import (
    WalletStatus,
    WalletVerification,
    Withdrawal,
    WithdrawalMonth,
    WithdrawalStatus,
)
from cycling_site.services import countries, ledger, outbox, wallet_codes
from cycling_site.services.validation import FormErrors, has_nul, normalize_email
from cycling_site.settings import settings

CURRENCY = "BTC"
SATOSHI_PER_BTC = 100_000_000
DECIMALS = 6
STEP = 10 ** (8 - DECIMALS)
# No more bitcoin will ever exist: anything above cannot be in a wallet.
MOST_BTC = 21_000_000
AMOUNT_TEXT_MAX = 30
ADDRESS_MAX = 100
PER_PAGE = 10
PER_PAGE_MAX = 50
SEARCH_MAX = 100
# An idempotency key: the form's own is 32 hex digits; an API client's may be a UUID or its own scheme.
REQUEST_KEY_MAX = 64
WARN_AT_REMAINING = 3
_AMOUNT = re.compile(r"^-?(\d+\.?\d*|\.\d+)$")


class WalletClosed(FormErrors):
    """Kid accounts have no wallet (spec 2): every wallet call refuses them."""

    status_code = 403

    def __init__(self) -> None:
        super().__init__({"wallet": msg.KIDS_NO_WALLET})


class NotVerified(FormErrors):
    """Only an approved wallet account may withdraw."""

    status_code = 403

    def __init__(self) -> None:
        super().__init__({"account": msg.NOT_VERIFIED})


def open_for(account: Account) -> Account:
    if account.is_kid:
        raise WalletClosed
    return account


def btc_text(satoshi: int) -> str:
    """Satoshi as BTC with 6 decimals (amounts here are whole steps, so nothing is cut)."""
    whole = Decimal(satoshi) / SATOSHI_PER_BTC
    return f"{whole.quantize(Decimal(1).scaleb(-DECIMALS), rounding='ROUND_DOWN'):.{DECIMALS}f}"


def minimum() -> int:
    return round(Decimal(settings.wallet_minimum_withdrawal) * SATOSHI_PER_BTC)


def parse_btc(text: object, field: str = "amount") -> int:
    """An amount as typed (digits and one point, 6 decimals at most) in satoshi; the spec's message when
    it is not one."""
    text = str(text if text is not None else "").strip()
    if not text:
        raise FormErrors({field: msg.AMOUNT_REQUIRED})
    if len(text) > AMOUNT_TEXT_MAX or not _AMOUNT.match(text):
        raise FormErrors({field: msg.AMOUNT_NOT_NUMBER})
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise FormErrors({field: msg.AMOUNT_NOT_NUMBER}) from None
    if value <= 0:
        raise FormErrors({field: msg.AMOUNT_NOT_POSITIVE})
    if value > MOST_BTC:
        raise FormErrors({field: msg.TOTAL_EXCEEDS_BALANCE})
    if value != value.quantize(Decimal(1).scaleb(-DECIMALS)):
        raise FormErrors({field: msg.AMOUNT_TOO_PRECISE})
    return int(value * SATOSHI_PER_BTC)


def fee_for(amount: int) -> int:
    """The processing fee: a percent of the amount, added on top, rounded up to a whole 0.000001 BTC."""
    raw = Decimal(amount) * Decimal(settings.wallet_fee_percent) / 100
    return math.ceil(raw / STEP) * STEP


@dataclass(frozen=True)
class Quote:
    amount: int
    fee: int

    @property
    def total(self) -> int:
        return self.amount + self.fee


def quote(text: object) -> Quote | None:
    """Fee and total for the amount typed so far, or None while it is no amount (the form shows dashes)."""
    try:
        amount = parse_btc(text)
    except FormErrors:
        return None
    return Quote(amount, fee_for(amount))


def check_address(text: object) -> str:
    """A real Bitcoin address of the configured network: base58check or bech32/bech32m, checksum and all."""
    address = str(text or "").strip()
    if not address:
        raise FormErrors({"wallet_address": msg.WITHDRAW_ADDRESS_REQUIRED})
    if len(address) > ADDRESS_MAX or has_nul(address) or not address.isascii():
        raise FormErrors({"wallet_address": msg.ADDRESS_INVALID})
    # Bech32 may be written all in capitals (QR codes do); base58 is case-sensitive.
    if address.isupper() and address[:2].lower() in ("bc", "tb"):
        address = address.lower()
    try:
        script = address_to_scriptpubkey(address)
        own_network = script.address(NETWORKS[settings.wallet_btc_network])
    except Exception:  # embit raises its own and plain errors alike for a bad address
        raise FormErrors({"wallet_address": msg.ADDRESS_INVALID}) from None
    if own_network != address:
        raise FormErrors({"wallet_address": msg.ADDRESS_WRONG_NETWORK})
    return own_network


def month_of(moment: datetime) -> str:
    return f"{moment:%Y-%m}"


def latest_verification(session: Session, account: Account) -> WalletVerification | None:
    return session.exec(
        select(WalletVerification)
        .where(WalletVerification.account_id == account.id)
        .order_by(col(WalletVerification.id).desc())
    ).first()


def status_of(session: Session, account: Account) -> WalletStatus:
    latest = latest_verification(session, account)
    return WalletStatus(latest.status) if latest else WalletStatus.unverified


def used_this_month(session: Session, account: Account, now: datetime) -> int:
    used = session.exec(
        select(WithdrawalMonth.used).where(
            WithdrawalMonth.account_id == account.id, WithdrawalMonth.month == month_of(now)
        )
    ).first()
    return used or 0


def summary(session: Session, account: Account, now: datetime | None = None) -> dict:
    """GET api/auth/user-wallet's data: the user and walletData of spec 3 section 3."""
    open_for(account)
    now = now or utcnow()
    latest = latest_verification(session, account)
    status = WalletStatus(latest.status) if latest else WalletStatus.unverified
    counts = dict(
        session.exec(
            select(Withdrawal.status, func.count())
            .where(Withdrawal.account_id == account.id)
            .group_by(col(Withdrawal.status))
        ).all()
    )
    paid = session.exec(
        select(func.coalesce(func.sum(Withdrawal.amount), 0)).where(
            Withdrawal.account_id == account.id, Withdrawal.status == WithdrawalStatus.approved
        )
    ).one()
    last_entry = session.exec(
        select(func.max(LedgerEntry.created_at)).where(
            LedgerEntry.account_id == account.id, LedgerEntry.currency == Currency.btc
        )
    ).one()
    used = used_this_month(session, account, now)
    limit = settings.wallet_monthly_withdrawals
    return {
        "user": {
            "name": f"{account.firstname} {account.lastname}",
            "jersey": account.jersey,
            "countryFlag": countries.flag_emoji(countries.country_alpha2(account.country)),
            "verified": status == WalletStatus.approved,
            "verificationStatus": status.value,
            "email": account.email,
            "walletAddress": latest.wallet_address if latest and status == WalletStatus.approved else "",
            "isKid": account.is_kid,
        },
        "walletData": {
            "balance": btc_text(ledger.balance(session, account.id, Currency.btc)),
            "currency": CURRENCY,
            "balanceUSD": None,
            "lastUpdated": as_utc(last_entry) if last_entry else None,
            "totalWithdrawals": btc_text(int(paid)),
            "pendingRequests": counts.get(WithdrawalStatus.pending, 0),
            "completedTransactions": counts.get(WithdrawalStatus.approved, 0),
            "minimumTransaction": btc_text(minimum()),
            "maxTransactionsPerMonth": limit,
            "currentMonthTransactions": used,
            "remainingTransactions": max(limit - used, 0),
            "processingFee": settings.wallet_fee_percent,
        },
    }


# Where a paid withdrawal's transaction can be looked up, per network (regtest is a private chain: none).
EXPLORERS = {
    "main": "https://mempool.space/tx/",
    "test": "https://mempool.space/testnet/tx/",
    "signet": "https://mempool.space/signet/tx/",
}
# A payout's Bitcoin transaction id: 64 hexadecimal characters (kept in lower case).
TRANSACTION_ID = re.compile(r"^[0-9a-fA-F]{64}$")


def transaction_url(transaction_id: str) -> str:
    """The block explorer's page of a payout's transaction, or "" when there is none to link to."""
    explorer = EXPLORERS.get(settings.wallet_btc_network, "")
    return f"{explorer}{transaction_id}" if explorer and TRANSACTION_ID.match(transaction_id) else ""


def request_no(withdrawal: Withdrawal) -> str:
    return f"WD-{withdrawal.id:06d}"


def transaction_row(withdrawal: Withdrawal) -> dict:
    """One transaction as the table shows it (spec 3 section 3)."""
    return {
        "id": withdrawal.id,
        "request_no": request_no(withdrawal),
        "transaction_id": withdrawal.transaction_id,
        "transaction_url": transaction_url(withdrawal.transaction_id),
        "amount": btc_text(withdrawal.amount),
        "fee": btc_text(withdrawal.fee),
        "total": btc_text(withdrawal.total),
        "currency": withdrawal.currency,
        "wallet_address": withdrawal.wallet_address,
        "requested_at": as_utc(withdrawal.requested_at),
        "status": withdrawal.status,
        "email": withdrawal.email,
        "reason": withdrawal.reason,
    }


def _matches(row: dict, search: str) -> bool:
    fields = ("request_no", "transaction_id", "amount", "wallet_address", "status", "email")
    return any(search in str(row[field]).lower() for field in fields)


def transactions(
    session: Session, account: Account, page: int = 1, per_page: int = PER_PAGE, search: str = ""
) -> tuple[list[dict], dict]:
    """The rider's withdrawals, newest first, searched and paged: rows and transactionsMeta.

    A rider makes a handful of requests a month, so the search reads them all and matches the shown text
    (the amount as shown, the request number), which SQL could not do on the stored integers."""
    open_for(account)
    per_page = min(max(int(per_page or PER_PAGE), 1), PER_PAGE_MAX)
    search = str(search or "").strip().lower()[:SEARCH_MAX]
    rows = [
        transaction_row(withdrawal)
        for withdrawal in session.exec(
            select(Withdrawal).where(Withdrawal.account_id == account.id).order_by(col(Withdrawal.id).desc())
        )
    ]
    if search:
        rows = [row for row in rows if _matches(row, search)]
    last_page = max(math.ceil(len(rows) / per_page), 1)
    page = min(max(int(page or 1), 1), last_page)
    meta = {"current_page": page, "last_page": last_page, "total": len(rows), "per_page": per_page}
    return rows[(page - 1) * per_page : page * per_page], meta


def approved_verification(session: Session, account: Account) -> WalletVerification:
    """The verification finance approved: withdrawals go only to its address and e-mail."""
    latest = latest_verification(session, account)
    if latest is None or latest.status != WalletStatus.approved:
        raise NotVerified
    return latest


def request_withdrawal_code(session: Session, account: Account, address: str = "") -> str:
    """POST api/wallet/request-withdrawal-code: a six-digit code, to the verified wallet's e-mail address,
    that confirms one withdrawal: a session taken from the rider cannot move the money alone. Answers the
    address it went to."""
    open_for(account)
    verification = approved_verification(session, account)
    message = wallet_codes.Message(
        "email", f"{msg.WITHDRAWAL_CODE_SUBJECT} · {settings.site_name}", msg.WITHDRAWAL_CODE_TEXT
    )
    to = verification.binance_email
    wallet_codes.send(session, account, CodePurpose.withdrawal, to, message, "code", address)
    return to


def _withdraw_errors(
    form: dict, balance: int, verification: WalletVerification
) -> tuple[dict[str, str], Quote | None]:
    """The spec's checks of amount, e-mail and address, and the code. E-mail and address may be left out
    (the spec's payload has neither); given, they must be the verified ones."""
    errors: dict[str, str] = {}
    found: Quote | None = None
    try:
        amount = parse_btc(form.get("amount"))
        if amount < minimum():
            errors["amount"] = msg.AMOUNT_BELOW_MINIMUM.format(min=btc_text(minimum()), currency=CURRENCY)
        else:
            found = Quote(amount, fee_for(amount))
            if found.total > balance:
                errors["amount"] = msg.TOTAL_EXCEEDS_BALANCE
    except FormErrors as exc:
        errors.update(exc.errors)
    raw_email = str(form.get("email") or "").strip()
    if raw_email:
        email = normalize_email(raw_email)
        if not email:
            errors["email"] = msg.WITHDRAW_EMAIL_INVALID
        elif email.lower() != verification.binance_email.lower():
            errors["email"] = msg.EMAIL_NOT_VERIFIED
    if str(form.get("wallet_address") or "").strip():
        try:
            if check_address(form.get("wallet_address")) != verification.wallet_address:
                errors["wallet_address"] = msg.ADDRESS_NOT_VERIFIED
        except FormErrors as exc:
            errors.update(exc.errors)
    code = str(form.get("code") or "").strip()
    if not code:
        errors["code"] = msg.WITHDRAWAL_CODE_REQUIRED
    elif not wallet_codes.well_formed(code):
        errors["code"] = msg.OTP_WRONG
    return errors, found


_ALLOWANCE_ROW = {"postgresql": postgresql_insert, "sqlite": sqlite_insert}


def _count_request(session: Session, account: Account, month: str) -> None:
    """Takes one of the month's requests, only while some are left (the UPDATE's WHERE decides)."""
    insert = _ALLOWANCE_ROW[session.connection().dialect.name]
    session.execute(
        insert(WithdrawalMonth)
        .values(account_id=account.id, month=month, used=0)
        .on_conflict_do_nothing(index_elements=["account_id", "month"])
    )
    taken = session.execute(
        update(WithdrawalMonth)
        .where(
            col(WithdrawalMonth.account_id) == account.id,
            col(WithdrawalMonth.month) == month,
            col(WithdrawalMonth.used) < settings.wallet_monthly_withdrawals,
        )
        .values(used=WithdrawalMonth.used + 1)
    )
    if taken.rowcount != 1:  # type: ignore[attr-defined]
        raise FormErrors({"amount": msg.LIMIT_REACHED})


def give_back_request(session: Session, withdrawal: Withdrawal) -> None:
    """A rejected request no longer counts against its month (in the caller's transaction)."""
    session.execute(
        update(WithdrawalMonth)
        .where(
            col(WithdrawalMonth.account_id) == withdrawal.account_id,
            col(WithdrawalMonth.month) == withdrawal.month,
            col(WithdrawalMonth.used) > 0,
        )
        .values(used=WithdrawalMonth.used - 1)
    )


def hold_key(withdrawal_id: int) -> str:
    return f"withdrawal-hold:{withdrawal_id}"


def request_key_of(account: Account, key: str) -> str | None:
    """The rider's idempotency key as stored: scoped to the rider, so no one else's key can match it."""
    key = str(key or "").strip()
    if not key:
        return None
    if len(key) > REQUEST_KEY_MAX:
        raise FormErrors({"form": msg.REQUEST_KEY_INVALID})
    return f"{account.id}:{key}"


def _placed_with(session: Session, request_key: str | None) -> Withdrawal | None:
    if request_key is None:
        return None
    return session.exec(select(Withdrawal).where(Withdrawal.request_key == request_key)).first()


def placed_with(session: Session, account: Account, key: str) -> Withdrawal | None:
    """The rider's withdrawal placed with this idempotency key, if any: what became of a request whose
    answer was lost."""
    return _placed_with(session, request_key_of(account, key))


def withdraw(
    session: Session, account: Account, form: dict, now: datetime | None = None, key: str = ""
) -> Withdrawal:
    """POST api/wallet/withdraw: checks every rule, uses up the rider's code (of parallel requests with one
    code, one passes), then places the request in the same transaction. Refused input moves nothing, and
    leaves the code as it was (the balance or the month's limit taken meanwhile). A request sent again
    with the `key` of one already placed (its answer was lost) answers that one and moves nothing."""
    open_for(account)
    request_key = request_key_of(account, key)
    if placed := _placed_with(session, request_key):
        return placed
    verification = approved_verification(session, account)
    now = now or utcnow()
    errors, found = _withdraw_errors(form, ledger.balance(session, account.id, Currency.btc), verification)
    if (
        "amount" not in errors
        and used_this_month(session, account, now) >= settings.wallet_monthly_withdrawals
    ):
        errors["amount"] = msg.LIMIT_REACHED
    if errors or found is None:
        raise FormErrors(errors)
    try:
        wallet_codes.take(
            session,
            account,
            CodePurpose.withdrawal,
            str(form["code"]).strip(),
            verification.binance_email,
            "code",
        )
    except FormErrors:
        # The same request sent twice at once: the other used the code and placed it (read afresh).
        session.rollback()
        if placed := _placed_with(session, request_key):
            return placed
        raise
    try:
        return place_withdrawal(session, account, verification, found, now, request_key)
    except IntegrityError:
        # The same request, sent twice at once, was placed by the other.
        session.rollback()
        if placed := _placed_with(session, request_key):
            return placed
        raise


def place_withdrawal(
    session: Session,
    account: Account,
    verification: WalletVerification,
    found: Quote,
    now: datetime,
    request_key: str | None = None,
) -> Withdrawal:
    """In one transaction: counts the request against the month, keeps it (to the verified address and
    e-mail), holds amount plus fee on the ledger and e-mails the rider that it was made."""
    try:
        _count_request(session, account, month_of(now))
        withdrawal = Withdrawal(
            account_id=account.id,
            amount=found.amount,
            fee=found.fee,
            currency=CURRENCY,
            email=verification.binance_email,
            wallet_address=verification.wallet_address,
            month=month_of(now),
            requested_at=now,
            request_key=request_key,
        )
        session.add(withdrawal)
        session.flush()
        ledger.move(
            session,
            ledger.Move(
                account.id,
                Currency.btc,
                -found.total,
                "withdrawal",
                f"withdrawal:{withdrawal.id}",
                hold_key(withdrawal.id),
            ),
        )
        body = msg.WITHDRAWAL_REQUESTED_BODY.format(
            request_no=request_no(withdrawal),
            amount=btc_text(found.amount),
            fee=btc_text(found.fee),
            address=withdrawal.wallet_address,
            when=local_text(now),
            support=settings.support_email,
        )
        subject = f"{msg.WITHDRAWAL_REQUESTED_SUBJECT} · {settings.site_name}"
        outbox.queue_email(session, account.email, subject, body)
        session.commit()
    except ledger.InsufficientFunds:
        session.rollback()
        raise FormErrors({"amount": msg.TOTAL_EXCEEDS_BALANCE}) from None
    except FormErrors:
        session.rollback()
        raise
    session.refresh(withdrawal)
    return withdrawal
