"""The iframe warning page (a framed navigation gets its static twin from the site middleware) and the page
titles and descriptions."""

import reflex as rx

from cycling_site.messages import site as msg
from cycling_site.routes import Route
from cycling_site.settings import settings
from cycling_site.ui.layout import card, page
from cycling_site.ui.theme import COLOR


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


def site_title(route: Route) -> str:
    return msg.PAGE_TITLE.format(title=route.title, site=settings.site_name)


def site_description(route: Route) -> str:
    return msg.PAGE_DESCRIPTIONS[route.name].format(site=settings.site_name)
