"""Speed of the shop's money path in the service (run with --benchmark-only, on PostgreSQL with
./scripts/with-postgres); budget asserted: the ledger keeps 1,000 item purchases a second.

Each round: 50 riders, each with coins enough, buy every item on offer (50 x 21 = 1,050 purchases, each a
guarded ledger debit, its entry and the garage row, committed on its own). The site serves from one
worker process per core, so the budget is for two processes buying at once; one process alone is
measured too."""

import uuid
from collections.abc import Iterator
from datetime import date
from multiprocessing import get_context
from multiprocessing.pool import Pool

import pytest
from sqlmodel import Session, delete, select

from cycling_site.db import engine
from cycling_site.models import Account, Balance, Currency, LedgerEntry, OwnedItem
from cycling_site.services import ledger, shop
from cycling_site.services.ledger import Move
from cycling_site.services.shop_catalogue import ITEMS

RIDERS = 50
WORKERS = 2
OFFERED = [item for item in ITEMS if item.offered]
PURCHASES = RIDERS * len(OFFERED)


def _riders(session: Session) -> list[int]:
    for table in (OwnedItem, LedgerEntry, Balance, Account):
        session.exec(delete(table))
    riders = [
        Account(
            email=f"bench{n}@example.com",
            password_hash="-",
            firstname="Bench",
            lastname="Rider",
            dob=date(1990, 1, 1),
            level=30,
        )
        for n in range(RIDERS)
    ]
    session.add_all(riders)
    session.commit()
    for rider in riders:
        ledger.move(session, Move(rider.id, Currency.coin, 1_000_000, "bench", "", uuid.uuid4().hex))
    session.commit()
    return [rider.id for rider in riders]


def _buy_everything(rider_ids: list[int]) -> None:
    with Session(engine, expire_on_commit=False) as session:
        for rider_id in rider_ids:
            rider = session.get(Account, rider_id)
            for item in OFFERED:
                shop.purchase_item(session, rider, item.id)


@pytest.fixture
def workers() -> Iterator[Pool]:
    """Worker processes started afresh (not forked: a database connection must not cross a fork)."""
    with get_context("spawn").Pool(WORKERS) as pool:
        yield pool


def _check_and_rate(session: Session, benchmark) -> float:
    balances = session.exec(select(Balance.amount).where(Balance.currency == Currency.coin)).all()
    assert balances == [1_000_000 - sum(item.coins for item in OFFERED)] * RIDERS
    assert len(session.exec(select(OwnedItem.id)).all()) == PURCHASES
    per_second = PURCHASES / benchmark.stats.stats.median
    benchmark.extra_info["purchases_per_second"] = round(per_second)
    return per_second


def test_the_ledger_keeps_a_thousand_purchases_a_second(benchmark, session, workers):
    def buy_in_workers(rider_ids: list[int]) -> None:
        workers.map(_buy_everything, [rider_ids[n::WORKERS] for n in range(WORKERS)])

    benchmark.pedantic(buy_in_workers, setup=lambda: ((_riders(session),), {}), rounds=5, iterations=1)
    assert _check_and_rate(session, benchmark) >= 1000


def test_purchases_in_one_process(benchmark, session):
    benchmark.pedantic(_buy_everything, setup=lambda: ((_riders(session),), {}), rounds=5, iterations=1)
    assert _check_and_rate(session, benchmark) >= 500
