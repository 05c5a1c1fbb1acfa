"""The pre-verification form (/pre-verification-form): five sections, the top error list, the thank-you."""

import reflex as rx

from cycling_site.messages import pre_verification as msg
from cycling_site.routes import path_of
from cycling_site.services import pre_verification
from cycling_site.state.pre_verification import FORM_ID, PreVerificationState
from cycling_site.ui.forms import (
    TEXT_AREA_STYLE,
    error_marks,
    field,
    form_alert,
    select_input,
    submit_button,
    text_input,
)
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.theme import COLOR, RADIUS, SIZE, SPACE

GUIDE_PATH = "/support"
RULESET_PATH = "/sunday-race-club-ruleset"


def _options(placeholder: str, choices: tuple[str, ...]) -> list[tuple[str, str]]:
    return [("", placeholder), *((choice, choice) for choice in choices)]


def _section(title: str, *children: rx.Component, section_id: str) -> rx.Component:
    return rx.vstack(
        rx.heading(title, as_="h2", font_size=SIZE["lg"], font_weight="800"),
        *children,
        spacing="3",
        width="100%",
        padding_bottom=SPACE["5"],
        border_bottom=f"1px solid {COLOR['border']}",
        id=section_id,
    )


def _header() -> rx.Component:
    link = {"color": COLOR["accent_dark"], "font_weight": "600"}
    return rx.vstack(
        heading(msg.TITLE, msg.INTRO),
        rx.hstack(
            rx.link(rx.icon("book-open", size=16), msg.GUIDE_LINK, href=GUIDE_PATH, id="guide-link", **link),
            rx.link(rx.icon("scale", size=16), "Ruleset", href=RULESET_PATH, id="ruleset-link", **link),
            rx.link(
                rx.icon("mail", size=16),
                msg.CONTACT_LINK,
                href=path_of("contacts"),
                id="contact-link",
                **link,
            ),
            spacing="5",
            flex_wrap="wrap",
            row_gap=SPACE["2"],
        ),
        rx.box(
            rx.text(rx.icon("video", size=16, display="inline", margin_right="6px"), msg.VIDEO_RULE),
            rx.text(rx.icon("ruler", size=16, display="inline", margin_right="6px"), msg.MATCH_RULE),
            background=COLOR["accent_soft"],
            border_left=f"4px solid {COLOR['accent']}",
            border_radius=RADIUS["sm"],
            padding=f"{SPACE['3']} {SPACE['4']}",
            font_size=SIZE["sm"],
            width="100%",
            id="verification-rules",
        ),
        spacing="4",
        width="100%",
    )


def _error_list() -> rx.Component:
    return rx.cond(
        PreVerificationState.field_errors.length() > 0,
        rx.box(
            rx.text(msg.ERRORS_HEADING, font_weight="700"),
            rx.el.ul(
                rx.foreach(PreVerificationState.field_errors, lambda text: rx.el.li(text)),
                padding_left=SPACE["5"],
                margin_top=SPACE["1"],
                list_style_type="disc",
            ),
            role="alert",
            id="verification-errors",
            background=COLOR["danger_soft"],
            color=COLOR["danger"],
            border_left=f"4px solid {COLOR['danger']}",
            padding=f"{SPACE['3']} {SPACE['4']}",
            border_radius=RADIUS["sm"],
            font_size=SIZE["sm"],
            width="100%",
        ),
    )


def _form() -> rx.Component:
    errors = PreVerificationState.errors
    two_columns = {"columns": rx.breakpoints(initial="1", sm="2"), "spacing": "4", "width": "100%"}
    return rx.form(
        rx.vstack(
            _error_list(),
            form_alert(PreVerificationState.form_error, id="verification-form-error"),
            _section(
                msg.SECTIONS[0],
                rx.grid(
                    field(
                        "Smart trainer",
                        "smartTrainer",
                        select_input(
                            "smartTrainer",
                            _options(msg.SMART_TRAINER_PLACEHOLDER, pre_verification.SMART_TRAINERS),
                            "",
                            **error_marks(PreVerificationState.errors, "smartTrainer"),
                        ),
                        errors,
                    ),
                    field(
                        "Secondary power source",
                        "secondaryPowerSource",
                        select_input(
                            "secondaryPowerSource",
                            _options(msg.POWER_SOURCE_PLACEHOLDER, pre_verification.SECONDARY_POWER_SOURCES),
                            "",
                            **error_marks(PreVerificationState.errors, "secondaryPowerSource"),
                        ),
                        errors,
                    ),
                    **two_columns,
                ),
                section_id="section-equipment",
            ),
            _section(
                msg.SECTIONS[1],
                rx.grid(
                    field(
                        "Weight (kg)",
                        "weight",
                        text_input(
                            "weight",
                            "number",
                            step="0.1",
                            min=pre_verification.WEIGHT_MIN,
                            max=pre_verification.WEIGHT_MAX,
                            input_mode="decimal",
                            placeholder="70.0",
                            **error_marks(PreVerificationState.errors, "weight"),
                        ),
                        errors,
                    ),
                    field(
                        "Height (cm)",
                        "height",
                        text_input(
                            "height",
                            "number",
                            step="1",
                            min=pre_verification.HEIGHT_MIN,
                            max=pre_verification.HEIGHT_MAX,
                            input_mode="numeric",
                            placeholder="175",
                            **error_marks(PreVerificationState.errors, "height"),
                        ),
                        errors,
                    ),
                    **two_columns,
                ),
                section_id="section-body",
            ),
            _section(
                msg.SECTIONS[2],
                field(
                    "Video link",
                    "videoLink",
                    text_input(
                        "videoLink",
                        "url",
                        placeholder="https://www.youtube.com/watch?v=…",
                        max_length=pre_verification.LINK_MAX,
                        **error_marks(PreVerificationState.errors, "videoLink"),
                    ),
                    errors,
                ),
                section_id="section-video",
            ),
            _section(
                msg.SECTIONS[3],
                field(
                    "Strava link",
                    "stravaLink",
                    text_input(
                        "stravaLink",
                        "url",
                        placeholder="https://www.strava.com/athletes/…",
                        max_length=pre_verification.LINK_MAX,
                        **error_marks(PreVerificationState.errors, "stravaLink"),
                    ),
                    errors,
                ),
                section_id="section-strava",
            ),
            rx.vstack(
                rx.heading(msg.SECTIONS[4], as_="h2", font_size=SIZE["lg"], font_weight="800"),
                field(
                    "Message (optional)",
                    "message",
                    rx.el.textarea(
                        id="message",
                        name="message",
                        rows=4,
                        max_length=pre_verification.MESSAGE_MAX,
                        placeholder="Anything race control should know about your set-up",
                        style={**TEXT_AREA_STYLE, "min_height": "120px"},
                        **error_marks(PreVerificationState.errors, "message"),
                    ),
                    errors,
                ),
                spacing="3",
                width="100%",
                id="section-message",
            ),
            rx.flex(
                rx.button(
                    "Cancel",
                    type="button",
                    variant="outline",
                    size="3",
                    on_click=PreVerificationState.cancel,
                    disabled=PreVerificationState.submitting,
                    id="verification-cancel",
                    cursor="pointer",
                    flex="1",
                ),
                rx.box(
                    submit_button(
                        "Submit",
                        ~PreVerificationState.submitting,
                        PreVerificationState.submitting,
                        id="verification-submit",
                    ),
                    flex="2",
                ),
                gap=SPACE["3"],
                width="100%",
            ),
            spacing="5",
            width="100%",
        ),
        id=FORM_ID,
        on_submit=PreVerificationState.submit,
        reset_on_submit=False,
        no_validate=True,
        width="100%",
    )


def _thank_you() -> rx.Component:
    return rx.vstack(
        rx.icon("circle-check", size=48, color=COLOR["success"]),
        # All the page shows once sent: its heading is the page's.
        rx.heading(msg.THANK_YOU_TITLE, as_="h1", font_size=SIZE["xl"], font_weight="800"),
        rx.text(msg.THANK_YOU, text_align="center", max_width="480px", color=COLOR["muted"]),
        rx.text("Taking you to your profile…", font_size=SIZE["sm"], color=COLOR["muted"]),
        align="center",
        spacing="3",
        padding_y=SPACE["6"],
        id="verification-thank-you",
        role="status",
        class_name="fade-in",
    )


def _cancel_dialog() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Leave the form?"),
            rx.alert_dialog.description(msg.CANCEL_CONFIRM),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button(
                        "Keep editing",
                        variant="soft",
                        color_scheme="gray",
                        on_click=PreVerificationState.keep_editing,
                        id="cancel-keep",
                    )
                ),
                rx.alert_dialog.action(
                    rx.button(
                        "Yes, cancel",
                        color_scheme="red",
                        on_click=PreVerificationState.confirm_leave,
                        id="cancel-confirm",
                    )
                ),
                gap=SPACE["3"],
                justify="end",
                margin_top=SPACE["4"],
            ),
            max_width="420px",
        ),
        open=PreVerificationState.confirm_cancel,
        on_open_change=lambda _open: PreVerificationState.keep_editing(),
    )


def pre_verification_page() -> rx.Component:
    return page(
        rx.center(
            card(
                rx.cond(
                    PreVerificationState.submitted,
                    _thank_you(),
                    rx.vstack(_header(), _form(), spacing="6", width="100%"),
                ),
                max_width="760px",
            ),
            width="100%",
        ),
        _cancel_dialog(),
    )
