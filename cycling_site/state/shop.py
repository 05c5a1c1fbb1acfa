"""The In Game Shop tab of the dashboard (spec 1 sections 2 and 4): items, Quick View, purchases, the
payment modal, and the return from the card payment with its polling.

Every handler acts for the verified rider (`rider_action`); kids get no shop data at all. Prices shown
come from the server's catalogue, and a payment is believed only when the provider says it is paid."""

import contextlib
import json
import time
import uuid

import reflex as rx

from cycling_site.messages import shop as msg
from cycling_site.routes import path_of
from cycling_site.services import shop
from cycling_site.services.shop import ShopClosed
from cycling_site.services.shop_catalogue import BIKE_TYPES, TABS, Bundle, ItemType
from cycling_site.state.changes import put
from cycling_site.state.session import Rider, rider_action

PAYMENT_RESULTS = ("success", "error")
POLL_ATTEMPTS = 3
POLL_INTERVAL_MS = 10_000
# The first check is made at once, the next ones POLL_INTERVAL_MS apart; from the attempt halfway on (the
# 2nd of 3, 10 s in), a payment not yet confirmed takes "longer than usual".
HALFWAY_ATTEMPT = (POLL_ATTEMPTS + 1) // 2
RELOAD_AFTER_PURCHASE_MS = 700
# How long a coin purchase's success outlives a new load of the page: a dropped connection's reconnect.
RECONNECT_GRACE_S = 30
# The dashboard's tab (its address's hash) that shows the shop.
SHOP_TAB = "in-game-shop"
MODAL_TEXTS = {
    "title": msg.SHOP_TITLE,
    "congratulations": msg.CONGRATULATIONS,
    "failed": msg.MODAL_FAILED,
    "not_enough_gems": msg.NOT_ENOUGH_GEMS,
    "buy": msg.BUY_BUNDLE,
    "pay_by_card": msg.PAY_BY_CARD,
}
SECTIONS = [name for name, _types in TABS]
BIKE_TYPE_LABELS = {"road": "Road", "time-trial": "Time trial"}
SUB_TABS = {name: [{"type": int(kind), "label": label} for kind, label in types] for name, types in TABS}


def _bundle(bundle: Bundle, reward: str, price_label: str) -> dict:
    return {"id": bundle.id, "price": bundle.price, "reward_label": reward, "price_label": price_label}


def _coin_bundle(bundle: Bundle) -> dict:
    return _bundle(bundle, f"{bundle.reward:,} coins", f"{bundle.price:,} gems")


def _gem_bundle(bundle: Bundle) -> dict:
    """Gem bundles are priced in AED fils, shown in dirhams."""
    return _bundle(bundle, f"{bundle.reward:,} gems", f"AED {bundle.price / 100:,.2f}")


def _item(view: shop.ItemView) -> dict:
    item = view.item
    return {
        "id": item.id,
        "name": item.name,
        "type": int(item.type),
        "image": item.thumbnail,
        "description": item.description,
        "price": item.coins,
        "price_label": f"{item.coins:,}",
        "bike": item.type in BIKE_TYPES,
        "bike_type": BIKE_TYPE_LABELS.get(item.bike_type, ""),
        "aero": item.aerodynamics or 0,
        "weight": item.weight or 0,
        "owned": view.owned,
        "locked": view.locked,
    }


class ShopState(rx.State):
    loaded: bool = False
    error: str = ""
    coins: int = 0
    gems: int = 0
    items: list[dict] = []
    section: str = SECTIONS[0]
    item_type: int = int(ItemType.frameset)
    coin_bundles: list[dict] = [_coin_bundle(bundle) for bundle in shop.bundles()[0]]
    gem_bundles: list[dict] = [_gem_bundle(bundle) for bundle in shop.bundles()[1]]

    viewing: dict = {}
    checking: bool = False
    check_error: str = ""
    buying: bool = False
    purchase_message: str = ""

    modal_open: bool = False
    modal_tab: str = "coins"
    modal_stage: str = "choose"
    modal_message: str = ""
    modal_busy: bool = False
    # The open modal's purchase key (kept on the server): a coin purchase sent again after a dropped
    # connection is the same purchase; a new opening of the modal is a new one.
    _purchase_key: str = ""
    _coins_added_at: float = 0.0
    poll_attempt: int = 0
    order_id: str = ""

    @rx.var
    def sub_tabs(self) -> list[dict]:
        return SUB_TABS.get(self.section, [])

    @rx.var
    def shown_items(self) -> list[dict]:
        return [item for item in self.items if item["type"] == self.item_type]

    @rx.var
    def coins_label(self) -> str:
        return f"{self.coins:,}"

    @rx.var
    def gems_label(self) -> str:
        return f"{self.gems:,}"

    async def _show_garage(self, rider: Rider) -> None:
        garage = await rider.off_loop(shop.garage, rider.account)
        self.items = [_item(view) for view in garage.items]
        self.coins, self.gems = garage.coins, garage.gems
        self.loaded = True

    @rx.event
    @rider_action(errors="error")
    async def load(self, rider: Rider):
        """The garage and the balances; back from a card payment, the modal checks the payment."""
        if rider.account.is_kid:
            return
        await self._show_garage(rider)
        query = self.router.url.query_parameters
        result, order_id = query.get("payment_result"), query.get("orderId", "")
        if result is None:
            return
        self.modal_open, self.order_id = True, str(order_id)[:36]
        if result == "success" and self.order_id:
            self.modal_stage, self.modal_message, self.poll_attempt = "loading", msg.PAYMENT_WAIT, 1
        else:
            # Anything but success with an order is a failure (spec 1 section 5).
            self.modal_stage, self.poll_attempt = "error", 0

    @rx.event
    def close_dialogs(self) -> None:
        """A new page starts with no shop dialog open, whatever the tab showed before it was left; but a coin
        purchase's success of the last moments stays: a page that connects again after the purchase's
        answer was lost on a dropped connection (its load runs again) shows it."""
        if self.modal_stage == "success" and time.time() - self._coins_added_at < RECONNECT_GRACE_S:
            return
        put(self, viewing={}, check_error="", purchase_message="", modal_open=False, modal_stage="choose")
        put(self, modal_message="", poll_attempt=0, order_id="")

    @rx.event
    def select_section(self, section: str) -> None:
        if section in SECTIONS:
            self.section = section
            self.item_type = SUB_TABS[section][0]["type"]

    @rx.event
    def select_type(self, value: str | list[str]) -> None:
        value = value[0] if isinstance(value, list) and value else value
        with contextlib.suppress(ValueError, TypeError):
            if any(tab["type"] == int(value) for tab in self.sub_tabs):
                self.item_type = int(value)

    # --- Quick View and buying an item --------------------------------------------------------------------

    @rx.event
    @rider_action(busy="checking", errors="check_error")
    async def quick_view(self, rider: Rider, item_id: str):
        """Opens the item's panel; Buy Now shows only when the server's check finds no reason against."""
        found = next((item for item in self.items if item["id"] == item_id), None)
        if found is None:
            return
        self.viewing = found
        yield
        with contextlib.suppress(ShopClosed):
            check = await rider.off_loop(shop.check_purchase, rider.account, item_id, found["price"])
            self.check_error = check.error
            self.coins, self.gems = check.user_coins, check.user_gems

    @rx.event
    def close_quick_view(self, is_open: bool = False) -> None:
        if not is_open and not self.buying:
            self.viewing = {}
            self.check_error = ""

    @rx.event
    @rider_action(busy="buying", errors="check_error")
    async def buy(self, rider: Rider):
        item_id = self.viewing.get("id", "")
        with contextlib.suppress(ShopClosed):
            sold = await rider.off_loop(shop.purchase_item, rider.account, item_id)
            self.purchase_message = sold or msg.PURCHASE_SUCCESS
            self.viewing = {}

    @rx.event
    def purchase_closed(self, is_open: bool):
        """OK (or Escape) on Purchase Successful: the page reloads after 700 ms (spec 1 section 9)."""
        if is_open or not self.purchase_message:
            return None
        self.purchase_message = ""
        return rx.call_script(f"setTimeout(() => window.location.reload(), {RELOAD_AFTER_PURCHASE_MS})")

    # --- The payment modal --------------------------------------------------------------------------------

    @rx.event
    def open_modal(self, tab: str) -> None:
        self.modal_open, self.modal_stage, self.modal_message = True, "choose", ""
        self.modal_tab = "gems" if tab == "gems" else "coins"
        self._purchase_key = uuid.uuid4().hex

    @rx.event
    def modal_open_change(self, is_open: bool):
        """Closing the modal in any state leaves the purchase flow for the dashboard (spec 1: Ok and close
        go to /user/activities)."""
        if is_open or self.modal_busy:
            return None
        return ShopState.modal_ok

    @rx.event
    def modal_tab_change(self, tab: str) -> None:
        self.modal_tab = "gems" if tab == "gems" else "coins"

    @rx.event
    def modal_ok(self):
        """The rider stays on the shop's tab; back from the card page, its address loses the payment's
        query."""
        self.modal_open, self.modal_stage, self.modal_message, self.poll_attempt = False, "choose", "", 0
        self.order_id = self._purchase_key = ""
        if "payment_result" in self.router.url.query_parameters:
            return rx.redirect(f"{path_of('new_activities')}#{SHOP_TAB}")
        return None

    @rx.event
    @rider_action(busy="modal_busy")
    async def buy_coins(self, rider: Rider, bundle_id: str):
        bundle = next((bundle for bundle in self.coin_bundles if bundle["id"] == bundle_id), None)
        if bundle is None:
            return
        if self.gems < bundle["price"]:
            # Short of gems: the modal switches to Power Gems (spec 1 section 4).
            self.modal_tab = "gems"
            return
        try:
            self._purchase_key = self._purchase_key or uuid.uuid4().hex
            reward = await rider.off_loop(shop.buy_coins, rider.account, bundle_id, self._purchase_key)
        except shop.NotEnoughGems:
            await self._show_garage(rider)
            self.modal_tab = "gems"
            return
        except (shop.ShopRefused, ShopClosed):
            self.modal_stage = "error"
            return
        await self._show_garage(rider)
        self.modal_stage, self.modal_message = "success", msg.COINS_ADDED.format(coins=reward)
        self._coins_added_at = time.time()

    @rx.event
    @rider_action(busy="modal_busy")
    async def buy_gems(self, rider: Rider, bundle_id: str):
        """Sends the rider to the provider's card page; the return comes back to the shop."""
        try:
            checkout = await shop.start_gem_checkout(rider.db, rider.account, bundle_id)
        except (shop.ShopRefused, ShopClosed):
            yield rx.toast.error(msg.REDIRECT_FAILED, id="payment-redirect-failed")
            return
        yield rx.call_script(f"window.location.assign({json.dumps(checkout.url)})")

    @rx.event
    @rider_action()
    async def poll_payment(self, rider: Rider, attempt: int):
        """One check of the order (spec 1: 3 attempts, 10 s apart, the slow message halfway)."""
        if self.modal_stage != "loading" or attempt != self.poll_attempt:
            return
        try:
            state = await shop.order_state(rider.db, rider.account, self.order_id)
        except (shop.ShopRefused, ShopClosed):
            self.modal_stage, self.poll_attempt = "error", 0
            return
        if state.reward:
            await self._show_garage(rider)
            self.modal_stage, self.poll_attempt = "success", 0
            self.modal_message = msg.GEMS_ADDED.format(gems=state.reward)
        elif attempt >= POLL_ATTEMPTS:
            self.modal_stage, self.poll_attempt = "error", 0
        else:
            self.poll_attempt = attempt + 1
            if attempt >= HALFWAY_ATTEMPT:
                self.modal_message = msg.POLLING_SLOW
