"""Sign-up: adult and kid accounts, every message of the form, nothing stored on bad input."""

import re
from datetime import date
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect
from sqlmodel import func, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, OutboxMessage
from cycling_site.services import parental_consent, tokens
from tests.e2e.helpers import RIDER, at, pass_human_check, submit

SUBMIT = "#register-submit"


def _years_ago(years: int) -> str:
    today = date.today()
    return date(today.year - years, 3, 1).isoformat()


def fill_form(page: Page, **values: str) -> None:
    defaults = {
        "firstname": "Nour",
        "lastname": "Saleh",
        "email": "nour@example.com",
        "password": "pedal-hard",
        "dob": _years_ago(30),
        "weight": "64.5",
        "height": "171",
    }
    for name, value in {**defaults, **values}.items():
        page.fill(f"#{name}", value)


def send(page: Page, consent: bool = True) -> None:
    if consent and not page.locator("#consent").is_checked():
        page.locator("#consent").click()
    pass_human_check(page, SUBMIT)
    submit(page, SUBMIT)


def account_count(db) -> int:
    return db.exec(select(func.count()).select_from(Account)).one()


def test_adult_signs_up_and_gets_a_verification_email(page: Page, db, site):
    page.goto("/auth/register")
    expect(page.locator("#country")).to_have_value("784")
    expect(page.locator("#gender")).to_have_value("0")
    fill_form(page, email="Nour.Adult@Example.com")
    page.select_option("#country", "784")
    page.select_option("#gender", "1")
    send(page)
    expect(page).to_have_url(at("/auth/login"))
    expect(page.get_by_text(msg.REGISTERED)).to_be_visible()

    account = db.exec(select(Account).where(Account.email == "nour.adult@example.com")).one()
    assert (account.country, account.gender, account.weight, account.height) == (784, 1, 64.5, 171)
    assert not account.is_kid and not account.email_verified

    page.goto("/dev/mailbox?to=nour.adult@example.com")
    mail = page.locator(".mail-message")
    expect(mail).to_have_count(1)
    expect(mail).to_contain_text("Verify your")
    link = mail.locator(".mail-link").first
    expect(link).to_have_attribute("href", re.compile(rf"^{re.escape(site.url)}/verify-user\?es=[\w.-]+$"))


def test_kid_signs_up_and_goes_to_parental_consent(page: Page, db):
    page.goto("/auth/register")
    fill_form(page, email="young.rider@example.com", dob=_years_ago(12))
    send(page)
    expect(page).to_have_url(
        re.compile(r"^http://[^/]+/parental-consent\?childUserId=[\w.-]+&userAge=1[12]$")
    )
    expect(page.get_by_role("heading", name="Parental Consent Required")).to_be_visible()
    account = db.exec(select(Account).where(Account.email == "young.rider@example.com")).one()
    assert account.is_kid and not account.parent_approved
    handle = parse_qs(urlsplit(page.url).query)["childUserId"][0]
    assert tokens.read_link(handle, parental_consent.HANDLE_PURPOSE)["sub"] == account.uuid


def test_required_fields(page: Page, db):
    before = account_count(db)
    page.goto("/auth/register")
    send(page, consent=False)
    expected = {
        "firstname": msg.required("First Name"),
        "lastname": msg.required("Last Name"),
        "email": msg.required("Email"),
        "password": msg.required("Password"),
        "dob": msg.required("Date of Birth"),
        "weight": msg.required("Weight"),
        "height": msg.required("Height"),
        "consent": msg.TERMS_REQUIRED,
    }
    for name, text in expected.items():
        expect(page.locator(f"#{name}-error")).to_have_text(text)
    assert account_count(db) == before


def test_each_rule_has_its_message(page: Page, db):
    before = account_count(db)
    before_mail = db.exec(select(func.count()).select_from(OutboxMessage)).one()
    page.goto("/auth/register")
    cases = [
        ({"firstname": "Иван"}, "firstname", msg.NON_LATIN),
        ({"lastname": "李"}, "lastname", msg.NON_LATIN),
        ({"email": "nour@"}, "email", msg.EMAIL_INVALID),
        ({"password": "12345"}, "password", msg.PASSWORD_TOO_SHORT),
        ({"dob": _years_ago(5)}, "dob", msg.TOO_YOUNG),
        ({"weight": "24"}, "weight", msg.WEIGHT_TOO_LOW),
        ({"weight": "141"}, "weight", msg.WEIGHT_TOO_HIGH),
        ({"height": "49"}, "height", msg.HEIGHT_RANGE),
        ({"height": "251"}, "height", msg.HEIGHT_RANGE),
        ({"email": RIDER}, "email", msg.EMAIL_TAKEN),
    ]
    for values, name, text in cases:
        fill_form(page, **values)
        send(page)
        expect(page.locator(f"#{name}-error")).to_have_text(text)
        expect(page.locator("[id$='-error']")).to_have_count(1)
    assert account_count(db) == before
    assert db.exec(select(func.count()).select_from(OutboxMessage)).one() == before_mail


def test_accented_latin_names_are_accepted(page: Page, db):
    page.goto("/auth/register")
    fill_form(page, firstname="Zoë-Ann", lastname="Núñez Ørsted", email="zoe@example.com")
    send(page)
    expect(page).to_have_url(at("/auth/login"))
    account = db.exec(select(Account).where(Account.email == "zoe@example.com")).one()
    assert (account.firstname, account.lastname) == ("Zoë-Ann", "Núñez Ørsted")


def test_date_of_birth_picker_is_capped(page: Page):
    page.goto("/auth/register")
    expect(page.locator("#dob")).to_have_attribute("max", f"{date.today().year - 6}-01-01")


def test_a_tick_from_the_tabs_last_visit_does_not_enable_create_account(page: Page):
    page.goto("/auth/register")
    pass_human_check(page, SUBMIT)
    page.goto("/auth/register")
    expect(page.locator("#human-check input[type=checkbox]")).not_to_be_checked()
    expect(page.locator(SUBMIT)).to_be_disabled()


def test_cancel_goes_to_login(page: Page):
    page.goto("/auth/register")
    page.click("#register-cancel")
    expect(page).to_have_url(at("/auth/login"))
