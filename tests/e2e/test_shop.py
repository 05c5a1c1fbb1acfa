"""The In Game Shop as a rider uses it: tabs, Quick View, buying items and coin bundles, and gems paid by
card on the payment provider's page (the embedded sandbox), with the return, the polling and its clock."""

import time
import uuid

import httpx
import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from cycling_site.messages import shop as msg
from cycling_site.models import Account, Currency, GemOrder, OrderStatus, OwnedItem
from cycling_site.services import ledger
from cycling_site.services.ledger import Move
from cycling_site.services.shop_catalogue import ITEMS, ItemType
from tests.e2e.helpers import KID, at, new_account, returning_rider, wait_dashboard

SHOP = "/user/activities#in-game-shop"
DASHBOARD = "/user/activities"
PAYS_NOW = "4242 4242 4242 4242"
DECLINED = "4000 0000 0000 0002"
PAYS_LATER = "4000 0000 0000 3220"
POLL_INTERVAL_MS = 10_000
# The e2e site pays the slow test card this long after the card form is sent (conftest: the site's env).
SLOW_CARD_SECONDS = 10


def shopper(db: Session, email: str, coins: int = 0, gems: int = 0, level: int = 18, owned=()) -> Account:
    account = new_account(db, email, level=level)
    for currency, amount in ((Currency.coin, coins), (Currency.gem, gems)):
        if amount:
            move = Move(account.id, currency, amount, "test credit", "", uuid.uuid4().hex)
            ledger.move(db, move)
    db.add_all(OwnedItem(account_id=account.id, item_id=item_id) for item_id in owned)
    db.commit()
    return account


def balance(db: Session, account: Account, currency: Currency) -> int:
    db.expire_all()
    return ledger.balance(db, account.id, currency)


def open_shop(page: Page, email: str) -> None:
    returning_rider(page, email, path=f"/auth/login?redirect={DASHBOARD}%23in-game-shop")
    expect(page.locator("#shop-panel #products .product-card").first).to_be_visible()


def quick_view(page: Page, item_id: str):
    page.locator(f"#quick-view-{item_id}").click()
    panel = page.locator("#quick-view")
    expect(panel).to_be_visible()
    return panel


def pay_by_card(page: Page, bundle_id: str, card: str) -> None:
    """From the shop's Power Gems tab to the provider's card page, and the card sent."""
    page.locator("#shop-add-gems").click()
    expect(page.locator("#payment-tab-gems")).to_have_attribute("aria-selected", "true")
    page.locator(f"#bundle-{bundle_id} button").click()
    expect(page.locator("#checkout-amount")).to_be_visible()
    page.fill("#card-number", card)
    page.fill("#card-expiry", "12/34")
    page.fill("#card-cvc", "123")
    page.locator("#card-pay").click()


def order_of(db: Session, account: Account) -> GemOrder:
    db.expire_all()
    return db.exec(select(GemOrder).where(GemOrder.account_id == account.id)).one()


def wait_for_order(db: Session, account: Account, status: OrderStatus, timeout: float = 30) -> None:
    """Waits until the provider's webhook has settled the order in the site's database."""
    deadline = time.monotonic() + timeout
    while order_of(db, account).status != status:
        assert time.monotonic() < deadline, f"the order did not become {status} in {timeout} s"
        time.sleep(0.2)


def test_the_tabs_show_each_kind_of_item_with_balances(page: Page, db: Session):
    shopper(db, "shop.browse@example.com", coins=1234, gems=56)
    open_shop(page, "shop.browse@example.com")
    expect(page.locator("#shop-coins")).to_have_text("1,234")
    expect(page.locator("#shop-gems")).to_have_text("56")
    expect(page.locator("#shop-section-bike")).to_have_attribute("aria-selected", "true")
    frames = [item.name for item in ITEMS if item.type == ItemType.frameset]
    expect(page.locator(".product-card .product-name")).to_have_text(frames)
    page.locator("#shop-sub-tabs").get_by_role("radio", name="Wheel").click()
    wheels = [item.name for item in ITEMS if item.type == ItemType.wheel]
    expect(page.locator(".product-card .product-name")).to_have_text(wheels)
    page.locator("#shop-section-apparel").click()
    sub_tabs = page.locator("#shop-sub-tabs").get_by_role("radio")
    expect(sub_tabs).to_have_count(6)
    for index, label in enumerate(["Jersey", "Head Gear", "Shoes", "Socks", "Gloves", "Eye wear"]):
        expect(sub_tabs.nth(index)).to_have_accessible_name(label)
    expect(sub_tabs.first).to_have_attribute("aria-checked", "true")
    jerseys = [item.name for item in ITEMS if item.type == ItemType.jersey]
    expect(page.locator(".product-card .product-name")).to_have_text(jerseys)
    page.locator("#shop-sub-tabs").get_by_role("radio", name="Eye wear").click()
    expect(page.locator(".product-card .product-name")).to_have_text(["Clear Lens", "Mirage Shades"])
    card = page.locator("#product-eyewear-mirage")
    expect(card.get_by_role("img", name="Mirage Shades")).to_be_visible()
    expect(card).to_contain_text("700")


def test_quick_view_shows_the_bars_for_bike_parts_only(page: Page, db: Session):
    shopper(db, "shop.quick@example.com", coins=5000)
    open_shop(page, "shop.quick@example.com")
    panel = quick_view(page, "frame-falcon-aero")
    expect(panel).to_have_accessible_name("Falcon Aero R1")
    expect(panel).to_contain_text("Deep tube shapes that cheat the wind")
    expect(panel).to_contain_text("2,400")
    expect(panel.locator("#quick-view-bike-type")).to_have_text("Road")
    expect(panel.locator("#aero-bar-value")).to_have_text("82")
    expect(panel.locator("#weight-bar-value")).to_have_text("70")
    expect(panel.get_by_role("progressbar")).to_have_count(2)
    expect(panel.locator("#buy-now")).to_be_visible()
    page.keyboard.press("Escape")
    expect(panel).to_have_count(0)
    page.locator("#shop-section-apparel").click()
    panel = quick_view(page, "jersey-gulf-blue")
    expect(panel).to_have_accessible_name("Gulf Blue")
    expect(panel.get_by_role("progressbar")).to_have_count(0)


@pytest.mark.multi_worker
def test_buying_an_item_takes_its_coins_and_marks_it_owned_after_the_reload(page: Page, db: Session):
    account = shopper(db, "shop.buy@example.com", coins=3000)
    open_shop(page, "shop.buy@example.com")
    panel = quick_view(page, "frame-falcon-aero")
    panel.locator("#buy-now").click()
    expect(page.locator("#purchase-message")).to_have_text(msg.PURCHASE_SUCCESS)
    expect(page.get_by_role("alertdialog")).to_contain_text(msg.PURCHASE_SUCCESSFUL_TITLE)
    assert balance(db, account, Currency.coin) == 600
    with page.expect_navigation():
        page.locator("#purchase-ok").click()
    expect(page.locator("#shop-coins")).to_have_text("600")
    expect(page.locator("#product-frame-falcon-aero")).to_contain_text("Owned")
    panel = quick_view(page, "frame-falcon-aero")
    expect(panel.locator("#quick-view-error")).to_have_text(msg.ALREADY_OWNED)
    expect(panel.locator("#buy-now")).to_have_count(0)


def test_not_enough_coins_and_locked_items_say_why_without_buy_now(page: Page, db: Session):
    account = shopper(db, "shop.short@example.com", coins=1000, level=5)
    open_shop(page, "shop.short@example.com")
    panel = quick_view(page, "frame-dune-climber")
    expect(panel.locator("#quick-view-error")).to_have_text(msg.NOT_ENOUGH_COINS)
    expect(panel.locator("#buy-now")).to_have_count(0)
    page.keyboard.press("Escape")
    expect(page.locator("#product-frame-mirage-tt")).to_contain_text("Locked")
    panel = quick_view(page, "frame-mirage-tt")
    expect(panel.locator("#quick-view-error")).to_have_text(msg.LOCKED.format(level=25))
    expect(panel.locator("#buy-now")).to_have_count(0)
    assert balance(db, account, Currency.coin) == 1000


def test_a_purchase_refused_at_buy_time_shows_the_reason_and_moves_nothing(page: Page, db: Session):
    """The coins were spent elsewhere (the game) between Quick View and Buy Now."""
    account = shopper(db, "shop.race@example.com", coins=2400)
    open_shop(page, "shop.race@example.com")
    panel = quick_view(page, "frame-falcon-aero")
    expect(panel.locator("#buy-now")).to_be_visible()
    ledger.move(db, Move(account.id, Currency.coin, -500, "spent in the game", "", uuid.uuid4().hex))
    db.commit()
    panel.locator("#buy-now").click()
    expect(panel.locator("#quick-view-error")).to_have_text(msg.NOT_ENOUGH_COINS)
    assert balance(db, account, Currency.coin) == 1900
    assert db.exec(select(OwnedItem).where(OwnedItem.account_id == account.id)).all() == []


def test_a_coin_bundle_is_bought_with_gems(page: Page, db: Session):
    account = shopper(db, "shop.coins@example.com", gems=300)
    open_shop(page, "shop.coins@example.com")
    page.locator("#shop-add-coins").click()
    modal = page.locator("#payment-modal")
    expect(modal.get_by_role("heading", name=msg.SHOP_TITLE)).to_be_visible()
    expect(page.locator("#payment-tab-coins")).to_have_attribute("aria-selected", "true")
    expect(modal.locator(".bundle-coins")).to_have_count(3)
    expect(page.locator("#bundle-coins-12000")).to_contain_text(msg.NOT_ENOUGH_GEMS)
    page.locator("#bundle-coins-5500").get_by_role("button", name="Buy: 5,500 coins for 250 gems").click()
    expect(page.locator("#payment-success")).to_contain_text(msg.CONGRATULATIONS)
    expect(page.locator("#payment-success")).to_contain_text(msg.COINS_ADDED.format(coins=5500))
    assert (balance(db, account, Currency.coin), balance(db, account, Currency.gem)) == (5500, 50)
    page.locator("#payment-ok").click()
    expect(page).to_have_url(at(DASHBOARD))
    expect(page.locator("#payment-modal")).to_have_count(0)


def test_short_of_gems_the_modal_switches_to_power_gems(page: Page, db: Session):
    account = shopper(db, "shop.nogems@example.com", gems=60)
    open_shop(page, "shop.nogems@example.com")
    page.locator("#shop-add-coins").click()
    expect(page.locator("#bundle-coins-1000 button")).to_be_visible()
    expect(page.locator("#bundle-coins-5500")).to_contain_text(msg.NOT_ENOUGH_GEMS)
    # The game spent the gems while the modal was open: Buy finds them short and switches tabs.
    ledger.move(db, Move(account.id, Currency.gem, -20, "spent in the game", "", uuid.uuid4().hex))
    db.commit()
    page.locator("#bundle-coins-1000 button").click()
    expect(page.locator("#payment-tab-gems")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#payment-modal .bundle-gems")).to_have_count(3)
    expect(page.locator("#bundle-coins-1000")).to_have_count(0)
    assert (balance(db, account, Currency.coin), balance(db, account, Currency.gem)) == (0, 40)


def test_the_modal_keeps_focus_and_closes_with_escape(page: Page, db: Session):
    shopper(db, "shop.keys@example.com", gems=10)
    open_shop(page, "shop.keys@example.com")
    page.locator("#shop-add-gems").focus()
    page.keyboard.press("Enter")
    modal = page.locator("#payment-modal")
    expect(modal).to_be_visible()
    for _ in range(8):
        page.keyboard.press("Tab")
        assert modal.evaluate("(node) => node.contains(document.activeElement)")
    page.keyboard.press("Escape")
    expect(page).to_have_url(at(DASHBOARD))
    expect(modal).to_have_count(0)


@pytest.mark.multi_worker
def test_gems_paid_with_the_success_card_are_credited_once(page: Page, db: Session):
    account = shopper(db, "shop.card@example.com", gems=5)
    open_shop(page, "shop.card@example.com")
    pay_by_card(page, "gems-550", PAYS_NOW)
    expect(page.locator("#payment-success")).to_contain_text(msg.GEMS_ADDED.format(gems=550))
    order_id = order_of(db, account).id
    expect(page).to_have_url(at(DASHBOARD, f"payment_result=success&orderId={order_id}"))
    expect(page.locator("#shop-gems")).to_have_text("555")
    # Back on the same return address (a second visit, a refresh): nothing more is credited.
    page.reload()
    expect(page.locator("#payment-success")).to_contain_text(msg.GEMS_ADDED.format(gems=550))
    assert balance(db, account, Currency.gem) == 555
    assert order_of(db, account).status == OrderStatus.paid
    # Left without Ok, the shop opens later with no dialog.
    page.goto(SHOP)
    expect(page.locator("#shop-gems")).to_have_text("555")
    expect(page.locator("#payment-modal")).to_have_count(0)


@pytest.mark.multi_worker
def test_the_declined_card_stays_on_the_card_page_and_cancel_shows_the_failure(page: Page, db: Session):
    account = shopper(db, "shop.declined@example.com")
    open_shop(page, "shop.declined@example.com")
    pay_by_card(page, "gems-100", DECLINED)
    expect(page.locator("#card-error")).to_have_text("Your card was declined.")
    expect(page.locator("#checkout-amount")).to_have_text("AED 19.00")
    page.locator("#checkout-cancel").click()
    expect(page.locator("#payment-error")).to_contain_text(msg.MODAL_FAILED)
    assert balance(db, account, Currency.gem) == 0
    assert order_of(db, account).status == OrderStatus.open
    page.locator("#payment-ok").click()
    expect(page).to_have_url(at(DASHBOARD))


@pytest.mark.multi_worker
def test_the_slow_card_is_polled_with_the_halfway_message_then_credited(page: Page, db: Session):
    account = shopper(db, "shop.slow@example.com")
    page.clock.install()
    open_shop(page, "shop.slow@example.com")
    pay_by_card(page, "gems-100", PAYS_LATER)
    wait = page.locator("#payment-wait")
    expect(wait).to_have_text(msg.PAYMENT_WAIT)
    # The first check, at once, finds the payment still processing; the second, 10 s later on the page's
    # clock, too: the attempt halfway brings the slow message.
    expect(page.locator("#payment-modal")).to_have_attribute("data-poll-attempt", "2")
    page.clock.run_for(POLL_INTERVAL_MS)
    expect(wait).to_have_text(msg.POLLING_SLOW)
    assert balance(db, account, Currency.gem) == 0
    wait_for_order(db, account, OrderStatus.paid, timeout=SLOW_CARD_SECONDS + 20)
    page.clock.run_for(POLL_INTERVAL_MS)
    expect(page.locator("#payment-success")).to_contain_text(msg.GEMS_ADDED.format(gems=100))
    expect(page.locator("#shop-gems")).to_have_text("100")
    assert balance(db, account, Currency.gem) == 100


@pytest.mark.multi_worker
def test_a_success_return_for_an_unpaid_order_fails_after_three_checks(page: Page, db: Session):
    """The browser says success but the provider was never paid: the polling believes the provider."""
    account = shopper(db, "shop.unpaid@example.com")
    page.clock.install()
    open_shop(page, "shop.unpaid@example.com")
    page.locator("#shop-add-gems").click()
    page.locator("#bundle-gems-100 button").click()
    expect(page.locator("#checkout-amount")).to_be_visible()
    page.goto(f"{DASHBOARD}?payment_result=success&orderId={order_of(db, account).id}#in-game-shop")
    expect(page.locator("#payment-wait")).to_have_text(msg.PAYMENT_WAIT)
    expect(page.locator("#payment-modal")).to_have_attribute("data-poll-attempt", "2")
    page.clock.run_for(POLL_INTERVAL_MS)
    expect(page.locator("#payment-wait")).to_have_text(msg.POLLING_SLOW)
    page.clock.run_for(POLL_INTERVAL_MS)
    expect(page.locator("#payment-error")).to_contain_text(msg.MODAL_FAILED)
    assert balance(db, account, Currency.gem) == 0
    assert order_of(db, account).status == OrderStatus.open


def test_a_return_without_an_order_or_with_an_odd_result_is_a_failure(page: Page, db: Session):
    shopper(db, "shop.odd@example.com", gems=7)
    open_shop(page, "shop.odd@example.com")
    for query in (
        "payment_result=success",
        "payment_result=maybe&orderId=x",
        f"payment_result=success&orderId={uuid.uuid4()}",
    ):
        page.goto(f"{DASHBOARD}?{query}#in-game-shop")
        expect(page.locator("#payment-error")).to_contain_text(msg.MODAL_FAILED)
    expect(page.locator("#shop-gems")).to_have_text("7")


@pytest.mark.multi_worker
def test_a_rider_cannot_poll_another_riders_order(page: Page, db: Session, site):
    owner = shopper(db, "shop.owner@example.com")
    shopper(db, "shop.other@example.com")
    open_shop(page, "shop.owner@example.com")
    pay_by_card(page, "gems-100", PAYS_NOW)
    expect(page.locator("#payment-success")).to_be_visible()
    order_id = order_of(db, owner).id
    page.context.clear_cookies()
    open_shop(page, "shop.other@example.com")
    page.goto(f"{DASHBOARD}?payment_result=success&orderId={order_id}#in-game-shop")
    expect(page.locator("#payment-error")).to_contain_text(msg.MODAL_FAILED)
    expect(page.locator("#shop-gems")).to_have_text("0")
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    answer = httpx.post(f"{site.url}/api/shop/payment", json={"order_id": order_id}, cookies=cookies)
    assert answer.status_code == 404
    assert answer.json()["message"] == msg.UNKNOWN_ORDER


def test_kids_reach_no_shop_page_or_api(page: Page, site):
    returning_rider(page, KID, path=f"/auth/login?redirect={DASHBOARD}%23in-game-shop")
    wait_dashboard(page)
    expect(page.locator("#tab-in-game-shop")).to_have_count(0)
    expect(page.locator("#shop-panel")).to_have_count(0)
    page.goto(f"{DASHBOARD}?payment_result=success&orderId={uuid.uuid4()}#in-game-shop")
    wait_dashboard(page)
    expect(page.locator("#payment-modal")).to_have_count(0)
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    for method, path in (("GET", "/api/shop/items"), ("GET", "/api/shop/bundles")):
        answer = httpx.request(method, f"{site.url}{path}", cookies=cookies)
        assert answer.status_code == 403
        assert answer.json()["message"] == msg.KIDS_NO_SHOP


def test_the_shop_on_a_phone(phone_page: Page, db: Session):
    account = shopper(db, "shop.phone@example.com", coins=1000, gems=60)
    open_shop(phone_page, "shop.phone@example.com")
    cards = phone_page.locator(".product-card")
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert first and second and first["y"] == second["y"], "two cards a row on a phone"
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 375
    panel = quick_view(phone_page, "frame-oasis-endurance")
    box = panel.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375
    panel.locator("#buy-now").tap()
    expect(phone_page.locator("#purchase-message")).to_have_text(msg.PURCHASE_SUCCESS)
    assert balance(db, account, Currency.coin) == 200
