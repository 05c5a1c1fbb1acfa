"""The dashboard's verification alert (spec 1 section 4): Verify, under review with Got it, Resubmit
Verification with race control's reason; nothing once the rider is approved (the CAT badge shows)."""

import reflex as rx

from cycling_site.messages import pre_verification as msg
from cycling_site.models.accounts import VerificationStatus
from cycling_site.routes import path_of
from cycling_site.state.dashboard import DashboardState
from cycling_site.ui.feedback import primary_link
from cycling_site.ui.theme import COLOR, RADIUS, SIZE, SPACE

FORM_PATH = path_of("pre-verification")


def _alert(
    tone: str, icon: str, title: str, *lines: rx.Component | str, action: rx.Component
) -> rx.Component:
    return rx.flex(
        rx.hstack(
            rx.icon(icon, size=22, color=COLOR[tone], flex_shrink="0", margin_top="2px"),
            rx.vstack(
                rx.text(title, font_weight="800"),
                *(rx.text(line, font_size=SIZE["sm"]) if isinstance(line, str) else line for line in lines),
                spacing="1",
                align="start",
            ),
            spacing="3",
            align="start",
        ),
        action,
        direction=rx.breakpoints(initial="column", sm="row"),
        justify="between",
        align=rx.breakpoints(initial="stretch", sm="center"),
        gap=SPACE["3"],
        width="100%",
        padding=f"{SPACE['4']} {SPACE['5']}",
        background=COLOR[f"{tone}_soft"],
        border_left=f"4px solid {COLOR[tone]}",
        border_radius=RADIUS["md"],
        role="status",
        id="verification-alert",
    )


def verification_alert() -> rx.Component:
    return rx.match(
        DashboardState.verification_status,
        (
            VerificationStatus.not_submitted.value,
            _alert(
                "accent",
                "shield-check",
                msg.ALERT_VERIFY_TITLE,
                msg.ALERT_VERIFY,
                action=primary_link(
                    msg.ALERT_VERIFY_BUTTON, FORM_PATH, id="verification-verify", flex_shrink="0"
                ),
            ),
        ),
        (
            VerificationStatus.pending.value,
            rx.cond(
                ~DashboardState.verification_alert_closed,
                _alert(
                    "warning",
                    "hourglass",
                    msg.ALERT_PENDING_TITLE,
                    msg.ALERT_PENDING,
                    action=rx.button(
                        msg.ALERT_PENDING_BUTTON,
                        on_click=DashboardState.close_verification_alert,
                        variant="outline",
                        size="3",
                        cursor="pointer",
                        id="verification-got-it",
                        flex_shrink="0",
                    ),
                ),
            ),
        ),
        (
            VerificationStatus.rejected.value,
            _alert(
                "danger",
                "shield-alert",
                msg.ALERT_REJECTED_TITLE,
                msg.ALERT_REJECTED,
                rx.cond(
                    DashboardState.verification_reason != "",
                    rx.text(
                        msg.ALERT_REASON + DashboardState.verification_reason,
                        font_size=SIZE["sm"],
                        font_weight="600",
                        id="verification-reason",
                    ),
                ),
                action=primary_link(
                    msg.ALERT_REJECTED_BUTTON, FORM_PATH, id="verification-resubmit", flex_shrink="0"
                ),
            ),
        ),
        rx.fragment(),
    )
