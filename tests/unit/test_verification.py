"""E-mail verification by link and by typed code, resending, and sign-in before verification."""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import Session, col, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, AccountCode, CodePurpose, OutboxMessage
from cycling_site.services import codes, tokens, verification
from cycling_site.services.accounts import (
    EmailNotVerified,
    FormErrors,
    RegistrationForm,
    erase_personal_data,
    login,
    register,
)
from cycling_site.settings import settings
from tests.unit.conftest import DEMO_PASSWORD, code_error, count

ADDRESS = "203.0.113.7"


@dataclass(frozen=True)
class VerificationMail:
    recipient: str
    page: str
    link: str
    key: str
    otp: str


def last_mail(session: Session) -> VerificationMail:
    """The newest queued verification e-mail, read as its reader would."""
    session.expire_all()
    mail = session.exec(select(OutboxMessage).order_by(col(OutboxMessage.id).desc())).first()
    assert mail is not None, "no e-mail queued"
    link = re.search(rf"{re.escape(settings.site_url)}/(verify-user|verify-kid)\?es=(\S+)", mail.body)
    key = re.search(rf"{re.escape(settings.site_url)}/auth/verification\?key=(\S+)", mail.body)
    otp = re.search(r"^\s+(\d{6})$", mail.body, re.MULTILINE)
    assert link and key and otp, mail.body
    return VerificationMail(mail.recipient, link[1], link[2], key[1], otp[1])


def newest_body(session: Session) -> str:
    session.expire_all()
    return session.exec(select(OutboxMessage).order_by(col(OutboxMessage.id).desc())).first().body


def stored(session: Session, email: str = "rider@example.com") -> Account:
    session.expire_all()
    return session.exec(select(Account).where(Account.email == email)).one()


@pytest.fixture
def unverified(make_account, session) -> Account:
    """An adult who signed up and was sent the verification e-mail."""
    account = make_account(email_verified=False)
    verification.send_verification(session, account)
    session.commit()
    return account


# --- The e-mail ------------------------------------------------------------------------------------------


def test_registration_mails_a_link_and_a_six_digit_code(session, human_check_payload):
    form = RegistrationForm(
        firstname="Layla",
        lastname="Haddad",
        email="Layla@Example.com",
        password="ridefast",
        dob="1990-05-20",
        country="784",
        gender="1",
        weight="58.5",
        height="168",
        consent=True,
        token=human_check_payload(),
    )
    registration = register(session, form)

    mail = last_mail(session)
    assert mail.recipient == "layla@example.com"
    assert mail.page == "verify-user"
    assert mail.key == registration.verification_key
    assert count(session, OutboxMessage) == 1
    assert verification.verify_otp(session, mail.key, mail.otp).email_verified is True
    assert stored(session, "layla@example.com").email_verified is True


def test_kid_verification_mail_opens_the_kid_page(session, make_account):
    kid = make_account(email="kid@example.com", is_kid=True, email_verified=False, dob=date(2014, 3, 3))
    verification.send_verification(session, kid)
    session.commit()
    mail = last_mail(session)
    assert (mail.recipient, mail.page) == ("kid@example.com", "verify-kid")
    assert "Hi Layla," in session.exec(select(OutboxMessage)).one().body


def test_link_lives_48_hours_and_the_code_24(session, unverified):
    lifetimes = {
        row.purpose: row.expires_at.replace(tzinfo=UTC) - row.created_at.replace(tzinfo=UTC)
        for row in session.exec(select(AccountCode))
    }
    assert abs(lifetimes[CodePurpose.verify_email] - timedelta(hours=48)) < timedelta(seconds=5)
    assert abs(lifetimes[CodePurpose.verify_otp] - timedelta(hours=24)) < timedelta(seconds=5)
    assert "valid for 48 hours and the code for 24 hours" in newest_body(session)


def test_verification_mail_is_queued_only_with_the_callers_commit(session, make_account):
    account = make_account(email_verified=False)
    verification.send_verification(session, account)
    session.rollback()
    assert count(session, OutboxMessage) == 0
    assert count(session, AccountCode) == 0


# --- By link ---------------------------------------------------------------------------------------------


def test_link_verifies_and_retires_the_typed_code(session, unverified):
    mail = last_mail(session)
    assert verification.verify_link(session, mail.link).uuid == unverified.uuid

    assert stored(session).email_verified is True
    assert code_error(verification.verify_link, session, mail.link) == msg.CODE_USED
    assert code_error(verification.verify_otp, session, mail.key, mail.otp) == msg.CODE_USED


def test_typed_code_verifies_and_retires_the_link(session, unverified):
    mail = last_mail(session)
    assert verification.verify_otp(session, mail.key, f" {mail.otp} ").uuid == unverified.uuid

    assert stored(session).email_verified is True
    assert code_error(verification.verify_otp, session, mail.key, mail.otp) == msg.CODE_USED
    assert code_error(verification.verify_link, session, mail.link) == msg.CODE_USED


def test_expired_link_is_refused_and_changes_nothing(session, unverified):
    mail = last_mail(session)
    row = session.exec(select(AccountCode).where(AccountCode.purpose == CodePurpose.verify_email)).one()
    row.expires_at = datetime.now(UTC) - timedelta(minutes=1)
    session.commit()
    assert code_error(verification.verify_link, session, mail.link) == msg.CODE_EXPIRED
    assert stored(session).email_verified is False


@pytest.mark.parametrize("code", ["", "garbage", "x" * 5000])
def test_unknown_link_is_invalid(session, unverified, code):
    assert code_error(verification.verify_link, session, code) == msg.CODE_INVALID
    assert stored(session).email_verified is False


# --- By typed code ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("otp", ["", "   ", "12345", "1234567", "12a456", "12 456", None])
def test_typed_code_must_be_six_digits(session, unverified, otp):
    mail = last_mail(session)
    with pytest.raises(FormErrors) as caught:
        verification.verify_otp(session, mail.key, otp)
    assert caught.value.errors == {"otp": msg.OTP_REQUIRED}
    session.expire_all()
    row = session.exec(select(AccountCode).where(AccountCode.key == mail.key)).one()
    assert row.failed_attempts == 0


def test_wrong_typed_code_is_invalid_and_counted(session, unverified):
    mail = last_mail(session)
    wrong = f"{(int(mail.otp) + 1) % 10**6:06d}"
    assert code_error(verification.verify_otp, session, mail.key, wrong) == msg.CODE_INVALID
    session.expire_all()
    assert session.exec(select(AccountCode).where(AccountCode.key == mail.key)).one().failed_attempts == 1
    assert stored(session).email_verified is False


@pytest.mark.parametrize("key", ["", None, "unknown", "k" * 300])
def test_typed_code_with_an_unknown_key_is_invalid(session, unverified, key):
    mail = last_mail(session)
    assert code_error(verification.verify_otp, session, key, mail.otp) == msg.CODE_INVALID
    assert stored(session).email_verified is False


# --- Resending -------------------------------------------------------------------------------------------


def test_resend_from_an_expired_link_sends_a_new_email(session, unverified):
    first = last_mail(session)
    row = session.exec(select(AccountCode).where(AccountCode.purpose == CodePurpose.verify_email)).one()
    row.expires_at = datetime.now(UTC) - timedelta(minutes=1)
    session.commit()

    verification.resend_for_link(session, first.link)

    assert count(session, OutboxMessage) == 2
    second = last_mail(session)
    assert second.recipient == "rider@example.com"
    assert (second.link, second.key) != (first.link, first.key)
    assert code_error(verification.verify_otp, session, first.key, first.otp) == msg.CODE_USED
    verification.verify_link(session, second.link)
    assert stored(session).email_verified is True


def test_resend_from_a_link_of_a_verified_account_says_so(session, unverified):
    mail = last_mail(session)
    verification.verify_link(session, mail.link)
    assert code_error(verification.resend_for_link, session, mail.link) == msg.EMAIL_VERIFIED
    assert count(session, OutboxMessage) == 1


@pytest.mark.parametrize("code", ["", None, "garbage"])
def test_resend_from_an_unknown_link_is_invalid(session, unverified, code):
    assert code_error(verification.resend_for_link, session, code) == msg.CODE_INVALID
    assert count(session, OutboxMessage) == 1


def test_resend_from_a_typed_code_link_is_invalid(session, unverified):
    # A reset link is no verification link, even though it names the same account.
    reset = codes.issue(session, unverified, CodePurpose.reset_password, timedelta(hours=1))
    session.commit()
    assert code_error(verification.resend_for_link, session, reset.code) == msg.CODE_INVALID
    assert count(session, OutboxMessage) == 1


def test_resend_for_key_answers_a_new_key_and_the_old_code_stops(session, unverified):
    first = last_mail(session)
    new_key = verification.resend_for_key(session, first.key)

    second = last_mail(session)
    assert new_key == second.key != first.key
    assert second.otp.isdigit() and len(second.otp) == 6
    assert code_error(verification.verify_otp, session, first.key, first.otp) == msg.CODE_USED
    assert code_error(verification.verify_link, session, first.link) == msg.CODE_USED
    verification.verify_otp(session, new_key, second.otp)
    assert stored(session).email_verified is True


def test_resend_for_key_of_a_verified_account_is_refused(session, unverified):
    mail = last_mail(session)
    verification.verify_link(session, mail.link)
    assert code_error(verification.resend_for_key, session, mail.key) == msg.CODE_INVALID
    assert count(session, OutboxMessage) == 1


@pytest.mark.parametrize("key", ["", None, "garbage"])
def test_resend_for_an_unknown_key_is_invalid(session, unverified, key):
    assert code_error(verification.resend_for_key, session, key) == msg.CODE_INVALID
    assert count(session, OutboxMessage) == 1


def test_resend_for_a_deleted_account_sends_nothing(session, unverified):
    mail = last_mail(session)
    erase_personal_data(session, unverified)
    session.add(unverified)
    session.commit()
    # Erasing the account also erased the e-mails kept for it.
    assert count(session, OutboxMessage) == 0
    assert code_error(verification.resend_for_key, session, mail.key) == msg.CODE_INVALID
    assert count(session, OutboxMessage) == 0


def test_resend_from_a_link_of_a_deleted_account_is_invalid(session, unverified):
    mail = last_mail(session)
    erase_personal_data(session, unverified)
    session.add(unverified)
    session.commit()
    assert code_error(verification.resend_for_link, session, mail.link) == msg.CODE_INVALID
    assert count(session, OutboxMessage) == 0


def test_resend_for_email_sends_a_new_email(session, unverified):
    first = last_mail(session)
    verification.resend_for_email(session, "  Rider@Example.COM ")
    assert count(session, OutboxMessage) == 2
    second = last_mail(session)
    assert second.recipient == "rider@example.com"
    assert second.link != first.link


@pytest.mark.parametrize(
    "email",
    [
        pytest.param("nobody@example.com", id="unknown"),
        pytest.param("verified@example.com", id="verified"),
    ],
)
def test_resend_for_email_is_neutral(session, make_account, email):
    make_account(email="verified@example.com")
    verification.resend_for_email(session, email)
    assert count(session, OutboxMessage) == 0
    assert count(session, AccountCode) == 0


@pytest.mark.parametrize("email", ["", None, "rider@", "rider.example.com", "a" * 250 + "@example.com"])
def test_resend_for_email_validates_the_address(session, unverified, email):
    with pytest.raises(FormErrors) as caught:
        verification.resend_for_email(session, email)
    assert caught.value.errors == {"email": msg.EMAIL_REQUIRED_VALID}
    assert count(session, OutboxMessage) == 1


# --- Signing in before verification ----------------------------------------------------------------------


def test_unverified_adult_cannot_sign_in(session, unverified, human_check_payload):
    with pytest.raises(EmailNotVerified) as caught:
        login(session, "rider@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS)
    assert caught.value.errors == {"form": msg.EMAIL_NOT_VERIFIED}

    verification.verify_link(session, last_mail(session).link)
    result = login(session, "rider@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS)
    assert result.kind == "token"
    assert tokens.check_session(session, result.token).account.uuid == unverified.uuid


def test_unverified_adult_with_a_wrong_password_gets_the_login_failure(
    session, unverified, human_check_payload
):
    # The unverified state is told only to whoever knows the password.
    with pytest.raises(FormErrors) as caught:
        login(session, "rider@example.com", "wrong-password", True, human_check_payload(), ADDRESS)
    assert not isinstance(caught.value, EmailNotVerified)
    assert caught.value.errors == {"form": msg.LOGIN_FAILED}


def test_unverified_kid_with_parental_approval_can_sign_in(session, make_account, human_check_payload):
    kid = make_account(
        email="kid@example.com", dob=date(2013, 4, 1), is_kid=True, parent_approved=True, email_verified=False
    )
    result = login(session, "kid@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS)
    assert result.kind == "token"
    assert tokens.check_session(session, result.token, kid.uuid).status == "ok"


def test_resends_are_capped_per_address(session, unverified):
    first = last_mail(session)
    for _ in range(5):
        verification.resend_for_link(session, first.link)
    assert code_error(verification.resend_for_link, session, first.link) == msg.TOO_MANY_EMAILS
    assert count(session, OutboxMessage) == 6
    # The neutral form says nothing and sends nothing more; the sign-in page is told.
    verification.resend_for_email(session, unverified.email)
    assert count(session, OutboxMessage) == 6
    assert code_error(verification.resend_for_email, session, unverified.email, True) == msg.TOO_MANY_EMAILS
