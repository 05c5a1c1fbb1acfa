"""The profile API as a caller sees it: PUT profile, avatar, change_password, delete-account, the link."""

from datetime import UTC, date, datetime, timedelta
from io import BytesIO

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlmodel import select

from cycling_site.messages import accounts as msg
from cycling_site.messages import site as site_msg
from cycling_site.models import Account, AccountCode, OutboxMessage, Role
from cycling_site.services import profile
from cycling_site.services.tokens import TOKEN_COOKIE
from cycling_site.settings import settings
from tests.api.test_auth_api import assert_error_shape, login_body, sign_in
from tests.unit.conftest import DEMO_PASSWORD

PROFILE = "/api/auth/profile"
AVATAR = "/api/auth/avatar"
CHANGE_PASSWORD = "/api/auth/change_password"
UPDATE_PASSWORD = "/api/auth/update_password"
DELETE_ACCOUNT = "/api/auth/delete-account"
VERIFY_DELETE = "/api/auth/verify-delete-user"


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def profile_body(**overrides) -> dict:
    values = {
        "firstname": "Nour",
        "lastname": "Saleh",
        "country": 250,
        "gender": 0,
        "weight": 71.5,
        "height": 180,
        "IsAllowedToSendMarketingEmails": True,
        "dob": "1991-04-03",
    }
    values.update(overrides)
    return values


def png(size: tuple[int, int] = (400, 300)) -> bytes:
    out = BytesIO()
    Image.new("RGB", size, (30, 120, 200)).save(out, "PNG")
    return out.getvalue()


def stored(session, account: Account) -> Account:
    session.expire_all()
    return session.get(Account, account.id)


def upload(client: TestClient, token: str, data: bytes, filename: str = "me.png", kind: str = "image/png"):
    return client.post(AVATAR, headers=bearer(token), files={"avatar": (filename, data, kind)})


ENDPOINTS = [
    ("put", PROFILE),
    ("post", AVATAR),
    ("delete", AVATAR),
    ("get", f"{AVATAR}/{'a' * 32}.webp"),
    ("post", CHANGE_PASSWORD),
    ("post", DELETE_ACCOUNT),
]


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_every_endpoint_needs_a_session(client, method, path):
    response = client.request(method.upper(), path, json={})
    assert response.status_code == 401
    assert response.json() == {"status": False, "message": msg.SESSION_EXPIRED}


# --- PUT profile ----------------------------------------------------------------------------------------


def test_put_profile_updates_and_answers_the_user(client, session, make_account):
    account = make_account()
    response = client.put(PROFILE, json=profile_body(), headers=bearer(sign_in(client)))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["message"] == msg.PROFILE_UPDATED
    user = body["data"]
    assert (user["firstname"], user["lastname"], user["country"], user["gender"]) == ("Nour", "Saleh", 250, 0)
    assert (user["weight"], user["height"], user["dob"]) == (71.5, 180, "1991-04-03")
    assert user["IsAllowedToSendMarketingEmails"] is True
    row = stored(session, account)
    assert (row.firstname, row.weight, row.dob, row.marketing_consent) == (
        "Nour",
        71.5,
        date(1991, 4, 3),
        True,
    )
    assert client.get(PROFILE, headers=bearer(sign_in(client))).json()["data"]["firstname"] == "Nour"


def test_put_profile_accepts_the_session_cookie(client, session, make_account):
    account = make_account()
    client.cookies.set(TOKEN_COOKIE, sign_in(client))
    response = client.put(PROFILE, json=profile_body(firstname="Cookie"))
    assert response.status_code == 200
    assert stored(session, account).firstname == "Cookie"


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"firstname": "Иван"}, "firstname", msg.NON_LATIN),
        ({"lastname": ""}, "lastname", msg.required("Last Name")),
        ({"weight": 24}, "weight", msg.WEIGHT_TOO_LOW),
        ({"weight": 141}, "weight", msg.WEIGHT_TOO_HIGH),
        ({"weight": "abc"}, "weight", msg.not_a_number("Weight")),
        ({"weight": None}, "weight", msg.required("Weight")),
        ({"height": 251}, "height", msg.HEIGHT_RANGE),
        ({"country": 1}, "country", msg.COUNTRY_INVALID),
        ({"gender": 5}, "gender", msg.GENDER_INVALID),
        ({"dob": "yesterday"}, "dob", msg.DOB_INVALID),
        ({"dob": None}, "dob", msg.required("Date of Birth")),
    ],
)
def test_put_profile_rules(client, session, make_account, overrides, field, message):
    account = make_account()
    response = client.put(PROFILE, json=profile_body(**overrides), headers=bearer(sign_in(client)))
    body = assert_error_shape(response)
    assert body["message"] == message
    assert body["errors"] == {field: [message]}
    assert stored(session, account).firstname == "Layla"


@pytest.mark.parametrize(
    "payload",
    [
        "not json",
        {"firstname": ["a"]},
        {"firstname": "x" * 5000},
        {"weight": {"kg": 70}},
        {"IsAllowedToSendMarketingEmails": "perhaps"},
        {"IsAllowedToSendMarketingEmails": 0},
        {"gender": False},
        {"dob": 19900101},
    ],
)
def test_put_profile_odd_payloads_answer_400(client, make_account, payload):
    make_account()
    token = sign_in(client)
    if isinstance(payload, str):
        response = client.put(
            PROFILE, content=payload, headers={**bearer(token), "content-type": "application/json"}
        )
    else:
        response = client.put(PROFILE, json={**profile_body(), **payload}, headers=bearer(token))
    assert_error_shape(response)


def test_a_whole_number_sent_as_a_float_is_that_integer(client, session, make_account):
    """JSON Schema's integer includes 4.0: the country and gender rules read it as 4."""
    account = make_account()
    token = sign_in(client)
    response = client.put(PROFILE, json=profile_body(country=784.0, gender=1.0), headers=bearer(token))
    assert response.status_code == 200, response.text
    assert (stored(session, account).country, stored(session, account).gender) == (784, 1)


def test_kid_cannot_change_dob_through_the_api(client, session, make_account):
    account = make_account(
        is_kid=True, parent_approved=True, parent_email="mum@example.com", dob=date(2013, 6, 2)
    )
    token = sign_in(client)
    response = client.put(PROFILE, json=profile_body(dob="2000-01-01"), headers=bearer(token))
    body = assert_error_shape(response)
    assert body["message"] == msg.KID_DOB_LOCKED
    row = stored(session, account)
    assert (row.dob, row.firstname) == (date(2013, 6, 2), "Layla")

    response = client.put(PROFILE, json=profile_body(dob=None), headers=bearer(token))
    assert response.status_code == 200
    row = stored(session, account)
    assert (row.dob, row.firstname) == (date(2013, 6, 2), "Nour")


# --- Avatar ---------------------------------------------------------------------------------------------


def test_avatar_upload_get_and_remove(client, session, make_account):
    account = make_account()
    token = sign_in(client)
    response = upload(client, token, png())
    assert response.status_code == 200, response.text
    assert response.json()["message"] == msg.AVATAR_UPDATED
    avatar = stored(session, account).avatar
    assert response.json()["data"]["avatar"] == avatar
    assert len(avatar) > profile.AVATAR_REMOVABLE_AFTER

    served = client.get(profile.avatar_url(avatar), headers=bearer(token))
    assert served.status_code == 200
    assert served.headers["content-type"] == "image/webp"
    assert "private" in served.headers["cache-control"]
    assert Image.open(BytesIO(served.content)).size == (256, 256)

    response = client.delete(AVATAR, headers=bearer(token))
    assert response.status_code == 200
    assert response.json()["message"] == msg.AVATAR_REMOVED
    assert stored(session, account).avatar is None
    assert not (settings.data_dir / avatar).exists()
    assert client.get(profile.avatar_url(avatar), headers=bearer(token)).status_code == 404
    assert_error_shape(client.delete(AVATAR, headers=bearer(token)))


def test_avatar_served_through_the_session_cookie(client, make_account):
    make_account()
    token = sign_in(client)
    url = profile.avatar_url(upload(client, token, png()).json()["data"]["avatar"])
    client.cookies.set(TOKEN_COOKIE, token)
    assert client.get(url).status_code == 200


def test_avatar_not_served_to_another_rider(client, make_account):
    make_account()
    make_account(email="other@example.com")
    make_account(email="rc@example.com", role=Role.race_control)
    url = profile.avatar_url(upload(client, sign_in(client), png()).json()["data"]["avatar"])

    response = client.get(url, headers=bearer(sign_in(client, "other@example.com")))
    assert response.status_code == 404
    assert response.json() == {"status": False, "message": site_msg.NOT_FOUND}
    assert client.get(url, headers=bearer(sign_in(client, "rc@example.com"))).status_code == 200


@pytest.mark.parametrize("name", ["..%2F..%2Funit.db", "x.webp", f"{'a' * 32}.png", "%00"])
def test_avatar_odd_names_answer_404(client, make_account, name):
    make_account()
    assert client.get(f"{AVATAR}/{name}", headers=bearer(sign_in(client))).status_code == 404


@pytest.mark.parametrize(
    ("data", "filename", "kind", "message"),
    [
        (b"just some text, not a photo\n" * 20, "holiday.jpg", "image/jpeg", msg.INVALID_IMAGE),
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "me.svg", "image/svg+xml", msg.INVALID_IMAGE),
        (png()[:50], "cut.png", "image/png", msg.INVALID_IMAGE),
        (png() + b"\0" * profile.AVATAR_MAX_BYTES, "big.png", "image/png", msg.AVATAR_TOO_LARGE),
        (b"", "empty.png", "image/png", msg.AVATAR_MISSING),
    ],
)
def test_avatar_refused(client, session, make_account, data, filename, kind, message):
    account = make_account()
    response = upload(client, sign_in(client), data, filename, kind)
    body = assert_error_shape(response)
    assert body["errors"] == {"avatar": [message]}
    assert stored(session, account).avatar is None


def test_avatar_without_a_file(client, make_account):
    make_account()
    response = client.post(AVATAR, headers=bearer(sign_in(client)), data={"other": "x"})
    assert assert_error_shape(response)["errors"] == {"avatar": [msg.AVATAR_MISSING]}


# --- Change password ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [CHANGE_PASSWORD, UPDATE_PASSWORD])
def test_change_password_then_sign_in_with_the_new_one(client, make_account, path):
    make_account()
    token = sign_in(client)
    body = {"current_password": DEMO_PASSWORD, "password": "new-secret", "repeatPassword": "new-secret"}
    response = client.post(path, json=body, headers=bearer(token))
    assert response.status_code == 200
    assert response.json()["message"] == msg.PASSWORD_CHANGED
    assert client.get(PROFILE, headers=bearer(token)).status_code == 401, "the session has ended"
    assert_error_shape(client.post("/api/auth/login", json=login_body()))
    assert client.post("/api/auth/login", json=login_body(password="new-secret")).status_code == 200


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"current_password": "nope-nope"}, "current_password", msg.CURRENT_PASSWORD_WRONG),
        ({"password": "12345", "repeatPassword": "12345"}, "password", msg.PASSWORD_TOO_SHORT),
        ({"repeatPassword": "different"}, "repeatPassword", msg.PASSWORD_MISMATCH),
    ],
)
@pytest.mark.parametrize("path", [CHANGE_PASSWORD, UPDATE_PASSWORD])
def test_change_password_rules(client, make_account, body, field, message, path):
    make_account()
    token = sign_in(client)
    payload = {"current_password": DEMO_PASSWORD, "password": "new-secret", "repeatPassword": "new-secret"}
    response = client.post(path, json={**payload, **body}, headers=bearer(token))
    assert assert_error_shape(response)["errors"] == {field: [message]}
    assert client.get(PROFILE, headers=bearer(token)).status_code == 200
    assert client.post("/api/auth/login", json=login_body()).status_code == 200


def test_change_password_guessing_is_limited(client, make_account):
    make_account()
    token = sign_in(client)
    payload = {"current_password": "guess-123", "password": "new-secret", "repeatPassword": "new-secret"}
    for _ in range(5):
        assert client.post(CHANGE_PASSWORD, json=payload, headers=bearer(token)).status_code == 400
    payload["current_password"] = DEMO_PASSWORD
    response = client.post(CHANGE_PASSWORD, json=payload, headers=bearer(token))
    assert assert_error_shape(response, 429)["message"] == msg.LOGIN_RATE_LIMITED


# --- Account deletion -----------------------------------------------------------------------------------


def emailed_code(session, recipient: str) -> str:
    session.expire_all()
    message = session.exec(select(OutboxMessage).where(OutboxMessage.recipient == recipient)).one()
    link = next(word for word in message.body.split() if "/delete-user/" in word)
    assert link.startswith(f"{settings.site_url}/delete-user/")
    return link.rsplit("/", 1)[-1]


def test_delete_account_by_the_emailed_link(client, session, make_account):
    account = make_account()
    token = sign_in(client)
    response = client.post(DELETE_ACCOUNT, json={"email": "rider@example.com"}, headers=bearer(token))
    assert response.status_code == 200
    assert response.json()["message"] == msg.DELETE_EMAIL_SENT
    assert client.get(PROFILE, headers=bearer(token)).status_code == 401, "the session has ended"
    assert stored(session, account).deleted_at is None

    code = emailed_code(session, "rider@example.com")
    response = client.get(f"{VERIFY_DELETE}/{code}")
    assert response.status_code == 200
    assert response.json() == {"status": True, "message": msg.ACCOUNT_DELETED, "data": {"verified": True}}
    row = stored(session, account)
    assert row.deleted_at is not None and row.email.endswith("@deleted.invalid")
    assert (
        assert_error_shape(client.post("/api/auth/login", json=login_body()))["message"] == msg.LOGIN_FAILED
    )

    response = client.get(f"{VERIFY_DELETE}/{code}")
    body = assert_error_shape(response)
    assert (body["message"], body["data"]) == (msg.CODE_USED, {"verified": False})


def test_kid_delete_link_goes_to_the_parent(client, session, make_account):
    make_account(is_kid=True, parent_approved=True, parent_email="mum@example.com", dob=date(2013, 6, 2))
    response = client.post(DELETE_ACCOUNT, headers=bearer(sign_in(client)))
    assert response.json()["message"] == msg.DELETE_EMAIL_SENT_KID
    assert emailed_code(session, "mum@example.com")
    assert (
        session.exec(select(OutboxMessage).where(OutboxMessage.recipient == "rider@example.com")).all() == []
    )


def test_expired_delete_link(client, session, make_account):
    account = make_account()
    client.post(DELETE_ACCOUNT, headers=bearer(sign_in(client)))
    code = emailed_code(session, "rider@example.com")
    row = session.exec(select(AccountCode)).one()
    row.expires_at = datetime.now(UTC) - timedelta(minutes=1)
    session.add(row)
    session.commit()
    body = assert_error_shape(client.get(f"{VERIFY_DELETE}/{code}"))
    assert (body["message"], body["data"]) == (msg.CODE_EXPIRED, {"verified": False})
    assert stored(session, account).deleted_at is None


@pytest.mark.parametrize("code", ["nope", "x" * 3000, "%2e%2e"])
def test_unknown_delete_links(client, code):
    body = assert_error_shape(client.get(f"{VERIFY_DELETE}/{code}"))
    assert body["message"] == msg.CODE_INVALID
