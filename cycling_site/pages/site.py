"""Home, the iframe warning, and the plain body of screens not built yet."""

import reflex as rx

from cycling_site.messages import site as msg
from cycling_site.routes import Route, path_of
from cycling_site.settings import settings
from cycling_site.state.session import SessionState
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.theme import COLOR, CONTENT_WIDTH, DISPLAY_HEADING, RADIUS, SIZE, SPACE


def hero() -> rx.Component:
    return rx.box(
        rx.vstack(
            rx.text(
                "Indoor racing · prize money",
                color=COLOR["accent"],
                font_weight="700",
                text_transform="uppercase",
                letter_spacing="0.12em",
                font_size=SIZE["sm"],
            ),
            rx.heading(
                "Race the world from your trainer",
                as_="h1",
                color="white",
                font_size=[SIZE["2xl"], SIZE["3xl"]],
                max_width="720px",
                **DISPLAY_HEADING,
            ),
            rx.text(
                "Sign up, register for events, study your power curves and climb the results.",
                color=COLOR["on_ink"],
                font_size=SIZE["lg"],
                max_width="620px",
            ),
            rx.cond(
                SessionState.signed_in,
                rx.link(
                    rx.button("My activities", size="4", background=COLOR["accent"], cursor="pointer"),
                    href="/user/activities#profile",
                ),
                rx.hstack(
                    rx.link(
                        rx.button("Create account", size="4", background=COLOR["accent"], cursor="pointer"),
                        href=path_of("register"),
                    ),
                    rx.link(
                        rx.button("Sign in", size="4", variant="outline", color="white", cursor="pointer"),
                        href=path_of("login"),
                    ),
                    spacing="3",
                    wrap="wrap",
                ),
            ),
            spacing="5",
            max_width=CONTENT_WIDTH,
            margin="0 auto",
            padding=[f"{SPACE['7']} {SPACE['4']}", f"{SPACE['8']} {SPACE['5']}"],
        ),
        background=f"linear-gradient(120deg, {COLOR['ink']} 0%, {COLOR['ink_soft']} 60%, #3A1608 100%)",
        border_radius=RADIUS["lg"],
        margin_bottom=SPACE["6"],
    )


def iframe_warning_page() -> rx.Component:
    return page(
        card(
            rx.vstack(
                rx.icon("shield-alert", size=40, color=COLOR["danger"]),
                rx.heading(msg.IFRAME_WARNING, as_="h1", size="6", text_align="center"),
                rx.link("Open the site", href="/", is_external=True, color=COLOR["accent_dark"]),
                align="center",
                spacing="4",
            ),
            max_width="560px",
            margin="0 auto",
        )
    )


def coming_soon_page(route: Route):
    def render() -> rx.Component:
        return page(
            heading(route.title),
            card(
                rx.hstack(
                    rx.icon("construction", color=COLOR["accent"]),
                    rx.text(msg.COMING_SOON, color=COLOR["muted"], id="coming-soon"),
                    spacing="3",
                    align="center",
                )
            ),
        )

    render.__name__ = f"{route.name.replace('-', '_')}_page"
    return render


FRAME_GUARD = """
if (window.top !== window.self && window.location.pathname !== "/iframe-warning") {
  window.location.replace("/iframe-warning");
}
"""


def frame_guard() -> rx.Component:
    """Runs before the app: a framed page goes to /iframe-warning (the headers also forbid framing)."""
    return rx.script(FRAME_GUARD)


def site_title(route: Route) -> str:
    return f"{route.title} · {settings.site_name}"
