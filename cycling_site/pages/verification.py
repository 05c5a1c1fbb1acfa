"""Account verification: /verify-user, /verify-kid (query es) and the Verify OTP page (/auth/verification)."""

import reflex as rx

from cycling_site.messages import accounts as msg
from cycling_site.routes import path_of
from cycling_site.state.verification import VerifyLinkState, VerifyOtpState
from cycling_site.ui.feedback import note, pending_panel, primary_link, status_panel
from cycling_site.ui.forms import field, form_alert, submit_button, text_input
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.theme import COLOR, SIZE


def verify_link_page() -> rx.Component:
    return page(
        rx.match(
            VerifyLinkState.status,
            (
                "success",
                status_panel(
                    "success",
                    "Thank you!",
                    VerifyLinkState.message,
                    primary_link(msg.ENJOY_YOUR_RIDE, path_of("login"), id="enjoy-your-ride"),
                    level="h1",
                ),
            ),
            (
                "failed",
                status_panel(
                    "danger",
                    "Verification failed",
                    VerifyLinkState.message,
                    rx.button(
                        "Resend",
                        on_click=VerifyLinkState.resend,
                        loading=VerifyLinkState.resending,
                        size="3",
                        variant="outline",
                        id="verify-resend",
                    ),
                    note(VerifyLinkState.resend_note, id="resend-note"),
                    level="h1",
                ),
            ),
            pending_panel("Verifying your email address…"),
        )
    )


def verify_otp_page() -> rx.Component:
    return page(
        rx.center(
            card(
                heading("VERIFY YOUR EMAIL", "Enter the 6-digit code from your verification email"),
                rx.cond(
                    VerifyOtpState.user_key != "",
                    rx.form(
                        rx.vstack(
                            rx.cond(
                                VerifyOtpState.user_email != "",
                                rx.text(
                                    "We sent it to ",
                                    rx.text.strong(VerifyOtpState.user_email),
                                    color=COLOR["muted"],
                                ),
                            ),
                            form_alert(VerifyOtpState.form_error, id="otp-form-error"),
                            form_alert(VerifyOtpState.notice, tone="success", id="otp-notice"),
                            field(
                                "Code",
                                "otp",
                                text_input(
                                    "otp",
                                    input_mode="numeric",
                                    auto_complete="one-time-code",
                                    max_length=6,
                                    placeholder="123456",
                                ),
                                VerifyOtpState.errors,
                            ),
                            submit_button(
                                "Verify",
                                ~VerifyOtpState.submitting,
                                VerifyOtpState.submitting,
                                id="otp-submit",
                            ),
                            rx.button(
                                "Send a new code",
                                type="button",
                                variant="ghost",
                                on_click=VerifyOtpState.new_code,
                                id="otp-new-code",
                            ),
                            spacing="4",
                            width="100%",
                        ),
                        on_submit=VerifyOtpState.submit,
                        reset_on_submit=False,
                        no_validate=True,
                    ),
                    rx.text(
                        "Open the link in your verification email, or create an account first.",
                        color=COLOR["muted"],
                        id="otp-no-key",
                    ),
                ),
                rx.hstack(
                    rx.link("Sign in", href=path_of("login"), color=COLOR["accent_dark"]),
                    rx.link("Create an account", href=path_of("register"), color=COLOR["accent_dark"]),
                    justify="between",
                    width="100%",
                    margin_top="16px",
                    font_size=SIZE["sm"],
                ),
                max_width="440px",
            ),
            width="100%",
        )
    )
