"""The ledger: every change is an entry, balances equal their entries' sum, never below zero, never twice.

The races run on whichever database the suite runs on (SQLite, and PostgreSQL with TEST_DB_URL)."""

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from cycling_site.models.ledger import Balance, Currency, LedgerEntry
from cycling_site.services import ledger
from cycling_site.services.ledger import InsufficientFunds, Move
from tests.unit.conftest import race

COIN = Currency.coin


@pytest.fixture
def rider(make_account):
    return make_account()


def _move(account_id: int, amount: int, key: str | None = None, currency: Currency = COIN) -> Move:
    return Move(account_id, currency, amount, "test", "", key or uuid.uuid4().hex)


def _apply(session: Session, change: Move) -> bool:
    """One change in its own transaction, as a request makes it: committed, or rolled back."""
    try:
        moved = ledger.move(session, change)
    except InsufficientFunds:
        session.rollback()
        raise
    session.commit()
    return moved


def test_a_credit_and_a_debit_are_entries_and_a_balance(session, rider):
    assert _apply(session, _move(rider.id, 500))
    assert _apply(session, _move(rider.id, -120))
    assert ledger.balance(session, rider.id, COIN) == 380
    assert [entry.amount for entry in session.exec(select(LedgerEntry))] == [500, -120]
    assert ledger.balances(session, rider.id) == {Currency.coin: 380, Currency.gem: 0, Currency.btc: 0}


def test_a_debit_beyond_the_balance_moves_nothing(session, rider):
    _apply(session, _move(rider.id, 100))
    with pytest.raises(InsufficientFunds) as refused:
        _apply(session, _move(rider.id, -101))
    assert refused.value.currency == COIN
    assert ledger.balance(session, rider.id, COIN) == 100
    assert ledger.entries_total(session, rider.id, COIN) == 100


def test_a_debit_with_no_balance_at_all_is_refused(session, rider):
    with pytest.raises(InsufficientFunds):
        _apply(session, _move(rider.id, -1, currency=Currency.gem))
    assert session.exec(select(LedgerEntry)).all() == []


def test_the_same_key_moves_money_once(session, rider):
    assert _apply(session, _move(rider.id, 300, key="order-1")) is True
    assert _apply(session, _move(rider.id, 300, key="order-1")) is False
    assert ledger.balance(session, rider.id, COIN) == 300
    # The key is unique per currency: the same key may serve a gem change.
    assert _apply(session, _move(rider.id, 5, key="order-1", currency=Currency.gem)) is True


@pytest.mark.parametrize("amount", [0, 1.5, True, "10"])
def test_only_whole_numbers_other_than_zero_move(session, rider, amount):
    with pytest.raises(ValueError):
        ledger.move(session, _move(rider.id, amount))


def test_a_change_needs_a_known_currency_and_a_key(session, rider):
    with pytest.raises(ValueError):
        ledger.move(session, Move(rider.id, "EUR", 10, "test", "", "k"))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ledger.move(session, Move(rider.id, COIN, 10, "test", "", ""))


def test_the_database_itself_refuses_a_negative_balance(session, rider):
    session.add(Balance(account_id=rider.id, currency=COIN, amount=-1))
    with pytest.raises(Exception):  # noqa: B017 - the CHECK constraint, as each database words it
        session.commit()


# Any sequence of credits, debits (some refused) and retried keys.
changes = st.lists(
    st.tuples(st.integers(min_value=-400, max_value=400).filter(bool), st.integers(min_value=0, max_value=7)),
    min_size=1,
    max_size=30,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=changes)
def test_any_sequence_keeps_the_balance_the_sum_of_entries_and_never_negative(session, make_account, changes):
    rider = make_account(email=f"{uuid.uuid4().hex}@example.com")
    expected, seen = 0, set()
    for amount, key_number in changes:
        key = f"{rider.id}-k{key_number}-{amount}"
        try:
            moved = _apply(session, _move(rider.id, amount, key=key))
        except InsufficientFunds:
            assert expected + amount < 0 and key not in seen
            continue
        assert moved == (key not in seen)
        if moved:
            seen.add(key)
            expected += amount
        assert ledger.balance(session, rider.id, COIN) == expected >= 0
        assert ledger.entries_total(session, rider.id, COIN) == expected


# --- Races: many requests, one balance -------------------------------------------------------------------


def test_fifty_parallel_debits_against_ten_never_overdraw(session, rider):
    _apply(session, _move(rider.id, 100))

    def debit(own: Session, _number: int) -> bool:
        try:
            return _apply(own, _move(rider.id, -10))
        except InsufficientFunds:
            return False

    assert sum(race(debit, 50)) == 10
    session.expire_all()
    assert ledger.balance(session, rider.id, COIN) == 0
    assert ledger.entries_total(session, rider.id, COIN) == 0
    assert len(session.exec(select(LedgerEntry).where(LedgerEntry.amount < 0)).all()) == 10


def test_twenty_parallel_credits_with_one_key_credit_once(session, rider):
    moved = race(lambda own, _number: _apply(own, _move(rider.id, 250, key="webhook-evt-1")), 20)
    assert sum(moved) == 1
    session.expire_all()
    assert ledger.balance(session, rider.id, COIN) == 250


def test_parallel_first_credits_make_one_balance_row(session, rider):
    assert all(race(lambda own, number: _apply(own, _move(rider.id, number + 1)), 20))
    session.expire_all()
    assert ledger.balance(session, rider.id, COIN) == sum(range(1, 21))
    assert len(session.exec(select(Balance)).all()) == 1
