"""Forgot password (/auth/forgot-password) and reset password (/auth/forgot-password2?code=...)."""

import reflex as rx

from cycling_site.messages import accounts as msg
from cycling_site.routes import path_of
from cycling_site.state.passwords import ForgotPasswordState, ResetPasswordState
from cycling_site.ui.forms import field, form_alert, submit_button, text_input
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.theme import COLOR


def _centered(*children: rx.Component) -> rx.Component:
    return page(rx.center(card(*children, max_width="440px"), width="100%"))


def forgot_password_page() -> rx.Component:
    return _centered(
        heading("FORGOT PASSWORD?", "We will e-mail you a link to choose a new one"),
        rx.form(
            rx.vstack(
                field(
                    "Email",
                    "email",
                    text_input("email", "email", auto_complete="email"),
                    ForgotPasswordState.errors,
                ),
                submit_button(
                    "Send link",
                    ~ForgotPasswordState.submitting,
                    ForgotPasswordState.submitting,
                    id="forgot-submit",
                ),
                rx.link(
                    "Back to sign in", href=path_of("login"), color=COLOR["accent_dark"], align_self="center"
                ),
                spacing="4",
                width="100%",
            ),
            on_submit=ForgotPasswordState.submit,
            reset_on_submit=False,
            no_validate=True,
        ),
    )


def reset_password_page() -> rx.Component:
    return _centered(
        heading("RESET PASSWORD", "Choose a new password"),
        rx.cond(
            ResetPasswordState.has_code,
            rx.form(
                rx.vstack(
                    rx.cond(
                        ResetPasswordState.forced,
                        form_alert(msg.PASSWORD_RESET_FORCED, tone="warning", id="reset-forced"),
                    ),
                    form_alert(ResetPasswordState.form_error, id="reset-form-error"),
                    rx.cond(
                        ResetPasswordState.form_error != "",
                        rx.link(
                            "Ask for a new link",
                            href=path_of("forgetpassword"),
                            color=COLOR["accent_dark"],
                            id="reset-new-link",
                        ),
                    ),
                    field(
                        "New password",
                        "password",
                        text_input("password", "password", auto_complete="new-password"),
                        ResetPasswordState.errors,
                    ),
                    field(
                        "Repeat the password",
                        "repeatPassword",
                        text_input("repeatPassword", "password", auto_complete="new-password"),
                        ResetPasswordState.errors,
                    ),
                    submit_button(
                        "Save password",
                        ~ResetPasswordState.submitting,
                        ResetPasswordState.submitting,
                        id="reset-submit",
                    ),
                    spacing="4",
                    width="100%",
                ),
                on_submit=ResetPasswordState.submit,
                reset_on_submit=False,
                no_validate=True,
            ),
            rx.vstack(
                rx.text("This page needs the link from your password reset email.", id="reset-no-code"),
                rx.link("Ask for a link", href=path_of("forgetpassword"), color=COLOR["accent_dark"]),
                spacing="3",
            ),
        ),
    )
