"""The one ledger for all money: coins, gems and, for the wallet, BTC in satoshi.

`move` records a signed change and applies it to the cached balance in the caller's transaction: the
entry first (its idempotency key claims the change, so a retry changes nothing), then a guarded UPDATE
(a debit only WHERE amount >= what it takes). Whatever goes wrong, the caller rolls back and nothing moved.
"""

from dataclasses import dataclass

from sqlalchemy import bindparam, func, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, col, select

from cycling_site.models.common import utcnow
from cycling_site.models.ledger import Balance, Currency, LedgerEntry

CURRENCIES = tuple(Currency)
KEY_MAX = 120


class InsufficientFunds(Exception):
    """A debit larger than the balance: nothing was moved."""

    def __init__(self, currency: str):
        super().__init__(f"Not enough {currency}")
        self.currency = currency


@dataclass(frozen=True)
class Move:
    account_id: int
    currency: Currency
    amount: int
    reason: str
    reference: str
    idempotency_key: str


def balance(session: Session, account_id: int, currency: Currency) -> int:
    found = session.exec(
        select(Balance.amount).where(Balance.account_id == account_id, Balance.currency == currency)
    ).first()
    return found or 0


def balances(session: Session, account_id: int) -> dict[Currency, int]:
    rows = session.exec(select(Balance).where(Balance.account_id == account_id)).all()
    found = {row.currency: row.amount for row in rows}
    return {currency: found.get(currency, 0) for currency in CURRENCIES}


def entries_total(session: Session, account_id: int, currency: Currency) -> int:
    """The sum of the entries, which the cached balance always equals."""
    total = session.exec(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
            LedgerEntry.account_id == account_id, LedgerEntry.currency == currency
        )
    ).one()
    return int(total)


def _statements(insert) -> dict:
    """The ledger's three writes for one dialect, built once with parameters (a purchase is on the hot
    path: building statements per call cost more than running them)."""
    # An INSERT without VALUES takes its columns from the parameters it is run with.
    entry, credit = insert(LedgerEntry), insert(Balance)
    return {
        # The entry, unless its key was written before (then the change is already done).
        "claim": entry.on_conflict_do_nothing(index_elements=["currency", "idempotency_key"]).returning(
            LedgerEntry.id
        ),
        "debit": update(Balance)
        .where(
            col(Balance.account_id) == bindparam("debited"),
            col(Balance.currency) == bindparam("debited_currency"),
            col(Balance.amount) >= bindparam("taken"),
        )
        .values(amount=Balance.amount - bindparam("taken")),
        "credit": credit.on_conflict_do_update(
            index_elements=["account_id", "currency"],
            set_={"amount": Balance.amount + credit.excluded.amount},
        ),
    }


# SQLite and PostgreSQL alike can say what to do ON CONFLICT, each with its own INSERT.
_STATEMENTS = {"postgresql": _statements(postgresql_insert), "sqlite": _statements(sqlite_insert)}


def _apply(session: Session, change: Move) -> bool:
    """Runs on the session's connection: plain SQL, without the ORM's bookkeeping for these rows."""
    connection = session.connection()
    statements = _STATEMENTS[connection.dialect.name]
    owner = {"account_id": change.account_id, "currency": str(change.currency)}
    entry = {
        **owner,
        "amount": change.amount,
        "reason": change.reason,
        "reference": change.reference,
        "idempotency_key": change.idempotency_key,
        "created_at": utcnow(),
    }
    if connection.execute(statements["claim"], entry).first() is None:
        return False
    if change.amount > 0:
        connection.execute(statements["credit"], {**owner, "amount": change.amount})
        return True
    debit = {"debited": change.account_id, "debited_currency": str(change.currency), "taken": -change.amount}
    if connection.execute(statements["debit"], debit).rowcount != 1:
        raise InsufficientFunds(change.currency)
    return True


def move(session: Session, change: Move) -> bool:
    """Records and applies one change in the caller's transaction (the caller commits).

    Answers False, changing nothing, when the key was recorded before; a debit beyond the balance raises
    InsufficientFunds, and the caller rolls back."""
    if change.currency not in CURRENCIES:
        raise ValueError(f"Unknown currency {change.currency!r}")
    if not isinstance(change.amount, int) or isinstance(change.amount, bool) or change.amount == 0:
        raise ValueError("A ledger amount is a whole number other than zero")
    if not change.idempotency_key or len(change.idempotency_key) > KEY_MAX:
        raise ValueError("A ledger change needs an idempotency key")
    return _apply(session, change)
