"""The shop's rules: items for coins, coin bundles for gems, gem orders paid by card and credited once.

The races run on whichever database the suite runs on (SQLite, and PostgreSQL with TEST_DB_URL)."""

import asyncio
import threading
import uuid

import pytest
from sqlmodel import Session, select

from cycling_site.api.main import api
from cycling_site.clients import payments
from cycling_site.clients.payments import Checkout
from cycling_site.embedded.payments import service as payments_sandbox
from cycling_site.messages import shop as msg
from cycling_site.models import Account, Currency, GemOrder, LedgerEntry, OrderStatus, OwnedItem
from cycling_site.services import ledger, shop
from cycling_site.services.ledger import Move
from cycling_site.services.shop import ShopClosed, ShopRefused
from cycling_site.services.shop_catalogue import ITEMS_BY_ID, ItemType
from tests.unit.conftest import count, form_errors, race, statement_threads

FALCON = ITEMS_BY_ID["frame-falcon-aero"]  # 2400 coins, level 0
MIRAGE = ITEMS_BY_ID["frame-mirage-tt"]  # level 25


@pytest.fixture
def rider(make_account):
    return make_account(level=18)


@pytest.fixture
def sandbox():
    """The payment sandbox in this process, answering the client and sending webhooks to the API."""
    payments_sandbox.install(api, webhooks_to=api)
    payments.serve_embedded_from(api)


def fund(session: Session, account, currency: Currency, amount: int) -> None:
    ledger.move(session, Move(account.id, currency, amount, "test", "", uuid.uuid4().hex))
    session.commit()


def balance(session: Session, account, currency: Currency) -> int:
    session.expire_all()
    return ledger.balance(session, account.id, currency)


# --- Items ------------------------------------------------------------------------------------------------


def test_the_garage_offers_every_item_but_the_avatar_parts(session, rider):
    garage = shop.garage(session, rider)
    types = {view.item.type for view in garage.items}
    assert ItemType.head not in types and ItemType.frameset in types and ItemType.eye_wear in types
    assert (garage.coins, garage.gems) == (0, 0)
    locked = {view.item.id: view.locked for view in garage.items if view.locked}
    assert locked == {
        "frame-mirage-tt": msg.LOCKED.format(level=25),
        "wheel-dhow-disc": msg.LOCKED.format(level=20),
    }


def test_buying_an_item_pays_its_price_and_adds_it_once(session, rider):
    fund(session, rider, Currency.coin, 3000)
    assert shop.check_purchase(session, rider, FALCON.id, FALCON.coins).error == ""
    assert shop.purchase_item(session, rider, FALCON.id) == msg.PURCHASE_SUCCESS
    assert balance(session, rider, Currency.coin) == 600
    assert [row.item_id for row in session.exec(select(OwnedItem))] == [FALCON.id]
    assert shop.check_purchase(session, rider, FALCON.id, None).error == msg.ALREADY_OWNED
    assert form_errors(shop.purchase_item, session, rider, FALCON.id) == {"shop": msg.ALREADY_OWNED}
    assert balance(session, rider, Currency.coin) == 600
    assert next(view for view in shop.garage(session, rider).items if view.item.id == FALCON.id).owned


def test_too_few_coins_buys_nothing(session, rider):
    fund(session, rider, Currency.coin, FALCON.coins - 1)
    check = shop.check_purchase(session, rider, FALCON.id, FALCON.coins)
    assert (check.user_coins, check.user_gems, check.error) == (FALCON.coins - 1, 0, msg.NOT_ENOUGH_COINS)
    assert form_errors(shop.purchase_item, session, rider, FALCON.id) == {"shop": msg.NOT_ENOUGH_COINS}
    assert balance(session, rider, Currency.coin) == FALCON.coins - 1
    assert count(session, OwnedItem) == 0


def test_a_locked_item_waits_for_its_level(session, rider):
    fund(session, rider, Currency.coin, 10_000)
    assert shop.check_purchase(session, rider, MIRAGE.id, MIRAGE.coins).error == msg.LOCKED.format(level=25)
    assert form_errors(shop.purchase_item, session, rider, MIRAGE.id) == {"shop": msg.LOCKED.format(level=25)}
    assert balance(session, rider, Currency.coin) == 10_000


def test_a_price_from_the_client_that_is_not_ours_is_refused(session, rider):
    fund(session, rider, Currency.coin, 10_000)
    assert shop.check_purchase(session, rider, FALCON.id, 1).error == msg.PRICE_CHANGED


@pytest.mark.parametrize("item_id", ["no-such-item", "avatar-head-classic", "", 42, None])
def test_unknown_items_are_not_sold(session, rider, item_id):
    fund(session, rider, Currency.coin, 10_000)
    with pytest.raises(ShopRefused) as refused:
        shop.purchase_item(session, rider, item_id)
    assert (refused.value.errors, refused.value.status_code) == ({"shop": msg.UNKNOWN_ITEM}, 404)
    assert balance(session, rider, Currency.coin) == 10_000


def test_kids_have_no_shop(session, make_account):
    kid = make_account(email="kid@example.com", is_kid=True, parent_approved=True)
    fund(session, kid, Currency.coin, 10_000)
    for call in (
        lambda: shop.garage(session, kid),
        lambda: shop.check_purchase(session, kid, FALCON.id, None),
        lambda: shop.purchase_item(session, kid, FALCON.id),
        lambda: shop.buy_coins(session, kid, "coins-1000"),
        lambda: asyncio.run(shop.start_gem_checkout(session, kid, "gems-100")),
    ):
        with pytest.raises(ShopClosed):
            call()
    assert balance(session, kid, Currency.coin) == 10_000
    assert count(session, GemOrder) == 0


# --- Coin bundles -----------------------------------------------------------------------------------------


def test_a_coin_bundle_costs_gems_and_gives_coins(session, rider):
    fund(session, rider, Currency.gem, 300)
    assert shop.buy_coins(session, rider, "coins-5500") == 5500
    assert (balance(session, rider, Currency.gem), balance(session, rider, Currency.coin)) == (50, 5500)
    assert form_errors(shop.buy_coins, session, rider, "coins-5500") == {"shop": msg.NOT_ENOUGH_GEMS_TO_BUY}
    assert (balance(session, rider, Currency.gem), balance(session, rider, Currency.coin)) == (50, 5500)


def test_a_coin_purchase_sent_again_with_its_key_is_made_once(session, rider):
    fund(session, rider, Currency.gem, 1000)
    assert shop.buy_coins(session, rider, "coins-5500", "modal-1") == 5500
    assert shop.buy_coins(session, rider, "coins-5500", "modal-1") == 5500
    assert (balance(session, rider, Currency.gem), balance(session, rider, Currency.coin)) == (750, 5500)
    assert shop.buy_coins(session, rider, "coins-5500", "modal-2") == 5500
    assert (balance(session, rider, Currency.gem), balance(session, rider, Currency.coin)) == (500, 11000)


def test_twenty_parallel_sends_of_one_coin_purchase_make_one(session, rider):
    fund(session, rider, Currency.gem, 1000)

    def work(own: Session, _number: int) -> int:
        return shop.buy_coins(own, own.get(Account, rider.id), "coins-5500", "one-click")

    assert race(work, 20) == [5500] * 20
    session.expire_all()
    assert (balance(session, rider, Currency.gem), balance(session, rider, Currency.coin)) == (750, 5500)


@pytest.mark.parametrize("bundle_id", ["coins-999999", "gems-100", "", None])
def test_only_coin_bundles_are_bought_with_gems(session, rider, bundle_id):
    fund(session, rider, Currency.gem, 1000)
    assert form_errors(shop.buy_coins, session, rider, bundle_id) == {"shop": msg.UNKNOWN_BUNDLE}
    assert balance(session, rider, Currency.gem) == 1000


# --- Gem orders -------------------------------------------------------------------------------------------


def _paid(order: GemOrder, **changes) -> Checkout:
    fields = {
        "id": order.provider_session_id,
        "url": "",
        "status": "complete",
        "paid": True,
        "amount": order.amount_fils,
        "currency": "aed",
        "order_id": order.id,
        **changes,
    }
    return Checkout(**fields)


def _order(session: Session, rider, bundle_id: str = "gems-550") -> GemOrder:
    order = GemOrder(
        id=str(uuid.uuid4()),
        account_id=rider.id,
        bundle_id=bundle_id,
        gems=550,
        amount_fils=9900,
        provider_session_id=f"cs_test_{uuid.uuid4().hex}",
    )
    session.add(order)
    session.commit()
    return order


def test_a_paid_order_is_credited_once(session, rider):
    order = _order(session, rider)
    assert shop.settle(session, _paid(order)) is True
    assert shop.settle(session, _paid(order)) is False
    assert balance(session, rider, Currency.gem) == 550
    assert session.get(GemOrder, order.id).status == OrderStatus.paid


@pytest.mark.parametrize(
    "changes",
    [
        {"paid": False, "status": "open"},
        {"amount": 100},
        {"currency": "usd"},
        {"id": "cs_test_another_session"},
        {"order_id": "no-such-order"},
    ],
    ids=["unpaid", "other amount", "other currency", "other session", "unknown order"],
)
def test_an_order_is_credited_only_by_its_own_paid_session(session, rider, changes):
    order = _order(session, rider)
    assert shop.settle(session, _paid(order, **changes)) is False
    assert balance(session, rider, Currency.gem) == 0
    assert session.get(GemOrder, order.id).status == OrderStatus.open


def test_an_expired_order_is_never_credited(session, rider):
    order = _order(session, rider)
    shop.expire(session, _paid(order, paid=False, status="expired"))
    assert shop.settle(session, _paid(order)) is False
    assert balance(session, rider, Currency.gem) == 0
    assert session.get(GemOrder, order.id).status == OrderStatus.expired


def test_a_rider_polls_only_their_own_orders(session, rider, make_account):
    order = _order(session, rider)
    other = make_account(email="other@example.com")
    with pytest.raises(ShopRefused) as refused:
        asyncio.run(shop.order_state(session, other, order.id))
    assert refused.value.status_code == 404
    with pytest.raises(ShopRefused):
        asyncio.run(shop.order_state(session, rider, "x" * 500))


def test_checkout_through_the_sandbox_pays_and_the_poll_sees_it(session, rider, sandbox):
    checkout = asyncio.run(shop.start_gem_checkout(session, rider, "gems-100"))
    order = session.get(GemOrder, checkout.order_id)
    assert (order.gems, order.amount_fils, order.status) == (100, 1900, OrderStatus.open)
    assert checkout.url.endswith(f"/payments-service/pay/{order.provider_session_id}")
    assert asyncio.run(shop.order_state(session, rider, order.id)) == shop.OrderState("open", 0)
    assert count(session, LedgerEntry) == 0


def test_checkout_and_poll_use_the_database_only_off_the_event_loop(session, rider, sandbox):
    """The rider's tab waits on the provider; other riders' events must not wait on this database work."""

    async def checkout_then_poll():
        checkout = await shop.start_gem_checkout(session, rider, "gems-100")
        return threading.get_ident(), await shop.order_state(session, rider, checkout.order_id)

    with statement_threads(session) as threads:
        loop_thread, state = asyncio.run(checkout_then_poll())
    assert state == shop.OrderState("open", 0)
    assert threads and loop_thread not in threads


def test_twenty_webhook_deliveries_and_five_polls_credit_once(session, rider, monkeypatch):
    order = _order(session, rider)
    paid = _paid(order)

    async def provider_says_paid(_session_id: str) -> Checkout:
        return paid

    monkeypatch.setattr(payments, "retrieve_checkout", provider_says_paid)

    def deliver_or_poll(own: Session, number: int) -> bool:
        if number < 20:
            return shop.settle(own, paid)
        owner = own.get(type(rider), rider.id)
        return asyncio.run(shop.order_state(own, owner, order.id)).reward == 550

    results = race(deliver_or_poll, 25)
    assert sum(results[:20]) <= 1 and all(results[20:])
    assert balance(session, rider, Currency.gem) == 550
    assert len(session.exec(select(LedgerEntry).where(LedgerEntry.currency == Currency.gem)).all()) == 1


def test_fifty_parallel_purchases_against_a_balance_that_covers_ten(session, rider):
    fund(session, rider, Currency.gem, 500)
    owner_id = rider.id

    def buy(own: Session, _number: int) -> bool:
        try:
            return shop.buy_coins(own, own.get(type(rider), owner_id), "coins-1000") == 1000
        except ShopRefused:
            return False

    assert sum(race(buy, 50)) == 10
    assert (balance(session, rider, Currency.gem), balance(session, rider, Currency.coin)) == (0, 10_000)
    negative = session.exec(select(LedgerEntry).where(LedgerEntry.amount < 0)).all()
    assert len(negative) == 10 and all(entry.amount == -50 for entry in negative)
    assert ledger.entries_total(session, rider.id, Currency.gem) == 0


def test_parallel_purchases_of_one_item_sell_it_once(session, rider):
    fund(session, rider, Currency.coin, 20_000)
    owner_id = rider.id

    def buy(own: Session, _number: int) -> bool:
        try:
            return shop.purchase_item(own, own.get(type(rider), owner_id), FALCON.id) == msg.PURCHASE_SUCCESS
        except ShopRefused:
            return False

    assert sum(race(buy, 20)) == 1
    assert balance(session, rider, Currency.coin) == 20_000 - FALCON.coins
    assert count(session, OwnedItem) == 1
