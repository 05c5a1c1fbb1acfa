"""The footer: logo, location, support contact, the six social links, the content service's two menus,
Subscribe and the copyright with the year."""

import reflex as rx

from components.social_icon import social_icon
from cycling_site.messages import contact as contact_msg
from cycling_site.settings import settings
from cycling_site.state.contact import SUBSCRIBE_FORM_ID, SubscribeState
from cycling_site.state.content import ChromeState, SocialLink
from cycling_site.ui.forms import INPUT_STYLE, form_alert
from cycling_site.ui.header import logo
from cycling_site.ui.theme import COLOR, CONTENT_WIDTH, PRIMARY_BUTTON, RADIUS, SIZE, SPACE

CURRENT_YEAR = rx.Var("new Date().getFullYear()").to(int)


def _menu(title: str, items: rx.Var, menu_id: str) -> rx.Component:
    return rx.el.nav(
        rx.vstack(
            rx.cond(items.length() > 0, _heading(title)),
            rx.foreach(
                items,
                lambda item: rx.link(
                    item.title,
                    href=item.url,
                    is_external=item.target == "_blank",
                    custom_attrs={"title": item.attr_title},
                    color=COLOR["on_ink_muted"],
                    font_size=SIZE["sm"],
                    underline="hover",
                ),
            ),
            spacing="2",
        ),
        aria_label=title,
        id=menu_id,
    )


def _social(link: SocialLink) -> rx.Component:
    return rx.link(
        social_icon(network=link.network, size=18),
        href=link.url,
        is_external=True,
        aria_label=link.label,
        custom_attrs={"title": link.label},
        display="inline-flex",
        align_items="center",
        justify_content="center",
        width="36px",
        height="36px",
        border_radius=RADIUS["pill"],
        background=COLOR["ink_soft"],
        color=COLOR["on_ink"],
        _hover={"background": COLOR["accent"], "color": "white"},
    )


def _socials() -> rx.Component:
    return rx.hstack(
        rx.foreach(ChromeState.social_links, _social),
        spacing="2",
        wrap="wrap",
        id="social-links",
        min_height="36px",
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
                    **PRIMARY_BUTTON,
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
    """Hidden for the rest of the visit once a page was opened with d=m (the game's in-app browser)."""
    return rx.cond(ChromeState.in_app_view, rx.fragment(), _footer())


def _footer() -> rx.Component:
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
                            color=COLOR["accent_bright"],
                        ),
                        color=COLOR["on_ink_muted"],
                        font_size=SIZE["sm"],
                    ),
                    _socials(),
                    spacing="3",
                ),
                _menu("Information", ChromeState.navigation_menu, "footer-navigation"),
                _menu("Community", ChromeState.community_menu, "footer-community"),
                _subscribe(),
                columns=rx.breakpoints(initial="1", sm="2", md="1.2fr 1fr 1fr 1.6fr"),
                spacing="6",
                width="100%",
            ),
            rx.divider(margin_y=SPACE["5"], opacity="0.2"),
            rx.text(
                "© ",
                CURRENT_YEAR,
                " ",
                ChromeState.site_name,
                ". All rights reserved.",
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
