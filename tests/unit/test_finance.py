"""Finance's decisions: wallet verifications, withdrawals paid or rejected (the hold released exactly) and
prize credits made once, each audited and e-mailed, safe when two officers act at once."""

import pytest
from sqlmodel import Session, select

from cycling_site.messages import race_control as rc_msg
from cycling_site.messages import wallet as msg
from cycling_site.models import (
    Account,
    Currency,
    OutboxMessage,
    PrizeCredit,
    ReviewDecision,
    Withdrawal,
    WithdrawalMonth,
)
from cycling_site.models.wallet import WalletStatus
from cycling_site.services import finance, ledger, wallet
from cycling_site.services.race_control import NotReviewer, ReviewRefused
from tests.unit.conftest import count, race
from tests.unit.wallet_support import BECH32, P2PKH, credit, past_event, verify, withdraw

TX = "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16"


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def officer(make_account):
    return make_account(email="finance@example.com", firstname="Fatima", lastname="Rahman", role="finance")


def refused(call, *args, **kwargs) -> str:
    with pytest.raises(ReviewRefused) as caught:
        call(*args, **kwargs)
    return str(caught.value)


def pending_withdrawal(session: Session, rider, amount: str = "0.002") -> Withdrawal:
    verify(session, rider)
    credit(session, rider.id, 1_000_000)
    return withdraw(session, rider, amount)


# --- Who decides -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["rider", "race_control"])
def test_only_finance_and_admins_decide(session, make_account, rider, role):
    other = make_account(email=f"{role}.other@example.com", role=role)
    verification = verify(session, rider, WalletStatus.pending)
    with pytest.raises(NotReviewer):
        finance.decide_verification(session, other, verification.id, True, "")
    with pytest.raises(NotReviewer):
        finance.prize_events(session, other)
    admin = make_account(email="admin@example.com", role="admin")
    finance.decide_verification(session, admin, verification.id, True, "")


# --- Wallet verifications --------------------------------------------------------------------------------


def test_approving_a_verification_lets_the_rider_withdraw_and_tells_them(session, rider, officer):
    verification = verify(session, rider, WalletStatus.pending)
    (item,) = finance.items(session, officer, "wallet_verification", "pending")
    assert item["rider_email"] == rider.email and ["Phone", "+971501234567"] in item["details"]
    assert [file["content_type"] for file in item["files"]] == ["image/png"]
    finance.decide_verification(session, officer, verification.id, True, "")
    assert wallet.status_of(session, rider) == WalletStatus.approved
    mail = session.exec(select(OutboxMessage)).one()
    assert mail.recipient == rider.email and msg.VERIFICATION_APPROVED_BODY in mail.body
    (decided,) = finance.items(session, officer, "wallet_verification", "approved")
    assert decided["history"][0]["decided_by"] == "Fatima Rahman"


def test_a_rejection_needs_a_reason_and_frees_the_rider_to_verify_again(session, rider, officer):
    verification = verify(session, rider, WalletStatus.pending)
    assert refused(finance.decide_verification, session, officer, verification.id, False, "  ") == (
        rc_msg.REASON_REQUIRED
    )
    finance.decide_verification(session, officer, verification.id, False, "The passport photo is unreadable.")
    session.expire_all()
    row = session.get(type(verification), verification.id)
    assert (row.status, row.current, row.reason) == ("rejected", None, "The passport photo is unreadable.")
    assert (
        "Finance's note: The passport photo is unreadable." in session.exec(select(OutboxMessage)).one().body
    )
    verify(session, rider, WalletStatus.pending)


def test_two_officers_deciding_one_verification_decide_it_once(session, rider, officer, make_account):
    verification = verify(session, rider, WalletStatus.pending)
    second = make_account(email="finance2@example.com", role="finance")

    def decide(own: Session, number: int) -> str:
        who = own.get(Account, officer.id if number % 2 else second.id)
        try:
            finance.decide_verification(own, who, verification.id, number % 2 == 0, "Reason")
        except ReviewRefused as exc:
            return str(exc)
        return "done"

    outcomes = race(decide, 6)
    assert outcomes.count("done") == 1 and set(outcomes) == {"done", rc_msg.ALREADY_DECIDED}
    assert count(session, ReviewDecision) == 1 and count(session, OutboxMessage) == 1


def test_unknown_items_and_queues_are_refused(session, officer):
    assert refused(finance.decide_verification, session, officer, 999, True, "") == rc_msg.NOT_FOUND
    assert refused(finance.decide, session, officer, "registration", 1, True, "") == rc_msg.NOT_FOUND
    assert refused(finance.items, session, officer, "nothing", "pending") == rc_msg.NOT_FOUND
    assert refused(finance.items, session, officer, "withdrawal", "maybe") == rc_msg.UNKNOWN_STATUS


# --- Withdrawals -----------------------------------------------------------------------------------------


def test_paying_a_withdrawal_records_its_transaction_and_keeps_the_hold(session, rider, officer):
    made = pending_withdrawal(session, rider)
    assert finance.pending_counts(session, officer) == {"wallet_verification": 0, "withdrawal": 1}
    assert (
        refused(finance.decide_withdrawal, session, officer, made.id, True, "", " ")
        == msg.TRANSACTION_ID_REQUIRED
    )
    finance.decide_withdrawal(session, officer, made.id, True, "", TX)
    session.expire_all()
    row = session.get(Withdrawal, made.id)
    assert (row.status, row.transaction_id) == ("approved", TX)
    assert ledger.balance(session, rider.id, Currency.btc) == 1_000_000 - 203_000
    told = [message for message in session.exec(select(OutboxMessage)) if TX in message.body]
    assert [message.subject for message in told] == [f"{msg.WITHDRAWAL_PAID_SUBJECT} · RideArena"]
    assert wallet.summary(session, rider)["walletData"]["completedTransactions"] == 1
    shown = wallet.transactions(session, rider)[0][0]
    assert shown["transaction_url"] == f"https://mempool.space/tx/{TX}"


@pytest.mark.parametrize(
    "typed",
    ["paid by cash lol", TX[:-1], TX + "0", TX[:-1] + "g", f"0x{TX[2:]}", "e2e-payout-tx-1"],
    ids=["words", "63-hex", "65-hex", "not-hex", "0x", "made-up"],
)
def test_a_payout_is_recorded_only_with_a_bitcoin_transaction_id(session, rider, officer, typed):
    made = pending_withdrawal(session, rider)
    assert refused(finance.decide_withdrawal, session, officer, made.id, True, "", typed) == (
        msg.TRANSACTION_ID_INVALID
    )
    session.expire_all()
    assert session.get(Withdrawal, made.id).status == "pending"
    finance.decide_withdrawal(session, officer, made.id, True, "", f" {TX.upper()} ")
    session.expire_all()
    assert session.get(Withdrawal, made.id).transaction_id == TX


def test_finance_sees_the_verified_address_beside_the_request_and_a_warning_when_they_differ(
    session, rider, officer
):
    made = pending_withdrawal(session, rider)
    details = dict(finance.withdrawals_for_review(session, "pending")[0]["details"])
    assert details["Pay to"] == details["Verified address"] == BECH32
    assert "Warning" not in details
    # A request kept from before withdrawals were bound to the verified wallet.
    made.wallet_address = P2PKH
    session.add(made)
    session.commit()
    details = dict(finance.withdrawals_for_review(session, "pending")[0]["details"])
    assert (details["Pay to"], details["Verified address"]) == (P2PKH, BECH32)
    assert details["Warning"] == msg.NOT_THE_VERIFIED_ADDRESS


def test_rejecting_a_withdrawal_releases_exactly_the_hold_and_the_months_turn(session, rider, officer):
    made = pending_withdrawal(session, rider, "0.003")
    session.expire_all()
    assert ledger.balance(session, rider.id, Currency.btc) == 1_000_000 - 304_500
    finance.decide_withdrawal(
        session, officer, made.id, False, "The address belongs to an exchange we cannot pay."
    )
    session.expire_all()
    assert ledger.balance(session, rider.id, Currency.btc) == 1_000_000
    assert ledger.entries_total(session, rider.id, Currency.btc) == 1_000_000
    assert session.exec(select(WithdrawalMonth.used)).one() == 0
    assert session.get(Withdrawal, made.id).status == "rejected"
    # Decided once: a second rejection moves nothing more.
    assert (
        refused(finance.decide_withdrawal, session, officer, made.id, False, "Again")
        == rc_msg.ALREADY_DECIDED
    )
    session.expire_all()
    assert ledger.balance(session, rider.id, Currency.btc) == 1_000_000


def test_racing_rejections_release_the_hold_once(session, rider, officer):
    made = pending_withdrawal(session, rider)

    def reject(own: Session, _number: int) -> bool:
        try:
            finance.decide_withdrawal(own, own.get(Account, officer.id), made.id, False, "No")
        except ReviewRefused:
            return False
        return True

    assert sum(race(reject, 10)) == 1
    session.expire_all()
    assert ledger.balance(session, rider.id, Currency.btc) == 1_000_000


# --- Prize credits ---------------------------------------------------------------------------------------


def test_a_prize_is_credited_once_with_the_event_as_reference(session, rider, officer):
    event = past_event(session, rider)
    credit_made = finance.credit_prize(session, officer, event.id, rider.id, "0.0125")
    assert credit_made.amount == 1_250_000
    assert ledger.balance(session, rider.id, Currency.btc) == 1_250_000
    mail = session.exec(select(OutboxMessage)).one()
    assert "0.012500 BTC of prize money from Hatta Hills Time Trial" in mail.body
    assert (
        refused(finance.credit_prize, session, officer, event.id, rider.id, "0.0125")
        == msg.PRIZE_ALREADY_CREDITED
    )
    session.expire_all()
    assert ledger.balance(session, rider.id, Currency.btc) == 1_250_000
    (shown,) = finance.prize_events(session, officer)
    assert shown["riders"] == [
        {
            "account_id": rider.id,
            "name": "Layla Haddad",
            "email": rider.email,
            "credited": "0.012500",
            "credited_at": shown["riders"][0]["credited_at"],
        }
    ]


def test_parallel_prize_credits_for_one_rider_credit_once(session, rider, officer):
    event = past_event(session, rider)

    def credit_prize(own: Session, _number: int) -> bool:
        try:
            finance.credit_prize(own, own.get(Account, officer.id), event.id, rider.id, "0.001")
        except ReviewRefused:
            return False
        return True

    assert sum(race(credit_prize, 10)) == 1
    session.expire_all()
    assert ledger.balance(session, rider.id, Currency.btc) == 100_000
    assert count(session, PrizeCredit) == 1


def test_prizes_go_only_to_riders_of_past_events_in_valid_amounts(session, rider, officer, make_account):
    outsider = make_account(email="outsider@example.com")
    event = past_event(session, rider)
    upcoming = past_event(session, rider, days_ago=-3)
    assert (
        refused(finance.credit_prize, session, officer, event.id, outsider.id, "0.001") == msg.PRIZE_NOT_RIDER
    )
    assert refused(finance.credit_prize, session, officer, upcoming.id, rider.id, "0.001") == (
        msg.PRIZE_EVENT_NOT_OVER
    )
    for amount in ("", "0", "-1", "abc", "0.0000001"):
        assert (
            refused(finance.credit_prize, session, officer, event.id, rider.id, amount)
            == msg.PRIZE_AMOUNT_INVALID
        )
    assert refused(finance.credit_prize, session, officer, 999, rider.id, "0.001") == rc_msg.NOT_FOUND
    assert count(session, PrizeCredit) == 0 and ledger.balance(session, rider.id, Currency.btc) == 0
