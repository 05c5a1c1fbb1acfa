"""The page shell every screen renders in: header, main, footer and the session watch."""

import reflex as rx

from components.session_watch import session_watch
from cycling_site.state.session import CHECK_INTERVAL_MS, SessionState
from cycling_site.ui.footer import footer
from cycling_site.ui.header import header
from cycling_site.ui.theme import COLOR, CONTENT_WIDTH, DISPLAY_HEADING, RADIUS, SHADOW, SIZE, SPACE


def page(*children: rx.Component, width: str = CONTENT_WIDTH) -> rx.Component:
    return rx.box(
        header(),
        rx.el.main(
            *children,
            width="100%",
            max_width=width,
            margin="0 auto",
            padding=f"{SPACE['6']} {SPACE['4']} {SPACE['7']}",
            flex="1",
        ),
        footer(),
        session_watch(interval_ms=CHECK_INTERVAL_MS, on_check=SessionState.recheck),
        display="flex",
        flex_direction="column",
        min_height="100vh",
    )


def heading(text: str | rx.Var, subtitle: str | rx.Var | None = None, **props) -> rx.Component:
    return rx.vstack(
        rx.heading(text, as_="h1", font_size=[SIZE["xl"], SIZE["2xl"]], **DISPLAY_HEADING),
        rx.text(subtitle, color=COLOR["muted"], font_size=SIZE["md"])
        if subtitle is not None
        else rx.fragment(),
        spacing="1",
        margin_bottom=SPACE["5"],
        **props,
    )


def card(*children: rx.Component, **props) -> rx.Component:
    return rx.box(
        *children,
        background=COLOR["card"],
        border_radius=RADIUS["lg"],
        box_shadow=SHADOW["card"],
        padding=[SPACE["5"], SPACE["6"]],
        width="100%",
        **props,
    )
