"""Parental consent: the kid asks, a parent approves or declines through an e-mailed, single-use link."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, AccountCode, OutboxMessage
from cycling_site.services import parental_consent, tokens
from cycling_site.services.accounts import FormErrors, erase_personal_data, login
from cycling_site.settings import settings
from cycling_site.state.parental_consent import ParentalConsentState
from tests.unit.conftest import DEMO_PASSWORD, code_error, count, form_errors, from_mail, reload

ADDRESS = "203.0.113.7"
TODAY = date(2025, 6, 15)
PARENT = "parent@example.com"


@pytest.fixture
def kid(make_account) -> Account:
    return make_account(
        email="kid@example.com", firstname="Omar", lastname="Saleh", dob=date(2013, 9, 1), is_kid=True
    )


def approval_code(session: Session) -> str:
    """The code in the newest approval e-mail, as the parent would open it."""
    return from_mail(session, rf"{re.escape(settings.site_url)}/parental-approval\?code=(\S+)")


def wait_out_the_resend(session: Session, kid: Account) -> None:
    """Moves the last request back past the 300 s wait."""
    kid = reload(session, kid)
    kid.parent_consent_sent_at = datetime.now(UTC) - timedelta(seconds=301)
    session.add(kid)
    session.commit()


def handle(child: Account) -> str:
    """The consent page's childUserId, as the kid's sign-up or sign-in hands it over."""
    return parental_consent.consent_handle(child)


def sign_in(session: Session, email: str, payload: str):
    return login(session, email, DEMO_PASSWORD, True, payload, ADDRESS)


# --- Asking ----------------------------------------------------------------------------------------------


def test_request_mails_the_parent_a_link(session, kid):
    parental_consent.request_consent(session, handle(kid), " Parent@Example.COM ")

    mail = session.exec(select(OutboxMessage)).one()
    assert mail.recipient == PARENT
    assert "Omar Saleh (kid@example.com)" in mail.body
    assert approval_code(session)
    stored = reload(session, kid)
    assert stored.parent_email == PARENT
    assert datetime.now(UTC) - stored.parent_consent_sent_at.replace(tzinfo=UTC) < timedelta(minutes=1)
    assert stored.parent_approved is False


def test_approval_link_lives_seven_days(session, kid):
    parental_consent.request_consent(session, handle(kid), PARENT)
    row = session.exec(select(AccountCode)).one()
    lifetime = row.expires_at.replace(tzinfo=UTC) - row.created_at.replace(tzinfo=UTC)
    assert abs(lifetime - timedelta(days=7)) < timedelta(seconds=5)
    assert row.sent_to == PARENT


@pytest.mark.parametrize("case", ["adult", "approved", "deleted"])
def test_request_for_a_rider_who_needs_no_consent(session, make_account, kid, case):
    child = kid
    if case == "adult":
        child = make_account(email="adult@example.com")
    else:
        if case == "approved":
            kid.parent_approved = True
        else:
            erase_personal_data(session, kid)
        session.add(kid)
        session.commit()

    assert form_errors(parental_consent.request_consent, session, handle(child), PARENT) == {
        "form": msg.CONSENT_NOT_NEEDED
    }
    assert count(session, OutboxMessage) == 0


def _other_purpose(kid: Account) -> str:
    return tokens.sign_link(kid.uuid, "rider_file", timedelta(hours=1))


def _expired(kid: Account) -> str:
    return tokens.sign_link(kid.uuid, parental_consent.HANDLE_PURPOSE, timedelta(seconds=-1))


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda kid: kid.uuid, id="the kid's uuid"),
        pytest.param(lambda kid: "", id="empty"),
        pytest.param(lambda kid: handle(kid)[:-3] + "AAA", id="tampered"),
        pytest.param(_other_purpose, id="another purpose"),
        pytest.param(_expired, id="expired"),
        pytest.param(lambda kid: handle(kid) + "x" * 5000, id="oversized"),
    ],
)
def test_only_the_kids_own_sign_in_can_ask_for_consent(session, kid, forge):
    """Knowing a kid's uuid is not enough to send their consent request to oneself and approve it."""
    assert form_errors(parental_consent.request_consent, session, forge(kid), "stranger@example.com") == {
        "form": msg.CONSENT_REQUEST_EXPIRED
    }
    assert count(session, OutboxMessage) == 0
    assert reload(session, kid).parent_email is None


@pytest.mark.parametrize("email", ["", None, "parent@", "parent.example.com", "a" * 250 + "@example.com"])
def test_request_needs_a_valid_parent_email(session, kid, email):
    assert form_errors(parental_consent.request_consent, session, handle(kid), email) == {
        "parentEmail": msg.EMAIL_REQUIRED_VALID
    }
    assert count(session, OutboxMessage) == 0
    assert reload(session, kid).parent_email is None


def test_parent_email_cannot_be_the_childs_own(session, kid):
    assert form_errors(parental_consent.request_consent, session, handle(kid), "KID@example.com") == {
        "parentEmail": msg.PARENT_EMAIL_IS_CHILD
    }
    assert count(session, OutboxMessage) == 0


def test_second_request_within_five_minutes_is_refused(session, kid):
    parental_consent.request_consent(session, handle(kid), PARENT)
    first_code = approval_code(session)
    assert form_errors(
        parental_consent.request_consent, session, handle(kid), "other.parent@example.com"
    ) == {"form": msg.CONSENT_WAIT}
    assert count(session, OutboxMessage) == 1
    assert reload(session, kid).parent_email == PARENT
    assert parental_consent.review(session, first_code, TODAY).child_email == "kid@example.com"


def test_request_just_inside_the_wait_is_still_refused(session, kid):
    parental_consent.request_consent(session, handle(kid), PARENT)
    stored = reload(session, kid)
    stored.parent_consent_sent_at = datetime.now(UTC) - timedelta(seconds=295)
    session.commit()
    assert form_errors(parental_consent.request_consent, session, handle(kid), PARENT) == {
        "form": msg.CONSENT_WAIT
    }
    assert count(session, OutboxMessage) == 1


def test_after_the_wait_a_new_link_replaces_the_old(session, kid):
    parental_consent.request_consent(session, handle(kid), PARENT)
    first_code = approval_code(session)
    wait_out_the_resend(session, kid)

    parental_consent.request_consent(session, handle(kid), "mother@example.com")

    assert count(session, OutboxMessage) == 2
    second_code = approval_code(session)
    assert second_code != first_code
    assert reload(session, kid).parent_email == "mother@example.com"
    assert code_error(parental_consent.review, session, first_code) == msg.CODE_USED
    assert parental_consent.review(session, second_code, TODAY).child_name == "Omar Saleh"


# --- The parent's answer ---------------------------------------------------------------------------------


def test_review_shows_name_age_and_email(session, kid):
    parental_consent.request_consent(session, handle(kid), PARENT)
    request = parental_consent.review(session, approval_code(session), TODAY)
    assert request == parental_consent.ConsentRequest("Omar Saleh", 11, "kid@example.com")
    assert parental_consent.review(session, approval_code(session), date(2025, 9, 1)).child_age == 12


@pytest.mark.parametrize("code", ["", "garbage", "x" * 1000])
def test_review_of_an_unknown_link_is_invalid(session, kid, code):
    assert code_error(parental_consent.review, session, code) == msg.CODE_INVALID


def test_expired_link_cannot_be_reviewed_or_decided(session, kid):
    parental_consent.request_consent(session, handle(kid), PARENT)
    code = approval_code(session)
    for row in session.exec(select(AccountCode)):
        row.expires_at = datetime.now(UTC) - timedelta(seconds=1)
    session.commit()
    assert code_error(parental_consent.review, session, code) == msg.CODE_EXPIRED
    assert code_error(parental_consent.decide, session, code, True) == msg.CODE_EXPIRED
    assert reload(session, kid).parent_approved is False


def test_approval_lets_the_kid_sign_in(session, kid, human_check_payload):
    assert sign_in(session, "kid@example.com", human_check_payload()).kind == "consent"
    parental_consent.request_consent(session, handle(kid), PARENT)
    code = approval_code(session)
    assert parental_consent.is_approved(session, handle(kid)) is False

    assert parental_consent.decide(session, code, approve=True).uuid == kid.uuid

    assert parental_consent.is_approved(session, handle(kid)) is True
    result = sign_in(session, "kid@example.com", human_check_payload())
    assert result.kind == "token"
    assert tokens.check_session(session, result.token, kid.uuid).status == "ok"
    # Single use, and no further request is needed.
    assert code_error(parental_consent.decide, session, code, False) == msg.CODE_USED
    assert code_error(parental_consent.review, session, code) == msg.CODE_USED
    assert reload(session, kid).deleted_at is None
    assert form_errors(parental_consent.request_consent, session, handle(kid), PARENT) == {
        "form": msg.CONSENT_NOT_NEEDED
    }


def test_decline_erases_the_kids_personal_data(session, kid, human_check_payload):
    parental_consent.request_consent(session, handle(kid), PARENT)
    code = approval_code(session)

    parental_consent.decide(session, code, approve=False)

    stored = reload(session, kid)
    assert stored.email == f"deleted-{kid.uuid}@deleted.invalid"
    assert (stored.firstname, stored.lastname) == ("Deleted", "Rider")
    assert stored.parent_email is None
    assert stored.dob == date(1900, 1, 1)
    assert stored.deleted_at is not None
    assert stored.parent_approved is False
    assert parental_consent.is_approved(session, handle(kid)) is False
    assert session.exec(select(Account).where(Account.email == "kid@example.com")).first() is None
    with pytest.raises(FormErrors) as caught:
        sign_in(session, "kid@example.com", human_check_payload())
    assert caught.value.errors == {"form": msg.LOGIN_FAILED}
    # The link is spent, and the erased account cannot ask again.
    assert code_error(parental_consent.decide, session, code, True) == msg.CODE_USED
    assert form_errors(parental_consent.request_consent, session, handle(kid), PARENT) == {
        "form": msg.CONSENT_NOT_NEEDED
    }


def test_link_of_a_kid_deleted_meanwhile_is_invalid(session, kid):
    parental_consent.request_consent(session, handle(kid), PARENT)
    code = approval_code(session)
    stored = reload(session, kid)
    erase_personal_data(session, stored)
    session.commit()
    assert code_error(parental_consent.review, session, code) == msg.CODE_INVALID
    assert code_error(parental_consent.decide, session, code, True) == msg.CODE_INVALID
    assert reload(session, kid).parent_approved is False


@pytest.mark.parametrize("child_handle", ["", "unknown", "x" * 37])
def test_is_approved_for_unknown_children_is_false(session, child_handle):
    assert parental_consent.is_approved(session, child_handle) is False


@pytest.mark.anyio
async def test_an_email_that_cannot_be_sent_says_so_on_send_and_resend(monkeypatch):
    def outbox_unavailable(*_args):
        raise OperationalError("INSERT INTO outboxmessage", {}, Exception("disk I/O error"))

    monkeypatch.setattr(parental_consent, "request_consent", outbox_unavailable)
    state = ParentalConsentState()
    [update async for update in state.submit({"parentEmail": "parent@example.com"})]
    assert state.errors == {"form": msg.EMAIL_SEND_ERROR}
    assert not state.sent and not state.submitting

    state.parent_email, state.sent, state.resend_ready = "parent@example.com", True, True
    [update async for update in state.resend()]
    assert state.errors == {"form": msg.EMAIL_RESEND_ERROR}
