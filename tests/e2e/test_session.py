"""Session expiry: missing, expired, tampered and revoked tokens, and the re-check on focus."""

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect
from sqlmodel import select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account
from cycling_site.services import tokens
from tests.e2e.helpers import RIDER, at, clearing_cookies, session_cookies, sign_in, wait_signed_in

HOME = re.compile(r"^http://[^/]+/user/activities/?#profile$")
TOKEN_EXPIRED = re.compile(
    r"^http://[^/]+/auth/login\?redirect=%2Fuser%2Fprofile(%2F)?&reason=token_expired$"
)


def _replace_token(page: Page, token: str) -> None:
    cookie = next(c for c in page.context.cookies() if c["name"] == "rider_token")
    page.context.add_cookies([{**cookie, "value": token}])


def test_expired_token_clears_both_cookies(page: Page, db):
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    rider = db.exec(select(Account).where(Account.email == RIDER)).one()
    expired = tokens.issue_session_token(rider, remember=True, now=datetime.now(UTC) - timedelta(days=31))
    _replace_token(page, expired.token)
    with clearing_cookies(page):
        page.goto("/user/profile")
    expect(page).to_have_url(TOKEN_EXPIRED)
    expect(page.locator("#session-notice")).to_have_text(msg.SESSION_EXPIRED)
    assert session_cookies(page) == {}


def test_tampered_token_is_refused(page: Page):
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    token = session_cookies(page)["rider_token"]
    _replace_token(page, token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB"))
    with clearing_cookies(page):
        page.goto("/user/profile")
    expect(page).to_have_url(TOKEN_EXPIRED)
    assert session_cookies(page) == {}


def test_missing_cookie_means_session_expired(page: Page):
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    page.context.clear_cookies(name="rider_id")
    with clearing_cookies(page):
        page.goto("/user/profile")
    expect(page).to_have_url(
        re.compile(r"^http://[^/]+/auth/login\?redirect=%2Fuser%2Fprofile(%2F)?&reason=session_expired$")
    )
    expect(page.locator("#session-notice")).to_have_text(msg.SESSION_EXPIRED)
    # The token cookie left alone no longer makes a session: it is removed too.
    assert session_cookies(page) == {}


def _open_profile_loaded(page: Page) -> None:
    """Signs in to the profile and waits for its page load (the route guard, then the form), so
    that only the re-check under test can notice the revoked session."""
    sign_in(page, path="/auth/login?redirect=/user/profile")
    expect(page).to_have_url(at("/user/profile"))
    wait_signed_in(page)
    expect(page.locator("#firstname")).to_be_visible()


def test_session_is_rechecked_when_the_window_gets_focus(page: Page, db):
    _open_profile_loaded(page)
    tokens.revoke_session(db, session_cookies(page)["rider_token"])
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    expect(page).to_have_url(TOKEN_EXPIRED)
    expect(page.locator("#session-notice")).to_have_text(msg.SESSION_EXPIRED)


def test_session_is_rechecked_when_the_tab_becomes_visible(page: Page, db):
    _open_profile_loaded(page)
    tokens.revoke_session(db, session_cookies(page)["rider_token"])
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page).to_have_url(TOKEN_EXPIRED)


def test_public_page_with_a_stale_cookie_shows_login(page: Page, db):
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    tokens.revoke_session(db, session_cookies(page)["rider_token"])
    with clearing_cookies(page):
        page.goto("/teams")
    expect(page.locator("#header-login")).to_be_visible()
    expect(page).to_have_url(at("/teams"))
    assert session_cookies(page) == {}


RECORD_INTERVALS = """
window.__intervals = new Map();
const setIntervalOriginal = window.setInterval;
const clearIntervalOriginal = window.clearInterval;
window.setInterval = function (callback, delay, ...rest) {
  const id = setIntervalOriginal.call(this, callback, delay, ...rest);
  window.__intervals.set(id, { callback, delay });
  return id;
};
window.clearInterval = function (id) {
  window.__intervals.delete(id);
  return clearIntervalOriginal.call(this, id);
};
"""
SESSION_TIMERS = "[...window.__intervals.values()].filter(i => i.delay === 120000)"


def test_session_is_rechecked_every_two_minutes(page: Page, db):
    """The page keeps a 120 s timer whose tick re-checks the session (ticked here by hand)."""
    page.add_init_script(RECORD_INTERVALS)
    _open_profile_loaded(page)
    assert page.evaluate(f"{SESSION_TIMERS}.length") == 1
    tokens.revoke_session(db, session_cookies(page)["rider_token"])
    page.evaluate(f"{SESSION_TIMERS}.forEach(i => i.callback())")
    expect(page).to_have_url(TOKEN_EXPIRED)


# --- The session lives in HttpOnly cookies that only the server writes -----------------------------------


def test_session_cookies_are_http_only_and_same_site(page: Page, db):
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    cookies = {c["name"]: c for c in page.context.cookies() if c["name"].startswith("rider_")}
    assert set(cookies) == {"rider_id", "rider_token"}
    for cookie in cookies.values():
        assert cookie["httpOnly"] is True
        assert cookie["sameSite"] == "Lax"
        assert cookie["path"] == "/"
    rider = db.exec(select(Account).where(Account.email == RIDER)).one()
    assert cookies["rider_id"]["value"] == rider.uuid
    # No script of the page can read (or steal) them.
    assert "rider_" not in page.evaluate("document.cookie")


def test_a_session_cookie_of_another_rider_is_not_enough(page: Page, db):
    """The user-id cookie must match the token: a rider cannot pose as another by changing it."""
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    kid = db.exec(select(Account).where(Account.email == "kid@example.com")).one()
    cookie = next(c for c in page.context.cookies() if c["name"] == "rider_id")
    page.context.add_cookies([{**cookie, "value": kid.uuid}])
    with clearing_cookies(page):
        page.goto("/user/profile")
    expect(page).to_have_url(TOKEN_EXPIRED)
    assert session_cookies(page) == {}
