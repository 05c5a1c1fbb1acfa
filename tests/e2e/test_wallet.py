"""The rider's wallet (spec 3): the summary with its transactions, account verification with both codes and
the files, the withdrawal form, the monthly limit, kids sent away, and the phone layout."""

import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect
from sqlmodel import col, select

from cycling_site.messages import wallet as msg
from cycling_site.models import Currency, OutboxMessage
from cycling_site.models.events import RiderFile
from cycling_site.models.wallet import (
    WalletStatus,
    WalletVerification,
    Withdrawal,
    WithdrawalMonth,
    WithdrawalStatus,
)
from cycling_site.services import ledger, wallet
from cycling_site.services.ledger import Move
from cycling_site.settings import settings
from tests.e2e.helpers import KID, RIDER, at, choose_files, new_account, returning_rider, wait_signed_in

ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
PAYOUT_TX = "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16"
FINANCE = "finance@example.com"
PHONE_SIZE = {"width": 390, "height": 844}
NO_OVERFLOW = "document.documentElement.scrollWidth <= window.innerWidth"


def _wallet_rider(db, email: str, satoshi: int, status: str | None = None):
    """A fresh rider with prize money, and a verification in this status if given."""
    rider = new_account(db, email, firstname="Wally", lastname="Satoshi")
    ledger.move(db, Move(rider.id, Currency.btc, satoshi, "prize", "", f"test-prize:{rider.id}"))
    if status is not None:
        passport = RiderFile(
            account_id=rider.id,
            kind="passport_proof",
            name="passport.png",
            content_type="image/png",
            stored_as=f"{rider.id:032x}.png",
            size=10,
        )
        db.add(passport)
        db.flush()
        db.add(
            WalletVerification(
                account_id=rider.id,
                binance_email=email,
                phone="+971501234567",
                wallet_address=ADDRESS,
                passport_file_id=passport.id,
                status=status,
            )
        )
    db.commit()
    return rider


def _png(size: int = 16) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (size, size), (255, 90, 31)).save(buffer, "PNG")
    return buffer.getvalue()


def _file(name: str, data: bytes, mime: str = "image/png") -> dict:
    return {"name": name, "mimeType": mime, "buffer": data}


def _latest_code(db, recipient: str) -> str:
    db.expire_all()
    row = db.exec(
        select(OutboxMessage)
        .where(OutboxMessage.recipient == recipient)
        .order_by(col(OutboxMessage.id).desc())
    ).first()
    assert row is not None, f"no message to {recipient}"
    return re.search(r"\b(\d{6})\b", row.body).group(1)


def _error(page: Page, name: str):
    return page.locator(f"#{name}-error")


def test_summary_shows_the_header_cards_and_a_searchable_paged_table(page: Page, db):
    rider = _wallet_rider(db, "wallet.summary@example.com", 5_000_000, WalletStatus.approved)
    start = datetime(2026, 6, 1, 8, 0, tzinfo=UTC)
    statuses = [WithdrawalStatus.approved, WithdrawalStatus.rejected, WithdrawalStatus.pending]
    for number in range(12):
        status = statuses[number % 3]
        db.add(
            Withdrawal(
                account_id=rider.id,
                amount=100_000 + number * 100,
                fee=1_500,
                email=rider.email,
                wallet_address=ADDRESS,
                month="2026-06",
                status=status,
                transaction_id=f"tx-paid-{number:02d}" if status == WithdrawalStatus.approved else "",
                requested_at=start + timedelta(hours=number),
            )
        )
    db.commit()

    returning_rider(page, rider.email)
    wait_signed_in(page)
    page.goto("/wallet")
    expect(page.locator("#wallet-name")).to_have_text("Wally Satoshi")
    expect(page.locator("#wallet-badge")).to_have_text(msg.BADGE_VERIFIED)
    expect(page.locator("#wallet-badge")).to_have_attribute("data-tone", "success")
    expect(page.locator("#wallet-balance")).to_have_text("0.050000")
    expect(page.locator("#wallet-currency")).to_have_text("BTC")
    expect(page.locator("#wallet-updated")).to_contain_text("GST")
    expect(page.locator("#withdraw")).to_be_visible()
    # Four paid requests of 0.001000, 0.001003, 0.001006 and 0.001009 BTC; four pending.
    expect(page.locator("#total-withdrawals .overview-value")).to_have_text("0.004018 BTC")
    expect(page.locator("#pending-requests .overview-value")).to_have_text("4")
    expect(page.locator("#completed-transactions .overview-value")).to_have_text("4")

    rows = page.locator(".transaction-row")
    expect(rows).to_have_count(10)
    # Newest first: WD numbers count down; status colours by status.
    first = rows.first
    expect(first.locator(".transaction-status")).to_have_text("pending")
    expect(first.locator(".transaction-status")).to_have_attribute("data-tone", "warning")
    expect(rows.nth(1).locator(".transaction-status")).to_have_attribute("data-tone", "danger")
    expect(rows.nth(2).locator(".transaction-status")).to_have_attribute("data-tone", "success")
    expect(rows.nth(2)).to_contain_text("tx-paid-09")
    expect(rows.nth(2)).to_contain_text("0.001009 BTC")
    expect(page.locator("#pagination button[aria-current='page']")).to_have_text("1")
    page.click("#page-next")
    expect(rows).to_have_count(2)
    expect(page.locator("#pagination button[aria-current='page']")).to_have_text("2")
    expect(page.locator("#page-next")).to_be_disabled()

    page.fill("#transaction-search", "tx-paid-03")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("tx-paid-03")
    expect(page.locator("#pagination")).to_have_count(0)
    page.fill("#transaction-search", "no-such-request")
    expect(page.locator("#transactions-empty")).to_have_text(msg.NO_TRANSACTIONS)

    # Two requests left this month: a polite warning; none left: the spec's message and no Withdraw.
    month = wallet.month_of(datetime.now(UTC))
    limit = settings.wallet_monthly_withdrawals
    allowance = WithdrawalMonth(account_id=rider.id, month=month, used=limit - 2)
    db.add(allowance)
    db.commit()
    page.reload()
    expect(page.locator("#wallet-limit")).to_have_text(msg.LIMIT_WARNING.format(count=2, limit=limit))
    allowance.used = limit
    db.add(allowance)
    db.commit()
    page.reload()
    expect(page.locator("#wallet-limit")).to_have_text(msg.LIMIT_REACHED)
    expect(page.locator("#withdraw")).to_be_disabled()
    page.goto("/wallet/withdrawal-request")
    expect(page.locator("#wallet-limit")).to_have_text(msg.LIMIT_REACHED)
    page.fill("#amount", "0.001")
    page.click("#withdrawal-submit")
    expect(_error(page, "amount")).to_have_text(msg.LIMIT_REACHED)


@pytest.mark.multi_worker
def test_verification_with_both_codes_and_the_files(page: Page, db):
    rider = _wallet_rider(db, "wallet.verify@example.com", 250_000)
    phone, binance = "+971507654321", "binance.verify@example.com"
    returning_rider(page, rider.email)
    wait_signed_in(page)
    page.clock.install()
    page.goto("/wallet")
    expect(page.locator("#wallet-badge")).to_have_text(msg.BADGE_UNVERIFIED)
    expect(page.locator("#wallet-badge")).to_have_attribute("data-tone", "danger")
    expect(page.locator("#transactions-empty")).to_have_text(msg.NO_TRANSACTIONS)
    page.click("#verify")
    expect(page).to_have_url(at("/wallet/account-verification"))

    expect(page.locator("#wallet-verification-submit")).to_be_enabled()
    page.click("#wallet-verification-submit")
    for name, text in {
        "binance_email": msg.BINANCE_EMAIL_REQUIRED,
        "phone_number": msg.PHONE_REQUIRED,
        "wallet_address": msg.WALLET_ADDRESS_REQUIRED,
        "phone_otp": msg.PHONE_OTP_REQUIRED,
        "email_otp": msg.EMAIL_OTP_REQUIRED,
        "passport_proof": msg.PASSPORT_REQUIRED,
        "binance_screenshot": msg.SCREENSHOT_REQUIRED,
        "terms_accepted": msg.TERMS_REQUIRED,
    }.items():
        expect(_error(page, name)).to_have_text(text)

    # The phone code: only for a valid number; Get Code -> Wait 60s -> Get Code by the page's clock.
    expect(page.locator("#country")).to_have_value("AE")
    page.fill("#phone_number", "50765")
    expect(page.locator("#phone-get-code")).to_be_disabled()
    page.fill("#phone_number", "507654321")
    expect(page.locator("#phone-get-code")).to_have_text(msg.GET_CODE)
    page.click("#phone-get-code")
    expect(page.get_by_text(msg.OTP_SENT_PHONE)).to_be_visible()
    expect(page.locator("#phone-get-code")).to_have_text("Wait 60s")
    expect(page.locator("#phone-get-code")).to_be_disabled()
    phone_code = _latest_code(db, phone)
    page.clock.fast_forward("00:30")
    expect(page.locator("#phone-get-code")).to_have_text(re.compile(r"^Wait (29|30)s$"))
    page.clock.fast_forward("00:31")
    expect(page.locator("#phone-get-code")).to_have_text(msg.GET_CODE)
    # The server still counts its own minute: asked again now, the button comes back with the reason.
    page.click("#phone-get-code")
    expect(_error(page, "phone_number")).to_contain_text("Please wait")
    expect(page.locator("#phone-get-code")).to_have_text(msg.GET_CODE)

    page.fill("#binance_email", binance)
    page.click("#email-get-code")
    expect(page.get_by_text(msg.OTP_SENT_EMAIL)).to_be_visible()
    expect(page.locator("#email-get-code")).to_contain_text("Wait")
    email_code = _latest_code(db, binance)

    # Files: a .png that is no image and one above 5 MB are refused; real images are kept.
    passport = page.locator("#passport-upload input[type=file]")
    screenshots = page.locator("#screenshot-upload input[type=file]")
    choose_files(passport, _file("passport.png", b"this is not an image at all"))
    expect(_error(page, "passport_proof")).to_have_text(msg.FILE_TYPE)
    choose_files(passport, _file("huge.png", b"\x89PNG" + b"0" * (5 * 1024 * 1024)))
    expect(_error(page, "passport_proof")).to_have_text(msg.FILE_TOO_LARGE)
    # From the keyboard each zone is one stop, its file input (which the browser opens on Enter): the zone
    # shows a ring.
    passport.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(passport).to_be_focused()
    expect(page.locator("#passport-upload")).to_have_css("outline-style", "solid")
    choose_files(passport, _file("passport.png", _png()))
    expect(page.locator(".chosen-passport_proof")).to_have_count(1)
    expect(passport).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator(".chosen-passport_proof").get_by_role("button", name="Remove")).to_be_focused()
    page.keyboard.press("Tab")
    expect(screenshots).to_be_focused()
    expect(_error(page, "passport_proof")).to_have_count(0)
    choose_files(screenshots, [_file("binance-1.png", _png(20)), _file("binance-2.png", _png(24))])
    expect(page.locator(".chosen-binance_screenshot")).to_have_count(2)

    page.fill("#wallet_address", ADDRESS)
    page.fill("#phone_otp", f"{(int(phone_code) + 1) % 1_000_000:06d}")
    page.fill("#email_otp", email_code)
    page.locator("#terms_accepted").click()
    page.click("#wallet-verification-submit")
    expect(_error(page, "phone_otp")).to_have_text(msg.OTP_WRONG)
    for name in ("binance_email", "phone_number", "passport_proof", "terms_accepted"):
        expect(_error(page, name)).to_have_count(0)
    db.expire_all()
    assert db.exec(select(WalletVerification).where(WalletVerification.account_id == rider.id)).all() == []

    page.fill("#phone_otp", phone_code)
    page.click("#wallet-verification-submit")
    expect(page.get_by_text(msg.VERIFICATION_SUBMITTED)).to_be_visible()
    expect(page).to_have_url(at("/wallet"))
    expect(page.locator("#wallet-badge")).to_have_text(msg.BADGE_PENDING)
    expect(page.locator("#wallet-badge")).to_have_attribute("data-tone", "warning")
    db.expire_all()
    stored = db.exec(select(WalletVerification).where(WalletVerification.account_id == rider.id)).one()
    assert (stored.status, stored.phone, stored.binance_email) == ("pending", phone, binance)
    assert len(stored.screenshot_file_ids) == 2
    # Never a second submission: the form sends a waiting rider back to the wallet.
    page.goto("/wallet/account-verification")
    expect(page.get_by_text(msg.ALREADY_PENDING)).to_be_visible()
    expect(page).to_have_url(at("/wallet"))


@pytest.mark.multi_worker
def test_withdrawal_goes_to_the_verified_wallet_with_an_emailed_code_then_finance_pays_it(
    browser: Browser, site, page: Page, db
):
    rider = _wallet_rider(db, "wallet.withdraw@example.com", 1_000_000, WalletStatus.approved)
    returning_rider(page, rider.email)
    wait_signed_in(page)
    page.goto("/wallet/account-verification")
    expect(page.get_by_text(msg.ALREADY_VERIFIED)).to_be_visible()
    expect(page).to_have_url(at("/wallet"))
    # Another wallet is verified first: the form opens for it, saying withdrawals will wait.
    page.click("#change-wallet")
    expect(page).to_have_url(at("/wallet/account-verification", "change=1"))
    expect(page.locator("#wallet-change-notice")).to_have_text(msg.CHANGE_WALLET_NOTICE)
    page.go_back()
    expect(page).to_have_url(at("/wallet"))
    page.click("#withdraw")
    expect(page).to_have_url(at("/wallet/withdrawal-request"))
    expect(page.locator("#wallet-balance")).to_have_text("0.010000")
    # The verified wallet's e-mail and address, shown as set: the money can go nowhere else.
    for selector, value in (("#email", rider.email), ("#wallet_address", ADDRESS)):
        expect(page.locator(selector)).to_have_value(value)
        expect(page.locator(selector)).not_to_be_editable()
    expect(page.locator("#withdrawal-destination")).to_have_text(msg.WITHDRAWAL_DESTINATION)

    amount, submit = page.locator("#amount"), page.locator("#withdrawal-submit")
    # Only digits and one point stay in the field.
    amount.fill("12abc")
    expect(amount).to_have_value("12")
    amount.fill("0.1.2")
    expect(amount).to_have_value("0.12")
    # Fee and total follow the amount as it is typed.
    amount.fill("0.004")
    quote = wallet.quote("0.004")
    expect(page.locator("#withdrawal-fee")).to_have_text(f"{wallet.btc_text(quote.fee)} BTC")
    expect(page.locator("#withdrawal-total")).to_have_text(f"{wallet.btc_text(quote.total)} BTC")

    cases = [
        ("", "", {"amount": msg.AMOUNT_REQUIRED, "code": msg.WITHDRAWAL_CODE_REQUIRED}),
        ("0.0000001", "12ab", {"amount": msg.AMOUNT_TOO_PRECISE, "code": msg.OTP_WRONG}),
        ("0", "123456", {"amount": msg.AMOUNT_NOT_POSITIVE}),
        ("0.01", "123456", {"amount": msg.TOTAL_EXCEEDS_BALANCE}),
    ]
    for typed, code, errors in cases:
        amount.fill(typed)
        page.fill("#code", code)
        expect(submit).to_be_enabled()
        submit.click()
        for name, text in errors.items():
            expect(_error(page, name)).to_have_text(text)
        expect(submit).to_be_disabled()

    # The code goes to the verified e-mail; a wrong one moves nothing.
    page.click("#code-get-code")
    expect(page.locator("#code-get-code")).to_contain_text("Wait")
    expect(page.get_by_text(msg.OTP_SENT_EMAIL)).to_be_visible()
    code = _latest_code(db, rider.email)
    amount.fill("0.004")
    page.fill("#code", f"{(int(code) + 1) % 10**6:06d}")
    expect(submit).to_be_enabled()
    submit.click()
    expect(_error(page, "code")).to_have_text(msg.OTP_WRONG)
    db.expire_all()
    assert db.exec(select(Withdrawal).where(Withdrawal.account_id == rider.id)).all() == []

    page.fill("#code", code)
    expect(submit).to_be_enabled()
    submit.click()
    expect(submit).to_be_disabled()
    expect(page.get_by_text(msg.WITHDRAWAL_SUBMITTED)).to_be_visible()
    expect(page).to_have_url(at("/wallet"))
    expect(page.locator("#pending-requests .overview-value")).to_have_text("1")
    row = page.locator(".transaction-row").first
    expect(row).to_contain_text("0.004000 BTC")
    expect(row.locator(".transaction-status")).to_have_text("pending")
    expect(page.locator("#wallet-balance")).to_have_text(wallet.btc_text(1_000_000 - quote.total))
    db.expire_all()
    made = db.exec(select(Withdrawal).where(Withdrawal.account_id == rider.id)).one()
    assert (made.wallet_address, made.email) == (ADDRESS, rider.email)
    told = db.exec(
        select(OutboxMessage).where(
            OutboxMessage.recipient == rider.email,
            col(OutboxMessage.subject).startswith(msg.WITHDRAWAL_REQUESTED_SUBJECT),
        )
    ).one()
    assert wallet.request_no(made) in told.body

    # Finance pays it in the console, beside the verified address; the rider's transaction turns green and
    # links to its Bitcoin transaction.
    officer = browser.new_context(base_url=site.url).new_page()
    try:
        returning_rider(officer, FINANCE, path="/auth/login?redirect=/finance")
        officer.locator("#queue-withdrawal").click()
        item = officer.locator(f"#item-{made.id}")
        expect(item).to_contain_text("Verified address")
        expect(item).not_to_contain_text(msg.NOT_THE_VERIFIED_ADDRESS)
        item.locator(".item-approve").click()
        officer.fill("#transaction_id", "paid by cash lol")
        officer.locator("#decision-confirm").click()
        expect(officer.locator("#decision-error")).to_have_text(msg.TRANSACTION_ID_INVALID)
        officer.fill("#transaction_id", PAYOUT_TX)
        officer.locator("#decision-confirm").click()
        expect(item).to_have_count(0)
    finally:
        officer.context.close()
    page.reload()
    expect(row.locator(".transaction-status")).to_have_text("approved")
    expect(row.locator(".transaction-status")).to_have_attribute("data-tone", "success")
    expect(row.locator(".transaction-link")).to_have_attribute(
        "href", f"https://mempool.space/tx/{PAYOUT_TX}"
    )
    expect(page.locator("#completed-transactions .overview-value")).to_have_text("1")


def test_kids_have_no_wallet_and_the_wallet_fits_a_phone(browser: Browser, site, page: Page):
    returning_rider(page, KID)
    wait_signed_in(page)
    page.goto("/wallet")
    expect(page).to_have_url(at("/user/activities"))
    page.goto("/wallet/withdrawal-request")
    expect(page).to_have_url(at("/user/activities"))

    context = browser.new_context(viewport=PHONE_SIZE, base_url=site.url, is_mobile=True, has_touch=True)
    phone = context.new_page()
    try:
        returning_rider(phone, RIDER)
        wait_signed_in(phone)
        phone.goto("/wallet")
        expect(phone.locator(".transaction-card").first).to_be_visible()
        expect(phone.locator("#withdraw")).to_be_visible()
        assert phone.evaluate(NO_OVERFLOW)
        phone.goto("/wallet/withdrawal-request")
        expect(phone.locator("#withdrawal-submit")).to_be_visible()
        assert phone.evaluate(NO_OVERFLOW)
    finally:
        context.close()
