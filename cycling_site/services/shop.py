"""The in-game shop's rules (spec 1): items bought with coins, coin bundles with gems, gem bundles by card.

Every balance change goes through the ledger, in the same transaction as what it pays for. Prices come from
the catalogue, never from a request. Kids have no shop at all. A card order is credited by whichever comes
first, the provider's webhook or the rider's polling (which asks the provider, never the browser), and
only once: the order's status moves from open to paid by a guarded update in the crediting transaction.
"""

import contextlib
import uuid
from dataclasses import dataclass
from urllib.parse import urlencode

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from cycling_site.clients import payments
from cycling_site.clients.payments import Checkout, PaymentsUnavailable
from cycling_site.db import off_loop
from cycling_site.messages import shop as msg
from cycling_site.models import Account, Currency, GemOrder, OrderStatus, OwnedItem
from cycling_site.models.common import utcnow
from cycling_site.services import ledger
from cycling_site.services.ledger import InsufficientFunds, Move
from cycling_site.services.shop_catalogue import (
    COIN_BUNDLES,
    COIN_BUNDLES_BY_ID,
    GEM_BUNDLES,
    GEM_BUNDLES_BY_ID,
    ITEMS,
    ITEMS_BY_ID,
    Bundle,
    Item,
)
from cycling_site.services.validation import FormErrors
from cycling_site.settings import settings

SHOP_PATH = "/user/activities"
SHOP_HASH = "in-game-shop"


class ShopClosed(Exception):
    """Kid accounts have no shop (spec 1 section 6)."""


class ShopRefused(FormErrors):
    """Bad input or a purchase the rules refuse: its message says why, nothing moved."""

    def __init__(self, message: str, status_code: int = 400):
        super().__init__({"shop": message})
        self.status_code = status_code


class NotEnoughGems(ShopRefused):
    """The rider's gems do not cover the coin bundle: the shop offers gems instead."""

    def __init__(self):
        super().__init__(msg.NOT_ENOUGH_GEMS_TO_BUY)


@dataclass(frozen=True)
class ItemView:
    item: Item
    owned: bool
    locked: str


@dataclass(frozen=True)
class Garage:
    items: list[ItemView]
    coins: int
    gems: int


@dataclass(frozen=True)
class PurchaseCheck:
    """checkUserPurchaseItem: the rider's balances and, when the item cannot be bought, why."""

    user_gems: int
    user_coins: int
    error: str


@dataclass(frozen=True)
class GemCheckout:
    order_id: str
    url: str


@dataclass(frozen=True)
class OrderState:
    status: str
    reward: int


def _open_for(account: Account) -> None:
    if account.is_kid:
        raise ShopClosed


def _owned(session: Session, account: Account) -> set[str]:
    return set(session.exec(select(OwnedItem.item_id).where(OwnedItem.account_id == account.id)).all())


def _lock(item: Item, account: Account) -> str:
    return msg.LOCKED.format(level=item.level) if account.level < item.level else ""


def _offered(item_id: str) -> Item:
    item = ITEMS_BY_ID.get(item_id) if isinstance(item_id, str) else None
    if item is None or not item.offered:
        raise ShopRefused(msg.UNKNOWN_ITEM, 404)
    return item


def garage(session: Session, account: Account) -> Garage:
    """getAllGarageItems: every item on offer, marked owned or locked, and the rider's balances."""
    _open_for(account)
    owned = _owned(session, account)
    balances = ledger.balances(session, account.id)
    views = [ItemView(item, item.id in owned, _lock(item, account)) for item in ITEMS if item.offered]
    return Garage(views, balances[Currency.coin], balances[Currency.gem])


def check_purchase(session: Session, account: Account, item_id: str, item_price: int | None) -> PurchaseCheck:
    """checkUserPurchaseItem: whether Buy Now may show. A price that is not the catalogue's is refused."""
    _open_for(account)
    item = _offered(item_id)
    balances = ledger.balances(session, account.id)
    coins, gems = balances[Currency.coin], balances[Currency.gem]
    if item_price is not None and item_price != item.coins:
        error = msg.PRICE_CHANGED
    elif item.id in _owned(session, account):
        error = msg.ALREADY_OWNED
    else:
        error = _lock(item, account) or (msg.NOT_ENOUGH_COINS if coins < item.coins else "")
    return PurchaseCheck(gems, coins, error)


def purchase_item(session: Session, account: Account, item_id: str) -> str:
    """purchaseItem: pays the catalogue price in coins and adds the item to the rider's garage, at once."""
    _open_for(account)
    item = _offered(item_id)
    if locked := _lock(item, account):
        raise ShopRefused(locked)
    key = f"item:{account.id}:{item.id}"
    try:
        paid = ledger.move(session, Move(account.id, Currency.coin, -item.coins, "item", item.id, key))
        if paid:
            garage_row = {"account_id": account.id, "item_id": item.id, "coins_paid": item.coins}
            session.connection().execute(insert(OwnedItem), {**garage_row, "created_at": utcnow()})
            session.commit()
    except InsufficientFunds:
        session.rollback()
        raise ShopRefused(msg.NOT_ENOUGH_COINS) from None
    except IntegrityError:
        session.rollback()
        paid = False
    if not paid:
        session.rollback()
        raise ShopRefused(msg.ALREADY_OWNED)
    return msg.PURCHASE_SUCCESS


def bundles() -> tuple[tuple[Bundle, ...], tuple[Bundle, ...]]:
    """getBundleInfo: coin bundles (priced in gems) and gem bundles (priced in AED fils)."""
    return COIN_BUNDLES, GEM_BUNDLES


def buy_coins(session: Session, account: Account, bundle_id: str, request_key: str = "") -> int:
    """purchaseGems: a coin bundle paid with gems; answers the coins added. A purchase sent again with the
    `request_key` of one made (its answer lost on a dropped connection) answers it and moves nothing."""
    _open_for(account)
    bundle = COIN_BUNDLES_BY_ID.get(bundle_id) if isinstance(bundle_id, str) else None
    if bundle is None:
        raise ShopRefused(msg.UNKNOWN_BUNDLE)
    key = f"coins:{account.id}:{request_key}" if request_key else f"coins:{uuid.uuid4()}"
    try:
        ledger.move(session, Move(account.id, Currency.gem, -bundle.price, "coin bundle", bundle.id, key))
        ledger.move(session, Move(account.id, Currency.coin, bundle.reward, "coin bundle", bundle.id, key))
        session.commit()
    except InsufficientFunds:
        session.rollback()
        raise NotEnoughGems from None
    return bundle.reward


def _return_url(result: str, order_id: str) -> str:
    query = urlencode({"payment_result": result, "orderId": order_id})
    return f"{settings.site_url}{SHOP_PATH}?{query}#{SHOP_HASH}"


async def start_gem_checkout(session: Session, account: Account, bundle_id: str) -> GemCheckout:
    """getRedirectUrl: an order for a gem bundle and its checkout at the provider, whose card page (the
    session_url) the rider is sent to."""
    _open_for(account)
    bundle = GEM_BUNDLES_BY_ID.get(bundle_id) if isinstance(bundle_id, str) else None
    if bundle is None:
        raise ShopRefused(msg.UNKNOWN_BUNDLE)
    order = GemOrder(
        id=str(uuid.uuid4()),
        account_id=account.id,
        bundle_id=bundle.id,
        gems=bundle.reward,
        amount_fils=bundle.price,
    )
    await off_loop(_save, session, order)
    try:
        checkout = await payments.create_checkout(
            order.id,
            f"{bundle.reward:,} Power Gems",
            bundle.price,
            _return_url("success", order.id),
            _return_url("error", order.id),
            account.email,
        )
    except PaymentsUnavailable:
        raise ShopRefused(msg.REDIRECT_FAILED, 502) from None
    if not checkout.url:
        raise ShopRefused(msg.REDIRECT_FAILED, 502)
    order.provider_session_id = checkout.id
    await off_loop(_save, session, order)
    return GemCheckout(order.id, checkout.url)


def _save(session: Session, order: GemOrder) -> None:
    session.add(order)
    session.commit()


def settle(session: Session, checkout: Checkout) -> bool:
    """Credits a paid order's gems, once; answers whether this call did. The provider's session must be
    the order's own, paid, for the order's amount and currency."""
    order = session.get(GemOrder, checkout.order_id) if checkout.order_id else None
    if (
        order is None
        or order.provider_session_id != checkout.id
        or not checkout.paid
        or checkout.amount != order.amount_fils
        or checkout.currency != order.currency
    ):
        return False
    claimed = session.execute(
        update(GemOrder)
        .where(col(GemOrder.id) == order.id, col(GemOrder.status) == OrderStatus.open)
        .values(status=OrderStatus.paid, settled_at=utcnow())
    )
    if claimed.rowcount != 1:
        session.rollback()
        return False
    ledger.move(
        session, Move(order.account_id, Currency.gem, order.gems, "gem order", order.id, f"order:{order.id}")
    )
    session.commit()
    return True


def expire(session: Session, checkout: Checkout) -> None:
    """The provider closed an unpaid checkout: its order will never be paid."""
    order = session.get(GemOrder, checkout.order_id) if checkout.order_id else None
    if order is None or order.provider_session_id != checkout.id:
        return
    session.execute(
        update(GemOrder)
        .where(col(GemOrder.id) == order.id, col(GemOrder.status) == OrderStatus.open)
        .values(status=OrderStatus.expired, settled_at=utcnow())
    )
    session.commit()


async def order_state(session: Session, account: Account, order_id: str) -> OrderState:
    """getPaymentInfo: the rider's own order; while it is open, the provider is asked whether it is paid."""
    _open_for(account)
    known = isinstance(order_id, str) and len(order_id) <= 36
    order = await off_loop(session.get, GemOrder, order_id) if known else None
    if order is None or order.account_id != account.id:
        raise ShopRefused(msg.UNKNOWN_ORDER, 404)
    if order.status == OrderStatus.open and order.provider_session_id:
        with contextlib.suppress(PaymentsUnavailable):
            checkout = await payments.retrieve_checkout(order.provider_session_id)
            await off_loop(settle, session, checkout)
        await off_loop(session.refresh, order)
    return OrderState(order.status, order.gems if order.status == OrderStatus.paid else 0)
