"""The footer: logo, location, support contact, two menus, Subscribe and the copyright with the year."""

import reflex as rx

from cycling_site.messages import contact as contact_msg
from cycling_site.routes import path_of
from cycling_site.settings import settings
from cycling_site.state.contact import SUBSCRIBE_FORM_ID, SubscribeState
from cycling_site.ui.forms import INPUT_STYLE, form_alert
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
        _heading(title),
        *[
            rx.link(label, href=href, color=COLOR["on_ink_muted"], font_size=SIZE["sm"], underline="hover")
            for label, href in items
        ],
        spacing="2",
        as_="nav",
        aria_label=title,
    )


def _heading(title: str) -> rx.Component:
    return rx.text(title, font_weight="700", color="white", text_transform="uppercase", font_size=SIZE["sm"])


def _subscribe() -> rx.Component:
    return rx.vstack(
        _heading(contact_msg.SUBSCRIBE_TITLE),
        rx.text(contact_msg.SUBSCRIBE_INTRO, color=COLOR["on_ink_muted"], font_size=SIZE["sm"]),
        rx.form(
            rx.hstack(
                rx.el.input(
                    id="subscribe-email",
                    name="email",
                    type="email",
                    auto_complete="email",
                    placeholder="you@example.com",
                    # Not "Email": a label search for the page's own e-mail field must not find this one.
                    aria_label="Address for race news",
                    style={**INPUT_STYLE, "flex": "1", "min_width": "0"},
                ),
                rx.button(
                    "Subscribe",
                    type="submit",
                    id="subscribe-submit",
                    size="3",
                    height="44px",
                    loading=SubscribeState.submitting,
                    disabled=~rx.State.is_hydrated | SubscribeState.submitting,
                    background=COLOR["accent"],
                    color="white",
                    font_weight="700",
                    cursor="pointer",
                    _hover={"background": COLOR["accent_dark"]},
                ),
                spacing="2",
                width="100%",
            ),
            id=SUBSCRIBE_FORM_ID,
            on_submit=SubscribeState.submit,
            reset_on_submit=False,
            no_validate=True,
            width="100%",
        ),
        form_alert(SubscribeState.error, id="subscribe-error"),
        form_alert(SubscribeState.notice, tone="success", id="subscribe-notice"),
        spacing="3",
        width="100%",
        id="subscribe",
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
                _subscribe(),
                columns=rx.breakpoints(initial="1", sm="2", md="1.2fr 1fr 1fr 1.6fr"),
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
