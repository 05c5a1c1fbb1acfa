"""Parental consent: the kid's page (/parental-consent) and the parent's page (/parental-approval)."""

import reflex as rx

from components.countdown import countdown
from cycling_site.messages import accounts as msg
from cycling_site.state.parental_consent import (
    AUTO_REDIRECT_MS,
    RESEND_WAIT_SECONDS,
    ParentalConsentState,
    ParentApprovalState,
)
from cycling_site.ui.feedback import pending_panel, status_panel
from cycling_site.ui.forms import field, form_alert, submit_button, text_input
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.theme import COLOR, SIZE, SPACE

State = ParentalConsentState


def _email_form() -> rx.Component:
    return rx.form(
        rx.vstack(
            rx.text(
                "Riders under 18 need the consent of a parent or guardian. Enter their email address and "
                "we will send them a link to approve your account.",
                color=COLOR["muted"],
            ),
            form_alert(State.form_error, id="consent-error"),
            field(
                "Parent or guardian email",
                "parentEmail",
                text_input("parentEmail", "email", auto_complete="off", default_value=State.parent_email),
                State.errors,
            ),
            submit_button("Send email", ~State.submitting, State.submitting, id="consent-submit"),
            spacing="4",
            width="100%",
        ),
        on_submit=State.submit,
        reset_on_submit=False,
        no_validate=True,
    )


def _sent() -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.icon("mail-check", size=28, color=COLOR["success"]),
            rx.text(msg.CONSENT_SENT, font_weight="700"),
            spacing="3",
            align="center",
        ),
        rx.text(
            "Ask them to open the link we sent to ",
            rx.text.strong(State.parent_email, id="consent-parent-email"),
            ". Once they approve, you can sign in.",
            color=COLOR["muted"],
        ),
        form_alert(State.form_error, id="consent-error"),
        rx.hstack(
            rx.button(
                rx.cond(
                    State.resend_ready,
                    rx.text("Resend"),
                    rx.text(
                        "Resend in ",
                        countdown(
                            seconds=RESEND_WAIT_SECONDS,
                            run_key=State.run,
                            display="clock",
                            on_complete=State.allow_resend,
                        ),
                        as_="span",
                    ),
                ),
                on_click=State.resend,
                disabled=~State.resend_ready,
                loading=State.submitting,
                size="3",
                id="consent-resend",
            ),
            rx.button(
                "Edit email", on_click=State.edit_email, variant="outline", size="3", id="consent-edit"
            ),
            spacing="3",
            wrap="wrap",
        ),
        rx.text(
            "You will be taken to the sign-in page in a few minutes.",
            font_size=SIZE["sm"],
            color=COLOR["muted"],
        ),
        countdown(
            seconds=AUTO_REDIRECT_MS // 1000, run_key=State.run, display="hidden", on_complete=State.time_up
        ),
        spacing="4",
        align="start",
        width="100%",
    )


def parental_consent_page() -> rx.Component:
    return page(
        rx.center(
            card(
                heading(msg.PARENTAL_CONSENT_TITLE),
                rx.cond(State.sent, _sent(), _email_form()),
                max_width="520px",
            ),
            width="100%",
        )
    )


def _review() -> rx.Component:
    approval = ParentApprovalState
    return card(
        rx.vstack(
            rx.icon("shield-check", size=40, color=COLOR["accent"]),
            rx.heading("Approve your child's account?", as_="h2", size="6"),
            rx.text(
                rx.text.strong(approval.child_name, id="approval-child"),
                " (",
                approval.child_age,
                " years, ",
                approval.child_email,
                ") has created an account to ride indoor races. Do you approve it?",
                color=COLOR["muted"],
            ),
            rx.hstack(
                rx.button(
                    "Approve",
                    on_click=approval.decide(True),
                    loading=approval.deciding,
                    size="3",
                    background=COLOR["success"],
                    id="approval-approve",
                ),
                rx.alert_dialog.root(
                    rx.alert_dialog.trigger(
                        rx.button(
                            "Decline", variant="outline", color_scheme="red", size="3", id="approval-decline"
                        )
                    ),
                    rx.alert_dialog.content(
                        rx.alert_dialog.title("Decline this account?"),
                        rx.alert_dialog.description(
                            "The account and its personal data will be removed. This cannot be undone."
                        ),
                        rx.hstack(
                            rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray")),
                            rx.alert_dialog.action(
                                rx.button(
                                    "Decline account",
                                    color_scheme="red",
                                    on_click=approval.decide(False),
                                    id="approval-decline-confirm",
                                )
                            ),
                            spacing="3",
                            justify="end",
                            margin_top=SPACE["4"],
                        ),
                    ),
                ),
                spacing="3",
            ),
            spacing="4",
            align="center",
            text_align="center",
        ),
        max_width="560px",
        margin="0 auto",
    )


def parental_approval_page() -> rx.Component:
    approval = ParentApprovalState
    return page(
        rx.match(
            approval.status,
            ("review", _review()),
            ("approved", status_panel("success", "Approved", approval.message)),
            ("declined", status_panel("warning", "Declined", approval.message)),
            ("failed", status_panel("danger", "This link cannot be used", approval.message)),
            pending_panel("Opening the request…"),
        )
    )
