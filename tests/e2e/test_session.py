"""Session expiry: missing, expired, tampered and revoked tokens, and the re-check on focus."""

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect
from sqlmodel import select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account
from cycling_site.services import tokens
from tests.e2e.helpers import RIDER, at, session_cookies, sign_in, wait_signed_in

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
    page.goto("/user/profile")
    expect(page).to_have_url(TOKEN_EXPIRED)
    assert session_cookies(page) == {}


def test_missing_cookie_means_session_expired(page: Page):
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    page.context.clear_cookies(name="rider_id")
    page.goto("/user/profile")
    expect(page).to_have_url(
        re.compile(r"^http://[^/]+/auth/login\?redirect=%2Fuser%2Fprofile(%2F)?&reason=session_expired$")
    )
    expect(page.locator("#session-notice")).to_have_text(msg.SESSION_EXPIRED)


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
