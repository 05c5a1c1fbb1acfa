"""The site's session cookies: set only by HTTP answers, HttpOnly, Secure over https, one-use handles."""

import dataclasses
from datetime import timedelta
from http.cookies import SimpleCookie

import pytest

from cycling_site.api import browser_session
from cycling_site.services import accounts, tokens
from cycling_site.settings import settings
from tests.unit.conftest import reload

START = "/api/auth/session"
END = "/api/auth/session/end"
CLEAR = "/api/auth/session/clear"
PROFILE = "/api/auth/profile"


def _set_cookies(response) -> dict[str, SimpleCookie]:
    """Each Set-Cookie header of the answer, by cookie name."""
    parsed = {}
    for header in response.headers.get_list("set-cookie"):
        cookie = SimpleCookie()
        cookie.load(header)
        parsed.update({name: cookie for name in cookie})
    return parsed


def _start(client, account, remember: bool = True, destination: str = "/user/profile"):
    handle = tokens.sign_in_handle(account, remember, destination)
    return client.post(START, data={"handle": handle}, follow_redirects=False)


def test_a_sign_in_handle_becomes_two_http_only_cookies(client, make_account):
    account = make_account()
    response = _start(client, account)
    assert response.status_code == 303
    assert response.headers["location"] == "/user/profile"
    cookies = _set_cookies(response)
    assert set(cookies) == {tokens.TOKEN_COOKIE, tokens.USER_ID_COOKIE}
    for name, cookie in cookies.items():
        morsel = cookie[name]
        assert morsel["httponly"] is True
        assert morsel["samesite"] == "lax"
        assert morsel["path"] == "/"
        assert int(morsel["max-age"]) == settings.session_remember_days * 86400
        assert not morsel["secure"], "plain http in demo mode"
    assert cookies[tokens.USER_ID_COOKIE][tokens.USER_ID_COOKIE].value == account.uuid
    token = cookies[tokens.TOKEN_COOKIE][tokens.TOKEN_COOKIE].value
    assert client.get(PROFILE, headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_without_stay_signed_in_the_cookies_end_with_the_browser(client, make_account, session):
    response = _start(client, make_account(), remember=False)
    cookies = _set_cookies(response)
    for name, cookie in cookies.items():
        assert cookie[name]["max-age"] == "" and cookie[name]["expires"] == ""
    claims = tokens.read_link(cookies[tokens.TOKEN_COOKIE][tokens.TOKEN_COOKIE].value, tokens.SESSION_PURPOSE)
    assert claims["exp"] - claims["iat"] == pytest.approx(settings.session_short_hours * 3600, abs=1)


@pytest.mark.parametrize(
    ("changes", "base_url"),
    [
        pytest.param({"app_env": "production"}, "http://testserver", id="production"),
        pytest.param({"site_url": "https://rides.example.com"}, "http://testserver", id="https site"),
        pytest.param({}, "https://testserver", id="https request"),
    ],
)
def test_cookies_are_secure_over_https_and_in_production(
    client, make_account, monkeypatch, changes, base_url
):
    monkeypatch.setattr(browser_session, "settings", dataclasses.replace(settings, **changes))
    client.base_url = base_url
    cookies = _set_cookies(_start(client, make_account()))
    assert all(cookie[name]["secure"] is True for name, cookie in cookies.items())


def test_a_handle_works_once(client, make_account):
    handle = tokens.sign_in_handle(make_account(), True, "/")
    assert client.post(START, data={"handle": handle}, follow_redirects=False).status_code == 303
    replayed = client.post(START, data={"handle": handle}, follow_redirects=False)
    assert replayed.headers["location"] == "/auth/login?reason=session_expired"
    assert _set_cookies(replayed) == {}


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda account: "", id="none"),
        pytest.param(lambda account: account.uuid, id="a uuid"),
        pytest.param(lambda account: tokens.issue_session_token(account, True).token, id="a session token"),
        pytest.param(
            lambda account: tokens.sign_link(
                account.uuid, tokens.SIGN_IN_PURPOSE, timedelta(seconds=-5), jti="x"
            ),
            id="expired",
        ),
        pytest.param(lambda account: tokens.sign_in_handle(account, True, "/")[:-4] + "AAAA", id="tampered"),
    ],
)
def test_anything_but_a_live_handle_sets_no_cookie(client, make_account, forge):
    response = client.post(START, data={"handle": forge(make_account())}, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/auth/login?reason=session_expired"
    assert _set_cookies(response) == {}


def test_a_handle_issued_before_a_password_change_is_refused(client, make_account, session):
    account = make_account()
    handle = tokens.sign_in_handle(account, True, "/")
    stored = reload(session, account)
    accounts.set_password(stored, "a-brand-new-password")
    session.add(stored)
    session.commit()
    assert _set_cookies(client.post(START, data={"handle": handle}, follow_redirects=False)) == {}


def test_sign_out_revokes_the_token_and_removes_both_cookies(client, make_account):
    cookies = _set_cookies(_start(client, make_account()))
    token = cookies[tokens.TOKEN_COOKIE][tokens.TOKEN_COOKIE].value
    response = client.post(END, data={"next": "/events"}, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/events"
    removed = _set_cookies(response)
    assert set(removed) == {tokens.TOKEN_COOKIE, tokens.USER_ID_COOKIE}
    assert all(cookie[name].value == "" for name, cookie in removed.items())
    assert client.get(PROFILE, headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_sign_out_goes_only_to_our_own_pages(client, make_account):
    _start(client, make_account())
    response = client.post(END, data={"next": "https://evil.example/"}, follow_redirects=False)
    assert response.headers["location"] == "/auth/login"


def test_clear_removes_dead_cookies_but_never_a_live_session(client, make_account, session):
    account = make_account()
    cookies = _set_cookies(_start(client, account))
    token = cookies[tokens.TOKEN_COOKIE][tokens.TOKEN_COOKIE].value
    alive = client.post(CLEAR)
    assert alive.status_code == 204
    assert _set_cookies(alive) == {}, "another site cannot sign a rider out through it"

    tokens.revoke_session(session, token)
    dead = client.post(CLEAR)
    assert dead.status_code == 204
    assert set(_set_cookies(dead)) == {tokens.TOKEN_COOKIE, tokens.USER_ID_COOKIE}
