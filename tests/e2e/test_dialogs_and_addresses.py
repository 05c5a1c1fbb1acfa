"""The keyboard and names around the shop's and the dashboard's dialogs, the disabled Withdraw on the wallet's
dark header, and one address for every visit (a card payment started at another host name than SITE_URL's
comes back signed in)."""

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from cycling_site.messages import shop as msg
from cycling_site.messages import wallet as wallet_msg
from cycling_site.models import Currency
from cycling_site.models.wallet import WalletStatus, WithdrawalMonth
from cycling_site.services import wallet
from cycling_site.settings import settings
from cycling_site.ui.theme import COLOR
from tests.e2e.helpers import at, returning_rider, sign_in, wait_signed_in
from tests.e2e.test_shop import PAYS_NOW, SHOP, balance, open_shop, order_of, pay_by_card, quick_view, shopper
from tests.e2e.test_wallet import _wallet_rider
from tests.e2e.test_weigh_ins import OPEN_EVENT, item
from tests.e2e.test_weigh_ins import open_dashboard as open_weigh_ins

SHOP_ADDRESS = re.compile(r"/user/activities/?#in-game-shop$")


def test_the_card_buttons_are_named_after_their_visible_words(page: Page, db: Session):
    shopper(db, "names.card@example.com", gems=1000)
    open_shop(page, "names.card@example.com")
    page.locator("#shop-add-gems").click()
    button = page.locator("#bundle-gems-100").get_by_role("button")
    expect(button).to_have_text(msg.PAY_BY_CARD)
    expect(button).to_have_accessible_name(f"{msg.PAY_BY_CARD}: 100 gems for AED 19.00")
    page.locator("#payment-tab-coins").click()
    button = page.locator("#bundle-coins-1000").get_by_role("button")
    expect(button).to_have_accessible_name(re.compile(rf"^{msg.BUY_BUNDLE}: 1,000 coins for \d+ gems$"))


def test_closing_the_shop_keeps_its_tab_and_gives_focus_back_to_the_plus_button(page: Page, db: Session):
    shopper(db, "keys.shop@example.com", gems=10)
    open_shop(page, "keys.shop@example.com")
    opener = page.locator("#shop-add-gems")
    opener.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#payment-modal")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#payment-modal")).to_have_count(0)
    expect(opener).to_be_focused()
    expect(page).to_have_url(SHOP_ADDRESS)
    expect(page.locator("#tab-in-game-shop")).to_have_attribute("aria-selected", "true")


def test_quick_view_gives_focus_back_to_its_button(page: Page, db: Session):
    shopper(db, "keys.quick@example.com", coins=5000)
    open_shop(page, "keys.quick@example.com")
    opener = page.locator("#quick-view-frame-falcon-aero")
    opener.focus()
    page.keyboard.press("Enter")
    panel = page.locator("#quick-view")
    expect(panel).to_be_visible()
    page.keyboard.press("Escape")
    expect(panel).to_have_count(0)
    expect(opener).to_be_focused()


@pytest.mark.multi_worker
def test_purchase_successful_takes_focus_and_closes_with_escape_as_ok_does(page: Page, db: Session):
    account = shopper(db, "keys.bought@example.com", coins=3000)
    open_shop(page, "keys.bought@example.com")
    quick_view(page, "frame-falcon-aero").locator("#buy-now").click()
    expect(page.locator("#purchase-message")).to_have_text(msg.PURCHASE_SUCCESS)
    expect(page.locator("#purchase-ok")).to_be_focused()
    with page.expect_navigation():
        page.keyboard.press("Escape")
    expect(page.locator("#product-frame-falcon-aero")).to_contain_text("Owned")
    expect(page.locator("#purchase-message")).to_have_count(0)
    assert balance(db, account, Currency.coin) == 600


def test_the_weigh_in_dialog_gives_focus_back_to_submit(page: Page):
    open_weigh_ins(page)
    opener = item(page, OPEN_EVENT).locator(".weigh-in-submit")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#weigh-in-dialog")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(opener).to_be_focused()


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(value) for value in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[index : index + 2], 16) for index in (1, 3, 5))


def _contrast(colour: str, background: str) -> float:
    """A computed CSS colour (rgb or rgba, blended over the background as it shows) against a #RRGGBB
    background."""
    parts = [float(part) for part in re.findall(r"[\d.]+", colour)]
    alpha = parts[3] if len(parts) == 4 else 1.0
    under = _hex(background)
    shown = tuple(alpha * part + (1 - alpha) * base for part, base in zip(parts[:3], under, strict=True))
    darker, lighter = sorted((_luminance(shown), _luminance(under)))
    return (lighter + 0.05) / (darker + 0.05)


def test_the_disabled_withdraw_can_be_seen_on_the_dark_header(page: Page, db: Session):
    rider = _wallet_rider(db, "limit.seen@example.com", 5_000_000, WalletStatus.approved)
    month = wallet.month_of(datetime.now(UTC))
    db.add(WithdrawalMonth(account_id=rider.id, month=month, used=settings.wallet_monthly_withdrawals))
    db.commit()
    returning_rider(page, rider.email)
    wait_signed_in(page)
    page.goto("/wallet")
    withdraw = page.locator("#withdraw")
    expect(withdraw).to_be_disabled()
    text, border, border_style = withdraw.evaluate(
        "(node) => ['color', 'borderTopColor', 'borderTopStyle'].map((name) => getComputedStyle(node)[name])"
    )
    # Against the lighter end of the header's gradient: the text reads (4.5:1), the outline shows (3:1).
    assert _contrast(text, COLOR["ink_soft"]) >= 4.5, text
    assert border_style != "none" and _contrast(border, COLOR["ink_soft"]) >= 3, border
    expect(withdraw).to_have_accessible_description(wallet_msg.LIMIT_REACHED)


@pytest.mark.multi_worker
def test_a_card_payment_started_at_another_host_name_comes_back_signed_in(page: Page, db: Session, site):
    """The e2e site's SITE_URL is http://127.0.0.1:PORT, where the provider sends the rider back; the rider
    opens the site as localhost."""
    account = shopper(db, "address.card@example.com", gems=5)
    other_host = site.url.replace("127.0.0.1", "localhost")
    sign_in(page, "address.card@example.com", path=f"{other_host}/auth/login?redirect=/user/activities")
    wait_signed_in(page)
    page.goto(f"{other_host}{SHOP}")
    expect(page.locator("#shop-panel #products .product-card").first).to_be_visible()
    pay_by_card(page, "gems-100", PAYS_NOW)
    expect(page.locator("#payment-success")).to_contain_text(msg.GEMS_ADDED.format(gems=100))
    expect(page).to_have_url(
        at("/user/activities", f"payment_result=success&orderId={order_of(db, account).id}")
    )
    assert page.url.startswith(site.url + "/")
    page.locator("#payment-ok").click()
    expect(page).to_have_url(SHOP_ADDRESS)
    expect(page.locator("#shop-gems")).to_have_text("105")
