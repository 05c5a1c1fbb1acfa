"""E-mail verification: by link, by typed code, resends, and sign-in of an unverified adult."""

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect
from sqlmodel import select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, AccountCode
from cycling_site.seed import DEMO_PASSWORD
from tests.e2e.helpers import at, fill_login, mail_link, open_mailbox, pass_human_check, sign_in, submit

HOME = re.compile(r"^http://[^/]+/user/activities/?#profile$")


def sign_up(page: Page, email: str) -> None:
    page.goto("/auth/register")
    for name, value in {
        "firstname": "Mira",
        "lastname": "Costa",
        "email": email,
        "password": DEMO_PASSWORD,
        "dob": "1992-04-04",
        "weight": "60",
        "height": "170",
    }.items():
        page.fill(f"#{name}", value)
    page.locator("#consent").click()
    pass_human_check(page, "#register-submit")
    submit(page, "#register-submit")
    expect(page).to_have_url(at("/auth/login"))
    # The address changes before the sign-in form replaces the sign-up form, whose fields have the same ids.
    expect(page.locator("#login-submit")).to_be_visible()


def mailed_code(page: Page, email: str) -> str:
    """The newest code, read in a second tab as a rider reads their mail beside the open page."""
    mail_tab = page.context.new_page()
    text = open_mailbox(mail_tab, email).first.inner_text()
    mail_tab.close()
    return re.search(r"^\s*(\d{6})\s*$", text, re.MULTILINE).group(1)


def test_unverified_adult_is_told_and_verifies_by_link(page: Page):
    email = "mira.link@example.com"
    sign_up(page, email)
    fill_login(page, email, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page.locator("#login-error")).to_have_text(msg.EMAIL_NOT_VERIFIED)
    page.click("#login-resend")
    expect(page.locator("#login-resend-note")).to_have_text(msg.VERIFICATION_SENT)
    expect(open_mailbox(page, email)).to_have_count(2)

    page.goto(mail_link(page, email, "/verify-user?es="))
    expect(page.locator("#status-message")).to_have_text(msg.EMAIL_VERIFIED)
    page.get_by_role("link", name=msg.ENJOY_YOUR_RIDE).click()
    expect(page).to_have_url(at("/auth/login"))
    sign_in(page, email)
    expect(page).to_have_url(HOME)


def test_used_expired_and_bad_links(page: Page, db):
    email = "mira.links@example.com"
    sign_up(page, email)
    first_link = mail_link(page, email, "/verify-user?es=")

    # An expired link offers a resend, which mails a fresh one.
    account = db.exec(select(Account).where(Account.email == email)).one()
    for row in db.exec(select(AccountCode).where(AccountCode.account_id == account.id)):
        row.expires_at = datetime.now(UTC) - timedelta(minutes=1)
        db.add(row)
    db.commit()
    page.goto(first_link)
    expect(page.locator("#status-message")).to_have_text(msg.CODE_EXPIRED)
    page.click("#verify-resend")
    expect(page.locator("#resend-note")).to_have_text(msg.VERIFICATION_SENT)
    fresh_link = mail_link(page, email, "/verify-user?es=")
    assert fresh_link != first_link

    page.goto(fresh_link)
    expect(page.locator("#status-message")).to_have_text(msg.EMAIL_VERIFIED)
    page.goto(fresh_link)
    expect(page.locator("#status-message")).to_have_text(msg.CODE_USED)
    page.click("#verify-resend")
    expect(page.locator("#resend-note")).to_have_text(msg.EMAIL_VERIFIED)

    page.goto("/verify-kid?es=not-a-real-code")
    expect(page.locator("#status-message")).to_have_text(msg.CODE_INVALID)
    page.click("#verify-resend")
    expect(page.locator("#resend-note")).to_have_text(msg.EMAIL_RESEND_ERROR)


def test_verify_by_typed_code(page: Page):
    email = "mira.code@example.com"
    sign_up(page, email)
    page.goto("/auth/verification")
    expect(page.get_by_text(email)).to_be_visible()

    page.fill("#otp", "12")
    page.click("#otp-submit")
    expect(page.locator("#otp-error")).to_have_text(msg.OTP_REQUIRED)

    code = mailed_code(page, email)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    page.fill("#otp", wrong)
    page.click("#otp-submit")
    expect(page.locator("#otp-form-error")).to_have_text(msg.CODE_INVALID)

    page.click("#otp-new-code")
    expect(page.locator("#otp-notice")).to_have_text(msg.VERIFICATION_SENT)
    new_code = mailed_code(page, email)
    page.fill("#otp", new_code)
    page.click("#otp-submit")
    expect(page).to_have_url(at("/auth/login"))
    assert page.evaluate("localStorage.getItem('user_key') || ''") == ""
    sign_in(page, email)
    expect(page).to_have_url(HOME)


def test_verify_page_without_a_key(page: Page):
    page.goto("/auth/verification")
    expect(page.locator("#otp-no-key")).to_be_visible()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    expect(page.get_by_role("link", name="Create an account")).to_be_visible()
