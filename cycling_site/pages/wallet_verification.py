"""Wallet account verification (/wallet/account-verification): Binance e-mail and phone with their codes,
the wallet address, passport proof and Binance screenshots, and the terms (spec 3 sections 2 and 5)."""

import reflex as rx

from cycling_site.messages import wallet as msg
from cycling_site.routes import path_of
from cycling_site.services.rider_files import WALLET_FILE_BYTES
from cycling_site.services.wallet_verification import MAX_SCREENSHOTS
from cycling_site.state.wallet_verification import (
    PASSPORT,
    PASSPORT_UPLOAD,
    PHONE_COUNTRY_OPTIONS,
    SCREENSHOT,
    SCREENSHOT_UPLOAD,
    WalletVerificationState,
)
from cycling_site.ui.forms import (
    drop_zone,
    error_marks,
    field,
    field_error,
    form_alert,
    live_input,
    rejection_codes,
    select_input,
    submit_button,
    terms_agreement,
    text_input,
)
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.links import link_button
from cycling_site.ui.theme import COLOR, RADIUS, SIZE, SPACE
from cycling_site.ui.wallet import code_button, code_input

State = WalletVerificationState
IMAGE_ACCEPT = {"image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"]}


def _code_button(channel: str, enabled: rx.Var) -> rx.Component:
    return code_button(
        getattr(State, f"{channel}_code"),
        State.waits,
        State.request_code(channel),
        State.wait_over(channel),
        enabled,
        f"{channel}-get-code",
    )


def _with_button(control: rx.Component, button: rx.Component) -> rx.Component:
    return rx.hstack(rx.box(control, flex="1", min_width="0"), button, spacing="2", width="100%")


def _chosen(kind: str, files: rx.Var) -> rx.Component:
    return rx.foreach(
        files,
        lambda file: rx.hstack(
            rx.icon("image", size=16, color=COLOR["success"]),
            rx.text(file["name"], font_size=SIZE["sm"], word_break="break-all", flex="1"),
            rx.icon_button(
                rx.icon("x", size=14),
                type="button",
                on_click=State.remove_file(kind, file["id"]),
                variant="ghost",
                color_scheme="gray",
                size="1",
                aria_label="Remove",
                cursor="pointer",
            ),
            class_name=f"chosen-{kind}",
            align="center",
            width="100%",
            padding=f"{SPACE['1']} {SPACE['2']}",
            background=COLOR["success_soft"],
            border_radius=RADIUS["sm"],
        ),
    )


def _dropzone(kind: str, upload_id: str, label: str, hint: str, max_files: int) -> rx.Component:
    return rx.box(
        rx.text(label, font_weight="600", font_size=SIZE["sm"], margin_bottom=SPACE["1"]),
        drop_zone(
            State.uploading == kind,
            "upload",
            "Choose or drop an image",
            hint,
            id=upload_id,
            accept=IMAGE_ACCEPT,
            max_files=max_files,
            max_size=WALLET_FILE_BYTES,
            multiple=max_files > 1,
            on_drop=State.add_files(kind, rx.upload_files(upload_id=upload_id)),
            on_drop_rejected=lambda rejections: State.files_refused(kind, rejection_codes(rejections)),
            aria_label=label,
        ),
        rx.vstack(_chosen(kind, State.passport if kind == PASSPORT else State.screenshots), spacing="1"),
        field_error(State.errors, kind),
        width="100%",
    )


def _form() -> rx.Component:
    errors = State.errors
    two_columns = {"columns": rx.breakpoints(initial="1", sm="2"), "spacing": "4", "width": "100%"}
    phone = rx.grid(
        select_input(
            "country",
            PHONE_COUNTRY_OPTIONS,
            State.country,
            on_change=State.set_country,
            aria_label="Country",
        ),
        _with_button(
            live_input(
                "phone_number",
                State.set_phone,
                "tel",
                auto_complete="tel-national",
                placeholder="50 123 4567",
                **error_marks(errors, "phone_number"),
            ),
            _code_button("phone", State.phone_ok),
        ),
        columns=rx.breakpoints(initial="1", sm="repeat(2, minmax(0, 1fr))"),
        spacing="2",
        width="100%",
    )
    email = _with_button(
        live_input(
            "binance_email",
            State.set_email,
            "email",
            auto_complete="email",
            placeholder="you@example.com",
            **error_marks(errors, "binance_email"),
        ),
        _code_button("email", State.binance_email != ""),
    )
    return rx.form(
        rx.vstack(
            rx.cond(
                State.change_wallet,
                form_alert(msg.CHANGE_WALLET_NOTICE, tone="warning", id="wallet-change-notice"),
            ),
            form_alert(State.form_error, id="wallet-verification-error"),
            field("Binance email", "binance_email", email, errors),
            field("Phone number", "phone_number", phone, errors),
            rx.grid(
                field("Phone OTP", "phone_otp", code_input("phone_otp", State.errors), errors),
                field("Email OTP", "email_otp", code_input("email_otp", State.errors), errors),
                **two_columns,
            ),
            field(
                "Wallet address",
                "wallet_address",
                text_input(
                    "wallet_address",
                    auto_complete="off",
                    spell_check=False,
                    placeholder="bc1q…",
                    **error_marks(errors, "wallet_address"),
                ),
                errors,
            ),
            rx.grid(
                _dropzone(PASSPORT, PASSPORT_UPLOAD, "Passport proof", "One JPEG or PNG, up to 5 MB", 1),
                _dropzone(
                    SCREENSHOT,
                    SCREENSHOT_UPLOAD,
                    "Binance screenshots",
                    f"1 to {MAX_SCREENSHOTS} JPEG or PNG images, up to 5 MB each",
                    MAX_SCREENSHOTS,
                ),
                **two_columns,
            ),
            rx.box(terms_agreement("terms_accepted"), field_error(errors, "terms_accepted")),
            rx.flex(
                link_button(
                    "Cancel",
                    href=path_of("wallet"),
                    variant="outline",
                    size="3",
                    cursor="pointer",
                    id="wallet-verification-cancel",
                    flex="1",
                ),
                rx.box(
                    submit_button(
                        "Submit", ~State.submitting, State.submitting, id="wallet-verification-submit"
                    ),
                    flex="2",
                ),
                gap=SPACE["3"],
                width="100%",
            ),
            spacing="5",
            width="100%",
        ),
        id="wallet-verification-form",
        on_submit=State.submit,
        reset_on_submit=False,
        no_validate=True,
        width="100%",
    )


def account_verification_page() -> rx.Component:
    return page(
        rx.center(
            card(
                heading(
                    "Verify your wallet",
                    "Confirm your Binance account, phone and wallet address so finance can pay your prizes.",
                ),
                _form(),
                max_width="760px",
            ),
            width="100%",
        )
    )
