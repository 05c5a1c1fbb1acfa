"""The prize wallet: amounts, fee, Bitcoin addresses, the summary, transactions and withdrawals held on the
ledger, raced on whichever database the suite runs on (SQLite, and PostgreSQL with TEST_DB_URL)."""

import re
from datetime import UTC, datetime

import pytest
from sqlmodel import Session, select

from cycling_site.messages import wallet as msg
from cycling_site.models import Account, Currency, LedgerEntry, OutboxMessage, Withdrawal, WithdrawalMonth
from cycling_site.models.wallet import WalletStatus
from cycling_site.services import ledger, wallet
from cycling_site.services.validation import FormErrors, TooManyAttempts
from cycling_site.settings import settings
from tests.unit.conftest import form_errors, race
from tests.unit.wallet_support import (
    BECH32,
    BECH32M,
    P2PKH,
    P2SH,
    SAT,
    TESTNET,
    credit,
    use_wallet_settings,
    verify,
    withdraw,
    withdrawal_code,
)
from tests.unit.wallet_support import withdrawal_form as form

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def verified(session, rider):
    verify(session, rider)
    return rider


@pytest.fixture
def other_verified(session, make_account):
    other = make_account(email="other.rider@example.com")
    verify(session, other)
    return other


# --- Amounts and the fee ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "satoshi"),
    [
        ("1", SAT),
        ("0.000001", 100),
        (".5", SAT // 2),
        ("2.", 2 * SAT),
        (" 0.0125 ", 1_250_000),
        ("0.1000000", SAT // 10),
    ],
)
def test_amounts_as_typed_are_whole_satoshi(typed, satoshi):
    assert wallet.parse_btc(typed) == satoshi


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", msg.AMOUNT_REQUIRED),
        ("   ", msg.AMOUNT_REQUIRED),
        ("abc", msg.AMOUNT_NOT_NUMBER),
        ("1a", msg.AMOUNT_NOT_NUMBER),
        ("1.2.3", msg.AMOUNT_NOT_NUMBER),
        ("1e-3", msg.AMOUNT_NOT_NUMBER),
        ("NaN", msg.AMOUNT_NOT_NUMBER),
        ("0x10", msg.AMOUNT_NOT_NUMBER),
        ("1" * 40, msg.AMOUNT_NOT_NUMBER),
        ("0", msg.AMOUNT_NOT_POSITIVE),
        ("0.000000", msg.AMOUNT_NOT_POSITIVE),
        ("-1", msg.AMOUNT_NOT_POSITIVE),
        ("0.0000001", msg.AMOUNT_TOO_PRECISE),
        ("1.12345678", msg.AMOUNT_TOO_PRECISE),
        ("21000001", msg.TOTAL_EXCEEDS_BALANCE),
    ],
)
def test_bad_amounts_answer_the_spec_messages(typed, message):
    assert form_errors(wallet.parse_btc, typed) == {"amount": message}


def test_the_fee_is_a_percent_added_on_top_rounded_up_to_the_shown_step(monkeypatch):
    use_wallet_settings(monkeypatch, wallet_fee_percent="1.5")
    assert wallet.fee_for(SAT) == 1_500_000
    # 1.5 % of 0.000100 BTC is 0.0000015: shown with 6 decimals, it is charged as 0.000002.
    assert wallet.fee_for(10_000) == 200
    found = wallet.quote("0.001")
    assert (found.amount, found.fee, found.total) == (100_000, 1_500, 101_500)
    assert wallet.quote("1.2.3") is None
    use_wallet_settings(monkeypatch, wallet_fee_percent="0")
    assert wallet.fee_for(SAT) == 0


def test_btc_is_shown_with_six_decimals():
    assert wallet.btc_text(0) == "0.000000"
    assert wallet.btc_text(1_070_200) == "0.010702"
    assert wallet.btc_text(21_000_000 * SAT) == "21000000.000000"


# --- Bitcoin addresses -----------------------------------------------------------------------------------


@pytest.mark.parametrize("address", [BECH32, BECH32M, P2PKH, P2SH, BECH32.upper()])
def test_real_mainnet_addresses_are_accepted(address):
    assert wallet.check_address(f"  {address} ").lower() == address.lower()


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("", msg.WITHDRAW_ADDRESS_REQUIRED),
        (BECH32[:-1] + "x", msg.ADDRESS_INVALID),  # bech32 checksum
        (BECH32M[:-1] + "8", msg.ADDRESS_INVALID),  # bech32m checksum
        (P2PKH[:-1] + "3", msg.ADDRESS_INVALID),  # base58check checksum
        ("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdQ", msg.ADDRESS_INVALID),  # mixed case
        ("not-an-address", msg.ADDRESS_INVALID),
        ("0x52908400098527886E0F7030069857D2E4169EE7", msg.ADDRESS_INVALID),  # an Ethereum address
        ("bc1qé" + "q" * 30, msg.ADDRESS_INVALID),
        ("1" * 150, msg.ADDRESS_INVALID),
        (TESTNET, msg.ADDRESS_WRONG_NETWORK),
    ],
)
def test_bad_addresses_are_refused(address, message):
    assert form_errors(wallet.check_address, address) == {"wallet_address": message}


def test_a_testnet_site_takes_testnet_addresses_only(monkeypatch):
    use_wallet_settings(monkeypatch, wallet_btc_network="test")
    assert wallet.check_address(TESTNET) == TESTNET
    assert form_errors(wallet.check_address, BECH32) == {"wallet_address": msg.ADDRESS_WRONG_NETWORK}


# --- Summary and transactions ----------------------------------------------------------------------------


def test_an_unverified_rider_with_no_money_sees_zero_and_verify(session, rider):
    found = wallet.summary(session, rider, NOW)
    assert found["user"]["verificationStatus"] == "unverified" and found["user"]["verified"] is False
    assert found["user"]["countryFlag"] == "🇦🇪" and found["user"]["name"] == "Layla Haddad"
    data = found["walletData"]
    assert data["balance"] == "0.000000" and data["currency"] == "BTC" and data["lastUpdated"] is None
    assert data["maxTransactionsPerMonth"] == 5 and data["remainingTransactions"] == 5
    assert data["minimumTransaction"] == "0.000001"


def test_the_summary_counts_withdrawals_and_the_month(session, verified):
    credit(session, verified.id, 1_000_000)
    first = withdraw(session, verified, "0.002", NOW)
    withdraw(session, verified, "0.001", NOW)
    first.status = "approved"
    session.add(first)
    session.commit()
    data = wallet.summary(session, verified, NOW)["walletData"]
    # 0.01 - (0.002 + 0.00003) - (0.001 + 0.000015)
    assert data["balance"] == "0.006955"
    assert data["totalWithdrawals"] == "0.002000"
    assert (data["pendingRequests"], data["completedTransactions"]) == (1, 1)
    assert (data["currentMonthTransactions"], data["remainingTransactions"]) == (2, 3)
    assert data["lastUpdated"] is not None
    assert wallet.summary(session, verified, NOW)["user"]["walletAddress"] == BECH32


def test_transactions_are_paged_newest_first_and_searched(session, verified, monkeypatch):
    use_wallet_settings(monkeypatch, wallet_monthly_withdrawals=20)
    credit(session, verified.id, 10 * SAT)
    made = [withdraw(session, verified, f"0.00{n + 1}", NOW) for n in range(8)]
    made += [withdraw(session, verified, f"0.01{n}", NOW) for n in range(4)]
    rows, meta = wallet.transactions(session, verified, page=1, per_page=10)
    assert meta == {"current_page": 1, "last_page": 2, "total": 12, "per_page": 10}
    assert rows[0]["request_no"] == wallet.request_no(made[-1]) and len(rows) == 10
    rows, meta = wallet.transactions(session, verified, page=2)
    assert len(rows) == 2 and meta["current_page"] == 2
    rows, meta = wallet.transactions(session, verified, search="0.003")
    assert [row["amount"] for row in rows] == ["0.003000"]
    rows, _ = wallet.transactions(session, verified, search=wallet.request_no(made[0]).lower())
    assert [row["id"] for row in rows] == [made[0].id]
    assert wallet.transactions(session, verified, search="nothing like it") == (
        [],
        {"current_page": 1, "last_page": 1, "total": 0, "per_page": 10},
    )
    # A page past the end shows the last one.
    assert wallet.transactions(session, verified, page=99)[1]["current_page"] == 2


def test_another_riders_withdrawals_are_not_listed(session, verified, make_account):
    other = make_account(email="other@example.com")
    verify(session, other)
    credit(session, other.id, SAT)
    withdraw(session, other, now=NOW)
    assert wallet.transactions(session, verified)[0] == []


# --- Withdrawals -----------------------------------------------------------------------------------------


def test_a_withdrawal_holds_amount_plus_fee_on_the_ledger_and_tells_the_rider(session, verified):
    credit(session, verified.id, 1_000_000)
    code = withdrawal_code(session, verified)
    made = wallet.withdraw(session, verified, form("0.004", code, email=" Rider@Example.com "), NOW)
    assert (made.amount, made.fee, made.status, made.email) == (
        400_000,
        6_000,
        "pending",
        "rider@example.com",
    )
    assert made.month == "2026-11" and made.wallet_address == BECH32
    session.expire_all()
    assert ledger.balance(session, verified.id, Currency.btc) == 1_000_000 - 406_000
    assert ledger.entries_total(session, verified.id, Currency.btc) == 594_000
    hold = session.exec(
        select(LedgerEntry).where(LedgerEntry.idempotency_key == wallet.hold_key(made.id))
    ).one()
    assert hold.amount == -406_000
    told = session.exec(
        select(OutboxMessage).where(
            OutboxMessage.subject == f"{msg.WITHDRAWAL_REQUESTED_SUBJECT} · {settings.site_name}"
        )
    ).one()
    assert told.recipient == verified.email
    assert wallet.request_no(made) in told.body and "0.004000 BTC" in told.body and BECH32 in told.body
    # The code confirmed this withdrawal: it confirms no other.
    assert form_errors(wallet.withdraw, session, verified, form("0.001", code), NOW) == {
        "code": msg.OTP_WRONG
    }


def test_the_code_goes_to_the_verified_email_once_a_minute(session, verified):
    assert wallet.request_withdrawal_code(session, verified) == verified.email
    sent = session.exec(select(OutboxMessage).where(OutboxMessage.recipient == verified.email)).one()
    assert sent.subject == f"{msg.WITHDRAWAL_CODE_SUBJECT} · {settings.site_name}" and re.search(
        r"\b\d{6}\b", sent.body
    )
    with pytest.raises(TooManyAttempts) as waiting:
        wallet.request_withdrawal_code(session, verified)
    assert waiting.value.errors["code"].startswith("Please wait")


@pytest.mark.parametrize(
    ("values", "errors"),
    [
        (form(""), {"amount": msg.AMOUNT_REQUIRED}),
        (form("1a"), {"amount": msg.AMOUNT_NOT_NUMBER}),
        (form("1..2"), {"amount": msg.AMOUNT_NOT_NUMBER}),
        (form("0.0000005"), {"amount": msg.AMOUNT_TOO_PRECISE}),
        (form("0"), {"amount": msg.AMOUNT_NOT_POSITIVE}),
        (form("-0.001"), {"amount": msg.AMOUNT_NOT_POSITIVE}),
        # 0.01 would cost 0.01015 with the fee: more than the 0.01 held.
        (form("0.01"), {"amount": msg.TOTAL_EXCEEDS_BALANCE}),
        (form(email="layla@"), {"email": msg.WITHDRAW_EMAIL_INVALID}),
        # The money goes to the verified wallet only: another e-mail or address is refused, not used.
        (form(email="thief@example.com"), {"email": msg.EMAIL_NOT_VERIFIED}),
        (form(wallet_address=P2PKH), {"wallet_address": msg.ADDRESS_NOT_VERIFIED}),
        (form(wallet_address=TESTNET), {"wallet_address": msg.ADDRESS_WRONG_NETWORK}),
        (form(wallet_address=BECH32[:-1] + "x"), {"wallet_address": msg.ADDRESS_INVALID}),
        (form(code=""), {"code": msg.WITHDRAWAL_CODE_REQUIRED}),
        (form(code="12ab56"), {"code": msg.OTP_WRONG}),
        (form(code="1234567"), {"code": msg.OTP_WRONG}),
    ],
)
def test_bad_withdrawals_move_nothing(session, verified, values, errors):
    credit(session, verified.id, 1_000_000)
    values = {"code": withdrawal_code(session, verified), **values}
    assert form_errors(wallet.withdraw, session, verified, values, NOW) == errors
    session.expire_all()
    assert ledger.balance(session, verified.id, Currency.btc) == 1_000_000
    assert session.exec(select(Withdrawal)).all() == []
    assert session.exec(select(WithdrawalMonth)).all() == []


def test_a_wrong_code_moves_nothing_and_five_end_it(session, verified):
    credit(session, verified.id, 1_000_000)
    code = withdrawal_code(session, verified)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _attempt in range(5):
        assert form_errors(wallet.withdraw, session, verified, form("0.001", wrong), NOW) == {
            "code": msg.OTP_WRONG
        }
    assert form_errors(wallet.withdraw, session, verified, form("0.001", code), NOW) == {
        "code": msg.OTP_WRONG
    }
    session.expire_all()
    assert session.exec(select(Withdrawal)).all() == []
    assert ledger.balance(session, verified.id, Currency.btc) == 1_000_000


def test_below_the_minimum_names_it(session, verified, monkeypatch):
    use_wallet_settings(monkeypatch, wallet_minimum_withdrawal="0.0005")
    credit(session, verified.id, SAT)
    assert form_errors(wallet.withdraw, session, verified, form("0.0004", "123456"), NOW) == {
        "amount": "Minimum withdrawal amount is 0.000500 BTC"
    }


def test_every_field_is_told_at_once(session, verified):
    values = form("x", "", email="nobody@", wallet_address="nothing")
    assert form_errors(wallet.withdraw, session, verified, values, NOW) == {
        "amount": msg.AMOUNT_NOT_NUMBER,
        "email": msg.WITHDRAW_EMAIL_INVALID,
        "wallet_address": msg.ADDRESS_INVALID,
        "code": msg.WITHDRAWAL_CODE_REQUIRED,
    }


@pytest.mark.parametrize("status", [None, WalletStatus.pending, WalletStatus.rejected])
def test_only_approved_accounts_withdraw(session, rider, status):
    if status:
        verify(session, rider, status)
    credit(session, rider.id, SAT)
    for attempt in (
        lambda: wallet.withdraw(session, rider, form("0.001", "123456"), NOW),
        lambda: wallet.request_withdrawal_code(session, rider),
    ):
        with pytest.raises(wallet.NotVerified) as refused:
            attempt()
        assert refused.value.errors == {"account": msg.NOT_VERIFIED} and refused.value.status_code == 403


def test_kids_have_no_wallet(session, make_account):
    kid = make_account(email="kid@example.com", is_kid=True)
    for call in (wallet.summary, wallet.transactions):
        with pytest.raises(wallet.WalletClosed):
            call(session, kid)
    with pytest.raises(wallet.WalletClosed):
        wallet.withdraw(session, kid, form("0.001", "123456"), NOW)
    with pytest.raises(wallet.WalletClosed):
        wallet.request_withdrawal_code(session, kid)


def test_the_monthly_limit_counts_requests_and_starts_again_next_month(session, verified, monkeypatch):
    use_wallet_settings(monkeypatch, wallet_monthly_withdrawals=2)
    credit(session, verified.id, SAT)
    withdraw(session, verified, now=NOW)
    withdraw(session, verified, now=NOW)
    with pytest.raises(FormErrors) as refused:
        withdraw(session, verified, now=NOW)
    assert refused.value.errors == {"amount": msg.LIMIT_REACHED}
    assert wallet.summary(session, verified, NOW)["walletData"]["remainingTransactions"] == 0
    withdraw(session, verified, now=datetime(2026, 12, 1, tzinfo=UTC))
    assert len(session.exec(select(Withdrawal)).all()) == 3


# --- Races: many requests, one balance -------------------------------------------------------------------


def _racing_placement(rider_id: int, amount: str):
    """Places a withdrawal past the rider's code (each request proved its own), as many riders' tabs would."""

    def work(own: Session, _number: int) -> bool:
        rider = own.get(Account, rider_id)
        try:
            verification = wallet.approved_verification(own, rider)
            wallet.place_withdrawal(own, rider, verification, wallet.quote(amount), NOW)
        except FormErrors:
            own.rollback()
            return False
        return True

    return work


def test_twenty_parallel_withdrawals_against_a_balance_for_three_hold_exactly_three(session, verified):
    # Each costs 0.001015 with its fee: 0.0031 covers three, not four.
    credit(session, verified.id, 310_000)
    assert sum(race(_racing_placement(verified.id, "0.001"), 20)) == 3
    session.expire_all()
    assert ledger.balance(session, verified.id, Currency.btc) == 310_000 - 3 * 101_500
    assert ledger.entries_total(session, verified.id, Currency.btc) == 310_000 - 3 * 101_500
    assert len(session.exec(select(Withdrawal)).all()) == 3
    assert session.exec(select(WithdrawalMonth.used)).one() == 3


def test_the_monthly_limit_holds_under_the_same_race(session, verified):
    credit(session, verified.id, SAT)
    assert sum(race(_racing_placement(verified.id, "0.001"), 20)) == 5
    session.expire_all()
    assert len(session.exec(select(Withdrawal)).all()) == 5
    assert session.exec(select(WithdrawalMonth.used)).one() == 5
    assert ledger.balance(session, verified.id, Currency.btc) == SAT - 5 * 101_500


def test_twenty_parallel_withdrawals_with_one_code_make_one(session, verified):
    credit(session, verified.id, SAT)
    code = withdrawal_code(session, verified)

    def work(own: Session, _number: int) -> bool:
        try:
            wallet.withdraw(own, own.get(Account, verified.id), form("0.001", code), NOW)
        except FormErrors:
            own.rollback()
            return False
        return True

    assert sum(race(work, 20)) == 1
    session.expire_all()
    assert len(session.exec(select(Withdrawal)).all()) == 1
    assert ledger.balance(session, verified.id, Currency.btc) == SAT - 101_500


# --- The same request sent again: its idempotency key ------------------------------------------------------


def test_a_request_sent_again_with_its_key_is_the_same_request(session, verified):
    credit(session, verified.id, SAT)
    first = wallet.withdraw(session, verified, form("0.001", withdrawal_code(session, verified)), NOW, "k-1")
    # Its answer was lost: the same form, its code now used, comes again.
    again = wallet.withdraw(session, verified, form("0.001", "000000"), NOW, "k-1")
    assert again.id == first.id
    assert wallet.placed_with(session, verified, "k-1").id == first.id
    assert wallet.placed_with(session, verified, "k-2") is None
    assert len(session.exec(select(Withdrawal)).all()) == 1
    assert ledger.balance(session, verified.id, Currency.btc) == SAT - 101_500
    # Another key is another request, with a code of its own.
    with pytest.raises(FormErrors) as refused:
        wallet.withdraw(session, verified, form("0.001", "000000"), NOW, "k-2")
    assert refused.value.errors == {"code": msg.OTP_WRONG}


def test_a_key_is_the_riders_own(session, verified, other_verified):
    credit(session, verified.id, SAT)
    credit(session, other_verified.id, SAT)
    mine = wallet.withdraw(session, verified, form("0.001", withdrawal_code(session, verified)), NOW, "same")
    theirs = wallet.withdraw(
        session, other_verified, form("0.002", withdrawal_code(session, other_verified)), NOW, "same"
    )
    assert mine.id != theirs.id
    assert wallet.placed_with(session, other_verified, "same").id == theirs.id
    with pytest.raises(FormErrors):
        wallet.withdraw(session, verified, form("0.001", "123456"), NOW, "k" * (wallet.REQUEST_KEY_MAX + 1))


def test_twenty_parallel_sends_of_one_request_make_one_and_all_answer_it(session, verified):
    credit(session, verified.id, SAT)
    code = withdrawal_code(session, verified)

    def work(own: Session, _number: int) -> int:
        return wallet.withdraw(own, own.get(Account, verified.id), form("0.001", code), NOW, "one-click").id

    answers = race(work, 20)
    session.expire_all()
    placed = session.exec(select(Withdrawal)).all()
    assert len(placed) == 1
    assert set(answers) == {placed[0].id}
    assert ledger.balance(session, verified.id, Currency.btc) == SAT - 101_500
    assert session.exec(select(WithdrawalMonth.used)).one() == 1
