"""Result panels: the pending, success and failure states of link pages."""

import reflex as rx

from cycling_site.ui.layout import card
from cycling_site.ui.links import link_button
from cycling_site.ui.theme import COLOR, PRIMARY_BUTTON, SIZE, SPACE

TONE_ICON = {"success": "circle-check", "danger": "circle-x", "warning": "triangle-alert"}


def pending_panel(text: str) -> rx.Component:
    return card(
        rx.vstack(rx.spinner(size="3"), rx.text(text, color=COLOR["muted"]), align="center", spacing="3"),
        max_width="560px",
        margin="0 auto",
    )


def loading_line(text: str, loading_id: str | None = None) -> rx.Component:
    """The spinner and its muted line while a screen or a section loads."""
    return rx.hstack(
        rx.spinner(size="3"),
        rx.text(text, color=COLOR["muted"]),
        spacing="3",
        align="center",
        id=loading_id,
        padding_y=SPACE["2"],
        role="status",
        aria_busy="true",
    )


def status_panel(
    tone: str, title: str | rx.Var, message: str | rx.Var, *actions: rx.Component, level: str = "h2", **props
):
    """level is "h1" where the panel is all the page shows."""
    return card(
        rx.vstack(
            rx.icon(TONE_ICON[tone], size=44, color=COLOR[tone], aria_hidden="true"),
            rx.heading(title, as_=level, size="6", text_align="center"),
            rx.text(message, color=COLOR["muted"], text_align="center", id="status-message"),
            *actions,
            align="center",
            spacing="4",
            padding_y=SPACE["4"],
        ),
        max_width="560px",
        margin="0 auto",
        **props,
    )


def primary_link(label: str, href: str, **props) -> rx.Component:
    return link_button(
        label,
        href=href,
        size="3",
        letter_spacing="0.04em",
        **PRIMARY_BUTTON,
        **props,
    )


def note(text: rx.Var, **props) -> rx.Component:
    return rx.cond(text != "", rx.text(text, font_size=SIZE["sm"], color=COLOR["muted"], **props))
