"""The Connections tab of the profile: fitness apps the rider links."""

import reflex as rx

from cycling_site.messages import site as msg
from cycling_site.ui.layout import card
from cycling_site.ui.theme import COLOR, SIZE


def connections_panel() -> rx.Component:
    return card(
        rx.hstack(
            rx.icon("link", color=COLOR["accent"]),
            rx.text(msg.COMING_SOON, color=COLOR["muted"], font_size=SIZE["md"]),
            spacing="3",
            align="center",
        ),
        id="connections-panel",
    )
