"""The /oauth/{network} callback: the app's answer goes to the server, then back to the profile."""

import reflex as rx

from cycling_site.messages import connections as msg
from cycling_site.state.connections import AFTER_CALLBACK, OAuthCallbackState
from cycling_site.ui.forms import form_alert
from cycling_site.ui.layout import card, page
from cycling_site.ui.theme import COLOR


def oauth_callback_page() -> rx.Component:
    return page(
        rx.center(
            card(
                rx.cond(
                    OAuthCallbackState.failed,
                    rx.vstack(
                        rx.icon("unlink", size=36, color=COLOR["danger"]),
                        rx.heading(OAuthCallbackState.network_name, as_="h1", size="5"),
                        form_alert(OAuthCallbackState.error_text, id="oauth-error"),
                        rx.link(
                            rx.button(msg.BACK_TO_CONNECTIONS, size="3", variant="outline", cursor="pointer"),
                            href=AFTER_CALLBACK,
                            id="oauth-back",
                        ),
                        spacing="4",
                        align="center",
                    ),
                    rx.vstack(
                        rx.spinner(size="3"),
                        rx.text(msg.CONNECTING, color=COLOR["muted"], id="oauth-connecting"),
                        spacing="3",
                        align="center",
                    ),
                ),
                max_width="480px",
            ),
            width="100%",
        ),
    )
