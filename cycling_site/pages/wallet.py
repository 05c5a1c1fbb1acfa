"""The wallet (spec 3 section 2): the summary with its transactions, the withdrawal form and the
verification-in-progress page."""

import reflex as rx

from cycling_site.messages import wallet as msg
from cycling_site.routes import path_of
from cycling_site.state.wallet import SEARCH_DEBOUNCE_MS, WalletState, WithdrawalState
from cycling_site.ui.feedback import loading_line, primary_link
from cycling_site.ui.forms import INPUT_STYLE, KEEP_AMOUNT, error_marks, field, form_alert, live_input
from cycling_site.ui.layout import card, page, scroll_region
from cycling_site.ui.links import link_button
from cycling_site.ui.pagination import pagination
from cycling_site.ui.theme import COLOR, RADIUS, SIZE, SPACE
from cycling_site.ui.wallet import badge, code_button, code_input, wallet_header

State = WalletState
# The verified e-mail and address show as set, not as fields to type in.
VERIFIED_STYLE = {"background": COLOR["surface"], "cursor": "default"}
COLUMNS = ("Request No", "Transaction ID", "Amount", "Wallet Address", "Requested At", "Status")


def _loaded(*children: rx.Component) -> rx.Component:
    """The page's content once the wallet is read; the spinner before, the spec's message on failure."""
    return rx.cond(
        State.loading,
        loading_line("Loading your wallet…", loading_id="wallet-loading"),
        rx.cond(
            State.load_error != "",
            form_alert(State.load_error, id="wallet-error"),
            rx.vstack(*children, spacing="5", width="100%"),
        ),
    )


def _limit_notice() -> rx.Component:
    return rx.cond(
        State.limit_warning != "",
        form_alert(
            State.limit_warning,
            tone="warning",
            id="wallet-limit",
        ),
    )


def _overview_card(label: str, value: rx.Var, icon: str, card_id: str) -> rx.Component:
    return card(
        rx.hstack(
            rx.center(
                rx.icon(icon, size=22, color=COLOR["accent_dark"]),
                background=COLOR["accent_soft"],
                border_radius=RADIUS["md"],
                width="44px",
                height="44px",
                flex_shrink="0",
            ),
            rx.vstack(
                rx.text(label, font_size=SIZE["sm"], color=COLOR["muted"], font_weight="600"),
                rx.text(value, class_name="overview-value", font_size=SIZE["lg"], font_weight="800"),
                spacing="0",
                align="start",
            ),
            spacing="3",
            align="center",
        ),
        id=card_id,
    )


def _overview() -> rx.Component:
    return rx.grid(
        _overview_card(
            msg.TOTAL_WITHDRAWALS,
            State.total_withdrawals + " " + State.currency,
            "wallet",
            "total-withdrawals",
        ),
        _overview_card(
            msg.PENDING_REQUESTS, State.pending_requests.to_string(), "hourglass", "pending-requests"
        ),
        _overview_card(
            msg.COMPLETED_TRANSACTIONS,
            State.completed_transactions.to_string(),
            "circle-check",
            "completed-transactions",
        ),
        columns=rx.breakpoints(initial="1", md="3"),
        spacing="4",
        width="100%",
    )


def _cell(value: rx.Var, **props) -> rx.Component:
    return rx.table.cell(value, white_space="nowrap", vertical_align="middle", **props)


def _truncated(value: rx.Var, width: str) -> rx.Component:
    """A long id cut to the column with an ellipsis; the whole of it shows on hover."""
    return rx.text(
        value,
        title=value,
        max_width=width,
        overflow="hidden",
        text_overflow="ellipsis",
        font_family="monospace",
        font_size=SIZE["xs"],
    )


def _row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        _cell(row["request_no"], font_weight="700"),
        _cell(
            rx.cond(
                row["transaction_url"] != "",
                rx.link(
                    _truncated(row["transaction_id"], "140px"),
                    href=row["transaction_url"],
                    is_external=True,
                    class_name="transaction-link",
                    color=COLOR["accent_dark"],
                ),
                _truncated(row["transaction_id"], "140px"),
            )
        ),
        _cell(row["amount"], font_variant_numeric="tabular-nums"),
        _cell(_truncated(row["wallet_address"], "200px")),
        _cell(row["requested_at"]),
        _cell(badge(row["status"], row["tone"], class_name="transaction-status")),
        class_name="transaction-row",
    )


def _card_fact(label: str, value: rx.Component) -> rx.Component:
    return rx.box(
        rx.el.dt(label, font_size=SIZE["xs"], font_weight="700", color=COLOR["muted"]),
        rx.el.dd(value, margin="0", font_size=SIZE["sm"], word_break="break-all"),
    )


def _transaction_card(row: rx.Var) -> rx.Component:
    """A phone's transaction: what was asked and where it stands first, the ids whole below."""
    transaction_id = rx.text(row["transaction_id"], font_family="monospace", font_size=SIZE["xs"])
    return rx.el.li(
        rx.flex(
            rx.text(
                row["amount"],
                class_name="transaction-amount",
                font_size=SIZE["md"],
                font_weight="800",
                font_variant_numeric="tabular-nums",
            ),
            badge(row["status"], row["tone"], class_name="transaction-status"),
            justify="between",
            align="center",
            gap=SPACE["2"],
        ),
        rx.text(
            row["requested_at"], class_name="transaction-date", font_size=SIZE["sm"], color=COLOR["muted"]
        ),
        rx.el.dl(
            _card_fact(COLUMNS[0], rx.text(row["request_no"], font_weight="700")),
            _card_fact(
                COLUMNS[1],
                rx.cond(
                    row["transaction_url"] != "",
                    rx.link(
                        transaction_id,
                        href=row["transaction_url"],
                        is_external=True,
                        color=COLOR["accent_dark"],
                    ),
                    transaction_id,
                ),
            ),
            _card_fact(
                COLUMNS[3], rx.text(row["wallet_address"], font_family="monospace", font_size=SIZE["xs"])
            ),
            display="grid",
            gap=SPACE["2"],
            margin=f"{SPACE['3']} 0 0",
        ),
        class_name="transaction-card",
        padding=SPACE["4"],
        border=f"1px solid {COLOR['border']}",
        border_radius=RADIUS["md"],
    )


def _transactions() -> rx.Component:
    search = rx.input(
        rx.input.slot(rx.icon("search", size=16)),
        on_change=State.set_search.debounce(SEARCH_DEBOUNCE_MS),
        placeholder="Search transactions",
        id="transaction-search",
        size="3",
        width=rx.breakpoints(initial="100%", sm="280px"),
    )
    # A phone lists the transactions as cards (amount, status and date first); the table from the sm width.
    table = rx.fragment(
        rx.box(
            scroll_region(
                rx.table.root(
                    rx.table.header(
                        rx.table.row(
                            *(rx.table.column_header_cell(name, white_space="nowrap") for name in COLUMNS)
                        )
                    ),
                    rx.table.body(rx.foreach(State.transactions, _row)),
                    variant="surface",
                    size="2",
                    width="100%",
                ),
                "Transactions",
                id="transactions-table",
            ),
            display=["none", "none", "block"],
            width="100%",
        ),
        rx.el.ul(
            rx.foreach(State.transactions, _transaction_card),
            id="transaction-cards",
            aria_label="Transactions",
            display=["grid", "grid", "none"],
            gap=SPACE["3"],
            list_style="none",
            margin="0",
            padding="0",
            width="100%",
        ),
    )
    empty = rx.center(
        rx.vstack(
            rx.icon("inbox", size=32, color=COLOR["muted"]),
            rx.text(msg.NO_TRANSACTIONS, color=COLOR["muted"], id="transactions-empty"),
            align="center",
            spacing="2",
        ),
        padding_y=SPACE["6"],
        width="100%",
    )
    return card(
        rx.vstack(
            rx.flex(
                rx.heading("Transactions", as_="h2", font_size=SIZE["lg"], font_weight="800"),
                search,
                direction=rx.breakpoints(initial="column", sm="row"),
                justify="between",
                align=rx.breakpoints(initial="stretch", sm="center"),
                gap=SPACE["3"],
                width="100%",
            ),
            form_alert(State.transactions_error, id="transactions-error"),
            rx.cond(State.transactions.length() > 0, table, empty),
            pagination(
                State,
                rx.icon("chevron-left", size=16),
                rx.icon("chevron-right", size=16),
                label="Transaction pages",
                nav_id="pagination",
            ),
            spacing="4",
            width="100%",
        ),
        id="transactions",
    )


def wallet_page() -> rx.Component:
    return page(_loaded(wallet_header(), _limit_notice(), _overview(), _transactions()))


# --- Withdrawal ------------------------------------------------------------------------------------------


def _figure(label: str, value: rx.Var, figure_id: str, strong: bool = False) -> rx.Component:
    return rx.hstack(
        rx.text(label, color=COLOR["muted"], font_size=SIZE["sm"]),
        rx.text(
            value,
            " ",
            WithdrawalState.currency,
            id=figure_id,
            font_weight="800" if strong else "600",
            font_variant_numeric="tabular-nums",
        ),
        justify="between",
        width="100%",
    )


def _withdrawal_form() -> rx.Component:
    form = WithdrawalState
    amount = live_input(
        "amount",
        form.set_amount,
        keep=KEEP_AMOUNT,
        input_mode="decimal",
        auto_complete="off",
        placeholder=form.minimum,
        **error_marks(form.errors, "amount"),
    )
    summary = rx.vstack(
        _figure(
            "Processing fee (" + form.fee_percent.to_string() + "%)",
            form.fee_text,
            "withdrawal-fee",
        ),
        rx.divider(),
        _figure("Total", form.total_text, "withdrawal-total", strong=True),
        spacing="2",
        width="100%",
        padding=SPACE["4"],
        background=COLOR["surface"],
        border_radius=RADIUS["md"],
    )
    return card(
        rx.form(
            rx.vstack(
                rx.heading("Withdrawal request", as_="h2", font_size=SIZE["lg"], font_weight="800"),
                _limit_notice(),
                form_alert(form.form_error, id="withdrawal-error"),
                field("Amount (" + form.currency + ")", "amount", amount, form.errors),
                field(
                    "Email",
                    "email",
                    rx.el.input(
                        id="email",
                        type="email",
                        value=form.withdraw_email,
                        read_only=True,
                        style={**INPUT_STYLE, **VERIFIED_STYLE},
                        **error_marks(form.errors, "email"),
                    ),
                    form.errors,
                ),
                field(
                    "Wallet address",
                    "wallet_address",
                    rx.el.input(
                        id="wallet_address",
                        value=form.address,
                        read_only=True,
                        style={**INPUT_STYLE, **VERIFIED_STYLE, "font_family": "monospace"},
                        **error_marks(form.errors, "wallet_address"),
                    ),
                    form.errors,
                ),
                rx.hstack(
                    rx.icon(
                        "shield-check", size=16, color=COLOR["success"], flex_shrink="0", margin_top="2px"
                    ),
                    rx.text(msg.WITHDRAWAL_DESTINATION, font_size=SIZE["sm"], color=COLOR["muted"]),
                    spacing="2",
                    align="start",
                    id="withdrawal-destination",
                ),
                field(
                    "Confirmation code",
                    "code",
                    rx.hstack(
                        rx.box(code_input("code", form.errors), flex="1", min_width="0"),
                        code_button(
                            form.code_stage,
                            form.waits,
                            form.request_code,
                            form.wait_over,
                            True,
                            "code-get-code",
                        ),
                        spacing="2",
                        width="100%",
                    ),
                    form.errors,
                ),
                summary,
                rx.flex(
                    link_button(
                        "Cancel",
                        href=path_of("wallet"),
                        variant="outline",
                        size="3",
                        cursor="pointer",
                        id="withdrawal-cancel",
                        flex="1",
                    ),
                    rx.button(
                        "Submit",
                        type="submit",
                        id="withdrawal-submit",
                        disabled=form.submitting | ~rx.State.is_hydrated,
                        loading=form.submitting,
                        size="3",
                        background=COLOR["accent"],
                        color="white",
                        font_weight="700",
                        cursor="pointer",
                        flex="2",
                        _hover={"background": COLOR["accent_dark"]},
                        _disabled={"background": "#F3B49C", "cursor": "not-allowed"},
                    ),
                    gap=SPACE["3"],
                    width="100%",
                ),
                spacing="4",
                width="100%",
            ),
            on_submit=form.submit,
            reset_on_submit=False,
            no_validate=True,
            id="withdrawal-form",
        ),
        max_width="560px",
        margin="0 auto",
    )


def withdrawal_page() -> rx.Component:
    return page(_loaded(wallet_header(with_actions=False), _withdrawal_form()))


# --- Verification in progress ----------------------------------------------------------------------------


def verification_request_page() -> rx.Component:
    return page(
        _loaded(
            card(
                rx.vstack(
                    rx.icon("hourglass", size=44, color=COLOR["warning"]),
                    badge(msg.BADGE_PENDING, "warning"),
                    rx.heading(msg.IN_PROGRESS_TITLE, as_="h1", size="6", text_align="center"),
                    rx.text(
                        msg.IN_PROGRESS_TEXT, color=COLOR["muted"], text_align="center", max_width="480px"
                    ),
                    primary_link("Back to wallet", path_of("wallet"), id="back-to-wallet"),
                    align="center",
                    spacing="4",
                    padding_y=SPACE["4"],
                ),
                id="verification-in-progress",
                max_width="640px",
                margin="0 auto",
            ),
        )
    )
