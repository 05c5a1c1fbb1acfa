"""The profile as a rider uses it: edit, avatar, password change, deletion by e-mail link, tabs, phone."""

import re
from datetime import date
from functools import cache
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account
from cycling_site.seed import DEMO_PASSWORD
from cycling_site.services import tokens
from cycling_site.services.accounts import hash_password
from tests.e2e.helpers import at, clearing_cookies, fill_login, returning_rider, session_cookies, submit

AVATAR_SRC = re.compile(r"^/api/auth/avatar/[0-9a-f]{32}\.webp$")


@cache
def _demo_hash() -> str:
    return hash_password(DEMO_PASSWORD)


def make_rider(db: Session, email: str, **overrides) -> Account:
    """A fresh account of the running site, for flows that change or delete it."""
    values = {
        "email": email,
        "password_hash": _demo_hash(),
        "firstname": "Nadia",
        "lastname": "Karim",
        "dob": date(1992, 8, 9),
        "country": 784,
        "gender": 1,
        "weight": 61,
        "height": 170,
        "email_verified": True,
    }
    values.update(overrides)
    account = Account(**values)
    db.add(account)
    db.commit()
    return account


def stored(db: Session, email: str) -> Account | None:
    db.expire_all()
    return db.exec(select(Account).where(Account.email == email)).first()


def open_profile(page: Page, email: str, tab: str = "") -> None:
    returning_rider(page, email)
    expect(page).to_have_url(at("/user/activities"))
    page.goto(f"/user/profile#{tab}" if tab else "/user/profile")
    expect(page.get_by_role("heading", name="Profile", exact=True)).to_be_visible()
    expect(page.locator("#profile-loading")).to_have_count(0)


def tab(page: Page, name: str):
    return page.get_by_role("tab", name=name)


def image_file(tmp_path: Path, name: str, fmt: str, size=(640, 480), colour=(20, 140, 90)) -> Path:
    path = tmp_path / name
    out = BytesIO()
    Image.new("RGB", size, colour).save(out, fmt)
    path.write_bytes(out.getvalue())
    return path


def choose_avatar(page: Page, path: Path) -> None:
    page.locator("#avatar-upload input[type=file]").set_input_files(str(path))


# --- Edit Profile ---------------------------------------------------------------------------------------


def test_edit_profile_and_the_header_shows_the_new_name(page: Page, db):
    make_rider(db, "edit.me@example.com")
    open_profile(page, "edit.me@example.com")
    expect(tab(page, "Edit Profile")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#firstname")).to_have_value("Nadia")
    expect(page.locator("#dob")).to_have_value("1992-08-09")
    expect(page.locator("#country")).to_have_value("784")
    expect(page.locator("#gender")).to_have_value("1")
    expect(page.locator("#weight")).to_have_value("61")
    expect(page.locator("#avatar-button")).to_have_text("N")

    page.fill("#firstname", "Zara")
    page.fill("#lastname", "Núñez")
    page.fill("#dob", "1990-01-31")
    page.select_option("#country", "250")
    page.select_option("#gender", "0")
    page.fill("#weight", "66.5")
    page.fill("#height", "174")
    page.locator("#marketing").click()
    page.click("#profile-submit")

    expect(page.locator("#profile-notice")).to_have_text(msg.PROFILE_UPDATED)
    expect(page.locator("#avatar-button")).to_have_text("Z")
    expect(page.locator("#profile-name")).to_have_text("Zara Núñez")
    account = stored(db, "edit.me@example.com")
    assert (account.firstname, account.lastname, account.dob) == ("Zara", "Núñez", date(1990, 1, 31))
    assert (account.country, account.gender, account.weight, account.height) == (250, 0, 66.5, 174)
    assert account.marketing_consent is True

    page.reload()
    expect(page.locator("#firstname")).to_have_value("Zara")
    expect(page.locator("#marketing")).to_be_checked()
    page.click("#avatar-button")
    expect(page.get_by_text("Zara Núñez").first).to_be_visible()


def test_each_rule_has_its_message(page: Page, db):
    make_rider(db, "rules@example.com")
    open_profile(page, "rules@example.com")
    today = date.today()
    cases = [
        ("firstname", "Иван", "firstname", msg.NON_LATIN),
        ("lastname", "", "lastname", msg.required("Last Name")),
        ("weight", "24", "weight", msg.WEIGHT_TOO_LOW),
        ("weight", "141", "weight", msg.WEIGHT_TOO_HIGH),
        ("weight", "", "weight", msg.required("Weight")),
        ("height", "49", "height", msg.HEIGHT_RANGE),
        ("height", "251", "height", msg.HEIGHT_RANGE),
        ("dob", date(today.year - 10, 1, 1).isoformat(), "dob", msg.ADULT_DOB_ONLY),
        ("dob", "", "dob", msg.required("Date of Birth")),
    ]
    for name, value, field, message in cases:
        page.reload()
        expect(page.locator("#firstname")).to_have_value("Nadia")
        page.fill(f"#{name}", value)
        page.click("#profile-submit")
        expect(page.locator(f"#{field}-error")).to_have_text(message)
        expect(page.locator("[id$='-error']")).to_have_count(1)
        expect(page.locator("#profile-notice")).to_have_count(0)
    account = stored(db, "rules@example.com")
    assert (account.firstname, account.lastname, account.weight, account.height) == (
        "Nadia",
        "Karim",
        61,
        170,
    )
    assert account.dob == date(1992, 8, 9)


def test_kid_sees_the_date_of_birth_locked(page: Page, db):
    make_rider(
        db,
        "kid.locked@example.com",
        is_kid=True,
        parent_approved=True,
        parent_email="guardian@example.com",
        dob=date(2014, 4, 4),
    )
    open_profile(page, "kid.locked@example.com")
    dob = page.get_by_label("Date of Birth")
    expect(dob).to_have_value("2014-04-04")
    expect(dob).to_have_attribute("readonly", "")
    expect(page.locator("#dob-locked")).to_have_text(msg.KID_DOB_LOCKED)
    expect(page.get_by_text("Kid account", exact=True)).to_be_visible()

    page.fill("#firstname", "Yousef")
    page.click("#profile-submit")
    expect(page.locator("#profile-notice")).to_have_text(msg.PROFILE_UPDATED)
    account = stored(db, "kid.locked@example.com")
    assert (account.firstname, account.dob) == ("Yousef", date(2014, 4, 4))

    tab(page, "Delete Account").click()
    expect(page.locator("#delete-recipient")).to_have_text("guardian@example.com")


# --- Avatar ---------------------------------------------------------------------------------------------


@pytest.mark.multi_worker
def test_avatar_upload_shows_in_the_header_and_can_be_removed(page: Page, db, tmp_path):
    make_rider(db, "avatar@example.com")
    open_profile(page, "avatar@example.com")
    expect(page.locator("#avatar-remove")).to_have_count(0)

    choose_avatar(page, image_file(tmp_path, "portrait.png", "PNG", (900, 600)))
    header_image = page.locator("#header-avatar")
    expect(header_image).to_have_attribute("src", AVATAR_SRC)
    expect(page.get_by_text(msg.AVATAR_UPDATED)).to_be_visible()
    page.wait_for_function("() => document.querySelector('#header-avatar').naturalWidth === 256")
    first = stored(db, "avatar@example.com").avatar
    expect(page.locator("#profile-avatar")).to_have_attribute("src", f"/api/auth/avatar/{Path(first).name}")

    choose_avatar(page, image_file(tmp_path, "photo.jpg", "JPEG", (300, 800), (200, 40, 40)))
    expect(header_image).not_to_have_attribute("src", f"/api/auth/avatar/{Path(first).name}")
    page.wait_for_function("() => document.querySelector('#header-avatar').naturalHeight === 256")
    second = stored(db, "avatar@example.com").avatar
    assert second != first and len(second) > 25

    page.reload()
    expect(page.locator("#header-avatar")).to_have_attribute("src", f"/api/auth/avatar/{Path(second).name}")

    page.click("#avatar-remove")
    expect(page.get_by_text(msg.AVATAR_REMOVED)).to_be_visible()
    expect(page.locator("#header-avatar")).to_have_count(0)
    expect(page.locator("#avatar-button")).to_have_text("N")
    expect(page.locator("#profile-initial")).to_be_visible()
    expect(page.locator("#avatar-remove")).to_have_count(0)
    assert stored(db, "avatar@example.com").avatar is None


def test_avatar_is_not_served_to_another_rider(page: Page, browser, site, db, tmp_path):
    make_rider(db, "private.face@example.com")
    open_profile(page, "private.face@example.com")
    choose_avatar(page, image_file(tmp_path, "me.png", "PNG"))
    expect(page.locator("#header-avatar")).to_have_attribute("src", AVATAR_SRC)
    src = page.locator("#header-avatar").get_attribute("src")
    assert page.request.get(src).status == 200

    other = browser.new_context(base_url=site.url)
    try:
        other_page = other.new_page()
        assert other_page.request.get(src).status == 401
        returning_rider(other_page)
        expect(other_page).to_have_url(at("/user/activities"))
        assert other_page.request.get(src).status == 404
    finally:
        other.close()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        pytest.param(
            "holiday.jpg", b"This is a text file, not a photo.\n" * 40, msg.INVALID_IMAGE, id="text-as-jpg"
        ),
        pytest.param("scan.pdf", b"%PDF-1.7\n%%EOF\n", msg.INVALID_IMAGE, id="pdf"),
        pytest.param(
            "huge.png", b"\x89PNG\r\n\x1a\n" + b"\0" * (6 * 1024 * 1024), msg.AVATAR_TOO_LARGE, id="6mb"
        ),
    ],
)
def test_invalid_avatar_messages(page: Page, db, tmp_path, name, content, message):
    email = f"bad.avatar.{name.replace('.', '-')}@example.com"
    make_rider(db, email)
    open_profile(page, email)
    path = tmp_path / name
    path.write_bytes(content)
    choose_avatar(page, path)
    expect(page.locator("#avatar-error")).to_have_text(message)
    expect(page.locator("#header-avatar")).to_have_count(0)
    assert stored(db, email).avatar is None


# --- Change Password ------------------------------------------------------------------------------------


def fill_password(page: Page, current: str, new: str, repeat: str) -> None:
    page.fill("#current_password", current)
    page.fill("#password", new)
    page.fill("#repeatPassword", repeat)
    page.click("#password-submit")


@pytest.mark.multi_worker
def test_change_password_then_sign_in_with_the_new_one(page: Page, db):
    email = "new.password@example.com"
    make_rider(db, email)
    open_profile(page, email, "password")
    expect(tab(page, "Change Password")).to_have_attribute("aria-selected", "true")

    fill_password(page, "not-my-password", "brand-new-1", "brand-new-1")
    expect(page.locator("#current_password-error")).to_have_text(msg.CURRENT_PASSWORD_WRONG)
    fill_password(page, DEMO_PASSWORD, "12345", "12345")
    expect(page.locator("#password-error")).to_have_text(msg.PASSWORD_TOO_SHORT)
    expect(page.locator("#current_password-error")).to_have_count(0)
    fill_password(page, DEMO_PASSWORD, "brand-new-1", "brand-new-2")
    expect(page.locator("#repeatPassword-error")).to_have_text(msg.PASSWORD_MISMATCH)
    expect(page).to_have_url(at("/user/profile"))

    with clearing_cookies(page):
        fill_password(page, DEMO_PASSWORD, "brand-new-1", "brand-new-1")
    expect(page).to_have_url(at("/"))
    expect(page.get_by_text(msg.PASSWORD_CHANGED)).to_be_visible()
    expect(page.locator("#header-login")).to_be_visible()
    assert session_cookies(page) == {}

    page.goto("/auth/login")
    fill_login(page, email, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page.locator("#login-error")).to_have_text(msg.LOGIN_FAILED)
    fill_login(page, email, "brand-new-1")
    submit(page, "#login-submit")
    expect(page).to_have_url(at("/user/activities"))
    assert set(session_cookies(page)) == {"rider_id", "rider_token"}


# --- Delete Account -------------------------------------------------------------------------------------


@pytest.mark.multi_worker
def test_delete_account_by_the_emailed_link(page: Page, db, browser, site):
    email = "leaving@example.com"
    make_rider(db, email)
    open_profile(page, email, "delete")
    expect(page.locator("#delete-recipient")).to_have_text(email)

    page.click("#delete-open")
    expect(page.get_by_role("alertdialog")).to_be_visible()
    page.click("#delete-cancel")
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    expect(page).to_have_url(at("/user/profile"))

    page.click("#delete-open")
    with clearing_cookies(page):
        page.click("#delete-confirm")
    expect(page).to_have_url(at("/auth/login"))
    expect(page.get_by_text(msg.DELETE_EMAIL_SENT)).to_be_visible()
    assert session_cookies(page) == {}
    assert stored(db, email).deleted_at is None

    page.goto(f"/dev/mailbox?to={email}")
    mail = page.locator(".mail-message")
    expect(mail).to_have_count(1)
    expect(mail).to_contain_text("Confirm the deletion")
    link = mail.locator(".mail-link")
    expect(link).to_have_attribute("href", re.compile(rf"^{re.escape(site.url)}/delete-user/[\w-]+$"))
    href = link.get_attribute("href")
    link.click()
    expect(page).to_have_url(href)
    expect(page.locator("#delete-user-message")).to_have_text(msg.ACCOUNT_DELETED)
    assert stored(db, email) is None, "the e-mail address is gone from the account"

    again = browser.new_context(base_url=site.url)
    try:
        reused = again.new_page()
        reused.goto(href)
        expect(reused.locator("#delete-user-message")).to_have_text(msg.CODE_USED)
        expect(reused.locator("#delete-failed")).to_be_visible()
    finally:
        again.close()

    page.goto("/auth/login")
    fill_login(page, email, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page.locator("#login-error")).to_have_text(msg.LOGIN_FAILED)


def test_unknown_delete_link_shows_the_failure(page: Page):
    page.goto("/delete-user/not-a-real-code")
    expect(page.locator("#delete-user-message")).to_have_text(msg.CODE_INVALID)
    expect(page.locator("#delete-failed")).to_be_visible()


# --- Tabs -----------------------------------------------------------------------------------------------


def test_tabs_follow_the_url_hash(page: Page, db):
    make_rider(db, "tabs@example.com")
    open_profile(page, "tabs@example.com", "connections")
    expect(tab(page, "Connections")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#connections-panel")).to_be_visible()
    expect(tab(page, "Activity Files")).to_have_count(0)

    tab(page, "Delete Account").click()
    expect(page.locator("#delete-open")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/user/profile/?#delete$"))
    page.reload()
    expect(tab(page, "Delete Account")).to_have_attribute("aria-selected", "true")

    page.evaluate("window.location.hash = 'password'")
    expect(page.locator("#password-submit")).to_be_visible()
    page.goto("/user/profile#files")
    expect(tab(page, "Edit Profile")).to_have_attribute("aria-selected", "true")

    tab(page, "Edit Profile").focus()
    page.keyboard.press("ArrowRight")
    expect(tab(page, "Connections")).to_be_focused()
    page.keyboard.press("Enter")
    expect(tab(page, "Connections")).to_have_attribute("aria-selected", "true")


def test_logout_tab_signs_out(page: Page, db):
    make_rider(db, "logout.tab@example.com")
    open_profile(page, "logout.tab@example.com")
    tab(page, "Logout").click()
    expect(page).to_have_url(at("/auth/login"))
    expect(page.locator("#header-login")).to_be_visible()
    assert session_cookies(page) == {}
    page.goto("/user/profile")
    expect(page).to_have_url(re.compile(r"/auth/login\?redirect="))


def test_profile_fits_a_phone(phone_page: Page, db, tmp_path):
    page = phone_page
    make_rider(db, "phone.rider@example.com")
    open_profile(page, "phone.rider@example.com")
    for name in ("Edit Profile", "Connections", "Change Password", "Delete Account", "Logout"):
        expect(tab(page, name)).to_be_in_viewport()
    for name, ready in (("Change Password", "#password-submit"), ("Delete Account", "#delete-open")):
        tab(page, name).tap()
        expect(page.locator(ready)).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the {name} tab is {width}px wide on a 375px phone"
    tab(page, "Edit Profile").tap()
    choose_avatar(page, image_file(tmp_path, "phone.png", "PNG"))
    expect(page.locator("#header-avatar")).to_have_attribute("src", AVATAR_SRC)
    page.fill("#weight", "150")
    page.locator("#profile-submit").tap()
    expect(page.locator("#weight-error")).to_have_text(msg.WEIGHT_TOO_HIGH)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


@pytest.mark.multi_worker
def test_a_revoked_session_cannot_save(page: Page, db):
    make_rider(db, "revoked@example.com")
    open_profile(page, "revoked@example.com")
    tokens.revoke_session(db, session_cookies(page)["rider_token"])
    page.fill("#firstname", "Intruder")
    page.click("#profile-submit")
    expect(page).to_have_url(re.compile(r"/auth/login\?redirect=%2Fuser%2Fprofile.*reason=token_expired$"))
    assert stored(db, "revoked@example.com").firstname == "Nadia"
