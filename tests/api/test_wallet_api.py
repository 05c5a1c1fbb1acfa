"""The wallet through the REST API: the summary, transactions, withdrawals, the codes and the verification
form, with finance's console deciding; kids and strangers refused, bad input answered per field."""

import re

import pytest
from sqlmodel import col, select

from cycling_site.messages import race_control as rc_msg
from cycling_site.messages import wallet as msg
from cycling_site.models import Currency, OutboxMessage, RiderFile, WalletVerification, Withdrawal
from cycling_site.services import ledger
from tests.api.auth_support import bearer
from tests.unit.conftest import count
from tests.unit.wallet_support import BECH32, P2PKH, TESTNET, credit, past_event, png, verify

WALLET = "/api/auth/user-wallet"
TRANSACTIONS = "/api/wallet/transactions"
WITHDRAW = "/api/wallet/withdraw"
WITHDRAWAL_CODE = "/api/wallet/request-withdrawal-code"
TX = "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16"
FINANCE = "/api/finance"


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def officer(make_account):
    return make_account(email="finance@example.com", firstname="Fatima", lastname="Rahman", role="finance")


def code_sent_to(session, recipient: str) -> str:
    session.expire_all()
    message = session.exec(
        select(OutboxMessage)
        .where(OutboxMessage.recipient == recipient)
        .order_by(col(OutboxMessage.id).desc())
    ).first()
    return re.search(r"code is (\d{6})", message.body)[1]


def test_the_wallet_summary_has_the_specs_shape(client, session, rider):
    credit(session, rider.id, 1_070_200)
    answer = client.get(WALLET, headers=bearer(rider))
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert data["user"]["verificationStatus"] == "unverified" and data["user"]["isKid"] is False
    assert data["walletData"]["balance"] == "0.010702" and data["walletData"]["currency"] == "BTC"
    assert data["walletData"]["processingFee"] == "1.5" and data["walletData"]["remainingTransactions"] == 5


def test_kids_and_strangers_are_refused_everywhere(client, make_account):
    kid = make_account(email="kid@example.com", is_kid=True)
    calls = [
        ("get", WALLET, None),
        ("post", TRANSACTIONS, {}),
        ("post", WITHDRAW, {"amount": "0.001"}),
        ("post", WITHDRAWAL_CODE, None),
        ("post", "/api/wallet/request-phone-otp", {"phone_number": "50 123 4567"}),
        ("post", "/api/wallet/request-email-otp", {"email": "kid@example.com"}),
    ]
    for method, path, body in calls:
        answer = client.request(method, path, json=body, headers=bearer(kid))
        assert answer.status_code == 403 and answer.json()["message"] == msg.KIDS_NO_WALLET, path
        assert client.request(method, path, json=body).status_code == 401, path


def withdrawal_code(client, session, rider) -> str:
    answer = client.post(WITHDRAWAL_CODE, headers=bearer(rider))
    assert answer.status_code == 200 and answer.json()["message"] == msg.OTP_SENT_EMAIL, answer.text
    return code_sent_to(session, rider.email)


def test_a_withdrawal_end_to_end_with_finance_paying_it(client, session, rider, officer):
    verify(session, rider)
    credit(session, rider.id, 1_000_000)
    # The spec's payload: no e-mail and no address, the money goes to the verified wallet.
    sent = {"amount": "0.002", "fee": "0", "total": "0.002", "currency": "BTC"}
    unconfirmed = client.post(WITHDRAW, json=sent, headers=bearer(rider))
    assert unconfirmed.status_code == 400
    assert unconfirmed.json()["errors"] == {"code": [msg.WITHDRAWAL_CODE_REQUIRED]}
    answer = client.post(
        WITHDRAW, json={**sent, "code": withdrawal_code(client, session, rider)}, headers=bearer(rider)
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["message"] == msg.WITHDRAWAL_SUBMITTED
    # The fee is the server's, whatever the caller sent.
    assert body["data"] == {
        "request_no": "WD-000001",
        "amount": "0.002000",
        "fee": "0.000030",
        "total": "0.002030",
        "currency": "BTC",
    }
    page = client.post(
        TRANSACTIONS, json={"page": 1, "perPage": 10, "search": "wd-0000"}, headers=bearer(rider)
    )
    assert page.json()["meta"] == {"current_page": 1, "last_page": 1, "total": 1, "per_page": 10}
    (row,) = page.json()["data"]
    assert (row["status"], row["amount"], row["wallet_address"]) == ("pending", "0.002000", BECH32)
    assert row["transaction_url"] == ""

    queued = client.get(f"{FINANCE}/withdrawal", headers=bearer(officer)).json()["data"]
    assert [item["title"] for item in queued] == ["WD-000001: 0.002000 BTC"]
    assert ["Verified address", BECH32] in queued[0]["details"]
    decision = f"{FINANCE}/withdrawal/{row['id']}/decision"
    refused = client.post(decision, json={"approve": True}, headers=bearer(officer))
    assert refused.status_code == 400 and refused.json()["message"] == msg.TRANSACTION_ID_REQUIRED
    made_up = client.post(
        decision, json={"approve": True, "transaction_id": "paid by cash lol"}, headers=bearer(officer)
    )
    assert made_up.status_code == 400
    paid = client.post(decision, json={"approve": True, "transaction_id": TX}, headers=bearer(officer))
    assert paid.status_code == 200 and paid.json()["message"] == rc_msg.DECIDED.format(decision="approved")
    (row,) = client.post(TRANSACTIONS, json={}, headers=bearer(rider)).json()["data"]
    assert (row["status"], row["transaction_id"]) == ("approved", TX)
    assert row["transaction_url"] == f"https://mempool.space/tx/{TX}"
    again = client.post(decision, json={"approve": False, "reason": "x"}, headers=bearer(officer))
    assert again.status_code == 400 and again.json()["message"] == rc_msg.ALREADY_DECIDED


def test_a_stolen_session_cannot_send_the_money_elsewhere(client, session, rider):
    """Whoever holds the rider's session sees neither the code (it goes to the verified e-mail) nor may name
    another address or e-mail."""
    verify(session, rider)
    credit(session, rider.id, 1_000_000)
    code = withdrawal_code(client, session, rider)
    for other, field, message in (
        ({"wallet_address": P2PKH}, "wallet_address", msg.ADDRESS_NOT_VERIFIED),
        ({"email": "thief@example.com"}, "email", msg.EMAIL_NOT_VERIFIED),
        ({"code": f"{(int(code) + 1) % 10**6:06d}"}, "code", msg.OTP_WRONG),
    ):
        answer = client.post(WITHDRAW, json={"amount": "0.001", "code": code, **other}, headers=bearer(rider))
        assert answer.status_code == 400 and answer.json()["errors"][field] == [message]
    session.expire_all()
    assert ledger.balance(session, rider.id, Currency.btc) == 1_000_000 and count(session, Withdrawal) == 0


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"amount": "1.2.3"}, "amount", msg.AMOUNT_NOT_NUMBER),
        ({"amount": "abc"}, "amount", msg.AMOUNT_NOT_NUMBER),
        ({"amount": "0.0000001"}, "amount", msg.AMOUNT_TOO_PRECISE),
        ({"amount": "0"}, "amount", msg.AMOUNT_NOT_POSITIVE),
        ({"amount": "-0.5"}, "amount", msg.AMOUNT_NOT_POSITIVE),
        ({"amount": "0.01"}, "amount", msg.TOTAL_EXCEEDS_BALANCE),
        ({"wallet_address": TESTNET}, "wallet_address", msg.ADDRESS_WRONG_NETWORK),
        ({"wallet_address": BECH32[:-1] + "x"}, "wallet_address", msg.ADDRESS_INVALID),
        ({"email": "nobody@"}, "email", msg.WITHDRAW_EMAIL_INVALID),
        ({"code": "12345"}, "code", msg.OTP_WRONG),
    ],
)
def test_bad_withdrawals_answer_400_per_field_and_move_nothing(client, session, rider, body, field, message):
    verify(session, rider)
    credit(session, rider.id, 1_000_000)
    sent = {"amount": "0.001", "email": rider.email, "wallet_address": BECH32, "code": "123456", **body}
    answer = client.post(WITHDRAW, json=sent, headers=bearer(rider))
    assert answer.status_code == 400 and answer.json()["errors"][field] == [message]
    session.expire_all()
    assert ledger.balance(session, rider.id, Currency.btc) == 1_000_000 and count(session, Withdrawal) == 0


def test_an_unverified_account_cannot_withdraw(client, session, rider):
    credit(session, rider.id, 1_000_000)
    answer = client.post(WITHDRAW, json={"amount": "0.001", "code": "123456"}, headers=bearer(rider))
    assert answer.status_code == 403 and answer.json()["message"] == msg.NOT_VERIFIED
    answer = client.post(WITHDRAWAL_CODE, headers=bearer(rider))
    assert answer.status_code == 403 and answer.json()["message"] == msg.NOT_VERIFIED


def test_verifying_an_account_with_both_codes_then_finance_approves(client, session, rider, officer):
    phone = client.post(
        "/api/wallet/request-phone-otp",
        json={"phone_number": "50 123 4567", "country": "AE"},
        headers=bearer(rider),
    )
    assert phone.json() == {"status": True, "message": msg.OTP_SENT_PHONE}
    email = client.post(
        "/api/wallet/request-email-otp", json={"email": "layla.b@example.com"}, headers=bearer(rider)
    )
    assert email.json() == {"status": True, "message": msg.OTP_SENT_EMAIL}
    waiting = client.post(
        "/api/wallet/request-email-otp", json={"email": "layla.b@example.com"}, headers=bearer(rider)
    )
    assert waiting.status_code == 429 and "Please wait" in waiting.json()["message"]
    fields = {
        "binance_email": "layla.b@example.com",
        "phone_number": "50 123 4567",
        "country": "AE",
        "wallet_address": BECH32,
        "phone_otp": code_sent_to(session, "+971501234567"),
        "email_otp": code_sent_to(session, "layla.b@example.com"),
        "terms_accepted": "true",
    }
    files = [
        ("passport_proof", ("passport.png", png(), "image/png")),
        ("binance_screenshot", ("one.png", png(), "image/png")),
        ("binance_screenshot", ("two.png", png(color="blue"), "image/png")),
    ]
    answer = client.post("/api/wallet/verify-account", data=fields, files=files, headers=bearer(rider))
    assert answer.status_code == 200, answer.text
    assert (
        answer.json()["message"] == msg.VERIFICATION_SUBMITTED
        and answer.json()["data"]["status"] == "pending"
    )
    second = client.post("/api/wallet/verify-account", data=fields, files=files, headers=bearer(rider))
    assert second.status_code == 400 and second.json()["message"] == msg.ALREADY_PENDING
    assert count(session, WalletVerification) == 1 and count(session, RiderFile) == 3

    (item,) = client.get(f"{FINANCE}/wallet_verification", headers=bearer(officer)).json()["data"]
    link = client.post(
        "/api/events/file_download", json={"key": str(item["files"][0]["id"])}, headers=bearer(officer)
    )
    assert link.status_code == 200
    assert client.get(link.json()["data"]["url"], headers=bearer(officer)).content == png()
    decided = client.post(
        f"{FINANCE}/wallet_verification/{item['id']}/decision",
        json={"approve": True},
        headers=bearer(officer),
    )
    assert decided.status_code == 200
    assert client.get(WALLET, headers=bearer(rider)).json()["data"]["user"]["verified"] is True


def test_a_spoofed_or_oversized_passport_is_refused_and_nothing_kept(client, session, rider):
    fields = {
        "binance_email": "a@example.com",
        "phone_number": "50 123 4567",
        "wallet_address": BECH32,
        "phone_otp": "123456",
        "email_otp": "123456",
        "terms_accepted": "on",
    }
    spoofed = [
        ("passport_proof", ("passport.png", b"<html>not an image</html>", "image/png")),
        ("binance_screenshot", ("s.png", png(), "image/png")),
    ]
    answer = client.post("/api/wallet/verify-account", data=fields, files=spoofed, headers=bearer(rider))
    assert answer.status_code == 400 and answer.json()["errors"]["passport_proof"] == [msg.FILE_TYPE]
    huge = [
        ("passport_proof", ("p.png", png() + b"\0" * (5 * 1024 * 1024), "image/png")),
        ("binance_screenshot", ("s.png", png(), "image/png")),
    ]
    answer = client.post("/api/wallet/verify-account", data=fields, files=huge, headers=bearer(rider))
    assert answer.status_code == 400 and answer.json()["errors"]["passport_proof"] == [msg.FILE_TOO_LARGE]
    assert count(session, RiderFile) == 0


def test_race_control_cannot_see_wallet_documents_or_the_finance_console(
    client, session, rider, make_account
):
    reviewer = make_account(email="rc@example.com", role="race_control")
    verification = verify(session, rider)
    link = client.post(
        "/api/events/file_download",
        json={"key": str(verification.passport_file_id)},
        headers=bearer(reviewer),
    )
    assert link.status_code == 400
    for path in ("/queues", "/wallet_verification", "/prizes"):
        answer = client.get(f"{FINANCE}{path}", headers=bearer(reviewer))
        assert answer.status_code == 403 and answer.json()["message"] == msg.NOT_FINANCE
    assert client.get(f"{FINANCE}/queues", headers=bearer(rider)).status_code == 403


def test_prize_credits_through_the_console(client, session, rider, officer):
    event = past_event(session, rider)
    body = {"event_id": event.id, "account_id": rider.id, "amount": "0.0125"}
    answer = client.post(f"{FINANCE}/prizes", json=body, headers=bearer(officer))
    assert (
        answer.status_code == 200
        and answer.json()["message"] == "Prize credited: 0.012500 BTC to Layla Haddad."
    )
    again = client.post(f"{FINANCE}/prizes", json=body, headers=bearer(officer))
    assert again.status_code == 400 and again.json()["message"] == msg.PRIZE_ALREADY_CREDITED
    (shown,) = client.get(f"{FINANCE}/prizes", headers=bearer(officer)).json()["data"]
    assert shown["riders"][0]["credited"] == "0.012500"
    assert client.get(WALLET, headers=bearer(rider)).json()["data"]["walletData"]["balance"] == "0.012500"


def test_a_withdrawal_sent_again_with_its_idempotency_key_answers_the_first(client, session, rider):
    verify(session, rider)
    credit(session, rider.id, 1_000_000)
    sent = {"amount": "0.002", "code": withdrawal_code(client, session, rider)}
    headers = {**bearer(rider), "Idempotency-Key": "3f1c9a5e-retry"}
    first = client.post(WITHDRAW, json=sent, headers=headers)
    # The answer was lost; the client sends the same request again.
    again = client.post(WITHDRAW, json=sent, headers=headers)
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json()
    assert count(session, Withdrawal) == 1
    assert ledger.balance(session, rider.id, Currency.btc) == 1_000_000 - 203_000
    # Without the key, the used code refuses a second request.
    plain = client.post(WITHDRAW, json=sent, headers=bearer(rider))
    assert plain.status_code == 400 and plain.json()["errors"] == {"code": [msg.OTP_WRONG]}
    too_long = client.post(WITHDRAW, json=sent, headers={**bearer(rider), "Idempotency-Key": "k" * 65})
    assert too_long.status_code == 400
    assert count(session, Withdrawal) == 1
