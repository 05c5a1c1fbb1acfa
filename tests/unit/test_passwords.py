"""Forgotten, reset and forced-reset passwords; a new password ends the sessions issued before it."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, AccountCode, CodePurpose, OutboxMessage
from cycling_site.services import codes, passwords, tokens
from cycling_site.services.accounts import (
    PASSWORD_MAX,
    login,
    password_matches,
)
from cycling_site.settings import settings
from tests.unit.conftest import DEMO_PASSWORD, code_error, count, form_errors, from_mail, reload

ADDRESS = "203.0.113.7"
NEW_PASSWORD = "climbhard"


@pytest.fixture
def rider(make_account) -> Account:
    return make_account()


def reset_code(session: Session) -> str:
    """The code in the newest reset e-mail, as the rider would open it."""
    return from_mail(session, rf"{re.escape(settings.site_url)}/auth/forgot-password2\?code=(\S+)")


# --- New password rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "repeat", "errors"),
    [
        pytest.param("123456", "123456", {}, id="6-chars"),
        pytest.param("x" * PASSWORD_MAX, "x" * PASSWORD_MAX, {}, id="max-chars"),
        pytest.param("12345", "12345", {"password": msg.PASSWORD_TOO_SHORT}, id="5-chars"),
        pytest.param("", "", {"password": msg.PASSWORD_TOO_SHORT}, id="empty"),
        pytest.param(None, None, {"password": msg.PASSWORD_TOO_SHORT}, id="none"),
        pytest.param(
            "x" * (PASSWORD_MAX + 1),
            "x" * (PASSWORD_MAX + 1),
            {"password": msg.too_long("Password", PASSWORD_MAX)},
            id="too-long",
        ),
        pytest.param("ridefast", "ridefast2", {"repeatPassword": msg.PASSWORD_MISMATCH}, id="mismatch"),
        pytest.param("ridefast", "", {"repeatPassword": msg.PASSWORD_MISMATCH}, id="no-repeat"),
        pytest.param(
            "123",
            "1234",
            {"password": msg.PASSWORD_TOO_SHORT, "repeatPassword": msg.PASSWORD_MISMATCH},
            id="both",
        ),
    ],
)
def test_new_password_rules(password, repeat, errors):
    assert passwords.check_new_password(password, repeat) == errors


# --- Asking for a reset ----------------------------------------------------------------------------------


def test_known_email_gets_a_reset_link(session, rider):
    passwords.request_reset(session, " Rider@Example.COM ")

    mail = session.exec(select(OutboxMessage)).one()
    assert mail.recipient == "rider@example.com"
    code = reset_code(session)
    assert codes.check(session, CodePurpose.reset_password, code)[1].uuid == rider.uuid


@pytest.mark.parametrize(
    ("email", "message"),
    [
        pytest.param("nobody@example.com", msg.INVALID_EMAIL_PROVIDED, id="unknown"),
        pytest.param("", msg.EMAIL_REQUIRED_VALID, id="empty"),
        pytest.param(None, msg.EMAIL_REQUIRED_VALID, id="none"),
        pytest.param("rider@", msg.EMAIL_REQUIRED_VALID, id="no-domain"),
        pytest.param("rider.example.com", msg.EMAIL_REQUIRED_VALID, id="no-at"),
        pytest.param("a" * 250 + "@example.com", msg.EMAIL_REQUIRED_VALID, id="too-long"),
    ],
)
def test_reset_request_refusals(session, rider, email, message):
    assert form_errors(passwords.request_reset, session, email) == {"email": message}
    assert count(session, OutboxMessage) == 0
    assert count(session, AccountCode) == 0


def test_deleted_account_gets_no_reset_link(session, make_account):
    make_account(deleted_at=datetime(2025, 1, 1, tzinfo=UTC))
    assert form_errors(passwords.request_reset, session, "rider@example.com") == {
        "email": msg.INVALID_EMAIL_PROVIDED
    }
    assert count(session, OutboxMessage) == 0


def test_a_second_request_retires_the_first_link(session, rider):
    passwords.request_reset(session, "rider@example.com")
    first = reset_code(session)
    passwords.request_reset(session, "rider@example.com")
    second = reset_code(session)
    assert first != second
    assert code_error(codes.check, session, CodePurpose.reset_password, first) == msg.CODE_USED
    assert codes.check(session, CodePurpose.reset_password, second)[1].uuid == rider.uuid


# --- Resetting -------------------------------------------------------------------------------------------


def test_reset_sets_the_new_password_once(session, make_account):
    rider = make_account(must_reset_password=True)
    passwords.request_reset(session, "rider@example.com")
    code = reset_code(session)

    assert passwords.reset(session, code, NEW_PASSWORD, NEW_PASSWORD).uuid == rider.uuid

    stored = reload(session, rider)
    assert password_matches(stored, NEW_PASSWORD)
    assert not password_matches(stored, DEMO_PASSWORD)
    assert stored.must_reset_password is False
    assert stored.password_changed_at is not None
    assert code_error(passwords.reset, session, code, "another1", "another1") == msg.CODE_USED
    assert reload(session, rider).password_hash == stored.password_hash


def test_reset_ends_sessions_issued_before_it(session, rider):
    earlier = tokens.issue_session_token(rider, True, now=datetime.now(UTC) - timedelta(seconds=2))
    assert tokens.check_session(session, earlier.token).status == "ok"
    passwords.request_reset(session, "rider@example.com")

    passwords.reset(session, reset_code(session), NEW_PASSWORD, NEW_PASSWORD)

    assert tokens.check_session(session, earlier.token).status == "invalid"
    later = tokens.issue_session_token(reload(session, rider), True)
    assert tokens.check_session(session, later.token, rider.uuid).status == "ok"


def test_a_session_from_the_same_second_after_the_new_password_works(session, rider):
    changed = datetime.now(UTC).replace(microsecond=100_000) - timedelta(seconds=10)
    rider.password_changed_at = changed
    session.add(rider)
    session.commit()
    token = tokens.issue_session_token(rider, True, now=changed + timedelta(milliseconds=500)).token
    assert tokens.check_session(session, token).status == "ok"


def test_a_session_from_the_same_second_before_the_new_password_ends(session, rider):
    issued_at = datetime.now(UTC).replace(microsecond=100_000) - timedelta(seconds=10)
    token = tokens.issue_session_token(rider, True, now=issued_at).token
    rider.password_changed_at = issued_at + timedelta(milliseconds=500)
    session.add(rider)
    session.commit()
    assert tokens.check_session(session, token).status == "invalid"


def test_bad_new_password_leaves_the_link_and_password_alone(session, rider):
    passwords.request_reset(session, "rider@example.com")
    code = reset_code(session)
    assert form_errors(passwords.reset, session, code, NEW_PASSWORD, "mismatch") == {
        "repeatPassword": msg.PASSWORD_MISMATCH
    }
    assert form_errors(passwords.reset, session, code, "short", "short") == {
        "password": msg.PASSWORD_TOO_SHORT
    }
    stored = reload(session, rider)
    assert stored.password_changed_at is None
    assert codes.check(session, CodePurpose.reset_password, code)[1].uuid == rider.uuid


@pytest.mark.parametrize("code", ["", "garbage", "x" * 5000])
def test_reset_with_an_unknown_link_is_invalid(session, rider, code):
    assert code_error(passwords.reset, session, code, NEW_PASSWORD, NEW_PASSWORD) == msg.CODE_INVALID
    assert reload(session, rider).password_changed_at is None


def test_expired_reset_link_is_refused(session, rider):
    passwords.request_reset(session, "rider@example.com")
    code = reset_code(session)
    row = session.exec(select(AccountCode)).one()
    row.expires_at = datetime.now(UTC) - timedelta(seconds=1)
    session.commit()
    assert code_error(passwords.reset, session, code, NEW_PASSWORD, NEW_PASSWORD) == msg.CODE_EXPIRED
    assert reload(session, rider).password_changed_at is None


def test_reset_link_lives_one_hour(session, rider):
    passwords.request_reset(session, "rider@example.com")
    row = session.exec(select(AccountCode)).one()
    lifetime = row.expires_at.replace(tzinfo=UTC) - row.created_at.replace(tzinfo=UTC)
    assert abs(lifetime - timedelta(hours=1)) < timedelta(seconds=5)


def test_verification_link_is_no_reset_link(session, rider):
    issued = codes.issue(session, rider, CodePurpose.verify_email, timedelta(hours=1))
    session.commit()
    assert code_error(passwords.reset, session, issued.code, NEW_PASSWORD, NEW_PASSWORD) == msg.CODE_INVALID


# --- Forced reset ----------------------------------------------------------------------------------------


def test_forced_reset_code_leads_to_a_session(session, make_account, human_check_payload):
    rider = make_account(must_reset_password=True)
    assert (
        login(session, "rider@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS).kind == "key"
    )

    code = passwords.forced_reset_code(session, rider)
    assert count(session, OutboxMessage) == 0
    passwords.reset(session, code, NEW_PASSWORD, NEW_PASSWORD)

    assert reload(session, rider).must_reset_password is False
    result = login(session, "rider@example.com", NEW_PASSWORD, True, human_check_payload(), ADDRESS)
    assert result.kind == "token"
    assert code_error(passwords.reset, session, code, NEW_PASSWORD, NEW_PASSWORD) == msg.CODE_USED


def test_reset_e_mails_are_capped_per_address(session, rider):
    for _ in range(5):
        passwords.request_reset(session, "rider@example.com")
    assert form_errors(passwords.request_reset, session, "rider@example.com") == {
        "email": msg.TOO_MANY_EMAILS
    }
    assert count(session, OutboxMessage) == 5
