"""The in-game shop (spec 1 section 7, "Game shop calls"), for the game client and the tests as for the site.

getAllGarageItems GET /shop/items, checkUserPurchaseItem POST /shop/check, purchaseItem POST /shop/purchase,
getBundleInfo GET /shop/bundles, purchaseGems POST /shop/coins, getRedirectUrl POST /shop/checkout,
getPaymentInfo POST /shop/payment, and the payment provider's webhook POST /shop/webhook. Requests carry
no prices or currencies (any unknown field is refused); kid accounts get 403 on every call.
"""

from typing import Annotated

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, ConfigDict, Field

from cycling_site.api.answers import Answer, AnswerModel, AnswerWithMessage, Message
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented, error_response
from cycling_site.api.rules import whole
from cycling_site.clients import payments
from cycling_site.messages import shop as msg
from cycling_site.services import shop
from cycling_site.services.shop_catalogue import Bundle

router = APIRouter(prefix="/shop", tags=["shop"])

ID_MAX = 60


class ShopIn(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CheckIn(ShopIn):
    item_id: str = Field(max_length=ID_MAX)
    item_price: whole(ge=0, le=10_000_000) | None = Field(
        default=None, description="The price the client shows"
    )


class PurchaseIn(ShopIn):
    item_id: str = Field(max_length=ID_MAX)
    Type: whole(ge=0, le=99) | None = Field(default=None, description="The item's type, as the game sends it")


class PackageIn(ShopIn):
    package_id: str = Field(max_length=ID_MAX)


class OrderIn(ShopIn):
    order_id: str = Field(max_length=ID_MAX)


class ShopItem(AnswerModel):
    """A shop item (spec 1 section 3): UnlockValue is its price in coins."""

    Id: str
    Name: str
    Type: int
    thumbnail: str
    Description: str
    UnlockValue: int
    Aerodynamics: int | None
    Weight: int | None
    BikeType: str = Field(description="road or time-trial for framesets; empty for other items")
    UnlockingType: str = Field(description="base, level or custom_avatar")
    UnlockingLevel: int
    owned: bool
    locked: str = Field(description="Why it cannot be bought yet; empty when it can")


class GarageAnswer(AnswerModel):
    items: list[ShopItem]
    coins: int
    gems: int


class CheckAnswer(AnswerModel):
    user_gems: int
    user_coins: int
    error: str


class BundleOut(AnswerModel):
    """Identifier, Reward and Price: coin bundles are priced in gems, gem bundles in AED fils."""

    Identifier: str
    Reward: int
    Price: int


class BundlesAnswer(AnswerModel):
    coins: list[BundleOut]
    gems: list[BundleOut]
    gem_currency: str = Field(description="The currency of the gem bundles' prices (in its minor unit)")


class Reward(AnswerModel):
    reward: int


class CheckoutAnswer(AnswerModel):
    session_url: str
    order_id: str


class PaymentAnswer(AnswerModel):
    reward: int = Field(description="The gems credited; 0 while the order is not paid")
    status: str = Field(description="open, paid or expired")


def _bundle(bundle: Bundle) -> BundleOut:
    return BundleOut(Identifier=bundle.id, Reward=bundle.reward, Price=bundle.price)


@router.get("/items", responses=documented(401, 403, 503))
def all_garage_items(account: CurrentAccount, session: DB) -> Answer[GarageAnswer]:
    garage = shop.garage(session, account)
    items = [
        ShopItem(
            Id=view.item.id,
            Name=view.item.name,
            Type=view.item.type,
            thumbnail=view.item.thumbnail,
            Description=view.item.description,
            UnlockValue=view.item.coins,
            Aerodynamics=view.item.aerodynamics,
            Weight=view.item.weight,
            BikeType=view.item.bike_type,
            UnlockingType=view.item.unlocking,
            UnlockingLevel=view.item.level,
            owned=view.owned,
            locked=view.locked,
        )
        for view in garage.items
    ]
    return Answer(data=GarageAnswer(items=items, coins=garage.coins, gems=garage.gems))


@router.post("/check", responses=documented(400, 401, 403, 404, 413, 503))
def check_user_purchase_item(body: CheckIn, account: CurrentAccount, session: DB) -> Answer[CheckAnswer]:
    check = shop.check_purchase(session, account, body.item_id, body.item_price)
    return Answer(data=CheckAnswer(user_gems=check.user_gems, user_coins=check.user_coins, error=check.error))


@router.post("/purchase", responses=documented(400, 401, 403, 404, 413, 503))
def purchase_item(body: PurchaseIn, account: CurrentAccount, session: DB) -> Message:
    return Message(message=shop.purchase_item(session, account, body.item_id))


@router.get("/bundles", responses=documented(401, 403, 503))
def bundle_info(account: CurrentAccount) -> Answer[BundlesAnswer]:
    if account.is_kid:
        raise shop.ShopClosed
    coins, gems = shop.bundles()
    return Answer(
        data=BundlesAnswer(
            coins=[_bundle(b) for b in coins], gems=[_bundle(b) for b in gems], gem_currency="aed"
        )
    )


@router.post("/coins", responses=documented(400, 401, 403, 413, 503))
def purchase_gems(body: PackageIn, account: CurrentAccount, session: DB) -> AnswerWithMessage[Reward]:
    """Buys a coin bundle with gems (the spec's purchaseGems)."""
    reward = shop.buy_coins(session, account, body.package_id)
    return AnswerWithMessage(message=msg.COINS_ADDED.format(coins=reward), data=Reward(reward=reward))


@router.post("/checkout", responses=documented(400, 401, 403, 413, 502, 503))
async def redirect_url(body: PackageIn, account: CurrentAccount, session: DB) -> Answer[CheckoutAnswer]:
    """Starts paying a gem bundle by card: the order, and the provider's card page to send the rider to."""
    checkout = await shop.start_gem_checkout(session, account, body.package_id)
    return Answer(data=CheckoutAnswer(session_url=checkout.url, order_id=checkout.order_id))


@router.post("/payment", responses=documented(400, 401, 403, 404, 413, 503))
async def payment_info(body: OrderIn, account: CurrentAccount, session: DB) -> Answer[PaymentAnswer]:
    """The rider's own order: paid or not yet, as the provider says (never as the browser says)."""
    state = await shop.order_state(session, account, body.order_id)
    return Answer(data=PaymentAnswer(reward=state.reward, status=state.status))


@router.post("/webhook", responses=documented(400, 403, 413, 503))
async def provider_webhook(
    request: Request, session: DB, stripe_signature: Annotated[str, Header()] = ""
) -> Message:
    """The provider's signed events: a paid checkout credits its order once, an expired one closes it. A
    missing or bad signature, or one older than five minutes, is refused and changes nothing."""
    try:
        kind, checkout = payments.read_webhook(await request.body(), stripe_signature)
    except payments.InvalidWebhook:
        return error_response(400, msg.WEBHOOK_REFUSED)
    if kind in ("checkout.session.completed", "checkout.session.async_payment_succeeded"):
        shop.settle(session, checkout)
    elif kind == "checkout.session.expired":
        shop.expire(session, checkout)
    return Message(message=msg.WEBHOOK_RECEIVED)
