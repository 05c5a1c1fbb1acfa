"""Finance's console (/finance): wallet verifications and withdrawals with their counts, status filter,
items and decision dialog (paying a withdrawal asks for its transaction id), and the prize credits of past
events."""

import reflex as rx

from cycling_site.messages import finance as msg
from cycling_site.messages import wallet as wallet_msg
from cycling_site.services.finance import TRANSACTION_ID_MAX
from cycling_site.state.finance import PRIZES, FinanceState, PrizeEvent, PrizeRider
from cycling_site.ui.feedback import loading_line
from cycling_site.ui.forms import INPUT_STYLE, form_alert
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.review_console import (
    decision_dialog,
    empty_panel,
    field_label,
    guarded,
    notices,
    queue_tabs,
    review_list,
    status_filter,
    tab_button,
)
from cycling_site.ui.theme import COLOR, SIZE, SPACE


def _transaction_field() -> rx.Component:
    """Paying a withdrawal records the payout's transaction id (required)."""
    return rx.cond(
        FinanceState.asks_transaction_id,
        rx.box(
            field_label(msg.TRANSACTION_ID_LABEL, "transaction_id"),
            rx.el.input(
                id="transaction_id",
                name="transaction_id",
                max_length=TRANSACTION_ID_MAX,
                auto_complete="off",
                spell_check=False,
                style=INPUT_STYLE,
            ),
            rx.text(
                msg.TRANSACTION_ID_HINT, font_size=SIZE["xs"], color=COLOR["muted"], margin_top=SPACE["1"]
            ),
            width="100%",
        ),
    )


def _credit_form(event: PrizeEvent, rider: PrizeRider) -> rx.Component:
    return rx.form(
        rx.el.input(type="hidden", name="event_id", value=event.id),
        rx.el.input(type="hidden", name="account_id", value=rider.account_id),
        rx.el.input(
            name="amount",
            placeholder="0.000000",
            input_mode="decimal",
            auto_complete="off",
            aria_label=msg.PRIZE_AMOUNT_LABEL + " for " + rider.name,
            class_name="prize-amount",
            style={**INPUT_STYLE, "height": "36px", "flex": "1 1 160px"},
        ),
        rx.button(
            msg.CREDIT_PRIZE,
            type="submit",
            loading=FinanceState.crediting,
            color_scheme="green",
            cursor="pointer",
            class_name="prize-credit",
        ),
        on_submit=FinanceState.credit_prize,
        reset_on_submit=False,
        display="flex",
        gap=SPACE["2"],
        align_items="center",
        width=["100%", "auto"],
    )


def _prize_row(event: PrizeEvent, rider: PrizeRider) -> rx.Component:
    return rx.box(
        rx.flex(
            rx.vstack(
                rx.text(rider.name, font_weight="700"),
                rx.text(rider.email, font_size=SIZE["sm"], color=COLOR["muted"], word_break="break-all"),
                spacing="0",
                min_width="0",
                flex="1 1 200px",
            ),
            rx.cond(
                rider.credited != "",
                rx.badge(
                    rx.icon("circle-check", size=14),
                    msg.CREDITED + " " + rider.credited + " BTC",
                    color_scheme="green",
                    size="2",
                    class_name="prize-credited",
                ),
                _credit_form(event, rider),
            ),
            gap=SPACE["3"],
            align="center",
            justify="between",
            wrap="wrap",
        ),
        rx.cond(
            FinanceState.prize_error_row == rider.row,
            form_alert(FinanceState.prize_error, class_name="prize-error", margin_top=SPACE["2"]),
        ),
        id="prize-" + rider.row,
        class_name="prize-rider",
        padding_y=SPACE["3"],
        border_top=f"1px solid {COLOR['border']}",
    )


def _prize_event(event: PrizeEvent) -> rx.Component:
    return card(
        rx.flex(
            rx.heading(event.name, as_="h2", size="4"),
            rx.text(event.starts_at, font_size=SIZE["sm"], color=COLOR["muted"]),
            justify="between",
            align="baseline",
            gap=SPACE["2"],
            wrap="wrap",
            margin_bottom=SPACE["2"],
        ),
        rx.cond(
            event.riders.length() > 0,
            rx.box(rx.foreach(event.riders, lambda rider: _prize_row(event, rider))),
            rx.text(msg.NO_RIDERS, color=COLOR["muted"], font_size=SIZE["sm"]),
        ),
        id="prize-event-" + event.id,
        class_name="prize-event",
    )


def _prizes() -> rx.Component:
    return rx.vstack(
        rx.text(msg.PRIZES_INTRO, color=COLOR["muted"]),
        rx.cond(
            FinanceState.prize_events.length() > 0,
            rx.vstack(rx.foreach(FinanceState.prize_events, _prize_event), spacing="4", width="100%"),
            rx.cond(
                FinanceState.loading,
                loading_line(msg.PRIZES_LOADING),
                empty_panel(msg.NO_PRIZE_EVENTS, "prizes-empty"),
            ),
        ),
        spacing="4",
        width="100%",
        id="prize-events",
    )


def _console() -> rx.Component:
    prizes_tab = tab_button(
        msg.PRIZES_TAB, FinanceState.showing_prizes, FinanceState.choose_queue(PRIZES), "queue-" + PRIZES
    )
    return rx.vstack(
        queue_tabs(FinanceState, prizes_tab),
        rx.cond(FinanceState.showing_prizes, rx.fragment(), status_filter(FinanceState)),
        notices(FinanceState),
        rx.cond(FinanceState.showing_prizes, _prizes(), review_list(FinanceState)),
        decision_dialog(FinanceState, _transaction_field()),
        spacing="4",
        width="100%",
    )


def finance_page() -> rx.Component:
    return page(
        heading(msg.CONSOLE_TITLE, msg.CONSOLE_INTRO),
        guarded(FinanceState, wallet_msg.NOT_FINANCE, _console()),
    )
