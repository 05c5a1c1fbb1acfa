"""Parental consent: the kid asks, the parent approves or declines through the e-mailed link."""

import re
from datetime import UTC, date, datetime, timedelta

from playwright.sync_api import Page, expect

from cycling_site.messages import accounts as msg
from cycling_site.services import parental_consent
from tests.e2e.helpers import at, fill_login, mail_link, new_account, open_mailbox, sign_in, submit

HOME = re.compile(r"^http://[^/]+/user/activities/?#profile$")


def kid(db, email: str):
    return new_account(db, email, is_kid=True, dob=date(date.today().year - 12, 2, 2), firstname="Yusuf")


def consent_url(child) -> str:
    """The consent page as the kid's own sign-in opens it: with a short-lived handle."""
    return f"/parental-consent?childUserId={parental_consent.consent_handle(child)}&userAge=12"


def test_a_kids_uuid_alone_cannot_ask_for_consent(page: Page, db):
    """Whoever learns a kid's uuid cannot send the approval e-mail to themselves."""
    child = kid(db, "uuid.only@example.com")
    page.goto(f"/parental-consent?childUserId={child.uuid}&userAge=12")
    page.fill("#parentEmail", "stranger@example.com")
    page.click("#consent-submit")
    expect(page.locator("#consent-error")).to_have_text(msg.CONSENT_REQUEST_EXPIRED)
    messages = open_mailbox(page, "stranger@example.com")
    expect(page.get_by_text("No messages yet.")).to_be_visible()
    expect(messages).to_have_count(0)


def test_missing_child_goes_to_register(page: Page):
    page.goto("/parental-consent")
    expect(page).to_have_url(at("/auth/register"))


def test_parent_approves_and_the_kid_signs_in(page: Page, db):
    child = kid(db, "yusuf@example.com")
    page.goto(consent_url(child))
    expect(page.get_by_role("heading", name=msg.PARENTAL_CONSENT_TITLE)).to_be_visible()

    page.fill("#parentEmail", "not-an-email")
    page.click("#consent-submit")
    expect(page.locator("#parentEmail-error")).to_have_text(msg.EMAIL_REQUIRED_VALID)
    page.fill("#parentEmail", "yusuf@example.com")
    page.click("#consent-submit")
    expect(page.locator("#parentEmail-error")).to_have_text(msg.PARENT_EMAIL_IS_CHILD)

    page.fill("#parentEmail", "yusuf.parent@example.com")
    page.click("#consent-submit")
    expect(page.get_by_text(msg.CONSENT_SENT)).to_be_visible()
    expect(page.locator("#consent-parent-email")).to_have_text("yusuf.parent@example.com")
    expect(page.locator("#consent-resend")).to_be_disabled()
    expect(page.locator("#consent-resend")).to_contain_text(re.compile(r"Resend in [45]:\d\d"))

    # Edit email goes back to the form; the server still holds the five-minute wait.
    page.click("#consent-edit")
    expect(page.locator("#parentEmail")).to_have_value("yusuf.parent@example.com")
    page.click("#consent-submit")
    expect(page.locator("#consent-error")).to_have_text(msg.CONSENT_WAIT)

    # The kid cannot sign in yet.
    fill_login_page = page.context.new_page()
    fill_login_page.goto("/auth/login")
    fill_login(fill_login_page, "yusuf@example.com", "ridefast")
    submit(fill_login_page, "#login-submit")
    expect(fill_login_page).to_have_url(re.compile(r"/parental-consent\?childUserId="))
    fill_login_page.close()

    page.goto(mail_link(page, "yusuf.parent@example.com", "/parental-approval?code="))
    expect(page.locator("#approval-child")).to_have_text("Yusuf Rider")
    page.click("#approval-approve")
    expect(page.locator("#status-message")).to_have_text(msg.CONSENT_APPROVED)

    # Opening the consent page again finds the approval and goes to sign in.
    page.goto(consent_url(child))
    expect(page).to_have_url(at("/auth/login"))
    sign_in(page, "yusuf@example.com")
    expect(page).to_have_url(HOME)


def test_parent_declines(page: Page, db):
    child = kid(db, "zaid@example.com")
    page.goto(consent_url(child))
    page.fill("#parentEmail", "zaid.parent@example.com")
    page.click("#consent-submit")
    expect(page.get_by_text(msg.CONSENT_SENT)).to_be_visible()
    link = mail_link(page, "zaid.parent@example.com", "/parental-approval?code=")
    page.goto(link)
    page.click("#approval-decline")
    page.click("#approval-decline-confirm")
    expect(page.locator("#status-message")).to_have_text(msg.CONSENT_DECLINED)
    page.goto(link)
    expect(page.locator("#status-message")).to_have_text(msg.CODE_USED)
    page.goto("/auth/login")
    fill_login(page, "zaid@example.com", "ridefast")
    submit(page, "#login-submit")
    expect(page.locator("#login-error")).to_have_text(msg.LOGIN_FAILED)


def test_resend_waits_five_minutes_and_the_page_returns_to_login(page: Page, db):
    child = kid(db, "lina@example.com")
    page.clock.install()
    page.goto(consent_url(child))
    page.fill("#parentEmail", "lina.parent@example.com")
    page.click("#consent-submit")
    expect(page.locator("#consent-resend")).to_be_disabled()

    page.clock.fast_forward("05:01")
    expect(page.locator("#consent-resend")).to_have_text("Resend")
    expect(page.locator("#consent-resend")).to_be_enabled()
    child.parent_consent_sent_at = datetime.now(UTC) - timedelta(seconds=301)
    db.add(child)
    db.commit()
    page.click("#consent-resend")
    expect(page.locator("#consent-resend")).to_be_disabled()
    expect(page.locator("#consent-error")).to_have_count(0)

    page.clock.fast_forward("12:00")
    expect(page).to_have_url(at("/auth/login"))
