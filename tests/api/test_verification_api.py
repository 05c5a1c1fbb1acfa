"""The verification, parental-consent and password API as a caller sees it."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, AccountCode, OutboxMessage
from cycling_site.services import parental_consent, tokens, verification
from cycling_site.services.accounts import age_on, password_matches
from cycling_site.settings import settings
from tests.unit.conftest import DEMO_PASSWORD, count, from_mail, reload, solve_payload

AUTH = "/api/auth"
PARENT = "parent@example.com"
NEW_PASSWORD = "climbhard"


def link_code(session: Session) -> str:
    return from_mail(session, rf"{re.escape(settings.site_url)}/verify-(?:user|kid)\?es=(\S+)")


def otp_key(session: Session) -> str:
    return from_mail(session, r"/auth/verification\?key=(\S+)")


def otp(session: Session) -> str:
    return from_mail(session, r"^\s+(\d{6})$")


def approval_code(session: Session) -> str:
    return from_mail(session, r"/parental-approval\?code=(\S+)")


def reset_code(session: Session) -> str:
    return from_mail(session, r"/auth/forgot-password2\?code=(\S+)")


def error(response, message: str | None = None, status_code: int = 400) -> dict:
    """A refused request: one JSON shape, never a server error."""
    assert response.status_code == status_code, response.text
    body = response.json()
    assert body["status"] is False
    assert isinstance(body["message"], str) and body["message"]
    if message is not None:
        assert body["message"] == message
    return body


def ok(response) -> dict:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] is True
    return body


@pytest.fixture
def unverified(session, make_account) -> Account:
    account = make_account(email_verified=False)
    verification.send_verification(session, account)
    session.commit()
    return account


@pytest.fixture
def kid(make_account) -> Account:
    return make_account(
        email="kid@example.com", firstname="Omar", lastname="Saleh", dob=date(2013, 9, 1), is_kid=True
    )


# --- Registration answers the key of the typed code ------------------------------------------------------


def test_adult_registration_answers_the_key_that_verifies_with_the_mailed_code(client, session):
    body = {
        "firstname": "Layla",
        "lastname": "Haddad",
        "email": "layla@example.com",
        "password": DEMO_PASSWORD,
        "dob": "1990-05-20",
        "country": 784,
        "gender": 1,
        "weight": 58.5,
        "height": 168,
        "consent": True,
        "token": solve_payload(),
    }
    data = ok(client.post(f"{AUTH}/register", json=body))["data"]
    assert data["requiresParentalConsent"] is False
    assert data["key"] == otp_key(session)

    answer = ok(client.post(f"{AUTH}/verify", json={"key": data["key"], "otp": otp(session)}))
    assert answer == {"status": True, "message": msg.EMAIL_VERIFIED, "data": {"verified": True}}
    login = {"email": "layla@example.com", "password": DEMO_PASSWORD, "token": solve_payload()}
    assert ok(client.post(f"{AUTH}/login", json=login))["data"]["token"]


def test_unverified_adult_login_answers_400_with_the_reason(client, unverified):
    login = {"email": "rider@example.com", "password": DEMO_PASSWORD, "token": solve_payload()}
    body = error(client.post(f"{AUTH}/login", json=login), msg.EMAIL_NOT_VERIFIED)
    assert body["errors"] == {"form": [msg.EMAIL_NOT_VERIFIED]}


# --- Verify by link --------------------------------------------------------------------------------------


def test_verify_user(client, session, unverified):
    code = link_code(session)
    answer = ok(client.post(f"{AUTH}/verify-user", json={"code": code}))
    assert answer == {"status": True, "message": msg.EMAIL_VERIFIED, "data": {"verified": True}}
    assert reload(session, unverified).email_verified is True

    error(client.post(f"{AUTH}/verify-user", json={"code": code}), msg.CODE_USED)


def test_verify_kid_variant(client, session, kid):
    kid.email_verified = False
    session.add(kid)
    verification.send_verification(session, kid)
    session.commit()
    ok(client.post(f"{AUTH}/verify-user", json={"code": link_code(session), "isKid": True}))
    assert reload(session, kid).email_verified is True


def test_verify_user_with_an_expired_link(client, session, unverified):
    code = link_code(session)
    for row in session.exec(select(AccountCode)):
        row.expires_at = datetime.now(UTC) - timedelta(seconds=1)
    session.commit()
    body = error(client.post(f"{AUTH}/verify-user", json={"code": code}), msg.CODE_EXPIRED)
    assert "errors" not in body
    assert reload(session, unverified).email_verified is False


@pytest.mark.parametrize("code", ["", "garbage", "x" * 300])
def test_verify_user_with_an_unknown_link(client, unverified, code):
    error(client.post(f"{AUTH}/verify-user", json={"code": code}), msg.CODE_INVALID)


def test_verify_user_resend(client, session, unverified):
    code = link_code(session)
    answer = ok(client.post(f"{AUTH}/verify-user-resend", json={"code": code, "isKid": False}))
    assert answer == {"status": True, "message": msg.VERIFICATION_SENT}
    assert count(session, OutboxMessage) == 2
    assert link_code(session) != code

    ok(client.post(f"{AUTH}/verify-user", json={"code": link_code(session)}))
    error(client.post(f"{AUTH}/verify-user-resend", json={"code": code}), msg.EMAIL_VERIFIED)
    error(client.post(f"{AUTH}/verify-user-resend", json={"code": "garbage"}), msg.CODE_INVALID)
    assert count(session, OutboxMessage) == 2


# --- Verify by typed code --------------------------------------------------------------------------------


def test_verify_otp_errors(client, session, unverified):
    key, code = otp_key(session), otp(session)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    body = error(client.post(f"{AUTH}/verify", json={"key": key, "otp": "12a"}), msg.OTP_REQUIRED)
    assert body["errors"] == {"otp": [msg.OTP_REQUIRED]}
    error(client.post(f"{AUTH}/verify", json={"key": key}), msg.OTP_REQUIRED)
    error(client.post(f"{AUTH}/verify", json={"key": "unknown", "otp": code}), msg.CODE_INVALID)
    error(client.post(f"{AUTH}/verify", json={"key": key, "otp": wrong}), msg.CODE_INVALID)
    assert reload(session, unverified).email_verified is False

    ok(client.post(f"{AUTH}/verify", json={"key": key, "otp": code}))
    error(client.post(f"{AUTH}/verify", json={"key": key, "otp": code}), msg.CODE_USED)


def test_five_wrong_codes_burn_it(client, session, unverified):
    key, code = otp_key(session), otp(session)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _ in range(5):
        error(client.post(f"{AUTH}/verify", json={"key": key, "otp": wrong}), msg.CODE_INVALID)
    error(client.post(f"{AUTH}/verify", json={"key": key, "otp": code}), msg.CODE_USED)
    assert reload(session, unverified).email_verified is False


def test_key_new(client, session, unverified):
    old_key, old_code = otp_key(session), otp(session)
    answer = ok(client.post(f"{AUTH}/key/new", json={"key": old_key}))
    assert answer["message"] == msg.VERIFICATION_SENT
    new_key = answer["data"]["key"]
    assert new_key == otp_key(session) != old_key

    error(client.post(f"{AUTH}/verify", json={"key": old_key, "otp": old_code}), msg.CODE_USED)
    ok(client.post(f"{AUTH}/verify", json={"key": new_key, "otp": otp(session)}))
    error(client.post(f"{AUTH}/key/new", json={"key": new_key}), msg.CODE_INVALID)
    error(client.post(f"{AUTH}/key/new", json={"key": "garbage"}), msg.CODE_INVALID)
    assert count(session, OutboxMessage) == 2


def test_new_codes_past_the_hourly_cap_answer_429(client, session, unverified):
    key = otp_key(session)
    for _ in range(5):
        key = ok(client.post(f"{AUTH}/key/new", json={"key": key}))["data"]["key"]
    body = error(client.post(f"{AUTH}/key/new", json={"key": key}), msg.TOO_MANY_EMAILS, 429)
    assert "errors" not in body
    assert count(session, OutboxMessage) == 6


def test_reset_e_mails_past_the_hourly_cap_answer_429(client, session, unverified):
    for _ in range(5):
        ok(client.post(f"{AUTH}/forget_password", json={"email": unverified.email}))
    refused = client.post(f"{AUTH}/forget_password", json={"email": unverified.email})
    body = error(refused, msg.TOO_MANY_EMAILS, 429)
    assert body["errors"] == {"email": [msg.TOO_MANY_EMAILS]}


# --- Resend by e-mail ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("email", "mails"),
    [
        pytest.param("Rider@Example.com", 2, id="unverified"),
        pytest.param("nobody@example.com", 1, id="unknown"),
        pytest.param("verified@example.com", 1, id="verified"),
    ],
)
def test_verify_email_answers_the_same_for_every_address(
    client, session, make_account, unverified, email, mails
):
    make_account(email="verified@example.com")
    answer = ok(client.post(f"{AUTH}/verify_email", json={"email": email}))
    assert answer == {"status": True, "message": msg.RESEND_NEUTRAL}
    assert count(session, OutboxMessage) == mails


@pytest.mark.parametrize("email", ["", "rider@", "not an email"])
def test_verify_email_validates_the_address(client, session, email):
    body = error(client.post(f"{AUTH}/verify_email", json={"email": email}), msg.EMAIL_REQUIRED_VALID)
    assert body["errors"] == {"email": [msg.EMAIL_REQUIRED_VALID]}
    assert count(session, OutboxMessage) == 0


# --- Parental consent ------------------------------------------------------------------------------------


def handle(child: Account) -> str:
    """childUserId as the kid's sign-up or sign-in answers it: a short-lived signed handle."""
    return parental_consent.consent_handle(child)


def consent(child: Account, parent: str = PARENT) -> dict:
    return {"parentEmail": parent, "childUserId": handle(child), "userAge": 11}


def test_parental_consent_flow_with_approval(client, session, kid):
    approved = client.post(f"{AUTH}/check-parental-approval", json={"childUserId": handle(kid)})
    assert ok(approved) == {"status": True, "data": {"approved": False}}

    answer = ok(client.post(f"{AUTH}/parental-consent", json=consent(kid)))
    assert answer == {"status": True, "message": msg.CONSENT_SENT}
    code = approval_code(session)

    review = ok(client.get(f"{AUTH}/parental-approval/{code}"))
    assert review["data"]["childName"] == "Omar Saleh"
    assert review["data"]["childEmail"] == "kid@example.com"
    assert review["data"]["childAge"] == age_on(date(2013, 9, 1), datetime.now(UTC).date())

    decided = ok(client.post(f"{AUTH}/parental-approval", json={"code": code, "approve": True}))
    assert decided == {"status": True, "message": msg.CONSENT_APPROVED}
    approved = client.post(f"{AUTH}/check-parental-approval", json={"childUserId": handle(kid)})
    assert ok(approved)["data"] == {"approved": True}
    login = {"email": "kid@example.com", "password": DEMO_PASSWORD, "token": solve_payload()}
    token = ok(client.post(f"{AUTH}/login", json=login))["data"]["token"]
    assert tokens.check_session(session, token, kid.uuid).status == "ok"

    error(client.get(f"{AUTH}/parental-approval/{code}"), msg.CODE_USED)
    error(client.post(f"{AUTH}/parental-approval", json={"code": code, "approve": False}), msg.CODE_USED)
    assert reload(session, kid).deleted_at is None


def test_parental_consent_decline(client, session, kid):
    ok(client.post(f"{AUTH}/parental-consent", json=consent(kid)))
    code = approval_code(session)
    answer = ok(client.post(f"{AUTH}/parental-approval", json={"code": code, "approve": False}))
    assert answer == {"status": True, "message": msg.CONSENT_DECLINED}

    stored = reload(session, kid)
    assert stored.email == f"deleted-{kid.uuid}@deleted.invalid"
    assert stored.deleted_at is not None
    login = {"email": "kid@example.com", "password": DEMO_PASSWORD, "token": solve_payload()}
    error(client.post(f"{AUTH}/login", json=login), msg.LOGIN_FAILED)
    approved = client.post(f"{AUTH}/check-parental-approval", json={"childUserId": handle(kid)})
    assert ok(approved)["data"] == {"approved": False}


def test_resend_parental_consent_waits_five_minutes(client, session, kid):
    ok(client.post(f"{AUTH}/parental-consent", json=consent(kid)))
    first = approval_code(session)
    resend = {"parentEmail": "mother@example.com", "childUserId": handle(kid)}
    body = error(client.post(f"{AUTH}/resend-parental-consent", json=resend), msg.CONSENT_WAIT, 429)
    assert body["errors"] == {"form": [msg.CONSENT_WAIT]}
    assert count(session, OutboxMessage) == 1

    stored = reload(session, kid)
    stored.parent_consent_sent_at = datetime.now(UTC) - timedelta(seconds=301)
    session.commit()
    answer = ok(client.post(f"{AUTH}/resend-parental-consent", json=resend))
    assert answer["message"] == msg.CONSENT_SENT
    assert count(session, OutboxMessage) == 2
    assert approval_code(session) != first
    error(client.get(f"{AUTH}/parental-approval/{first}"), msg.CODE_USED)


@pytest.mark.parametrize(
    ("parent", "field", "message"),
    [
        pytest.param("parent@", "parentEmail", msg.EMAIL_REQUIRED_VALID, id="bad-email"),
        pytest.param("", "parentEmail", msg.EMAIL_REQUIRED_VALID, id="no-email"),
        pytest.param("kid@example.com", "parentEmail", msg.PARENT_EMAIL_IS_CHILD, id="own-email"),
    ],
)
def test_parental_consent_refusals(client, session, kid, parent, field, message):
    body = error(client.post(f"{AUTH}/parental-consent", json=consent(kid, parent)), message)
    assert body["errors"] == {field: [message]}
    assert count(session, OutboxMessage) == 0


def test_parental_consent_for_a_rider_who_needs_none(client, session, make_account):
    body = {"parentEmail": PARENT, "childUserId": handle(make_account())}
    error(client.post(f"{AUTH}/parental-consent", json=body), msg.CONSENT_NOT_NEEDED)
    assert count(session, OutboxMessage) == 0


@pytest.mark.parametrize("child", ["uuid", "unknown", "empty"])
def test_parental_consent_needs_the_kids_own_handle(client, session, kid, child):
    """A stranger who knows the kid's uuid cannot send the request to their own address."""
    child_user_id = {"uuid": kid.uuid, "unknown": "no-such-rider", "empty": ""}[child]
    body = {"parentEmail": "stranger@example.com", "childUserId": child_user_id}
    error(client.post(f"{AUTH}/parental-consent", json=body), msg.CONSENT_REQUEST_EXPIRED)
    assert count(session, OutboxMessage) == 0


@pytest.mark.parametrize("child_uuid", ["", "unknown", "x" * 300])
def test_check_parental_approval_of_unknown_children(client, child_uuid):
    response = client.post(f"{AUTH}/check-parental-approval", json={"childUserId": child_uuid})
    assert ok(response)["data"] == {"approved": False}


@pytest.mark.parametrize("code", ["garbage", "x" * 300, "%20"])
def test_parental_approval_with_an_unknown_link(client, code):
    error(client.get(f"{AUTH}/parental-approval/{code}"), msg.CODE_INVALID)
    error(client.post(f"{AUTH}/parental-approval", json={"code": code, "approve": True}), msg.CODE_INVALID)


# --- Passwords -------------------------------------------------------------------------------------------


def test_forget_and_reset_password(client, session, make_account):
    rider = make_account(must_reset_password=True)
    earlier = tokens.issue_session_token(rider, True, now=datetime.now(UTC) - timedelta(seconds=2))
    answer = ok(client.post(f"{AUTH}/forget_password", json={"email": "Rider@Example.com"}))
    assert answer == {"status": True, "message": msg.RESET_SENT}
    code = reset_code(session)

    reset = {"password": NEW_PASSWORD, "repeatPassword": NEW_PASSWORD, "code": code}
    answer = ok(client.post(f"{AUTH}/reset_password", json=reset))
    assert answer == {"status": True, "message": msg.PASSWORD_RESET_DONE}
    stored = reload(session, rider)
    assert password_matches(stored, NEW_PASSWORD)
    assert stored.must_reset_password is False
    assert tokens.check_session(session, earlier.token).status == "invalid"

    error(client.post(f"{AUTH}/reset_password", json=reset), msg.CODE_USED)


@pytest.mark.parametrize(
    ("email", "message"),
    [
        pytest.param("nobody@example.com", msg.INVALID_EMAIL_PROVIDED, id="unknown"),
        pytest.param("rider@", msg.EMAIL_REQUIRED_VALID, id="bad-format"),
        pytest.param("", msg.EMAIL_REQUIRED_VALID, id="empty"),
    ],
)
def test_forget_password_refusals(client, session, make_account, email, message):
    make_account()
    body = error(client.post(f"{AUTH}/forget_password", json={"email": email}), message)
    assert body["errors"] == {"email": [message]}
    assert count(session, OutboxMessage) == 0


@pytest.mark.parametrize(
    ("password", "repeat", "field", "message"),
    [
        pytest.param("short", "short", "password", msg.PASSWORD_TOO_SHORT, id="short"),
        pytest.param(NEW_PASSWORD, "other-password", "repeatPassword", msg.PASSWORD_MISMATCH, id="mismatch"),
        pytest.param("x" * 129, "x" * 129, "password", msg.too_long("Password", 128), id="too-long"),
    ],
)
def test_reset_password_rules(client, session, make_account, password, repeat, field, message):
    rider = make_account()
    ok(client.post(f"{AUTH}/forget_password", json={"email": "rider@example.com"}))
    reset = {"password": password, "repeatPassword": repeat, "code": reset_code(session)}
    body = error(client.post(f"{AUTH}/reset_password", json=reset), message)
    assert body["errors"] == {field: [message]}
    assert reload(session, rider).password_changed_at is None


def test_reset_password_with_an_unknown_link(client, make_account):
    make_account()
    reset = {"password": NEW_PASSWORD, "repeatPassword": NEW_PASSWORD, "code": "garbage"}
    error(client.post(f"{AUTH}/reset_password", json=reset), msg.CODE_INVALID)


# --- Malformed requests ----------------------------------------------------------------------------------

VALID_BODIES = {
    "verify-user": {"code": "c"},
    "verify-user-resend": {"code": "c"},
    "verify": {"key": "k", "otp": "123456"},
    "key/new": {"key": "k"},
    "verify_email": {"email": "rider@example.com"},
    "parental-consent": {"parentEmail": PARENT, "childUserId": "u"},
    "resend-parental-consent": {"parentEmail": PARENT, "childUserId": "u"},
    "check-parental-approval": {"childUserId": "u"},
    "parental-approval": {"code": "c", "approve": True},
    "forget_password": {"email": "rider@example.com"},
    "reset_password": {"password": NEW_PASSWORD, "repeatPassword": NEW_PASSWORD, "code": "c"},
}


def oversized(body: dict) -> dict:
    return {name: "x" * 301 if isinstance(value, str) else value for name, value in body.items()}


def retyped(body: dict) -> dict:
    return {name: ["list"] for name in body}


MALFORMED = [
    pytest.param(
        lambda body: {"content": b'{"code": ', "headers": {"content-type": "application/json"}}, id="bad-json"
    ),
    pytest.param(
        lambda body: {"content": b"", "headers": {"content-type": "application/json"}}, id="empty-body"
    ),
    pytest.param(lambda body: {}, id="no-body"),
    pytest.param(lambda body: {"json": list(body.values())}, id="json-list"),
    pytest.param(lambda body: {"json": {}}, id="no-fields"),
    pytest.param(lambda body: {"json": oversized(body)}, id="oversized-fields"),
    pytest.param(lambda body: {"json": {name: "x" * 100_000 for name in body}}, id="100kb-fields"),
    pytest.param(lambda body: {"json": retyped(body)}, id="lists-for-fields"),
]


@pytest.mark.parametrize("path", list(VALID_BODIES))
@pytest.mark.parametrize("request_for", MALFORMED)
def test_malformed_requests_answer_400_never_500(client, session, path, request_for):
    body = error(client.post(f"{AUTH}/{path}", **request_for(VALID_BODIES[path])))
    assert body["errors"]
    assert count(session, OutboxMessage) == 0


NUL = "\x00\u202e"


def nul_param(path: str, body: dict, *marks) -> pytest.param:
    return pytest.param(path, body, marks=marks, id=path)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        nul_param("verify-user", {"code": f"c{NUL}"}),
        nul_param("verify-user-resend", {"code": f"c{NUL}"}),
        nul_param("verify", {"key": f"k{NUL}", "otp": "123456"}),
        nul_param("key/new", {"key": f"k{NUL}"}),
        nul_param("verify_email", {"email": f"rider@example.com{NUL}"}),
        nul_param("parental-consent", {"parentEmail": PARENT, "childUserId": f"u{NUL}"}),
        nul_param("resend-parental-consent", {"parentEmail": PARENT, "childUserId": f"u{NUL}"}),
        nul_param("parental-approval", {"code": f"c{NUL}", "approve": True}),
        nul_param("forget_password", {"email": f"rider{NUL}@example.com"}),
        nul_param(
            "reset_password", {"password": NEW_PASSWORD, "repeatPassword": NEW_PASSWORD, "code": f"c{NUL}"}
        ),
    ],
)
def test_control_characters_answer_400_never_500(client, session, make_account, path, body):
    make_account()
    error(client.post(f"{AUTH}/{path}", json=body))
    assert count(session, OutboxMessage) == 0


def test_control_characters_in_a_child_id_answer_not_approved(client):
    response = client.post(f"{AUTH}/check-parental-approval", json={"childUserId": f"u{NUL}"})
    assert ok(response)["data"] == {"approved": False}


def test_wrong_method_answers_json(client):
    body = error(client.get(f"{AUTH}/verify-user"), status_code=405)
    assert "errors" not in body
