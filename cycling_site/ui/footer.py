"""The footer: logo, location, support contact, two menus and the copyright with the year."""

import reflex as rx

from cycling_site.routes import path_of
from cycling_site.settings import settings
from cycling_site.ui.header import logo
from cycling_site.ui.theme import COLOR, CONTENT_WIDTH, SIZE, SPACE

COMMUNITY_MENU = [("Teams", path_of("teams")), ("Tracks", path_of("routes")), ("FAQs", path_of("faqs"))]
INFO_MENU = [
    ("About us", path_of("about")),
    ("Contact us", path_of("contacts")),
    ("Terms and conditions", path_of("terms")),
    ("Privacy policy", path_of("privacy")),
]
CURRENT_YEAR = rx.Var("new Date().getFullYear()").to(int)


def _menu(title: str, items: list[tuple[str, str]]) -> rx.Component:
    return rx.vstack(
        rx.text(title, font_weight="700", color="white", text_transform="uppercase", font_size=SIZE["sm"]),
        *[
            rx.link(label, href=href, color=COLOR["on_ink_muted"], font_size=SIZE["sm"], underline="hover")
            for label, href in items
        ],
        spacing="2",
        as_="nav",
        aria_label=title,
    )


def footer() -> rx.Component:
    return rx.el.footer(
        rx.box(
            rx.grid(
                rx.vstack(
                    logo(),
                    rx.text("Dubai, United Arab Emirates", color=COLOR["on_ink_muted"], font_size=SIZE["sm"]),
                    rx.text(
                        "Support: ",
                        rx.link(
                            settings.support_email,
                            href=f"mailto:{settings.support_email}",
                            color=COLOR["accent"],
                        ),
                        color=COLOR["on_ink_muted"],
                        font_size=SIZE["sm"],
                    ),
                    spacing="3",
                ),
                _menu("Community", COMMUNITY_MENU),
                _menu("Information", INFO_MENU),
                columns=rx.breakpoints(initial="1", sm="3"),
                spacing="6",
                width="100%",
            ),
            rx.divider(margin_y=SPACE["5"], opacity="0.2"),
            rx.text(
                "© ",
                CURRENT_YEAR,
                f" {settings.site_name}. All rights reserved.",
                id="copyright",
                color=COLOR["on_ink_muted"],
                font_size=SIZE["xs"],
            ),
            max_width=CONTENT_WIDTH,
            margin="0 auto",
            padding=f"{SPACE['7']} {SPACE['4']} {SPACE['5']}",
        ),
        background=COLOR["ink"],
        margin_top="auto",
    )
