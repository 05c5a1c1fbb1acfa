"""The page shell every screen renders in: header, main, footer and the session watch."""

import reflex as rx
from reflex.components.el.elements.inline import A

from components.scroll_region import scroll_region as scrolling_region
from components.session_watch import session_watch
from cycling_site.messages import site as site_msg
from cycling_site.state.session import CHECK_INTERVAL_MS, SessionState
from cycling_site.ui.footer import footer
from cycling_site.ui.header import header
from cycling_site.ui.theme import (
    COLOR,
    CONTENT_WIDTH,
    DISPLAY_HEADING,
    RADIUS,
    SHADOW,
    SIZE,
    SPACE,
    VISUALLY_HIDDEN,
)

SKIP_LINK_STYLE = {
    "position": "absolute",
    "left": SPACE["3"],
    "top": "-48px",
    "z_index": "20",
    "padding": f"{SPACE['2']} {SPACE['4']}",
    "background": COLOR["card"],
    "color": COLOR["text"],
    "font_weight": "700",
    "border_radius": RADIUS["sm"],
    "_focus": {"top": SPACE["3"]},
}


def page(*children: rx.Component, width: str = CONTENT_WIDTH) -> rx.Component:
    """The main area is at least a screen tall, so the footer starts below the fold and never jumps
    when a page's content arrives."""
    return rx.box(
        # A plain link: the router's link took the page's path with a trailing slash into its address, which
        # then named another page.
        A.create(
            "Skip to main content",
            href="#main",
            id="skip-link",
            style=SKIP_LINK_STYLE,
            # Focus moves without touching the address: some pages keep their tab in its hash.
            on_click=[rx.prevent_default, rx.call_script("document.getElementById('main').focus()")],
        ),
        header(),
        rx.el.main(
            *children,
            id="main",
            tab_index=-1,
            width="100%",
            max_width=width,
            margin="0 auto",
            padding=f"{SPACE['6']} {SPACE['4']} {SPACE['7']}",
            flex="1",
            min_height="100vh",
            outline="none",
        ),
        footer(),
        session_watch(interval_ms=CHECK_INTERVAL_MS, on_check=SessionState.recheck),
        display="flex",
        flex_direction="column",
        min_height="100vh",
    )


def heading(
    text: str | rx.Var, subtitle: str | rx.Var | None = None, level: str = "h1", **props
) -> rx.Component:
    """The page's title (h2 under a page's own h1, as on the home page's hero)."""
    return rx.vstack(
        rx.heading(text, as_=level, font_size=[SIZE["xl"], SIZE["2xl"]], **DISPLAY_HEADING),
        rx.text(subtitle, color=COLOR["muted"], font_size=SIZE["md"])
        if subtitle is not None
        else rx.fragment(),
        spacing="1",
        margin_bottom=SPACE["5"],
        **props,
    )


def titled(heading_text: str, *children: rx.Component) -> rx.Component:
    """A state shown before or instead of a page's content (loading, an error) still has the page's h1 from
    the first render, for screen readers; the content's own title is the h1 after."""
    return rx.fragment(rx.heading(heading_text, as_="h1", style=VISUALLY_HIDDEN), *children)


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


# While columns are out of sight, a fade on that side (the pinned first column casts a shadow instead).
FADE = {"position": "absolute", "top": "0", "bottom": "0", "width": "28px", "pointer_events": "none"}
SCROLL_STYLE = {
    "& .scroll-frame": {"position": "relative"},
    "& .scroll-region": {"overflow_x": "auto", "width": "100%"},
    # Radix's table clips itself to its column (theme.SITE_RULES opens its viewport): this region scrolls.
    "& .rt-TableRoot > .rt-ScrollAreaRoot": {"overflow": "visible"},
    "& .scroll-fade": {**FADE, "opacity": "0", "transition": "opacity 0.2s"},
    "& .scroll-fade-before": {
        "left": "0",
        "background": f"linear-gradient(to right, {COLOR['card']}, transparent)",
    },
    "& .scroll-fade-after": {
        "right": "0",
        "background": f"linear-gradient(to left, {COLOR['card']}, transparent)",
    },
    "&[data-more-before='true'] .scroll-fade-before, &[data-more-after='true'] .scroll-fade-after": {
        "opacity": "1"
    },
    "& .scroll-hint": {
        "display": "flex",
        "align_items": "center",
        "gap": SPACE["2"],
        "margin": f"0 0 {SPACE['2']}",
        "font_size": SIZE["xs"],
        "font_weight": "600",
        "color": COLOR["muted"],
    },
}
PINNED_STYLE = {
    **SCROLL_STYLE,
    "& tr > :first-child": {"position": "sticky", "left": "0", "z_index": "1", "background": COLOR["card"]},
    "& .scroll-fade-before": {"display": "none"},
    "&[data-more-before='true'] tr > :first-child::after": {
        **FADE,
        "content": "''",
        "right": "-8px",
        "width": "8px",
        "background": "linear-gradient(to right, rgba(16, 24, 40, 0.1), transparent)",
    },
}


def scroll_region(
    child: rx.Component, label: str | rx.Var, pin_first_column: bool = False, **props
) -> rx.Component:
    """A table that may be wider than a phone scrolls here, in a named region that shows while it hides
    columns that it does (the keyboard reaches it then and scrolls it with the arrow keys). A pinned first
    column keeps each row's name in sight."""
    return scrolling_region(
        child,
        label=label,
        hint=site_msg.SCROLL_HINT,
        style=PINNED_STYLE if pin_first_column else SCROLL_STYLE,
        width="100%",
        **props,
    )
