"""Pieces of the content pages: the banner, the content service's HTML styled as prose, the loading
skeleton and the error panel."""

import reflex as rx

from cycling_site.messages import content as msg
from cycling_site.state.content import ContentState
from cycling_site.ui.first_screen import first_screen
from cycling_site.ui.layout import card, titled
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, FONT, RADIUS, SIZE, SPACE

BANNER_RATIO = 1800 / 600

# The content service's sanitised HTML: headings, paragraphs, lists, links, tables, quotes and code.
PROSE_STYLE = {
    "color": COLOR["text"],
    "font_size": SIZE["md"],
    "line_height": "1.7",
    "overflow_wrap": "anywhere",
    "& > :first-child": {"margin_top": "0"},
    "& > :last-child": {"margin_bottom": "0"},
    "& h1, & h2, & h3, & h4": {
        "font_family": FONT["display"],
        "font_weight": "800",
        "line_height": "1.2",
        "margin": f"{SPACE['6']} 0 {SPACE['3']}",
        "color": COLOR["ink"],
    },
    "& h1": {"font_size": SIZE["xl"]},
    "& h2": {"font_size": "24px", "text_transform": "uppercase", "font_style": "italic"},
    "& h3": {"font_size": SIZE["lg"]},
    "& h4": {"font_size": SIZE["md"]},
    "& p": {"margin": f"0 0 {SPACE['4']}"},
    "& ul, & ol": {"margin": f"0 0 {SPACE['4']}", "padding_left": SPACE["5"]},
    "& ul": {"list_style_type": "disc"},
    "& ol": {"list_style_type": "decimal"},
    "& li": {"margin": f"{SPACE['1']} 0", "padding_left": SPACE["1"]},
    "& li::marker": {"color": COLOR["accent"], "font_weight": "700"},
    "& a": {
        "color": COLOR["accent_dark"],
        "font_weight": "600",
        "text_decoration": "underline",
        "text_underline_offset": "3px",
    },
    "& a:hover": {"color": COLOR["accent"]},
    "& strong": {"font_weight": "700"},
    "& blockquote": {
        "margin": f"0 0 {SPACE['4']}",
        "padding": f"{SPACE['3']} {SPACE['4']}",
        "border_left": f"4px solid {COLOR['accent']}",
        "background": COLOR["accent_soft"],
        "border_radius": f"0 {RADIUS['sm']} {RADIUS['sm']} 0",
    },
    "& table": {
        "width": "100%",
        "border_collapse": "collapse",
        "margin": f"0 0 {SPACE['5']}",
        "font_size": SIZE["sm"],
        "display": "block",
        "overflow_x": "auto",
        "@media (min-width: 640px)": {"display": "table"},
    },
    "& th, & td": {
        "text_align": "left",
        "padding": f"{SPACE['2']} {SPACE['3']}",
        "border_bottom": f"1px solid {COLOR['border']}",
        "vertical_align": "top",
    },
    "& th": {"background": COLOR["surface"], "font_weight": "700", "white_space": "nowrap"},
    "& code": {"background": COLOR["surface"], "padding": "1px 6px", "border_radius": RADIUS["sm"]},
    "& img": {"max_width": "100%", "height": "auto", "border_radius": RADIUS["md"]},
    "& hr": {"border": "0", "border_top": f"1px solid {COLOR['border']}", "margin": f"{SPACE['5']} 0"},
}


def prose(html: rx.Var, **props) -> rx.Component:
    """HTML the content client has already run through nh3."""
    return rx.box(rx.html(html), class_name="prose", style=PROSE_STYLE, width="100%", **props)


def banner(src: rx.Var, **props) -> rx.Component:
    """The page's 1800x600 banner, kept at its ratio; decorative (the page's h1 names the page)."""
    return rx.cond(
        src != "",
        rx.image(
            src=src,
            alt="",
            width="100%",
            aspect_ratio=f"{BANNER_RATIO}",
            object_fit="cover",
            border_radius=RADIUS["lg"],
            display="block",
            class_name="content-banner",
            **props,
        ),
    )


def page_title(text: rx.Var | str, **props) -> rx.Component:
    return rx.heading(
        text,
        as_="h1",
        font_size=[SIZE["xl"], SIZE["2xl"]],
        margin_bottom=SPACE["4"],
        **DISPLAY_HEADING,
        **props,
    )


def _bar(width: str, height: str = "16px") -> rx.Component:
    return rx.skeleton(rx.box(width=width, height=height), loading=True)


def skeleton(with_banner: bool = True) -> rx.Component:
    """The page's outline while the content service answers."""
    return rx.vstack(
        rx.skeleton(
            rx.box(width="100%", aspect_ratio=f"{BANNER_RATIO}", border_radius=RADIUS["lg"]), loading=True
        )
        if with_banner
        else rx.fragment(),
        card(
            rx.vstack(
                _bar("55%", "36px"),
                _bar("100%"),
                _bar("96%"),
                _bar("88%"),
                _bar("70%"),
                spacing="3",
                width="100%",
            )
        ),
        spacing="5",
        width="100%",
        id="content-loading",
        role="status",
        aria_busy="true",
        aria_label="Loading",
    )


def error_panel(message: rx.Var, **props) -> rx.Component:
    """The content service failed: its message and a reload, as the message asks."""
    return card(
        rx.flex(
            rx.hstack(
                rx.icon("cloud-off", size=28, color=COLOR["danger"], flex_shrink="0"),
                rx.text(message, color=COLOR["text"], font_weight="600"),
                spacing="3",
                align="center",
            ),
            rx.button(
                rx.icon("rotate-cw", size=16),
                "Try again",
                variant="outline",
                color_scheme="gray",
                cursor="pointer",
                on_click=rx.call_script("window.location.reload()"),
                id="content-retry",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            justify="between",
            align=rx.breakpoints(initial="start", sm="center"),
            gap=SPACE["4"],
        ),
        role="alert",
        border_left=f"4px solid {COLOR['danger']}",
        **props,
    )


def loaded(body: rx.Component, with_banner: bool = True) -> rx.Component:
    """The page's content once the content service has answered; its outline or its error until then."""
    return rx.cond(
        ContentState.loading,
        first_screen(titled(msg.LOADING_HEADING, skeleton(with_banner))),
        rx.cond(
            ContentState.error != "",
            titled(msg.FAILED_HEADING, error_panel(ContentState.error, id="content-error")),
            body,
        ),
    )
