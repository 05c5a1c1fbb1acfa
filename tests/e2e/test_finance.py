"""Finance's console as officers use it: wallet verifications approved and rejected (documents opened, the
rider e-mailed, the decision kept), withdrawals paid and rejected (the hold goes back), two officers on one
item, prize credits, the refusal for everyone else, and the console on a phone."""

import dataclasses
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session, col, select

from cycling_site.messages import finance as msg
from cycling_site.messages import race_control as rc_msg
from cycling_site.messages import wallet as wallet_msg
from cycling_site.models import Account, Currency, Event, LedgerEntry, OutboxMessage, Registration
from cycling_site.models.events import RegistrationStatus
from cycling_site.models.wallet import WalletStatus, WalletVerification, Withdrawal
from cycling_site.services import ledger, rider_files
from tests import file_samples
from tests.e2e.conftest import DESKTOP, Site
from tests.e2e.helpers import RIDER, new_account, returning_rider
from tests.unit.wallet_support import withdraw

CONSOLE = "/finance"
FINANCE = "finance@example.com"
ADMIN = "admin@example.com"
RACE_CONTROL = "racecontrol@example.com"
ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
PAYOUT_TX = "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def site_files(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files stored here land where the running site keeps its riders' files."""
    data_dir = Path(site.db_url.removeprefix("sqlite:///")).parent
    monkeypatch.setattr(rider_files, "settings", dataclasses.replace(rider_files.settings, data_dir=data_dir))


def verification(db: Session, email: str, status: str = WalletStatus.pending) -> WalletVerification:
    """A new rider's wallet verification with its passport and Binance screenshot."""
    rider = new_account(db, email, firstname="Noura", lastname="Saleh")
    passport = rider_files.store(db, rider, "passport_proof", "noura-passport.png", file_samples.png())
    screenshot = rider_files.store(db, rider, "binance_screenshot", "noura-binance.png", file_samples.png())
    row = WalletVerification(
        account_id=rider.id,
        binance_email=email,
        phone="+971501112233",
        wallet_address=ADDRESS,
        passport_file_id=passport.id,
        screenshot_file_ids=[screenshot.id],
        status=status,
    )
    db.add(row)
    db.commit()
    return row


def btc(db: Session, account_id: int) -> int:
    db.expire_all()
    return ledger.balance(db, account_id, Currency.btc)


def console_page(browser: Browser, site: Site, email: str = FINANCE, viewport: dict = DESKTOP) -> Page:
    page = browser.new_context(base_url=site.url, viewport=viewport).new_page()
    returning_rider(page, email, path=f"/auth/login?redirect={CONSOLE}")
    expect(page.locator("#queues")).to_be_visible()
    return page


def ask(console: Page, item_id: int, approve: bool) -> None:
    console.locator(f"#item-{item_id} {'.item-approve' if approve else '.item-reject'}").click()
    expect(console.get_by_role("dialog")).to_be_visible()


def confirm(console: Page, reason: str = "", transaction_id: str = "") -> None:
    if reason:
        console.fill("#reason", reason)
    if transaction_id:
        console.fill("#transaction_id", transaction_id)
    console.locator("#decision-confirm").click()


def test_finance_approves_and_rejects_wallet_verifications(browser: Browser, site: Site, db: Session):
    approved = verification(db, "wallet.approve@example.com")
    rejected = verification(db, "wallet.reject@example.com")
    console = console_page(browser, site)
    console.locator("#avatar-button").click()
    expect(console.locator("#menu-finance")).to_be_visible()
    console.keyboard.press("Escape")

    item = console.locator(f"#item-{approved.id}")
    expect(item).to_contain_text(f"Wallet verification: {ADDRESS}")
    expect(item).to_contain_text("wallet.approve@example.com")
    # The document opens in a new tab through a short-lived link made for this officer.
    with console.context.expect_event(
        "response", lambda answer: "/api/events/files/" in answer.url
    ) as served:
        item.locator(".item-file", has_text="noura-passport.png").click()
    assert served.value.status == 200 and served.value.headers["content-type"] == "image/png"

    ask(console, approved.id, approve=True)
    confirm(console)
    expect(console.locator("#console-notice")).to_have_text(rc_msg.DECIDED.format(decision="approved"))
    expect(console.locator(f"#item-{approved.id}")).to_have_count(0)

    ask(console, rejected.id, approve=False)
    confirm(console)
    expect(console.locator("#decision-error")).to_have_text(rc_msg.REASON_REQUIRED)
    confirm(console, reason="The passport photo is blurred.")
    expect(console.locator("#console-notice")).to_have_text(rc_msg.DECIDED.format(decision="rejected"))

    console.get_by_role("radio", name="Approved").click()
    expect(console.locator(f"#item-{approved.id} .item-history")).to_contain_text("Fatima Rahman approved on")
    console.get_by_role("radio", name="Rejected").click()
    expect(console.locator(f"#item-{rejected.id} .item-history")).to_contain_text(
        "The passport photo is blurred."
    )
    console.context.close()

    db.expire_all()
    assert db.get(WalletVerification, approved.id).status == WalletStatus.approved
    assert db.get(WalletVerification, rejected.id).status == WalletStatus.rejected
    mail = db.exec(select(OutboxMessage).where(OutboxMessage.recipient == "wallet.approve@example.com")).one()
    assert mail.subject.startswith(wallet_msg.VERIFICATION_APPROVED_SUBJECT)


def test_finance_pays_one_withdrawal_and_rejects_another(browser: Browser, site: Site, db: Session):
    rider = db.get(Account, verification(db, "wallet.payout@example.com", WalletStatus.approved).account_id)
    ledger.move(db, ledger.Move(rider.id, Currency.btc, 1_000_000, "prize", "test", f"test-prize:{rider.id}"))
    db.commit()
    paid = withdraw(db, rider, "0.002000")
    refused = withdraw(db, rider, "0.003000")
    held = btc(db, rider.id)
    entries = len(db.exec(select(LedgerEntry).where(LedgerEntry.account_id == rider.id)).all())

    console = console_page(browser, site)
    console.locator("#queue-withdrawal").click()
    item = console.locator(f"#item-{paid.id}")
    expect(item).to_contain_text("0.002000 BTC")
    expect(item.locator(".item-approve")).to_have_text(msg.MARK_PAID)
    ask(console, paid.id, approve=True)
    confirm(console)
    expect(console.locator("#decision-error")).to_have_text(wallet_msg.TRANSACTION_ID_REQUIRED)
    confirm(console, transaction_id=PAYOUT_TX)
    expect(console.locator("#console-notice")).to_have_text(rc_msg.DECIDED.format(decision="paid"))

    ask(console, refused.id, approve=False)
    confirm(console, reason="The address is on a sanctions list.")
    expect(console.locator("#console-notice")).to_have_text(rc_msg.DECIDED.format(decision="rejected"))
    console.get_by_role("radio", name="Approved").click()
    expect(console.locator(f"#item-{paid.id}")).to_contain_text(PAYOUT_TX)
    console.context.close()

    db.expire_all()
    assert db.get(Withdrawal, paid.id).transaction_id == PAYOUT_TX
    assert db.get(Withdrawal, refused.id).status == "rejected"
    # Paying moves nothing more (the hold is the payout); the rejection gives the whole hold back.
    assert btc(db, rider.id) == held + refused.total
    assert len(db.exec(select(LedgerEntry).where(LedgerEntry.account_id == rider.id)).all()) == entries + 1


@pytest.mark.multi_worker
def test_two_officers_decide_an_item_and_credit_a_prize_once(browser: Browser, site: Site, db: Session):
    contested = verification(db, "wallet.contested@example.com")
    rider = new_account(db, "prize.winner@example.com", firstname="Omar", lastname="Khalil")
    event = db.exec(
        select(Event).where(col(Event.starts_at) < datetime.now(UTC)).order_by(col(Event.starts_at).desc())
    ).first()
    db.add(
        Registration(
            event_id=event.id,
            account_id=rider.id,
            status=RegistrationStatus.approved,
            first_name="Omar",
            last_name="Khalil",
            email=rider.email,
            gender=1,
        )
    )
    db.commit()
    first, second = console_page(browser, site), console_page(browser, site, ADMIN)

    ask(first, contested.id, approve=True)
    ask(second, contested.id, approve=False)
    confirm(first)
    expect(first.locator("#console-notice")).to_be_visible()
    confirm(second, reason="Too late")
    expect(second.locator("#decision-error")).to_have_text(rc_msg.ALREADY_DECIDED)
    expect(second.locator(f"#item-{contested.id}")).to_have_count(0)
    second.locator("#decision-cancel").click()

    before = btc(db, rider.id)
    for officer in (first, second):
        officer.locator("#queue-prize_credit").click()
    row, stale = (officer.locator(f"#prize-{event.id}-{rider.id}") for officer in (first, second))
    expect(row).to_contain_text("prize.winner@example.com")
    expect(stale.locator(".prize-amount")).to_be_visible()
    row.locator(".prize-amount").fill("0.0000001")
    row.locator(".prize-credit").click()
    expect(row.locator(".prize-error")).to_have_text(wallet_msg.PRIZE_AMOUNT_INVALID)
    row.locator(".prize-amount").fill("0.000250")
    row.locator(".prize-credit").click()
    expect(first.locator("#console-notice")).to_have_text(
        wallet_msg.PRIZE_CREDITED.format(amount="0.000250", rider="Omar Khalil")
    )
    expect(row.locator(".prize-credited")).to_have_text("Credited 0.000250 BTC")
    stale.locator(".prize-amount").fill("0.000250")
    stale.locator(".prize-credit").click()
    expect(stale.locator(".prize-error")).to_have_text(wallet_msg.PRIZE_ALREADY_CREDITED)
    expect(stale.locator(".prize-credited")).to_have_text("Credited 0.000250 BTC")
    first.context.close()
    second.context.close()

    db.expire_all()
    assert db.get(WalletVerification, contested.id).status == WalletStatus.approved
    assert btc(db, rider.id) == before + 25_000


@pytest.mark.parametrize("email", [RACE_CONTROL, RIDER])
def test_everyone_else_is_refused_the_console(page: Page, email: str):
    returning_rider(page, email, path=f"/auth/login?redirect={CONSOLE}")
    expect(page.locator("#console-refused")).to_contain_text(wallet_msg.NOT_FINANCE)
    expect(page.get_by_role("heading", name=msg.CONSOLE_TITLE)).to_be_visible()
    expect(page.locator("#queues")).to_have_count(0)
    page.locator("#avatar-button").click()
    expect(page.locator("#menu-profile")).to_be_visible()
    expect(page.locator("#menu-finance")).to_have_count(0)


def test_the_console_fits_a_phone(browser: Browser, site: Site):
    console = console_page(browser, site, viewport=PHONE)
    overflow = "document.documentElement.scrollWidth - window.innerWidth"
    expect(console.locator(".review-item").first).to_be_visible()
    assert console.evaluate(overflow) <= 0
    console.locator("#queue-withdrawal").click()
    expect(console.locator(".review-item").first).to_contain_text("BTC")
    assert console.evaluate(overflow) <= 0
    console.locator("#queue-prize_credit").click()
    expect(console.locator(".prize-event").first).to_be_visible()
    assert console.evaluate(overflow) <= 0
    console.context.close()
