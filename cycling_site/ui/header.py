"""The header: logo, the main menu from the content service (dropdowns, "split" separators, the same
items in the phone menu), and Login or the signed-in rider's menu."""

import reflex as rx
from reflex_components_core.react_router.dom import ReactRouterLink

from cycling_site.routes import path_of
from cycling_site.state.content import ChromeState, MenuGroup, MenuLink
from cycling_site.state.session import SessionState
from cycling_site.ui.first_screen import rider_first_screen
from cycling_site.ui.links import link_button
from cycling_site.ui.theme import COLOR, CONTENT_WIDTH, FONT, PRIMARY_BUTTON, RADIUS, SIZE, SPACE

MENU_TRIGGER_STYLE = {
    "color": COLOR["on_ink"],
    "font_weight": "600",
    "font_size": SIZE["sm"],
    "letter_spacing": "0.04em",
    "text_transform": "uppercase",
    "padding": f"{SPACE['2']} {SPACE['1']}",
    "_hover": {"color": COLOR["accent_bright"]},
}


def logo() -> rx.Component:
    """The site's name and logo from the content service's site info (the settings' name until then)."""
    return rx.link(
        rx.hstack(
            rx.image(src=ChromeState.logo, width="36px", height="36px", alt=""),
            rx.text(
                ChromeState.site_name,
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
        aria_label=ChromeState.site_name + " home",
    )


def _link_props(item: MenuLink | MenuGroup) -> dict:
    return {
        "href": item.url,
        "is_external": item.target == "_blank",
        "custom_attrs": {"title": item.attr_title},
    }


def _nav_link(item: MenuGroup) -> rx.Component:
    return rx.link(item.title, underline="none", **_link_props(item), **MENU_TRIGGER_STYLE)


def _menu_link(item: MenuLink | MenuGroup) -> rx.Component:
    """A menu item that is itself the link (one element, as the menu's keyboard handling needs)."""
    return rx.menu.item(
        ReactRouterLink.create(
            item.title,
            to=item.url,
            target=item.target,
            title=item.attr_title,
            style={"text_decoration": "none", "cursor": "pointer"},
        ),
        as_child=True,
    )


def _dropdown_entry(item: MenuLink) -> rx.Component:
    """A child item, or a separator for an item with the class "split"."""
    return rx.cond(item.split, rx.menu.separator(class_name="menu-split"), _menu_link(item))


def _dropdown(group: MenuGroup) -> rx.Component:
    return rx.menu.root(
        rx.menu.trigger(
            rx.button(
                group.title,
                rx.icon("chevron-down", size=16),
                variant="ghost",
                cursor="pointer",
                **MENU_TRIGGER_STYLE,
            )
        ),
        rx.menu.content(rx.foreach(group.children, _dropdown_entry), min_width="220px"),
        modal=False,
    )


def _nav_item(group: MenuGroup) -> rx.Component:
    return rx.cond(group.children.length() > 0, _dropdown(group), _nav_link(group))


def _nav_placeholder() -> rx.Component:
    """Where the menu will be while the content service answers: the header keeps its height."""
    return rx.hstack(
        *[
            rx.box(width=width, height="14px", border_radius=RADIUS["sm"], background=COLOR["ink_soft"])
            for width in ("56px", "64px", "84px", "52px", "60px")
        ],
        spacing="5",
        id="menu-loading",
        aria_hidden="true",
    )


def _menu_item(label: str, href: str, test_id: str) -> rx.Component:
    """A rider menu entry that is itself the link: Enter, Space and a click anywhere on the row follow it."""
    return rx.menu.item(
        ReactRouterLink.create(
            label, to=href, id=test_id, style={"text_decoration": "none", "cursor": "pointer"}
        ),
        as_child=True,
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
        modal=False,
    )


def _mobile_entry(group: MenuGroup) -> rx.Component:
    """A top-level item, or its title over its children and a line under them."""
    return rx.cond(
        group.children.length() > 0,
        rx.fragment(
            rx.text(
                group.title,
                color=COLOR["muted"],
                font_weight="700",
                text_transform="uppercase",
                font_size=SIZE["xs"],
                letter_spacing="0.06em",
                padding=f"{SPACE['2']} {SPACE['3']} {SPACE['1']}",
            ),
            rx.foreach(group.children, _dropdown_entry),
            rx.menu.separator(),
        ),
        _menu_link(group),
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
        rx.menu.content(
            rx.foreach(ChromeState.main_menu, _mobile_entry), min_width="240px", id="mobile-menu"
        ),
        modal=False,
    )


def _login_button() -> rx.Component:
    return link_button(
        "Login",
        href=path_of("login"),
        **PRIMARY_BUTTON,
        id="header-login",
    )


# The site's menu needs about 900 px beside the logo and the rider's side: narrower screens (a tablet
# upright) open it from the menu button.
NARROW = ["block", "block", "block", "none"]
WIDE = ["none", "none", "none", "block"]


def header() -> rx.Component:
    """The rider's side waits for the session check, so a signed-in rider never sees Login flash."""
    return rx.el.header(
        rx.hstack(
            rx.hstack(
                rx.box(_mobile_menu(), display=NARROW),
                logo(),
                spacing="2",
                align="center",
            ),
            rx.el.nav(
                rx.hstack(
                    rx.cond(
                        ChromeState.menus_loaded,
                        rx.foreach(ChromeState.main_menu, _nav_item),
                        _nav_placeholder(),
                    ),
                    spacing="5",
                    align="center",
                    justify="center",
                ),
                display=WIDE,
                aria_label="Site",
                # It fills the room between the logo and the rider's side: the menu's arrival moves nothing.
                flex="1",
            ),
            rx.cond(
                rx.State.is_hydrated,
                rx.cond(SessionState.signed_in, _rider_menu(), _login_button()),
                rider_first_screen(),
            ),
            justify="between",
            align="center",
            max_width=CONTENT_WIDTH,
            margin="0 auto",
            padding=f"{SPACE['3']} {SPACE['4']}",
            width="100%",
        ),
        background=COLOR["ink"],
        border_bottom=f"3px solid {COLOR['accent_bright']}",
        position="sticky",
        top="0",
        z_index="10",
    )
