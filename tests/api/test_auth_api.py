"""The REST API as a caller sees it: sign-in, sign-up, profile, sign-out, the human check, the middleware."""

import base64
import json
from datetime import UTC, date, datetime

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from cycling_site.api.middleware import MAX_REQUEST_BYTES, SiteMiddleware
from cycling_site.messages import accounts as msg
from cycling_site.messages import site as site_msg
from cycling_site.models import Account, OutboxMessage
from cycling_site.services import parental_consent, teams, tokens
from cycling_site.services.accounts import NAME_MAX
from cycling_site.services.teams import TeamForm
from cycling_site.services.tokens import TOKEN_COOKIE
from cycling_site.settings import settings
from tests.unit.conftest import DEMO_PASSWORD, count, solve_payload

LOGIN = "/api/auth/login"
REGISTER = "/api/auth/register"
PROFILE = "/api/auth/profile"
LOGOUT = "/api/auth/logout"


def years_ago(years: int, today: date | None = None) -> str:
    """The date of birth of someone who turns `years` today (29 February falls back to 28)."""
    today = today or datetime.now(UTC).date()
    try:
        return today.replace(year=today.year - years).isoformat()
    except ValueError:
        return today.replace(year=today.year - years, day=28).isoformat()


def assert_error_shape(response, status_code: int = 400) -> dict:
    assert response.status_code == status_code, response.text
    body = response.json()
    assert body["status"] is False
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["errors"], dict) and body["errors"]
    assert all(isinstance(texts, list) and texts for texts in body["errors"].values())
    return body


def login_body(email: str = "rider@example.com", password: str = DEMO_PASSWORD, **extra) -> dict:
    return {"email": email, "password": password, "token": solve_payload(), **extra}


def sign_in(client: TestClient, email: str = "rider@example.com") -> str:
    response = client.post(LOGIN, json=login_body(email))
    assert response.status_code == 200, response.text
    return response.json()["data"]["token"]


# --- Login -----------------------------------------------------------------------------------------------


def test_login_answers_token_user_and_uuid(client, make_account):
    account = make_account()
    response = client.post(LOGIN, json=login_body("Rider@Example.com", remember=False))

    assert response.status_code == 200
    body = response.json()
    assert body["status"] is True
    data = body["data"]
    assert data["token"]
    assert data["uuId"] == account.uuid
    user = data["user"]
    assert user["uuId"] == account.uuid
    assert user["email"] == "rider@example.com"
    assert (user["firstname"], user["lastname"]) == ("Layla", "Haddad")
    assert user["isKid"] is False
    assert user["dob"] == "1990-05-20"
    assert "password_hash" not in user and "passwordHash" not in user
    assert DEMO_PASSWORD not in response.text


def test_login_with_the_widget_challenge(client, make_account):
    make_account()
    challenge = client.get("/api/altcha/challenge").json()
    body = {"email": "rider@example.com", "password": DEMO_PASSWORD, "token": solve_payload(challenge)}
    assert client.post(LOGIN, json=body).status_code == 200
    # The same solution a second time is refused.
    replay = client.post(LOGIN, json=body)
    assert replay.status_code == 400
    assert replay.json()["errors"] == {"token": [msg.HUMAN_CHECK_REQUIRED]}


def test_forced_reset_answers_the_literal_key(client, make_account):
    make_account(must_reset_password=True)
    response = client.post(LOGIN, json=login_body())
    assert response.status_code == 200
    assert response.json() == {"status": True, "data": "key"}


def test_kid_waiting_for_approval_answers_parental_consent(client, make_account):
    kid = make_account(email="kid@example.com", dob=date.fromisoformat(years_ago(12)), is_kid=True)
    response = client.post(LOGIN, json=login_body("kid@example.com"))
    assert response.status_code == 200
    data = response.json()["data"]
    assert data == {"requiresParentalConsent": True, "childUserId": data["childUserId"], "userAge": 12}
    # A short-lived handle of the kid's own sign-in, never the uuid anyone could learn.
    assert data["childUserId"] != kid.uuid
    assert tokens.read_link(data["childUserId"], parental_consent.HANDLE_PURPOSE)["sub"] == kid.uuid


@pytest.mark.parametrize(
    ("email", "password"),
    [("rider@example.com", "wrong-password"), ("nobody@example.com", DEMO_PASSWORD)],
    ids=["wrong-password", "unknown-email"],
)
def test_failed_login_answers_400_with_one_message(client, make_account, email, password):
    make_account()
    body = assert_error_shape(client.post(LOGIN, json=login_body(email, password)))
    assert body["message"] == msg.LOGIN_FAILED
    assert body["errors"] == {"form": [msg.LOGIN_FAILED]}


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        pytest.param(
            {"email": "rider@", "password": "ridefast", "token": "x"},
            "email",
            msg.EMAIL_INVALID,
            id="bad-email",
        ),
        pytest.param(
            {"email": "rider@example.com", "password": "12345", "token": "x"},
            "password",
            msg.PASSWORD_TOO_SHORT,
            id="short-password",
        ),
        pytest.param(
            {"email": "rider@example.com", "password": "ridefast"},
            "token",
            msg.HUMAN_CHECK_REQUIRED,
            id="no-token",
        ),
        pytest.param(
            {"email": "rider@example.com", "password": "ridefast", "token": "garbage"},
            "token",
            msg.HUMAN_CHECK_REQUIRED,
            id="garbage-token",
        ),
    ],
)
def test_login_rules_answer_their_messages(client, body, field, message):
    answer = assert_error_shape(client.post(LOGIN, json=body))
    assert answer["message"] == message
    assert answer["errors"] == {field: [message]}


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        pytest.param(
            {"json": {"email": 123, "password": "ridefast", "token": "x"}}, "email", id="email-number"
        ),
        pytest.param(
            {"json": {"email": "rider@example.com", "password": ["ridefast"], "token": "x"}},
            "password",
            id="password-list",
        ),
        pytest.param(
            {"json": {"email": "a" * 10_240 + "@example.com", "password": "ridefast", "token": "x"}},
            "email",
            id="10kb-email",
        ),
        pytest.param({"json": {"email": "rider@example.com", "token": "x"}}, "password", id="no-password"),
        pytest.param(
            {"json": {"email": "rider@example.com", "password": "ridefast", "token": 7}},
            "token",
            id="token-int",
        ),
        pytest.param(
            {"json": {"email": "rider@example.com", "password": "ridefast", "token": "x" * 5000}},
            "token",
            id="huge-token",
        ),
        pytest.param({"json": ["rider@example.com", "ridefast"]}, None, id="json-list"),
        pytest.param(
            {"content": b'{"email": "rider@example.com", ', "headers": {"content-type": "application/json"}},
            None,
            id="invalid-json",
        ),
        pytest.param(
            {"content": b"", "headers": {"content-type": "application/json"}}, None, id="empty-body"
        ),
        pytest.param({}, None, id="no-body"),
    ],
)
def test_malformed_login_requests_answer_400_never_500(client, kwargs, field):
    body = assert_error_shape(client.post(LOGIN, **kwargs))
    if field:
        assert field in body["errors"]


def test_too_many_attempts_answer_429(client, make_account):
    make_account()
    for _ in range(5):
        assert client.post(LOGIN, json=login_body(password="wrong-password")).status_code == 400
    body = assert_error_shape(client.post(LOGIN, json=login_body()), status_code=429)
    assert body["message"] == msg.LOGIN_RATE_LIMITED


def test_crafted_human_check_payload_answers_400(client, make_account):
    make_account()
    payload = json.loads(base64.b64decode(solve_payload()))
    payload["salt"] = 123
    token = base64.b64encode(json.dumps(payload).encode()).decode()
    response = client.post(
        LOGIN, json={"email": "rider@example.com", "password": DEMO_PASSWORD, "token": token}
    )
    body = assert_error_shape(response)
    assert body["errors"] == {"token": [msg.HUMAN_CHECK_REQUIRED]}


# --- Profile and logout ----------------------------------------------------------------------------------


def test_profile_needs_a_session(client):
    response = client.get(PROFILE)
    assert response.status_code == 401
    assert response.json() == {"status": False, "message": msg.SESSION_EXPIRED}


def test_profile_with_bearer_token(client, session, make_account):
    account = make_account()
    teams.create(session, account, TeamForm("Desert Falcons"))
    token = sign_in(client)
    response = client.get(PROFILE, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    profile = response.json()["data"]
    assert profile["uuId"] == account.uuid
    assert profile["email"] == "rider@example.com"
    assert profile["team"] == "Desert Falcons"
    assert profile["isKid"] is False


def test_profile_with_the_session_cookie(client, make_account):
    make_account()
    token = sign_in(client)
    client.cookies.set(TOKEN_COOKIE, token)
    assert client.get(PROFILE).json()["data"]["email"] == "rider@example.com"


def test_profile_with_a_tampered_token(client, make_account):
    make_account()
    token = sign_in(client)
    header, payload, signature = token.split(".")
    tampered = f"{header}.{payload}.{'B' if signature[0] == 'A' else 'A'}{signature[1:]}"
    response = client.get(PROFILE, headers={"Authorization": f"Bearer {tampered}"})
    assert response.status_code == 401
    assert response.json()["message"] == msg.SESSION_EXPIRED


def test_logout_revokes_the_token(client, make_account):
    make_account()
    token = sign_in(client)
    auth = {"Authorization": f"Bearer {token}"}
    assert client.get(PROFILE, headers=auth).status_code == 200

    response = client.post(LOGOUT, headers=auth)
    assert response.status_code == 200
    assert response.json() == {"status": True, "message": msg.LOGGED_OUT}
    assert client.get(PROFILE, headers=auth).status_code == 401


def test_logout_without_a_session_still_answers(client):
    response = client.post(LOGOUT)
    assert response.status_code == 200
    assert response.json()["message"] == msg.LOGGED_OUT


# --- Registration ----------------------------------------------------------------------------------------


def register_body(**overrides) -> dict:
    body = {
        "firstname": "Layla",
        "lastname": "Haddad",
        "email": "layla@example.com",
        "password": "ridefast",
        "dob": "1990-05-20",
        "country": 784,
        "gender": 1,
        "weight": 58.5,
        "height": 168,
        "consent": True,
        "token": "not-yet-checked",
    }
    body.update(overrides)
    return body


def test_adult_registration(client, session):
    response = client.post(
        REGISTER, json=register_body(token=solve_payload(), IsAllowedToSendMarketingEmails=True)
    )
    assert response.status_code == 200, response.text
    body = response.json()
    key = body["data"].get("key", "")
    assert body == {
        "status": True,
        "message": msg.REGISTERED,
        "data": {"requiresParentalConsent": False, "key": key},
    }
    account = session.exec(select(Account).where(Account.email == "layla@example.com")).one()
    assert account.is_kid is False
    assert account.marketing_consent is True
    mail = session.exec(select(OutboxMessage)).one()
    assert mail.recipient == "layla@example.com"
    assert "/verify-user?es=" in mail.body
    assert f"/auth/verification?key={key}" in mail.body


def test_kid_registration_needs_parental_consent(client, session):
    response = client.post(REGISTER, json=register_body(dob=years_ago(10), token=solve_payload()))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["message"] == msg.REGISTERED_KID
    account = session.exec(select(Account).where(Account.email == "layla@example.com")).one()
    assert account.is_kid is True
    handle = body["data"]["childUserId"]
    assert body["data"] == {"requiresParentalConsent": True, "childUserId": handle, "userAge": 10}
    assert tokens.read_link(handle, parental_consent.HANDLE_PURPOSE)["sub"] == account.uuid
    assert "/verify-kid?es=" in session.exec(select(OutboxMessage)).one().body


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        pytest.param({"firstname": ""}, "firstname", msg.required("First Name"), id="firstname"),
        pytest.param({"lastname": ""}, "lastname", msg.required("Last Name"), id="lastname"),
        pytest.param({"email": ""}, "email", msg.required("Email"), id="email"),
        pytest.param({"password": ""}, "password", msg.required("Password"), id="password"),
        pytest.param({"dob": None}, "dob", msg.required("Date of Birth"), id="dob"),
        pytest.param({"weight": None}, "weight", msg.required("Weight"), id="weight"),
        pytest.param({"height": None}, "height", msg.required("Height"), id="height"),
        pytest.param({"firstname": "Иван"}, "firstname", msg.NON_LATIN, id="non-latin"),
        pytest.param({"lastname": "O'Brien"}, "lastname", msg.NON_LATIN, id="apostrophe"),
        pytest.param(
            {"firstname": "x" * 51}, "firstname", msg.too_long("First Name", NAME_MAX), id="too-long"
        ),
        pytest.param({"email": "layla@"}, "email", msg.EMAIL_INVALID, id="email-invalid"),
        pytest.param({"password": "12345"}, "password", msg.PASSWORD_TOO_SHORT, id="short-password"),
        pytest.param({"dob": years_ago(5)}, "dob", msg.TOO_YOUNG, id="too-young"),
        pytest.param({"weight": 24.9}, "weight", msg.WEIGHT_TOO_LOW, id="weight-low"),
        pytest.param({"weight": 140.1}, "weight", msg.WEIGHT_TOO_HIGH, id="weight-high"),
        pytest.param({"height": 49}, "height", msg.HEIGHT_RANGE, id="height-low"),
        pytest.param({"height": 251}, "height", msg.HEIGHT_RANGE, id="height-high"),
        pytest.param({"consent": False}, "consent", msg.TERMS_REQUIRED, id="consent"),
        pytest.param({"token": None}, "token", msg.HUMAN_CHECK_REQUIRED, id="token-missing"),
        pytest.param({"token": "garbage"}, "token", msg.HUMAN_CHECK_REQUIRED, id="token-unsolved"),
        pytest.param({"country": 9999}, "country", msg.COUNTRY_INVALID, id="country"),
        pytest.param({"gender": 5}, "gender", msg.GENDER_INVALID, id="gender"),
    ],
)
def test_registration_rules_answer_their_messages(client, session, overrides, field, message):
    body = assert_error_shape(client.post(REGISTER, json=register_body(**overrides)))
    assert body["message"] == message
    assert body["errors"] == {field: [message]}
    assert count(session, Account) == 0
    assert count(session, OutboxMessage) == 0


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param({"dob": "20 May 1990"}, id="dob-not-iso"),
        pytest.param({"weight": "heavy"}, id="weight-text"),
        pytest.param({"country": "UAE"}, id="country-text"),
        pytest.param({"firstname": "x" * 10_000}, id="10kb-name"),
        pytest.param({"consent": {"yes": True}}, id="consent-object"),
    ],
)
def test_malformed_registration_answers_400(client, session, overrides):
    assert_error_shape(client.post(REGISTER, json=register_body(**overrides)))
    assert count(session, Account) == 0


def test_duplicate_email_registration_answers_400(client, session, make_account):
    make_account(email="layla@example.com")
    body = assert_error_shape(
        client.post(REGISTER, json=register_body(email="LAYLA@example.com", token=solve_payload()))
    )
    assert body["errors"] == {"email": [msg.EMAIL_TAKEN]}
    assert count(session, Account) == 1


# --- Human check and documentation -----------------------------------------------------------------------


def test_altcha_challenge(client):
    response = client.get("/api/altcha/challenge")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    challenge = response.json()
    assert set(challenge) == {"algorithm", "challenge", "maxnumber", "salt", "signature"}
    assert client.get("/api/altcha/challenge").json()["challenge"] != challenge["challenge"]


@pytest.mark.parametrize("path", ["/api/docs", "/api/openapi.json"])
def test_api_documentation_is_served(client, path):
    response = client.get(path)
    assert response.status_code == 200
    if path.endswith(".json"):
        assert LOGIN in response.json()["paths"]


# --- Site middleware -------------------------------------------------------------------------------------


@pytest.fixture
def site() -> TestClient:
    async def home(_request):
        return PlainTextResponse("home")

    app = SiteMiddleware(Starlette(routes=[Route("/", home)]))
    return TestClient(app, base_url=settings.site_url, follow_redirects=False)


def assert_security_headers(response) -> None:
    assert response.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert "object-src 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"


def test_pages_carry_the_security_headers(site):
    response = site.get("/", headers={"Accept": "text/html"})
    assert response.status_code == 200
    assert response.text == "home"
    assert_security_headers(response)


def test_unknown_page_in_a_browser_goes_home(site):
    response = site.get("/missing", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert response.status_code == 307
    assert response.headers["location"] == "/"
    assert response.content == b""
    assert_security_headers(response)


@pytest.mark.parametrize(
    ("method", "path", "accept"),
    [
        ("GET", "/missing", "application/json"),
        ("GET", "/api/missing", "text/html"),
        ("POST", "/missing", "text/html"),
    ],
)
def test_unknown_paths_outside_a_browser_page_load_stay_404(site, method, path, accept):
    response = site.request(method, path, headers={"Accept": accept})
    assert response.status_code == 404
    assert_security_headers(response)


def test_oversized_request_bodies_are_refused_before_reading():
    async def upload(request):
        return PlainTextResponse(str(len(await request.body())))

    client = TestClient(SiteMiddleware(Starlette(routes=[Route("/upload", upload, methods=["POST"])])))
    response = client.post("/upload", content=b"x", headers={"content-length": str(MAX_REQUEST_BYTES + 1)})
    assert response.status_code == 413
    assert response.json() == {"status": False, "message": site_msg.REQUEST_TOO_LARGE}
    assert client.post("/upload", content=b"12345").text == "5"
