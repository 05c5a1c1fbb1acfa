"""Riders on phones: every chunk each way waits about 150 ms, give or take 60 (tests.e2e.slow_network).
Every text field of the site is typed into at 0, 30 and 120 ms a key; once the connection has gone quiet
(every answer to what was typed has come back) each field holds exactly what was typed, and forms send it.
"""

import dataclasses
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from sqlmodel import Session, select

from cycling_site.messages import wallet as wallet_msg
from cycling_site.models import Account, Currency, Withdrawal
from cycling_site.models.wallet import WalletStatus
from cycling_site.services import ledger, rider_files, wallet
from tests.e2e.conftest import DESKTOP, Site
from tests.e2e.helpers import (
    fill_login,
    new_account,
    returning_rider,
    submit,
    wait_dashboard,
    wait_live,
    wait_signed_in,
)
from tests.e2e.slow_network import Relay
from tests.e2e.test_finance import verification
from tests.e2e.test_registration import accept_disclaimer, event_of, newest_code, open_wizard
from tests.e2e.test_wallet import _latest_code, _wallet_rider
from tests.e2e.test_weigh_ins import rider_registered_for
from tests.unit.wallet_support import withdraw

SPEEDS_MS = (0, 30, 120)


@pytest.fixture(autouse=True)
def site_files(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files stored here land where the running site keeps its riders' files."""
    data_dir = Path(site.db_url.removeprefix("sqlite:///")).parent
    monkeypatch.setattr(rider_files, "settings", dataclasses.replace(rider_files.settings, data_dir=data_dir))


def type_like_a_rider(field: Locator, text: str, delay_ms: int) -> None:
    field.click()
    field.press("ControlOrMeta+a")
    field.press("Delete")
    field.press_sequentially(text, delay=delay_ms)


def typed_at_every_speed(page: Page, relay: Relay, fields: dict[str, str]) -> None:
    """Types each field's text at each speed in turn; when the answers are all back, every field holds
    its text. Ends with the texts in the fields, typed at the slowest speed."""
    for delay_ms in SPEEDS_MS:
        for selector, text in fields.items():
            type_like_a_rider(page.locator(selector), text, delay_ms)
        relay.wait_idle()
        for selector, text in fields.items():
            expect(page.locator(selector), f"{selector} at {delay_ms} ms a key").to_have_value(text)


def test_sign_in_and_the_footer(page: Page, slow_network: Relay):
    page.goto("/auth/login")
    typed_at_every_speed(
        page,
        slow_network,
        {
            "#email": "rider@example.com",
            "#password": "ridefast",
            "#subscribe-email": "news.reader@example.com",
        },
    )
    # What was typed is what signs in.
    fill_login(page, "rider@example.com", "ridefast")
    submit(page, "#login-submit")
    wait_signed_in(page)


def test_a_tick_given_while_the_page_loads_is_kept(page: Page, slow_network: Relay):
    """The rider fills the form and ticks "I'm not a robot" as soon as they show, before the page has
    loaded: the page's load, which clears the tab's last tick, reaches the site after the tick."""
    slow_network.slow(300, jitter_ms=50)
    page.goto("/auth/login", wait_until="commit")
    page.fill("#email", "rider@example.com")
    page.fill("#password", "ridefast")
    page.locator("#human-check").get_by_text("I'm not a robot").click()
    expect(page.locator("#login-submit")).to_be_enabled()
    submit(page, "#login-submit")
    wait_signed_in(page)


def test_sign_up_forgotten_password_contact_and_mailbox(page: Page, slow_network: Relay):
    page.goto("/auth/register")
    typed_at_every_speed(
        page,
        slow_network,
        {
            "#firstname": "Karim",
            "#lastname": "Haddad-Smith",
            "#email": "karim.pay@example.com",
            "#password": "Ride-fast-2026",
            "#weight": "72.5",
            "#height": "181",
        },
    )
    page.goto("/auth/forgot-password")
    typed_at_every_speed(page, slow_network, {"#email": "karim.pay@example.com"})
    page.goto("/contact-us")
    typed_at_every_speed(
        page,
        slow_network,
        {
            "#name": "Karim Haddad",
            "#email": "karim.pay@example.com",
            "#phone": "+971501234567",
            "#message": "My ride of 12.5 km is missing.",
        },
    )
    page.goto("/dev/mailbox")
    typed_at_every_speed(page, slow_network, {"#to": "karim.pay@example.com"})


def test_profile_and_password(page: Page, db: Session, slow_network: Relay):
    rider = new_account(db, "slow.profile@example.com", firstname="Slow", lastname="Typist")
    returning_rider(page, rider.email, path="/auth/login?redirect=/user/profile")
    expect(page.locator("#firstname")).to_be_editable()
    typed_at_every_speed(
        page,
        slow_network,
        {"#firstname": "Mariam", "#lastname": "Al-Falasi", "#weight": "61.5", "#height": "168"},
    )
    page.get_by_role("tab", name="Change Password").click()
    typed_at_every_speed(
        page,
        slow_network,
        {"#current_password": "ridefast", "#password": "Ride-fast-2026", "#repeatPassword": "Ride-fast-2026"},
    )


def test_pre_verification_and_team_create(page: Page, db: Session, slow_network: Relay):
    rider = new_account(db, "slow.preverify@example.com", firstname="Slow", lastname="Climber")
    returning_rider(page, rider.email, path="/auth/login?redirect=/pre-verification-form")
    expect(page.locator("#weight")).to_be_editable()
    typed_at_every_speed(
        page,
        slow_network,
        {
            "#weight": "66.6",
            "#height": "174",
            "#videoLink": "https://www.youtube.com/watch?v=weighin",
            "#stravaLink": "https://www.strava.com/athletes/99",
            "#message": "Scale calibrated.",
        },
    )
    page.goto("/teams")
    wait_live(page)
    page.locator("#create-team").click()
    typed_at_every_speed(
        page, slow_network, {"#name": "Desert Foxes", "#description": "Sunday rides from Al Qudra."}
    )


def _next_wizard(page: Page, db: Session, event_name: str) -> None:
    """The rider's wizard of another event, past its disclaimer and the personal details as they are."""
    page.goto(f"/event/{event_of(db, event_name).id}")
    expect(page.locator("#wizard-form")).to_be_visible()
    accept_disclaimer(page)
    expect(page.locator("#first_name")).to_be_editable()
    page.locator("#wizard-next").click()


def test_wizard_steps_and_the_phone_code_goes_to_the_number_as_typed(
    page: Page, db: Session, slow_network: Relay
):
    """One rider in the wizards of three events, each with one step beside the personal details: the
    device's, the team's and the phone's, whose code goes to the number as typed."""
    open_wizard(page, db, "slow.wizard@example.com", "Meydan Night Race", gender=1, dob=date(1990, 3, 2))
    accept_disclaimer(page)
    expect(page.locator("#first_name")).to_be_editable()
    typed_at_every_speed(page, slow_network, {"#first_name": "Layla", "#last_name": "Haddad-Smith"})
    page.locator("#wizard-next").click()
    expect(page.locator("#device_model")).to_be_editable()
    typed_at_every_speed(
        page, slow_network, {"#device_model": "iPhone 15 Pro", "#device_serial": "F2LZK0Q1N72X"}
    )
    _next_wizard(page, db, "Al Qudra Team Relay")
    page.locator("#team-type-y").click()
    typed_at_every_speed(page, slow_network, {"#team_name": "Desert Falcons"})
    _next_wizard(page, db, "Jebel Hafeet Hill Climb")
    expect(page.locator("#phone")).to_be_editable()
    typed_at_every_speed(page, slow_network, {"#phone": "501234567"})
    page.locator("#send-code").click()
    expect(page.locator("#otp-notice")).to_contain_text("+971501234567")
    typed_at_every_speed(page, slow_network, {"#otp": newest_code(db, "+971501234567")})
    page.locator("#verify-code").click()
    expect(page.locator("#otp-verified")).to_be_visible()


def test_weigh_in_and_import(page: Page, db: Session, slow_network: Relay):
    rider = rider_registered_for(db, "slow.weigher@example.com")
    returning_rider(page, rider.email)
    wait_dashboard(page)
    page.locator(".weigh-in-submit").first.click()
    typed_at_every_speed(page, slow_network, {"#weight": "70.4"})
    page.keyboard.press("Escape")
    page.locator("#import-open").click()
    page.locator("#platform-strava").click()
    page.locator("#import-next").click()
    typed_at_every_speed(
        page,
        slow_network,
        {"#days": "3", "#hours": "4", "#minutes": "30", "#distance": "1250.5", "#elevation": "2500"},
    )


def test_wallet_verification(page: Page, db: Session, slow_network: Relay):
    rider = _wallet_rider(db, "slow.verify@example.com", 1_000_000)
    returning_rider(page, rider.email, path="/auth/login?redirect=/wallet/account-verification")
    expect(page.locator("#phone_number")).to_be_editable()
    typed_at_every_speed(
        page,
        slow_network,
        {
            "#binance_email": "karim.pay@example.com",
            "#phone_number": "501234567",
            "#phone_otp": "123456",
            "#email_otp": "654321",
            "#wallet_address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        },
    )


def test_withdrawal_sends_the_amount_as_typed(page: Page, db: Session, slow_network: Relay):
    rider = _wallet_rider(db, "slow.withdraw@example.com", 1_000_000, WalletStatus.approved)
    returning_rider(page, rider.email, path="/auth/login?redirect=/wallet/withdrawal-request")
    amount = page.locator("#amount")
    expect(amount).to_be_editable()
    typed_at_every_speed(page, slow_network, {"#amount": "0.001234", "#code": "123456"})
    # Only digits and the first point stay, at once in the browser.
    type_like_a_rider(amount, "1,2.5.0x", 120)
    expect(amount).to_have_value("12.50")
    typed_at_every_speed(page, slow_network, {"#amount": "0.004"})
    quote = wallet.quote("0.004")
    expect(page.locator("#withdrawal-total")).to_have_text(f"{wallet.btc_text(quote.total)} BTC")
    page.locator("#code-get-code").click()
    expect(page.get_by_text(wallet_msg.OTP_SENT_EMAIL)).to_be_visible()
    code = _latest_code(db, rider.email)
    typed_at_every_speed(page, slow_network, {"#code": code})
    page.locator("#withdrawal-submit").click()
    expect(page.get_by_text(wallet_msg.WITHDRAWAL_SUBMITTED)).to_be_visible()
    db.expire_all()
    placed = db.exec(select(Withdrawal).where(Withdrawal.account_id == rider.id)).one()
    assert placed.amount == quote.amount


def test_transaction_search(page: Page, db: Session, slow_network: Relay):
    rider = _wallet_rider(db, "slow.search@example.com", 1_000_000, WalletStatus.approved)
    for amount in ("0.001", "0.002"):
        withdraw(db, rider, amount)
    db.commit()
    returning_rider(page, rider.email, path="/auth/login?redirect=/wallet")
    expect(page.locator(".transaction-row")).to_have_count(2)
    typed_at_every_speed(page, slow_network, {"#transaction-search": "0.002"})
    expect(page.locator(".transaction-row")).to_have_count(1)


def test_console_reasons_and_transaction_ids(browser: Browser, site: Site, db: Session, slow_network: Relay):
    pending = verification(db, "slow.console@example.com")
    approved = verification(db, "slow.payout@example.com", WalletStatus.approved)
    ledger.move(
        db,
        ledger.Move(
            approved.account_id, Currency.btc, 1_000_000, "prize", "test", f"test-prize:{approved.account_id}"
        ),
    )
    db.commit()
    payout = withdraw(db, db.get(Account, approved.account_id), "0.002")
    console = browser.new_context(base_url=site.url, viewport=DESKTOP).new_page()
    returning_rider(console, "finance@example.com", path="/auth/login?redirect=/finance")
    console.locator(f"#item-{pending.id} .item-reject").click()
    typed_at_every_speed(console, slow_network, {"#reason": "The passport photo is blurred."})
    console.keyboard.press("Escape")
    console.locator("#queue-withdrawal").click()
    console.locator(f"#item-{payout.id} .item-approve").click()
    typed_at_every_speed(
        console,
        slow_network,
        {"#transaction_id": "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16"},
    )
    console.context.close()
