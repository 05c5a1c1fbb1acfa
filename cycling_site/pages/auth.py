"""SIGN IN (/auth/login) and sign-up (/auth/register)."""

import reflex as rx

from components.human_check import human_check
from cycling_site.messages.accounts import MARKETING_CONSENT
from cycling_site.routes import path_of
from cycling_site.state.login import LoginState
from cycling_site.state.register import COUNTRY_OPTIONS, DEFAULT_COUNTRY, RegisterState
from cycling_site.ui.feedback import note
from cycling_site.ui.forms import (
    checkbox_field,
    field,
    field_error,
    form_alert,
    select_input,
    submit_button,
    terms_agreement,
    text_input,
)
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.links import link_button
from cycling_site.ui.theme import COLOR, SIZE

CHALLENGE_URL = "/api/altcha/challenge"
GENDER_OPTIONS = [["0", "Male"], ["1", "Female"]]


def _human_check(state) -> rx.Component:
    return rx.box(
        human_check(
            challenge_url=CHALLENGE_URL,
            reset_key=state.human_check_reset,
            hydrated=rx.State.is_hydrated,
            label="I'm not a robot",
            on_verified=state.human_check_verified,
            on_cleared=state.human_check_cleared,
        ),
        field_error(state.errors, "token"),
        id="human-check",
        width="100%",
    )


def _credential_marks(name: str) -> dict:
    """The field's own error, or the refused credentials, mark it invalid and point to the message."""
    invalid = LoginState.errors.contains(name) | LoginState.credentials_refused
    return {
        "aria_invalid": rx.cond(invalid, "true", "false"),
        "aria_describedby": f"{name}-error login-error",
        "border_color": rx.cond(invalid, COLOR["danger"], COLOR["border"]),
    }


def login_page() -> rx.Component:
    return page(
        rx.center(
            card(
                heading("SIGN IN", "Using your product account"),
                rx.form(
                    rx.vstack(
                        form_alert(LoginState.notice, tone="warning", id="session-notice"),
                        form_alert(LoginState.form_error, id="login-error"),
                        rx.cond(
                            LoginState.unverified_email != "",
                            rx.hstack(
                                rx.button(
                                    "Resend verification email",
                                    type="button",
                                    variant="outline",
                                    on_click=LoginState.resend_verification,
                                    id="login-resend",
                                ),
                                note(LoginState.resend_note, id="login-resend-note"),
                                spacing="3",
                                align="center",
                                wrap="wrap",
                            ),
                        ),
                        field(
                            "Email",
                            "email",
                            text_input(
                                "email",
                                "email",
                                auto_complete="email",
                                placeholder="you@example.com",
                                **_credential_marks("email"),
                            ),
                            LoginState.errors,
                        ),
                        field(
                            "Password",
                            "password",
                            text_input(
                                "password",
                                "password",
                                auto_complete="current-password",
                                **_credential_marks("password"),
                            ),
                            LoginState.errors,
                        ),
                        _human_check(LoginState),
                        rx.hstack(
                            checkbox_field("remember", "Stay signed in", default_checked=True),
                            rx.link(
                                "Forgot Password?",
                                href=path_of("forgetpassword"),
                                font_size=SIZE["sm"],
                                color=COLOR["accent_dark"],
                            ),
                            justify="between",
                            width="100%",
                        ),
                        submit_button(
                            "Submit", LoginState.can_submit, LoginState.submitting, id="login-submit"
                        ),
                        rx.link(
                            "Create New Account?",
                            href=path_of("register"),
                            color=COLOR["accent_dark"],
                            font_weight="600",
                            align_self="center",
                        ),
                        spacing="4",
                        width="100%",
                    ),
                    on_submit=LoginState.submit,
                    reset_on_submit=False,
                    no_validate=True,
                    width="100%",
                ),
                max_width="440px",
            ),
            width="100%",
        )
    )


def _two_columns(*children: rx.Component) -> rx.Component:
    return rx.grid(*children, columns=rx.breakpoints(initial="1", sm="2"), spacing="4", width="100%")


def register_page() -> rx.Component:
    errors = RegisterState.errors
    return page(
        rx.center(
            card(
                heading("CREATE ACCOUNT", "Join the races in a few steps"),
                rx.form(
                    rx.vstack(
                        _two_columns(
                            field("First Name", "firstname", text_input("firstname", max_length=50), errors),
                            field("Last Name", "lastname", text_input("lastname", max_length=50), errors),
                        ),
                        field("Email", "email", text_input("email", "email", auto_complete="email"), errors),
                        field(
                            "Password",
                            "password",
                            text_input("password", "password", auto_complete="new-password"),
                            errors,
                        ),
                        _two_columns(
                            field(
                                "Date of Birth",
                                "dob",
                                text_input("dob", "date", max=RegisterState.latest_dob, min="1900-01-01"),
                                errors,
                            ),
                            field("Gender", "gender", select_input("gender", GENDER_OPTIONS, "0"), errors),
                        ),
                        field(
                            "Country",
                            "country",
                            select_input("country", COUNTRY_OPTIONS, DEFAULT_COUNTRY),
                            errors,
                        ),
                        _two_columns(
                            field(
                                "Weight (kg)",
                                "weight",
                                text_input("weight", "number", step="0.1", input_mode="decimal"),
                                errors,
                            ),
                            field(
                                "Height (cm)",
                                "height",
                                text_input("height", "number", step="1", input_mode="numeric"),
                                errors,
                            ),
                        ),
                        rx.box(
                            terms_agreement("consent"),
                            field_error(errors, "consent"),
                        ),
                        checkbox_field("marketing", MARKETING_CONSENT),
                        _human_check(RegisterState),
                        submit_button(
                            "Submit", RegisterState.can_submit, RegisterState.submitting, id="register-submit"
                        ),
                        link_button(
                            "Cancel",
                            href=path_of("login"),
                            variant="outline",
                            width="100%",
                            size="3",
                            id="register-cancel",
                        ),
                        spacing="4",
                        width="100%",
                    ),
                    on_submit=RegisterState.submit,
                    reset_on_submit=False,
                    no_validate=True,
                    width="100%",
                ),
                max_width="560px",
            ),
            width="100%",
        )
    )
