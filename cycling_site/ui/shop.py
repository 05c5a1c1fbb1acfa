"""The In Game Shop panel (the dashboard's shop tab, spec 1 section 2): balances with their plus buttons,
the Bike and APPAREL tabs with their sub-tabs, product cards, Quick View, Purchase Successful and the
payment modal."""

import reflex as rx

from components.dialog_focus import RETURN_FOCUS
from components.payment_modal import payment_modal
from cycling_site.messages import shop as msg
from cycling_site.state.shop import MODAL_TEXTS, POLL_INTERVAL_MS, SECTIONS, ShopState
from cycling_site.ui.feedback import loading_line
from cycling_site.ui.forms import form_alert
from cycling_site.ui.layout import card
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, RADIUS, SIZE, SPACE

GEM_COLOR = "#7C3AED"
COIN_COLOR = "#B7791F"


def _balance(label: str, value: rx.Var, icon: str, colour: str, tab: str, balance_id: str) -> rx.Component:
    return rx.hstack(
        rx.center(
            rx.icon(icon, size=16, color="white"),
            width="30px",
            height="30px",
            flex_shrink="0",
            border_radius=RADIUS["pill"],
            background=colour,
        ),
        rx.vstack(
            rx.text(
                label, font_size=SIZE["xs"], color=COLOR["muted"], font_weight="700", letter_spacing="0.08em"
            ),
            rx.text(
                value,
                font_size=rx.breakpoints(initial=SIZE["md"], sm=SIZE["lg"]),
                font_weight="800",
                id=balance_id,
            ),
            spacing="0",
            min_width="0",
        ),
        rx.icon_button(
            rx.icon("plus", size=16),
            on_click=ShopState.open_modal(tab),
            size=rx.breakpoints(initial="1", sm="2"),
            variant="soft",
            radius="full",
            aria_label=f"Add {label.lower()}",
            id=f"shop-add-{tab}",
            cursor="pointer",
        ),
        spacing="2",
        align="center",
        justify="between",
        padding=SPACE["2"],
        border=f"1px solid {COLOR['border']}",
        border_radius=RADIUS["md"],
        background=COLOR["card"],
    )


def _top_bar() -> rx.Component:
    return rx.flex(
        rx.heading("In Game Shop", as_="h2", font_size=SIZE["lg"], **DISPLAY_HEADING),
        rx.grid(
            _balance("GEMS", ShopState.gems_label, "gem", GEM_COLOR, "gems", "shop-gems"),
            _balance("COINS", ShopState.coins_label, "coins", COIN_COLOR, "coins", "shop-coins"),
            columns="2",
            gap=SPACE["3"],
            width=rx.breakpoints(initial="100%", sm="auto"),
        ),
        justify="between",
        align="center",
        wrap="wrap",
        gap=SPACE["3"],
        width="100%",
    )


def _price(price_label: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.icon("coins", size=16, color=COIN_COLOR),
        rx.text(price_label, font_weight="800"),
        spacing="1",
        align="center",
    )


def _product(item: rx.Var) -> rx.Component:
    return rx.box(
        rx.vstack(
            rx.box(
                rx.image(src=item["image"].to(str), alt=item["name"].to(str), width="100%", height="auto"),
                rx.cond(
                    item["owned"],
                    rx.badge(
                        "Owned",
                        color_scheme="green",
                        variant="solid",
                        position="absolute",
                        top="8px",
                        left="8px",
                    ),
                    rx.cond(
                        item["locked"] != "",
                        rx.badge(
                            rx.icon("lock", size=12),
                            "Locked",
                            color_scheme="gray",
                            variant="solid",
                            position="absolute",
                            top="8px",
                            left="8px",
                        ),
                    ),
                ),
                position="relative",
                width="100%",
            ),
            rx.text(item["name"], font_weight="700", class_name="product-name"),
            rx.flex(
                _price(item["price_label"]),
                rx.button(
                    "Quick View",
                    on_click=ShopState.quick_view(item["id"]),
                    size="2",
                    variant="outline",
                    id="quick-view-" + item["id"].to(str),
                    cursor="pointer",
                    aria_label="Quick View: " + item["name"].to(str),
                    width=rx.breakpoints(initial="100%", md="auto"),
                ),
                direction=rx.breakpoints(initial="column", md="row"),
                justify="between",
                align=rx.breakpoints(initial="start", md="center"),
                gap=SPACE["2"],
                width="100%",
            ),
            spacing="2",
            width="100%",
        ),
        class_name="product-card",
        id="product-" + item["id"].to(str),
        padding=SPACE["3"],
        border=f"1px solid {COLOR['border']}",
        border_radius=RADIUS["md"],
        background=COLOR["card"],
    )


def _bar(label: str, value: rx.Var, bar_id: str) -> rx.Component:
    return rx.vstack(
        rx.flex(
            rx.text(label, font_size=SIZE["xs"], font_weight="700", letter_spacing="0.08em"),
            rx.text(value, font_size=SIZE["xs"], font_weight="700", id=f"{bar_id}-value"),
            justify="between",
            width="100%",
        ),
        rx.progress(value=value, max=100, id=bar_id, aria_label=f"{label} {value} of 100"),
        spacing="1",
        width="100%",
    )


def _quick_view() -> rx.Component:
    item = ShopState.viewing
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(item["name"].to(str)),
            rx.dialog.description(item["description"].to(str), color=COLOR["muted"]),
            rx.image(
                src=item["image"].to(str),
                alt=item["name"].to(str),
                width="100%",
                max_width="320px",
                margin="12px auto",
            ),
            rx.hstack(
                _price(item["price_label"]),
                rx.cond(
                    item["bike_type"].to(str) != "",
                    rx.badge(item["bike_type"].to(str), variant="soft", id="quick-view-bike-type"),
                ),
                spacing="3",
                align="center",
            ),
            rx.cond(
                item["bike"].to(bool),
                rx.vstack(
                    _bar("AERO", item["aero"].to(int), "aero-bar"),
                    _bar("WEIGHT", item["weight"].to(int), "weight-bar"),
                    width="100%",
                    spacing="3",
                    margin_top=SPACE["3"],
                ),
            ),
            rx.box(
                rx.cond(
                    ShopState.checking,
                    loading_line("Checking…", "quick-view-checking"),
                    rx.cond(
                        ShopState.check_error != "",
                        form_alert(ShopState.check_error, id="quick-view-error"),
                        rx.button(
                            "Buy Now",
                            on_click=ShopState.buy,
                            loading=ShopState.buying,
                            size="3",
                            width="100%",
                            id="buy-now",
                            cursor="pointer",
                        ),
                    ),
                ),
                margin_top=SPACE["4"],
                width="100%",
            ),
            rx.dialog.close(
                rx.icon_button(
                    rx.icon("x", size=16),
                    variant="ghost",
                    color_scheme="gray",
                    aria_label="Close",
                    position="absolute",
                    top="12px",
                    right="12px",
                )
            ),
            max_width="440px",
            id="quick-view",
            # The title holds the product's name; this names the dialog while the name is still on its way.
            aria_label="Product details",
            **RETURN_FOCUS,
        ),
        open=ShopState.viewing.contains("id"),
        on_open_change=ShopState.close_quick_view,
    )


def _purchase_successful() -> rx.Component:
    """OK is the dialog's cancel control: an alert dialog puts focus there on opening, and Escape closes it
    as OK does."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(msg.PURCHASE_SUCCESSFUL_TITLE),
            rx.alert_dialog.description(ShopState.purchase_message, id="purchase-message"),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("OK", id="purchase-ok")),
                justify="end",
                margin_top=SPACE["4"],
            ),
            max_width="400px",
            id="purchase-successful",
        ),
        open=ShopState.purchase_message != "",
        on_open_change=ShopState.purchase_closed,
    )


def _products() -> rx.Component:
    return rx.cond(
        ShopState.shown_items.length() > 0,
        rx.grid(
            rx.foreach(ShopState.shown_items, _product),
            columns=rx.breakpoints(initial="2", sm="3", md="4"),
            gap=SPACE["3"],
            width="100%",
            id="products",
        ),
        rx.text(msg.EMPTY_TAB, color=COLOR["muted"], id="shop-empty", padding_y=SPACE["5"]),
    )


def _catalogue() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            *[rx.tabs.trigger(name, value=name, id=f"shop-section-{name.lower()}") for name in SECTIONS]
        ),
        # A panel for each section (only the open one is drawn), so each tab controls a real panel.
        *[rx.tabs.content(_section_panel(), value=name) for name in SECTIONS],
        value=ShopState.section,
        on_change=ShopState.select_section,
        width="100%",
    )


def _section_panel() -> rx.Component:
    return rx.vstack(
        rx.segmented_control.root(
            rx.foreach(
                ShopState.sub_tabs,
                lambda tab: rx.segmented_control.item(tab["label"].to(str), value=tab["type"].to(str)),
            ),
            value=ShopState.item_type.to(str),
            on_change=ShopState.select_type,
            id="shop-sub-tabs",
            size="2",
        ),
        _products(),
        spacing="4",
        padding_top=SPACE["4"],
        width="100%",
        overflow_x="auto",
    )


def shop_panel() -> rx.Component:
    return rx.fragment(
        card(
            rx.cond(
                ShopState.loaded,
                rx.vstack(
                    _top_bar(),
                    form_alert(ShopState.error, id="shop-error"),
                    _catalogue(),
                    spacing="4",
                    width="100%",
                ),
                rx.cond(
                    ShopState.error != "",
                    form_alert(ShopState.error, id="shop-error"),
                    loading_line("Loading the shop…", "shop-loading"),
                ),
            ),
            id="shop-panel",
        ),
        _quick_view(),
        _purchase_successful(),
        payment_modal(
            open=ShopState.modal_open,
            tab=ShopState.modal_tab,
            stage=ShopState.modal_stage,
            message=ShopState.modal_message,
            coin_bundles=ShopState.coin_bundles,
            gem_bundles=ShopState.gem_bundles,
            gems=ShopState.gems,
            busy=ShopState.modal_busy,
            poll_attempt=ShopState.poll_attempt,
            poll_interval_ms=POLL_INTERVAL_MS,
            texts=MODAL_TEXTS,
            on_open_change=ShopState.modal_open_change,
            on_tab_change=ShopState.modal_tab_change,
            on_buy_coins=ShopState.buy_coins,
            on_buy_gems=ShopState.buy_gems,
            on_poll=ShopState.poll_payment,
            on_ok=ShopState.modal_ok,
        ),
    )
