"""Connections: a rider connects and disconnects fitness apps through the demo provider, as in a browser."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, delete, select

from cycling_site.messages import accounts as account_msg
from cycling_site.messages import connections as msg
from cycling_site.models import Account, Connection
from cycling_site.settings import settings
from tests.e2e.helpers import RIDER, at, returning_rider

PROFILE = "/user/profile#connections"
ADMIN = "admin@example.com"


def account_id(db: Session, email: str) -> int:
    return db.exec(select(Account.id).where(Account.email == email)).one()


def forget(db: Session, email: str, network: str) -> None:
    db.exec(
        delete(Connection).where(
            Connection.account_id == account_id(db, email), Connection.network == network
        )
    )
    db.commit()


def stored(db: Session, email: str, network: str) -> Connection | None:
    db.expire_all()
    return db.exec(
        select(Connection).where(
            Connection.account_id == account_id(db, email), Connection.network == network
        )
    ).first()


def open_connections(page: Page, email: str = RIDER) -> None:
    returning_rider(page, email)
    expect(page.locator("#avatar-button")).to_be_visible()
    page.goto(PROFILE)
    expect(page.locator("#app-strava")).to_be_visible()


def status_of(page: Page, network: str):
    return page.locator(f"#app-{network} .app-status")


def test_rider_connects_strava_through_the_provider(page: Page, db: Session, tmp_path: Path):
    forget(db, RIDER, "strava")
    open_connections(page)
    expect(status_of(page, "strava")).to_have_text(msg.NOT_CONNECTED_LABEL)
    page.screenshot(path=tmp_path / "connections-desktop.png", full_page=True)

    page.get_by_role("button", name="Connect Strava").click()
    expect(page.locator("#consent-question")).to_have_text(
        f"Allow {settings.site_name} to connect to Strava?"
    )
    page.get_by_role("button", name="Allow").click()

    expect(page).to_have_url(at(PROFILE))
    assert page.url.endswith("#connections")
    expect(status_of(page, "strava")).to_have_text(msg.connected_as("Demo Athlete"))
    expect(page.get_by_role("button", name="Disconnect Strava")).to_be_visible()
    row = stored(db, RIDER, "strava")
    assert row is not None and row.external_user == "Demo Athlete" and row.access_token


def test_denying_shows_the_error_and_stores_nothing(page: Page, db: Session):
    forget(db, RIDER, "todaysplan")
    open_connections(page)
    page.get_by_role("button", name="Connect TodaysPlan").click()
    expect(page.locator("#consent-question")).to_have_text(
        f"Allow {settings.site_name} to connect to TodaysPlan?"
    )
    page.get_by_role("button", name="Deny").click()

    expect(page).to_have_url(re.compile(r"/oauth/todaysplan\?error=access_denied&"))
    expect(page.locator("#oauth-error")).to_have_text(account_msg.OAUTH_ERROR)
    assert stored(db, RIDER, "todaysplan") is None
    page.locator("#oauth-back").click()
    expect(page).to_have_url(at(PROFILE))
    expect(status_of(page, "todaysplan")).to_have_text(msg.NOT_CONNECTED_LABEL)


def test_a_forged_state_in_the_callback_shows_the_error(page: Page, db: Session, tmp_path: Path):
    forget(db, RIDER, "trainingpeaks")
    open_connections(page)
    page.goto("/oauth/trainingpeaks?code=stolen-code&state=forged-state")
    expect(page.locator("#oauth-error")).to_have_text(account_msg.OAUTH_ERROR)
    page.screenshot(path=tmp_path / "callback-error.png")
    assert stored(db, RIDER, "trainingpeaks") is None


def test_signed_out_callback_asks_to_sign_in_first(page: Page):
    page.goto("/oauth/strava?code=c&state=s")
    expect(page).to_have_url(
        at("/auth/login", "redirect=%2Foauth%2Fstrava%3Fcode%3Dc%26state%3Ds&reason=session_expired")
    )


def test_disconnect_asks_for_confirmation(page: Page, db: Session, tmp_path: Path):
    forget(db, RIDER, "intervals")
    db.add(
        Connection(
            account_id=account_id(db, RIDER), network="intervals", external_user="Layla H", access_token="t"
        )
    )
    db.commit()
    open_connections(page)
    expect(status_of(page, "intervals")).to_have_text(msg.connected_as("Layla H"))

    page.get_by_role("button", name="Disconnect Intervals.icu").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(msg.confirm_title("Intervals.icu"))
    page.screenshot(path=tmp_path / "confirm-desktop.png")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    assert stored(db, RIDER, "intervals") is not None

    page.get_by_role("button", name="Disconnect Intervals.icu").click()
    expect(page.get_by_role("alertdialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    assert stored(db, RIDER, "intervals") is not None

    page.get_by_role("button", name="Disconnect Intervals.icu").click()
    expect(page.get_by_role("alertdialog")).to_be_visible()
    page.get_by_role("alertdialog").get_by_role("button", name="Disconnect").click()
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    expect(status_of(page, "intervals")).to_have_text(msg.NOT_CONNECTED_LABEL)
    expect(page.get_by_text(msg.disconnected("Intervals.icu"))).to_be_visible()
    assert stored(db, RIDER, "intervals") is None


def test_xert_form_validation_and_link(page: Page, db: Session):
    forget(db, RIDER, "xert")
    open_connections(page)
    xert = page.locator("#app-xert")
    xert.get_by_role("button", name="Link Xert").click()
    expect(page.locator("#username-error")).to_have_text(account_msg.required("Username"))
    expect(page.locator("#password-error")).to_have_text(account_msg.required("Password"))

    page.fill("#username", "joe.rider")
    page.fill("#password", "wrong-password")
    xert.get_by_role("button", name="Link Xert").click()
    expect(page.locator("#xert-error")).to_have_text(account_msg.OAUTH_ERROR)
    expect(page.locator("#username-error")).to_have_count(0)
    assert stored(db, RIDER, "xert") is None

    page.fill("#password", "xert-demo")
    xert.get_by_role("button", name="Link Xert").click()
    expect(status_of(page, "xert")).to_have_text(msg.connected_as("joe.rider"))
    expect(page.locator("#xert-form")).to_have_count(0)
    assert stored(db, RIDER, "xert").external_user == "joe.rider"


@pytest.mark.parametrize(("email", "sees_whoop"), [(RIDER, False), (ADMIN, True)])
def test_whoop_only_for_accounts_that_are_not_normal_users(page: Page, email: str, sees_whoop: bool):
    open_connections(page, email)
    expect(page.locator("#app-analogx")).to_be_visible()
    expect(page.locator("#app-whoop")).to_have_count(1 if sees_whoop else 0)
    if sees_whoop:
        page.get_by_role("button", name="Connect Whoop").click()
        expect(page.locator("#consent-question")).to_have_text(
            f"Allow {settings.site_name} to connect to Whoop?"
        )


def test_panel_and_provider_on_a_phone(phone_page: Page, db: Session, tmp_path: Path):
    forget(db, RIDER, "analogx")
    open_connections(phone_page)
    phone_page.screenshot(path=tmp_path / "connections-phone.png", full_page=True)
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    phone_page.get_by_role("link", name="Connect AnalogX").click()
    expect(phone_page).to_have_url(at("/analogx-terms"))
    phone_page.get_by_text(msg.TERMS_ACCEPT).click()
    phone_page.get_by_role("button", name=msg.TERMS_CONNECT).click()
    expect(phone_page.locator("#consent-question")).to_be_visible()
    phone_page.screenshot(path=tmp_path / "provider-phone.png")
    phone_page.get_by_role("button", name="Allow").click()
    expect(status_of(phone_page, "analogx")).to_have_text(msg.connected_as("Demo Athlete"))


def test_analogx_terms_are_accepted_before_the_link(page: Page, db: Session):
    forget(db, RIDER, "analogx")
    open_connections(page)
    page.get_by_role("link", name="Connect AnalogX").click()
    expect(page).to_have_url(at("/analogx-terms"))
    expect(page.locator("main h1")).to_have_text("AnalogX terms")
    expect(page.locator("#content-body h2").first).to_have_text("What AnalogX receives")

    # Not accepted: the server refuses, and the rider stays on the page.
    page.get_by_role("button", name=msg.TERMS_CONNECT).click()
    expect(page.locator("#terms-error")).to_have_text(msg.TERMS_REQUIRED.format(name="AnalogX"))
    expect(page).to_have_url(at("/analogx-terms"))
    assert stored(db, RIDER, "analogx") is None

    page.get_by_text(msg.TERMS_ACCEPT).click()
    page.get_by_role("button", name=msg.TERMS_CONNECT).click()
    question = f"Allow {settings.site_name} to connect to AnalogX?"
    expect(page.locator("#consent-question")).to_have_text(question)
    page.get_by_role("button", name="Allow").click()
    expect(status_of(page, "analogx")).to_have_text(msg.connected_as("Demo Athlete"))
    assert stored(db, RIDER, "analogx") is not None


def test_the_analogx_terms_page_needs_a_session(page: Page):
    page.goto("/analogx-terms")
    expect(page).to_have_url(
        re.compile(r"/auth/login\?redirect=%2Fanalogx-terms(%2F)?&reason=session_expired$")
    )
