"""A stand-in /user/profile that shows only the Connections tab, until the profile page is built."""

import reflex as rx

from cycling_site.pages.connections import connections_panel
from cycling_site.ui.layout import card, heading, page


def profile_page() -> rx.Component:
    return page(heading("Profile", "Connections"), card(connections_panel()), width="880px")
