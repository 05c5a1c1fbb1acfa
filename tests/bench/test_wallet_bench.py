"""Speed of the wallet in the service (run with --benchmark-only, on PostgreSQL with ./scripts/with-postgres);
budgets asserted: 150 withdrawals a second, and a rider's wallet page (summary and first page of
transactions) read in under 20 ms.

A withdrawal is the wallet's heaviest write: every rule checked (the Bitcoin address decoded and its
checksum verified), the month's count taken by a guarded update, the request kept and the hold written on
the ledger, committed on its own."""

from datetime import UTC, date, datetime

import pytest
from sqlmodel import Session, delete, select

from cycling_site.models import (
    Account,
    Balance,
    Currency,
    LedgerEntry,
    RiderFile,
    WalletVerification,
    Withdrawal,
    WithdrawalMonth,
)
from cycling_site.services import ledger, wallet
from cycling_site.services.ledger import Move
from tests.unit.wallet_support import BECH32

RIDERS = 40
PER_RIDER = 5
WITHDRAWALS = RIDERS * PER_RIDER
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _riders(session: Session) -> list[int]:
    for table in (WithdrawalMonth, Withdrawal, WalletVerification, RiderFile, LedgerEntry, Balance, Account):
        session.exec(delete(table))
    riders = [
        Account(
            email=f"bench{n}@example.com",
            password_hash="-",
            firstname="Bench",
            lastname="Rider",
            dob=date(1990, 1, 1),
        )
        for n in range(RIDERS)
    ]
    session.add_all(riders)
    session.commit()
    for rider in riders:
        passport = RiderFile(
            account_id=rider.id,
            kind="passport_proof",
            name="p.png",
            content_type="image/png",
            stored_as=f"{rider.id:032x}.png",
            size=1,
        )
        session.add(passport)
        session.flush()
        session.add(
            WalletVerification(
                account_id=rider.id,
                binance_email=rider.email,
                phone="+971501234567",
                wallet_address=BECH32,
                passport_file_id=passport.id,
                status="approved",
            )
        )
        ledger.move(session, Move(rider.id, Currency.btc, 100_000_000, "prize", "", f"bench:{rider.id}"))
    session.commit()
    return [rider.id for rider in riders]


def _withdraw_all(session: Session, rider_ids: list[int]) -> None:
    for rider_id in rider_ids:
        rider = session.get(Account, rider_id)
        for _ in range(PER_RIDER):
            wallet.withdraw(
                session, rider, {"amount": "0.001", "email": rider.email, "wallet_address": BECH32}, NOW
            )


def test_a_hundred_and_fifty_withdrawals_a_second(benchmark, session):
    benchmark.pedantic(_withdraw_all, setup=lambda: ((session, _riders(session)), {}), rounds=5, iterations=1)
    session.expire_all()
    assert len(session.exec(select(Withdrawal.id)).all()) == WITHDRAWALS
    assert set(session.exec(select(Balance.amount)).all()) == {100_000_000 - PER_RIDER * 101_500}
    per_second = WITHDRAWALS / benchmark.stats.stats.median
    benchmark.extra_info["withdrawals_per_second"] = round(per_second)
    assert per_second >= 150


@pytest.fixture
def busy_rider(session) -> Account:
    """A rider with a year of withdrawals (the most the limit allows: 60)."""
    (rider_id, *_) = _riders(session)
    rider = session.get(Account, rider_id)
    for month in range(1, 13):
        for _ in range(PER_RIDER):
            made = {"amount": "0.001", "email": rider.email, "wallet_address": BECH32}
            wallet.withdraw(session, rider, made, datetime(2026, month, 10, tzinfo=UTC))
    return rider


def test_the_wallet_page_reads_in_twenty_milliseconds(benchmark, session, busy_rider):
    def read_wallet() -> None:
        wallet.summary(session, busy_rider, NOW)
        rows, meta = wallet.transactions(session, busy_rider, 1, wallet.PER_PAGE, "")
        assert len(rows) == 10 and meta["total"] == 60

    benchmark.pedantic(read_wallet, rounds=50, iterations=1)
    benchmark.extra_info["wallet_page_ms"] = round(benchmark.stats.stats.median * 1000, 2)
    assert benchmark.stats.stats.median < 0.020
