"""The wallet header (spec 3 section 2) the summary and the withdrawal form share, the badges, and the code
field with its Get Code button that the account verification and the withdrawal share."""

import reflex as rx

from components.countdown import countdown
from components.country_flag import country_flag
from cycling_site.messages import wallet as msg
from cycling_site.routes import path_of
from cycling_site.services.wallet_codes import OTP_LENGTH, RESEND_WAIT
from cycling_site.state.wallet import WalletState
from cycling_site.ui.forms import error_marks, text_input
from cycling_site.ui.links import link_button
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, PRIMARY_BUTTON, RADIUS, SIZE, SPACE

State = WalletState


def badge(text: rx.Var | str, tone: rx.Var | str, **props) -> rx.Component:
    """A pill in a tone of the theme: success, warning or danger."""
    return rx.text(
        text,
        as_="span",
        data_tone=tone,
        font_size=SIZE["xs"],
        font_weight="700",
        letter_spacing="0.04em",
        text_transform="uppercase",
        white_space="nowrap",
        padding=f"3px {SPACE['2']}",
        border_radius=RADIUS["pill"],
        background=rx.match(
            tone,
            ("success", COLOR["success_soft"]),
            ("warning", COLOR["warning_soft"]),
            COLOR["danger_soft"],
        ),
        color=rx.match(tone, ("success", COLOR["success"]), ("warning", COLOR["warning"]), COLOR["danger"]),
        border=rx.match(
            tone,
            ("success", f"1px solid {COLOR['success']}"),
            ("warning", f"1px solid {COLOR['warning']}"),
            f"1px solid {COLOR['danger']}",
        ),
        **props,
    )


# A disabled button on the dark header: Radix's grey on grey is lost on the ink; this one stays readable (the
# header's muted text, over 6:1 on the ink) and looks switched off, with a dashed outline.
DISABLED_ON_INK = {
    "background": "transparent",
    "color": COLOR["on_ink_muted"],
    "box_shadow": "none",
    "border": f"1px dashed {COLOR['on_ink_muted']}",
    "cursor": "not-allowed",
}


def _action(label: str, icon: str, href: str, **props) -> rx.Component:
    return link_button(
        rx.icon(icon, size=16),
        label,
        href=href,
        size="3",
        **PRIMARY_BUTTON,
        width=rx.breakpoints(initial="100%", sm="auto"),
        **props,
    )


def _actions() -> rx.Component:
    """The header's buttons by status: Verify, Reverify, or Withdraw (disabled once the month is used up)
    beside Change wallet (withdrawals go only to the verified wallet, so another one is verified first)."""
    return rx.match(
        State.status,
        (
            "unverified",
            _action(msg.VERIFY_ACCOUNT, "shield-check", path_of("wallet-verification"), id="verify"),
        ),
        (
            "rejected",
            _action(msg.REVERIFY_ACCOUNT, "shield-check", path_of("wallet-verification"), id="verify"),
        ),
        (
            "approved",
            rx.flex(
                link_button(
                    rx.icon("repeat", size=16),
                    msg.CHANGE_WALLET,
                    href=f"{path_of('wallet-verification')}?change=1",
                    size="3",
                    variant="outline",
                    id="change-wallet",
                    # On the dark header: the bright orange, which keeps 7:1 there.
                    color=COLOR["accent_bright"],
                    box_shadow=f"inset 0 0 0 1px {COLOR['accent_bright']}",
                    width=rx.breakpoints(initial="100%", sm="auto"),
                ),
                rx.cond(
                    State.limit_reached,
                    rx.button(
                        rx.icon("arrow-up-right", size=16),
                        msg.WITHDRAW,
                        size="3",
                        disabled=True,
                        id="withdraw",
                        aria_describedby="wallet-limit",
                        width=rx.breakpoints(initial="100%", sm="auto"),
                        _disabled=DISABLED_ON_INK,
                    ),
                    _action(msg.WITHDRAW, "arrow-up-right", path_of("withdrawal"), id="withdraw"),
                ),
                gap=SPACE["2"],
                direction=rx.breakpoints(initial="column", sm="row"),
                width=rx.breakpoints(initial="100%", sm="auto"),
            ),
        ),
        rx.fragment(),
    )


def wallet_header(with_actions: bool = True) -> rx.Component:
    jersey = rx.box(
        rx.image(
            src="/jerseys/" + State.jersey,
            alt="Jersey",
            width=["60px", "76px"],
            height=["60px", "76px"],
            border_radius="50%",
            background=COLOR["on_ink"],
            padding="6px",
        ),
        rx.box(
            country_flag(code=State.country_code, name=State.country_name, height=16, id="wallet-flag"),
            position="absolute",
            bottom="0",
            right="-6px",
            line_height="0",
            border=f"2px solid {COLOR['ink']}",
            border_radius="3px",
            overflow="hidden",
        ),
        position="relative",
        flex_shrink="0",
    )
    who = rx.vstack(
        rx.heading(
            State.name, as_="h1", id="wallet-name", font_size=[SIZE["lg"], SIZE["xl"]], **DISPLAY_HEADING
        ),
        badge(State.badge_text, State.badge_tone, id="wallet-badge"),
        spacing="2",
        align="start",
    )
    balance = rx.vstack(
        rx.text(
            "Total balance",
            font_size=SIZE["xs"],
            font_weight="700",
            letter_spacing="0.08em",
            text_transform="uppercase",
            color=COLOR["on_ink_muted"],
        ),
        rx.hstack(
            rx.text(
                State.balance, id="wallet-balance", font_size=[SIZE["xl"], SIZE["2xl"]], font_weight="800"
            ),
            rx.text(State.currency, id="wallet-currency", font_weight="700", color=COLOR["accent_bright"]),
            align="baseline",
            spacing="2",
        ),
        rx.text(
            "Last updated ",
            rx.text(State.last_updated, as_="span", id="wallet-updated"),
            font_size=SIZE["xs"],
            color=COLOR["on_ink_muted"],
        ),
        spacing="0",
        align=rx.breakpoints(initial="start", md="end"),
        font_variant_numeric="tabular-nums",
    )
    return rx.flex(
        rx.hstack(jersey, who, spacing="4", align="center"),
        rx.flex(
            balance,
            _actions() if with_actions else rx.fragment(),
            direction="column",
            gap=SPACE["3"],
            align=rx.breakpoints(initial="stretch", md="end"),
        ),
        id="wallet-header",
        direction=rx.breakpoints(initial="column", md="row"),
        justify="between",
        gap=SPACE["5"],
        background=f"linear-gradient(120deg, {COLOR['ink']} 0%, {COLOR['ink_soft']} 100%)",
        color=COLOR["on_ink"],
        border_radius=RADIUS["lg"],
        padding=[SPACE["5"], SPACE["6"]],
        width="100%",
    )


def code_button(
    stage: rx.Var,
    waits: rx.Var,
    on_request: rx.event.EventType,
    on_wait_over: rx.event.EventType,
    enabled: rx.Var | bool,
    button_id: str,
) -> rx.Component:
    """Get Code -> Sending... -> Wait Ns (the page's clock counts the 60 s) -> Get Code (spec 3 section 4).
    `stage` is "", "sending" or "wait"; a new wait (`waits` counts them) restarts the countdown."""
    return rx.button(
        rx.match(
            stage,
            ("sending", rx.text(msg.SENDING, as_="span")),
            (
                "wait",
                rx.text(
                    "Wait ",
                    countdown(
                        seconds=int(RESEND_WAIT.total_seconds()),
                        run_key=waits,
                        display="seconds",
                        on_complete=on_wait_over,
                    ),
                    "s",
                    as_="span",
                ),
            ),
            rx.text(msg.GET_CODE, as_="span"),
        ),
        type="button",
        on_click=on_request,
        disabled=(stage != "") | ~rx.Var.create(enabled) | ~rx.State.is_hydrated,
        id=button_id,
        variant="soft",
        size="3",
        min_width="116px",
        height="44px",
        cursor="pointer",
        font_variant_numeric="tabular-nums",
    )


def code_input(name: str, errors: rx.Var) -> rx.Component:
    """A six-digit code field that keeps its own value in the browser; the form sends it."""
    return text_input(
        name,
        input_mode="numeric",
        auto_complete="one-time-code",
        max_length=OTP_LENGTH,
        placeholder="6-digit code",
        **error_marks(errors, name),
    )
