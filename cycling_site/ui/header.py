"""The header: logo, the site menu, and Login or the signed-in rider's menu."""

import reflex as rx

from cycling_site.routes import path_of
from cycling_site.settings import settings
from cycling_site.state.session import SessionState
from cycling_site.ui.theme import COLOR, CONTENT_WIDTH, FONT, RADIUS, SIZE, SPACE

SITE_MENU = [
    ("Events", path_of("events")),
    ("Tracks", path_of("routes")),
    ("Teams", path_of("teams")),
    ("Results", path_of("results")),
    ("Support", path_of("support")),
]


def logo() -> rx.Component:
    return rx.link(
        rx.hstack(
            rx.image(src="/logo.svg", width="36px", height="36px", alt=""),
            rx.text(
                settings.site_name,
                font_family=FONT["display"],
                font_weight="800",
                font_style="italic",
                font_size=SIZE["lg"],
                letter_spacing="0.02em",
                text_transform="uppercase",
                color="white",
            ),
            spacing="2",
            align="center",
        ),
        href="/",
        underline="none",
        aria_label=f"{settings.site_name} home",
    )


def _nav_link(label: str, href: str) -> rx.Component:
    return rx.link(
        label,
        href=href,
        color=COLOR["on_ink"],
        font_weight="600",
        font_size=SIZE["sm"],
        letter_spacing="0.04em",
        text_transform="uppercase",
        underline="none",
        padding=f"{SPACE['2']} {SPACE['1']}",
        _hover={"color": COLOR["accent"]},
    )


def _menu_item(label: str, href: str, test_id: str) -> rx.Component:
    return rx.menu.item(
        rx.link(label, href=href, underline="none", color="inherit", width="100%"), id=test_id
    )


def _rider_menu() -> rx.Component:
    return rx.menu.root(
        rx.menu.trigger(
            rx.button(
                rx.cond(
                    SessionState.avatar_url != "",
                    rx.image(
                        src=SessionState.avatar_url,
                        alt="",
                        id="header-avatar",
                        width="40px",
                        height="40px",
                        object_fit="cover",
                        border_radius=RADIUS["pill"],
                    ),
                    rx.text(SessionState.initial, font_weight="800"),
                ),
                id="avatar-button",
                aria_label="Open rider menu",
                width="40px",
                height="40px",
                padding="0",
                border_radius=RADIUS["pill"],
                background=COLOR["accent"],
                color="white",
                cursor="pointer",
            )
        ),
        rx.menu.content(
            rx.box(
                rx.text(SessionState.firstname + " " + SessionState.lastname, font_weight="700"),
                padding=f"{SPACE['1']} {SPACE['3']}",
            ),
            rx.menu.separator(),
            _menu_item("View Profile", path_of("profile"), "menu-profile"),
            _menu_item("Activities", "/user/activities#activities", "menu-activities"),
            _menu_item("My Teams", path_of("my_teams"), "menu-my-teams"),
            rx.cond(~SessionState.is_kid, _menu_item("Wallet", path_of("wallet"), "menu-wallet")),
            rx.cond(
                SessionState.is_reviewer,
                _menu_item("Race control", path_of("race-control"), "menu-race-control"),
            ),
            rx.cond(SessionState.is_finance, _menu_item("Finance", path_of("finance"), "menu-finance")),
            rx.menu.separator(),
            rx.menu.item("Log Out", id="menu-logout", color=COLOR["danger"], on_click=SessionState.logout),
            align="end",
        ),
    )


def _mobile_menu() -> rx.Component:
    return rx.menu.root(
        rx.menu.trigger(
            rx.button(
                rx.icon("menu", size=22),
                aria_label="Open site menu",
                variant="ghost",
                color="white",
                cursor="pointer",
            )
        ),
        rx.menu.content(*[_menu_item(label, href, f"mobile-{label.lower()}") for label, href in SITE_MENU]),
    )


def _login_button() -> rx.Component:
    return rx.link(
        rx.button(
            "Login",
            background=COLOR["accent"],
            color="white",
            font_weight="700",
            cursor="pointer",
            _hover={"background": COLOR["accent_dark"]},
        ),
        href=path_of("login"),
        id="header-login",
    )


def header() -> rx.Component:
    """The rider's side waits for the session check, so a signed-in rider never sees Login flash."""
    return rx.el.header(
        rx.hstack(
            rx.hstack(
                rx.box(_mobile_menu(), display=["block", "block", "none"]),
                logo(),
                spacing="2",
                align="center",
            ),
            rx.hstack(
                *[_nav_link(label, href) for label, href in SITE_MENU],
                spacing="5",
                display=["none", "none", "flex"],
                as_="nav",
                aria_label="Site",
            ),
            rx.cond(
                rx.State.is_hydrated,
                rx.cond(SessionState.signed_in, _rider_menu(), _login_button()),
                rx.box(width="64px", height="40px"),
            ),
            justify="between",
            align="center",
            max_width=CONTENT_WIDTH,
            margin="0 auto",
            padding=f"{SPACE['3']} {SPACE['4']}",
            width="100%",
        ),
        background=COLOR["ink"],
        border_bottom=f"3px solid {COLOR['accent']}",
        position="sticky",
        top="0",
        z_index="10",
    )
