"""Contact us (/contact-us): the content service's banner and text, and the form (name, phone, email and
message) sent to the support team."""

import reflex as rx

from cycling_site.messages import contact as msg
from cycling_site.routes import path_of
from cycling_site.services.contact import MESSAGE_MAX, NAME_MAX, PHONE_MAX
from cycling_site.settings import settings
from cycling_site.state.contact import CONTACT_FORM_ID, ContactState
from cycling_site.state.content import ContentState
from cycling_site.ui.content import banner, prose
from cycling_site.ui.forms import (
    TEXT_AREA_STYLE,
    error_marks,
    field,
    form_alert,
    submit_button,
    text_input,
)
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.theme import COLOR, RADIUS, SIZE, SPACE


def _support_link(**props) -> rx.Component:
    return rx.link(
        settings.support_email,
        href=f"mailto:{settings.support_email}",
        color=COLOR["accent_dark"],
        font_weight="600",
        word_break="break-all",
        **props,
    )


def _detail(icon: str, title: str, *body: rx.Component) -> rx.Component:
    return rx.hstack(
        rx.center(
            rx.icon(icon, size=20, color=COLOR["accent_dark"]),
            background=COLOR["accent_soft"],
            border_radius=RADIUS["md"],
            width="40px",
            height="40px",
            flex_shrink="0",
        ),
        rx.vstack(
            rx.text(title, font_weight="700", font_size=SIZE["sm"]),
            *body,
            spacing="1",
            min_width="0",
        ),
        spacing="3",
        align="start",
    )


def _details() -> rx.Component:
    return card(
        rx.vstack(
            _detail("mail", "Email", _support_link(font_size=SIZE["sm"])),
            _detail(
                "map-pin",
                "Location",
                rx.text("Dubai, United Arab Emirates", color=COLOR["muted"], font_size=SIZE["sm"]),
            ),
            _detail(
                "circle-help",
                "FAQs",
                rx.text(
                    "Many answers are already in our ",
                    rx.link("FAQs", href=path_of("faqs"), color=COLOR["accent_dark"], font_weight="600"),
                    ".",
                    color=COLOR["muted"],
                    font_size=SIZE["sm"],
                ),
            ),
            spacing="5",
        ),
        id="contact-details",
    )


def _form() -> rx.Component:
    errors = ContactState.errors
    return card(
        rx.form(
            rx.vstack(
                rx.grid(
                    field(
                        "Name",
                        "name",
                        text_input(
                            "name",
                            auto_complete="name",
                            max_length=NAME_MAX,
                            **error_marks(ContactState.errors, "name"),
                        ),
                        errors,
                    ),
                    field(
                        "Email",
                        "email",
                        text_input(
                            "email",
                            "email",
                            auto_complete="email",
                            placeholder="you@example.com",
                            **error_marks(ContactState.errors, "email"),
                        ),
                        errors,
                    ),
                    columns=rx.breakpoints(initial="1", sm="2"),
                    spacing="4",
                    width="100%",
                ),
                field(
                    "Phone (optional)",
                    "phone",
                    text_input(
                        "phone",
                        "tel",
                        auto_complete="tel",
                        input_mode="tel",
                        placeholder="+971 50 123 4567",
                        max_length=PHONE_MAX,
                        **error_marks(ContactState.errors, "phone"),
                    ),
                    errors,
                ),
                field(
                    "Message",
                    "message",
                    rx.el.textarea(
                        id="message",
                        name="message",
                        rows=6,
                        max_length=MESSAGE_MAX,
                        placeholder="How can we help? (at least 10 characters)",
                        style={**TEXT_AREA_STYLE, "min_height": "168px"},
                        **error_marks(ContactState.errors, "message"),
                    ),
                    errors,
                ),
                form_alert(ContactState.form_error, id="contact-error"),
                form_alert(ContactState.sent, tone="success", id="contact-sent"),
                submit_button(
                    "Send message",
                    ~ContactState.submitting,
                    ContactState.submitting,
                    id="contact-submit",
                ),
                spacing="4",
                width="100%",
            ),
            id=CONTACT_FORM_ID,
            on_submit=ContactState.submit,
            reset_on_submit=False,
            no_validate=True,
            width="100%",
        ),
    )


def _content() -> rx.Component:
    """The banner and text from the content service; without them (the service failed) the page is the
    form, which works on its own."""
    return rx.cond(
        ContentState.loading,
        rx.skeleton(
            rx.box(width="100%", height="120px", border_radius=RADIUS["lg"]),
            loading=True,
            margin_bottom=SPACE["5"],
            id="content-loading",
        ),
        rx.cond(
            ContentState.error == "",
            rx.vstack(
                banner(ContentState.banner, id="content-banner"),
                card(
                    rx.heading(
                        ContentState.contact_section_heading,
                        as_="h2",
                        size="5",
                        margin_bottom=SPACE["3"],
                    ),
                    prose(ContentState.html, id="content-body"),
                ),
                spacing="5",
                width="100%",
                margin_bottom=SPACE["5"],
            ),
        ),
    )


def contact_page() -> rx.Component:
    return page(
        heading(msg.TITLE),
        rx.text(
            msg.INTRO,
            " ",
            msg.EMAIL_US,
            " ",
            _support_link(),
            ".",
            color=COLOR["muted"],
            font_size=SIZE["md"],
            max_width="720px",
            margin_top=f"-{SPACE['3']}",
            margin_bottom=SPACE["5"],
            id="contact-intro",
        ),
        _content(),
        rx.grid(
            _form(),
            _details(),
            columns=rx.breakpoints(initial="1", md="2fr 1fr"),
            spacing="5",
            width="100%",
            align="start",
        ),
    )
