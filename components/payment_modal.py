"""The shop's payment modal: title Shop, tabs Coins and Power Gems, loading, success and error screens.

Hand-wrapped on Radix's dialog (focus trapped while open, Escape closes). The card-payment check runs on
the page's clock: while the stage is "loading" with a poll attempt, the modal asks for the first check at
once and for each next one poll_interval_ms after the last answer."""

from typing import Any

import reflex as rx
from reflex.event import no_args_event_spec, passthrough_event_spec

import components.dialog_focus  # noqa: F401  (puts dialog_focus.jsx in the build, which the modal imports)


class PaymentModal(rx.Component):
    library = rx.asset("payment_modal.jsx", shared=True).importable_path
    tag = "PaymentModal"

    open: rx.Var[bool]
    tab: rx.Var[str]
    stage: rx.Var[str]
    message: rx.Var[str]
    coin_bundles: rx.Var[list[dict[str, Any]]]
    gem_bundles: rx.Var[list[dict[str, Any]]]
    gems: rx.Var[int]
    busy: rx.Var[bool]
    poll_attempt: rx.Var[int]
    poll_interval_ms: rx.Var[int]
    texts: rx.Var[dict[str, str]]
    on_open_change: rx.EventHandler[passthrough_event_spec(bool)]
    on_tab_change: rx.EventHandler[passthrough_event_spec(str)]
    on_buy_coins: rx.EventHandler[passthrough_event_spec(str)]
    on_buy_gems: rx.EventHandler[passthrough_event_spec(str)]
    on_poll: rx.EventHandler[passthrough_event_spec(int)]
    on_ok: rx.EventHandler[no_args_event_spec]


payment_modal = PaymentModal.create
