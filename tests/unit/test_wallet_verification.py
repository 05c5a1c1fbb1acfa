"""Wallet account verification: phone numbers per country, the two codes through the outbox with their wait,
and the form, which keeps nothing unless every field and both codes are right."""

import re
from datetime import timedelta

import pytest
from sqlmodel import Session, col, select

from cycling_site.messages import wallet as msg
from cycling_site.models import AccountCode, CodePurpose, OutboxMessage, RiderFile
from cycling_site.models.wallet import WalletStatus, WalletVerification
from cycling_site.services import finance, wallet
from cycling_site.services import wallet_verification as verification
from cycling_site.services.validation import TooManyAttempts
from cycling_site.services.wallet_verification import Upload, VerificationForm
from tests.unit.conftest import count, form_errors
from tests.unit.wallet_support import BECH32, P2PKH, credit, png, verify, withdraw

PHONE = "50 123 4567"
E164 = "+971501234567"
BINANCE = "layla.binance@example.com"


@pytest.fixture
def rider(make_account):
    return make_account()


def code_sent_to(session: Session, recipient: str) -> str:
    session.expire_all()
    message = session.exec(
        select(OutboxMessage)
        .where(OutboxMessage.recipient == recipient)
        .order_by(col(OutboxMessage.id).desc())
    ).first()
    assert message is not None, f"nothing sent to {recipient}"
    return re.search(r"code is (\d{6})", message.body)[1]


def both_codes(session: Session, rider) -> tuple[str, str]:
    verification.request_phone_otp(session, rider, PHONE, "AE")
    verification.request_email_otp(session, rider, BINANCE)
    return code_sent_to(session, E164), code_sent_to(session, BINANCE)


def make_form(phone_otp: str = "", email_otp: str = "", **changes) -> VerificationForm:
    values = {
        "binance_email": BINANCE,
        "phone_number": PHONE,
        "country": "AE",
        "wallet_address": BECH32,
        "phone_otp": phone_otp,
        "email_otp": email_otp,
        "terms_accepted": "true",
        "passport_proof": Upload("passport.png", png()),
        "binance_screenshots": [Upload("binance-1.png", png()), Upload("binance-2.jpg", png(color="blue"))],
    }
    values.update(changes)
    return VerificationForm(**values)


def age_codes(session: Session, seconds: int = 61) -> None:
    """As if the codes were sent `seconds` ago (the wait is over)."""
    for row in session.exec(select(AccountCode)).all():
        row.created_at = row.created_at - timedelta(seconds=seconds)
        session.add(row)
    session.commit()


# --- Phones ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "country", "e164"),
    [
        (PHONE, "AE", E164),
        ("050 123 4567", "AE", E164),
        ("+971 50 123 4567", "AE", E164),
        ("(201) 555-0123", "US", "+12015550123"),
        ("+44 7911 123456", "AE", "+447911123456"),
    ],
)
def test_valid_numbers_are_kept_in_e164(number, country, e164):
    assert verification.check_phone(number, country) == e164


@pytest.mark.parametrize(
    ("number", "country", "message"),
    [
        ("", "AE", msg.PHONE_REQUIRED),
        ("call me", "AE", msg.PHONE_FORMAT),
        ("50 123", "AE", msg.PHONE_INVALID),
        ("(201) 555-0123", "AE", msg.PHONE_INVALID),
        (PHONE, "ZZ", msg.PHONE_FORMAT),
        ("5" * 40, "AE", msg.PHONE_FORMAT),
    ],
)
def test_bad_numbers_answer_the_spec_messages(number, country, message):
    assert form_errors(verification.check_phone, number, country) == {"phone_number": message}


# --- The codes -------------------------------------------------------------------------------------------


def test_a_phone_code_goes_by_sms_and_the_next_waits_sixty_seconds(session, rider):
    assert verification.request_phone_otp(session, rider, PHONE, "AE") == E164
    sms = session.exec(select(OutboxMessage)).one()
    assert sms.channel == "sms" and sms.recipient == E164 and re.search(r"\b\d{6}\b", sms.body)
    with pytest.raises(TooManyAttempts) as waiting:
        verification.request_phone_otp(session, rider, PHONE, "AE")
    assert re.fullmatch(
        r"Please wait (60|59) seconds before asking for another code\.", waiting.value.errors["phone_number"]
    )
    age_codes(session)
    verification.request_phone_otp(session, rider, PHONE, "AE", channel="whatsapp")
    assert count(session, OutboxMessage) == 2
    assert (
        session.exec(select(OutboxMessage).order_by(col(OutboxMessage.id).desc())).first().channel
        == "whatsapp"
    )


def test_an_email_code_goes_to_the_binance_address(session, rider):
    assert verification.request_email_otp(session, rider, " Layla.Binance@Example.com ") == BINANCE
    assert len(code_sent_to(session, BINANCE)) == 6
    assert form_errors(verification.request_email_otp, session, rider, "") == {
        "binance_email": msg.BINANCE_EMAIL_REQUIRED
    }
    assert form_errors(verification.request_email_otp, session, rider, "not-an-address") == {
        "binance_email": msg.EMAIL_INVALID
    }


def test_no_code_for_an_invalid_phone_or_an_unknown_channel(session, rider):
    assert form_errors(verification.request_phone_otp, session, rider, "50 123", "AE") == {
        "phone_number": msg.PHONE_INVALID
    }
    assert form_errors(verification.request_phone_otp, session, rider, PHONE, "AE", "pigeon") == {
        "type": msg.OTP_FAILED
    }
    assert count(session, OutboxMessage) == 0


# --- The form --------------------------------------------------------------------------------------------


def test_a_complete_form_with_both_codes_makes_a_pending_verification(session, rider):
    phone_code, email_code = both_codes(session, rider)
    made = verification.submit(session, rider, make_form(phone_code, email_code))
    assert (made.status, made.phone, made.binance_email, made.wallet_address) == (
        "pending",
        E164,
        BINANCE,
        BECH32,
    )
    files = session.exec(select(RiderFile).order_by(col(RiderFile.id))).all()
    assert [file.kind for file in files] == ["passport_proof", "binance_screenshot", "binance_screenshot"]
    assert made.passport_file_id == files[0].id and made.screenshot_file_ids == [files[1].id, files[2].id]
    assert all(row.used_at is not None for row in session.exec(select(AccountCode)).all())
    # A second verification while this one waits: the spec's refusal, nothing more stored.
    assert form_errors(verification.submit, session, rider, make_form(phone_code, email_code)) == {
        "form": msg.ALREADY_PENDING
    }
    assert form_errors(verification.request_phone_otp, session, rider, PHONE) == {"form": msg.ALREADY_PENDING}
    assert count(session, WalletVerification) == 1 and count(session, RiderFile) == 3


def test_every_missing_field_is_told_at_once(session, rider):
    empty = VerificationForm()
    assert form_errors(verification.submit, session, rider, empty) == {
        "binance_email": msg.BINANCE_EMAIL_REQUIRED,
        "phone_number": msg.PHONE_REQUIRED,
        "wallet_address": msg.WALLET_ADDRESS_REQUIRED,
        "phone_otp": msg.PHONE_OTP_REQUIRED,
        "email_otp": msg.EMAIL_OTP_REQUIRED,
        "passport_proof": msg.PASSPORT_REQUIRED,
        "binance_screenshot": msg.SCREENSHOT_REQUIRED,
        "terms_accepted": msg.TERMS_REQUIRED,
    }


@pytest.mark.parametrize(
    ("changes", "errors"),
    [
        (
            {"passport_proof": Upload("passport.png", b"just text, named .png")},
            {"passport_proof": msg.FILE_TYPE},
        ),
        (
            {"passport_proof": Upload("passport.pdf", b"%PDF-1.4\n%\xe2\xe3\n")},
            {"passport_proof": msg.FILE_TYPE},
        ),
        (
            {"passport_proof": Upload("huge.png", png() + b"\0" * (5 * 1024 * 1024))},
            {"passport_proof": msg.FILE_TOO_LARGE},
        ),
        (
            {"binance_screenshots": [Upload("s.png", png())] * 6},
            {"binance_screenshot": msg.TOO_MANY_SCREENSHOTS},
        ),
        ({"binance_screenshots": [Upload("s.gif", b"GIF89a....")]}, {"binance_screenshot": msg.FILE_TYPE}),
        ({"wallet_address": "bc1-not-real"}, {"wallet_address": msg.ADDRESS_INVALID}),
        ({"terms_accepted": ""}, {"terms_accepted": msg.TERMS_REQUIRED}),
    ],
)
def test_bad_files_and_fields_keep_nothing(session, rider, changes, errors):
    phone_code, email_code = both_codes(session, rider)
    assert (
        form_errors(verification.submit, session, rider, make_form(phone_code, email_code, **changes))
        == errors
    )
    assert count(session, WalletVerification) == 0 and count(session, RiderFile) == 0
    # The codes are still good for the corrected form.
    verification.submit(session, rider, make_form(phone_code, email_code))


def test_wrong_codes_or_codes_for_another_number_are_refused(session, rider):
    phone_code, email_code = both_codes(session, rider)
    wrong = f"{(int(phone_code) + 1) % 1_000_000:06d}"
    assert form_errors(verification.submit, session, rider, make_form(wrong, email_code)) == {
        "phone_otp": msg.OTP_WRONG
    }
    assert form_errors(verification.submit, session, rider, make_form(phone_code, "12345")) == {
        "email_otp": msg.OTP_WRONG
    }
    other_phone = make_form(phone_code, email_code, phone_number="50 765 4321")
    assert form_errors(verification.submit, session, rider, other_phone) == {"phone_otp": msg.OTP_WRONG}
    other_email = make_form(phone_code, email_code, binance_email="someone.else@example.com")
    assert form_errors(verification.submit, session, rider, other_email) == {"email_otp": msg.OTP_WRONG}
    assert count(session, WalletVerification) == 0 and count(session, RiderFile) == 0


def test_five_wrong_tries_end_a_code(session, rider):
    phone_code, email_code = both_codes(session, rider)
    wrong = f"{(int(phone_code) + 1) % 1_000_000:06d}"
    for _ in range(5):
        form_errors(verification.submit, session, rider, make_form(wrong, email_code))
    assert form_errors(verification.submit, session, rider, make_form(phone_code, email_code)) == {
        "phone_otp": msg.OTP_WRONG
    }


def test_another_riders_codes_do_not_count(session, rider, make_account):
    other = make_account(email="other@example.com")
    phone_code, email_code = both_codes(session, other)
    assert "phone_otp" in form_errors(verification.submit, session, rider, make_form(phone_code, email_code))


def test_after_a_rejection_the_rider_verifies_again_with_new_codes_only(session, rider):
    phone_code, email_code = both_codes(session, rider)
    first = verification.submit(session, rider, make_form(phone_code, email_code))
    first.status, first.current = WalletStatus.rejected, None
    session.add(first)
    session.commit()
    # The used codes do not count twice.
    assert form_errors(verification.submit, session, rider, make_form(phone_code, email_code)) == {
        "phone_otp": msg.OTP_WRONG
    }
    age_codes(session)
    phone_code, email_code = both_codes(session, rider)
    again = verification.submit(session, rider, make_form(phone_code, email_code))
    assert again.status == WalletStatus.pending and count(session, WalletVerification) == 2


def test_a_verified_account_gets_no_codes_and_no_second_verification(session, rider):
    verify(session, rider)
    assert form_errors(verification.request_email_otp, session, rider, BINANCE) == {
        "form": msg.ALREADY_VERIFIED
    }
    assert form_errors(verification.submit, session, rider, make_form("123456", "123456")) == {
        "form": msg.ALREADY_VERIFIED
    }


def test_changing_the_wallet_means_verifying_again_and_withdrawals_wait_for_finance(
    session, rider, make_account
):
    """A verified rider verifies another wallet: the old one stays on record but no longer counts, so no
    withdrawal goes anywhere until finance approves the new one; then they go only to the new one."""
    old = verify(session, rider)
    credit(session, rider.id, 1_000_000)
    verification.request_phone_otp(session, rider, PHONE, "AE", change_wallet=True)
    verification.request_email_otp(session, rider, BINANCE, change_wallet=True)
    codes = code_sent_to(session, E164), code_sent_to(session, BINANCE)
    new = verification.submit(session, rider, make_form(*codes, wallet_address=P2PKH, change_wallet=True))
    assert (new.status, new.wallet_address) == (WalletStatus.pending, P2PKH)
    session.expire_all()
    assert session.get(WalletVerification, old.id).current is None
    told = session.exec(select(OutboxMessage).where(OutboxMessage.recipient == rider.email)).one()
    assert told.subject.startswith(msg.WALLET_CHANGE_SUBJECT)
    with pytest.raises(wallet.NotVerified):
        withdraw(session, rider)
    assert form_errors(verification.request_email_otp, session, rider, BINANCE, change_wallet=True) == {
        "form": msg.ALREADY_PENDING
    }
    officer = make_account(email="finance@example.com", role="finance")
    finance.decide_verification(session, officer, new.id, True, "")
    made = withdraw(session, rider)
    assert made.wallet_address == P2PKH


def test_kids_cannot_verify_a_wallet(session, make_account):
    kid = make_account(email="kid@example.com", is_kid=True)
    for call, args in (
        (verification.request_phone_otp, (PHONE,)),
        (verification.request_email_otp, (BINANCE,)),
        (verification.submit, (make_form(),)),
    ):
        assert form_errors(call, session, kid, *args) == {"wallet": msg.KIDS_NO_WALLET}
    assert count(session, OutboxMessage) == 0


def test_the_purposes_are_kept_apart(session, rider):
    """A phone code typed as the e-mail code (or the reverse) is no proof."""
    phone_code, email_code = both_codes(session, rider)
    purposes = {row.purpose for row in session.exec(select(AccountCode)).all()}
    assert purposes == {CodePurpose.wallet_phone, CodePurpose.wallet_email}
    if phone_code != email_code:
        assert "email_otp" in form_errors(
            verification.submit, session, rider, make_form(phone_code, phone_code)
        )
