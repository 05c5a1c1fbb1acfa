"""SIGN IN: messages, the human check, redirect order, kid and forced-reset answers, rate limit."""

import re
from datetime import UTC, date, datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account
from cycling_site.seed import DEMO_PASSWORD
from cycling_site.services import parental_consent, tokens
from cycling_site.services.accounts import hash_password
from cycling_site.settings import settings
from tests.e2e.helpers import (
    KID,
    NEW_KID,
    RIDER,
    at,
    fill_login,
    pass_human_check,
    session_cookies,
    sign_in,
    submit,
    token_claims,
    wait_signed_in,
)

HOME = re.compile(r"^http://[^/]+/user/activities/?#profile$")


def test_a_tick_given_while_the_page_loads_is_kept_when_the_tabs_state_arrives(page: Page):
    """A tab that has used the check before brings a newer reset key than the loaded page shows: that key is
    not a reset. The page's live connection is held back until the rider has ticked the box."""
    page.goto("/auth/login")
    fill_login(page, RIDER, "wrong-password")
    submit(page, "#login-submit")
    expect(page.locator("#login-error")).to_have_text(msg.LOGIN_FAILED)
    held: list = []
    holding = [True]

    def hold_the_server(socket) -> None:
        server = socket.connect_to_server()
        server.on_message(
            lambda message: held.append((socket, message)) if holding[0] else socket.send(message)
        )

    page.route_web_socket(re.compile(r"/_event"), hold_the_server)
    page.goto("/auth/login")
    page.fill("#email", RIDER)
    page.fill("#password", DEMO_PASSWORD)
    page.locator("#human-check").get_by_text("I'm not a robot").click()
    ticked = page.locator("#human-check input[type=checkbox]")
    expect(ticked).to_be_checked()
    # Sent in the order they came; any that come while these go are held and sent too.
    while held:
        socket, message = held.pop(0)
        socket.send(message)
    holding[0] = False
    expect(page.locator("#login-submit")).to_be_enabled()
    expect(ticked).to_be_checked()
    submit(page, "#login-submit")
    expect(page).to_have_url(HOME)


@pytest.mark.multi_worker
def test_demo_rider_signs_in_and_sees_their_menu(page: Page):
    sign_in(page)
    expect(page).to_have_url(HOME)
    expect(page.locator("#avatar-button")).to_have_text("L")
    cookies = session_cookies(page)
    assert set(cookies) == {"rider_id", "rider_token"}
    page.click("#avatar-button")
    for item in ("View Profile", "Activities", "My Teams", "Wallet", "Log Out"):
        expect(page.get_by_role("menuitem", name=item)).to_be_visible()


def test_kid_menu_has_no_wallet(page: Page):
    sign_in(page, KID)
    expect(page).to_have_url(HOME)
    page.click("#avatar-button")
    expect(page.get_by_role("menuitem", name="My Teams")).to_be_visible()
    expect(page.get_by_role("menuitem", name="Wallet")).to_have_count(0)


def test_submit_waits_for_the_human_check(page: Page):
    page.goto("/auth/login")
    expect(page.get_by_role("heading", name="SIGN IN")).to_be_visible()
    expect(page.get_by_text("Using your product account")).to_be_visible()
    expect(page.locator("#remember")).to_be_checked()
    expect(page.locator("#login-submit")).to_be_disabled()


def test_a_tick_from_the_tabs_last_visit_does_not_enable_submit(page: Page):
    """Submit follows the box the rider sees: back on SIGN IN in the same tab, the box is empty again and
    Submit waits for a new tick."""
    page.goto("/auth/login")
    pass_human_check(page, "#login-submit")
    page.goto("/auth/login")
    expect(page.locator("#human-check").get_by_text("I'm not a robot")).to_be_visible()
    expect(page.locator("#human-check input[type=checkbox]")).not_to_be_checked()
    expect(page.locator("#login-submit")).to_be_disabled()
    fill_login(page, RIDER, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page).to_have_url(HOME)


def test_field_messages_and_the_check_resets_after_each_failure(page: Page):
    page.goto("/auth/login")
    fill_login(page, "not-an-email", "123")
    submit(page, "#login-submit")
    expect(page.locator("#email-error")).to_have_text(msg.EMAIL_INVALID)
    expect(page.locator("#password-error")).to_have_text(msg.PASSWORD_TOO_SHORT)
    expect(page.locator("#login-submit")).to_be_disabled()

    fill_login(page, RIDER, "wrong-password")
    submit(page, "#login-submit")
    expect(page.locator("#login-error")).to_have_text(msg.LOGIN_FAILED)
    expect(page.locator("#login-submit")).to_be_disabled()

    fill_login(page, "nobody@example.com", DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page.locator("#login-error")).to_have_text(msg.LOGIN_FAILED)
    assert session_cookies(page) == {}


@pytest.mark.multi_worker
def test_logged_out_visitor_is_sent_to_login_and_back(page: Page):
    page.goto("/user/profile")
    expect(page).to_have_url(
        re.compile(r"^http://[^/]+/auth/login\?redirect=%2Fuser%2Fprofile(%2F)?&reason=session_expired$")
    )
    expect(page.locator("#session-notice")).to_have_text(msg.SESSION_EXPIRED)
    fill_login(page, RIDER, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page).to_have_url(at("/user/profile"))


def test_post_login_order(page: Page):
    # The content site's redirect_to wins over redirect.
    sign_in(page, path="/auth/login?redirect_to=/teams&redirect=/wallet")
    expect(page).to_have_url(at("/teams"))
    page.goto("/auth/login?action=logout")
    expect(page.locator("#header-login")).to_be_visible()

    # Then the stored redirect, then referer.
    sign_in(page, path="/auth/login?redirect=/wallet&referer=/my-teams")
    expect(page).to_have_url(at("/wallet"))
    page.goto("/auth/login?action=logout")
    expect(page.locator("#header-login")).to_be_visible()

    sign_in(page, path="/auth/login?referer=/my-teams")
    expect(page).to_have_url(at("/my-teams"))
    page.goto("/auth/login?action=logout")
    expect(page.locator("#header-login")).to_be_visible()

    # Another site's address is never followed.
    sign_in(page, path="/auth/login?redirect=https://evil.example/&referer=//evil.example")
    expect(page).to_have_url(HOME)


def test_signed_in_rider_opening_login_goes_to_profile_tab(page: Page):
    sign_in(page)
    expect(page).to_have_url(HOME)
    page.goto("/auth/login")
    expect(page).to_have_url(HOME)


@pytest.mark.multi_worker
def test_action_logout_forces_a_logout(page: Page, db):
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    token = session_cookies(page)["rider_token"]
    page.goto("/auth/login?action=logout")
    expect(page.locator("#header-login")).to_be_visible()
    assert session_cookies(page) == {}
    assert page.request.get("/api/auth/profile", headers={"Authorization": f"Bearer {token}"}).status == 401


@pytest.mark.multi_worker
def test_header_log_out_revokes_the_session(page: Page):
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    token = session_cookies(page)["rider_token"]
    page.click("#avatar-button")
    page.get_by_role("menuitem", name="Log Out").click()
    expect(page).to_have_url(at("/auth/login"))
    expect(page.locator("#header-login")).to_be_visible()
    assert session_cookies(page) == {}
    assert page.request.get("/api/auth/profile", headers={"Authorization": f"Bearer {token}"}).status == 401


def _session_cookie_expiries(page: Page) -> set[float]:
    return {c["expires"] for c in page.context.cookies() if c["name"] in ("rider_id", "rider_token")}


@pytest.mark.multi_worker
def test_stay_signed_in_sets_the_session_length(page: Page):
    sign_in(page)
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    claims = token_claims(session_cookies(page)["rider_token"])
    assert abs(claims["exp"] - claims["iat"] - settings.session_remember_days * 24 * 3600) < 1
    for expires in _session_cookie_expiries(page):
        assert abs(expires - datetime.now(UTC).timestamp() - settings.session_remember_days * 86400) < 60

    page.goto("/auth/login?action=logout")
    expect(page.locator("#header-login")).to_be_visible()
    page.locator("#remember").click()
    expect(page.locator("#remember")).not_to_be_checked()
    fill_login(page, RIDER, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page).to_have_url(HOME)
    wait_signed_in(page)
    claims = token_claims(session_cookies(page)["rider_token"])
    assert abs(claims["exp"] - claims["iat"] - settings.session_short_hours * 3600) < 1
    # Off: the cookies end with the browser (and the token after 12 hours on the server).
    assert _session_cookie_expiries(page) == {-1}


def test_kid_awaiting_approval_goes_to_parental_consent(page: Page, db):
    kid = db.exec(select(Account).where(Account.email == NEW_KID)).one()
    sign_in(page, NEW_KID)
    expect(page).to_have_url(re.compile(r"^http://[^/]+/parental-consent\?childUserId=[\w.-]+&userAge=\d+$"))
    # A short-lived handle of this sign-in, not the kid's uuid.
    handle = parse_qs(urlsplit(page.url).query)["childUserId"][0]
    assert tokens.read_link(handle, parental_consent.HANDLE_PURPOSE)["sub"] == kid.uuid
    expect(page.get_by_role("heading", name="Parental Consent Required")).to_be_visible()
    assert session_cookies(page) == {}


def test_forced_reset_answer_goes_to_a_forced_reset(page: Page, db):
    db.add(
        Account(
            email="reset-me@example.com",
            password_hash=hash_password(DEMO_PASSWORD),
            firstname="Reset",
            lastname="Me",
            dob=date(1990, 5, 5),
            email_verified=True,
            must_reset_password=True,
        )
    )
    db.commit()
    sign_in(page, "reset-me@example.com")
    expect(page).to_have_url(re.compile(r"^http://[^/]+/auth/forgot-password2\?code=[\w-]+&forced=1$"))
    expect(page.locator("#reset-forced")).to_have_text(msg.PASSWORD_RESET_FORCED)
    assert session_cookies(page) == {}
    page.fill("#password", "brand-new-pass")
    page.fill("#repeatPassword", "brand-new-pass")
    page.click("#reset-submit")
    expect(page).to_have_url(at("/auth/login"))
    sign_in(page, "reset-me@example.com", "brand-new-pass")
    expect(page).to_have_url(HOME)


def test_too_many_attempts_for_one_email(page: Page, db):
    email = "limit-me@example.com"
    db.add(
        Account(
            email=email,
            password_hash=hash_password(DEMO_PASSWORD),
            firstname="Limit",
            lastname="Me",
            dob=date(1990, 5, 5),
        )
    )
    db.commit()
    page.goto("/auth/login")
    for _ in range(5):
        fill_login(page, email, "wrong-password")
        submit(page, "#login-submit")
        expect(page.locator("#login-error")).to_have_text(msg.LOGIN_FAILED)
        expect(page.locator("#login-submit")).to_be_disabled()
    fill_login(page, email, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page.locator("#login-error")).to_have_text(msg.LOGIN_RATE_LIMITED)
    assert session_cookies(page) == {}
