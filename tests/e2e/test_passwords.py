"""Forgot password, reset by e-mailed link (single use), and a reset ending other sessions."""

import re

from playwright.sync_api import Browser, Page, expect

from cycling_site.messages import accounts as msg
from tests.e2e.helpers import at, clearing_cookies, mail_link, new_account, session_cookies, sign_in

HOME = re.compile(r"^http://[^/]+/user/activities/?#profile$")


def test_forgot_password_messages(page: Page):
    page.goto("/auth/forgot-password")
    page.fill("#email", "not-an-email")
    page.click("#forgot-submit")
    expect(page.locator("#email-error")).to_have_text(msg.EMAIL_REQUIRED_VALID)
    page.fill("#email", "nobody-here@example.com")
    page.click("#forgot-submit")
    expect(page.locator("#email-error")).to_have_text(msg.INVALID_EMAIL_PROVIDED)


def test_reset_by_link_once(page: Page, db, browser: Browser, site):
    email = "forgetful@example.com"
    new_account(db, email)
    # Another device stays signed in until the password changes.
    other = browser.new_context(base_url=site.url)
    other_page = other.new_page()
    sign_in(other_page, email)
    expect(other_page).to_have_url(HOME)

    page.goto("/auth/forgot-password")
    page.fill("#email", email)
    page.click("#forgot-submit")
    expect(page).to_have_url(at("/"))
    expect(page.get_by_text(msg.RESET_SENT)).to_be_visible()

    link = mail_link(page, email, "/auth/forgot-password2?code=")
    page.goto(link)
    page.fill("#password", "new-secret")
    page.fill("#repeatPassword", "new-secrets")
    page.click("#reset-submit")
    expect(page.locator("#repeatPassword-error")).to_have_text(msg.PASSWORD_MISMATCH)
    page.fill("#password", "12345")
    page.fill("#repeatPassword", "12345")
    page.click("#reset-submit")
    expect(page.locator("#password-error")).to_have_text(msg.PASSWORD_TOO_SHORT)
    page.fill("#password", "new-secret")
    page.fill("#repeatPassword", "new-secret")
    page.click("#reset-submit")
    expect(page).to_have_url(at("/auth/login"))
    expect(page.get_by_text(msg.PASSWORD_RESET_DONE)).to_be_visible()

    page.goto(link)
    page.fill("#password", "another-one")
    page.fill("#repeatPassword", "another-one")
    page.click("#reset-submit")
    expect(page.locator("#reset-form-error")).to_have_text(msg.CODE_USED)
    expect(page.locator("#reset-new-link")).to_be_visible()

    sign_in(page, email, "new-secret")
    expect(page).to_have_url(HOME)

    with clearing_cookies(other_page):
        other_page.goto("/user/profile")
    expect(other_page).to_have_url(re.compile(r"reason=token_expired$"))
    assert session_cookies(other_page) == {}
    other.close()


def test_reset_page_without_a_code(page: Page):
    page.goto("/auth/forgot-password2")
    expect(page.locator("#reset-no-code")).to_be_visible()
