"""The /oauth/{network} callback (the app's answer goes to the server, then back to the profile) and the
AnalogX terms page the rider accepts before being sent to AnalogX."""

import reflex as rx

from cycling_site.messages import connections as msg
from cycling_site.state.connections import AFTER_CALLBACK, ConnectionsState, OAuthCallbackState
from cycling_site.state.content import ContentState
from cycling_site.ui.content import loaded, page_title, prose
from cycling_site.ui.forms import checkbox_field, field_error, form_alert, submit_button
from cycling_site.ui.layout import card, page
from cycling_site.ui.links import link_button
from cycling_site.ui.theme import COLOR, SPACE


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
                        link_button(
                            msg.BACK_TO_CONNECTIONS,
                            href=AFTER_CALLBACK,
                            size="3",
                            variant="outline",
                            cursor="pointer",
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


def analogx_terms_page() -> rx.Component:
    """The terms from the content service, then Accept and connect (checked again on the server)."""
    errors = ConnectionsState.terms_errors
    return page(
        loaded(
            card(
                page_title(ContentState.title),
                prose(ContentState.html, id="content-body"),
                rx.form(
                    rx.vstack(
                        rx.box(
                            checkbox_field("terms", msg.TERMS_ACCEPT, aria_describedby="terms-error"),
                            field_error(errors, "terms"),
                        ),
                        form_alert(errors.get("form", ""), id="analogx-terms-error"),
                        rx.flex(
                            rx.link(msg.BACK_TO_CONNECTIONS, href=AFTER_CALLBACK, color=COLOR["accent_dark"]),
                            rx.box(
                                submit_button(
                                    msg.TERMS_CONNECT,
                                    enabled=~ConnectionsState.terms_submitting,
                                    loading=ConnectionsState.terms_submitting,
                                    id="analogx-terms-submit",
                                ),
                                width=["100%", "auto"],
                            ),
                            direction=rx.breakpoints(initial="column-reverse", sm="row"),
                            justify="between",
                            align=rx.breakpoints(initial="stretch", sm="center"),
                            gap=SPACE["4"],
                        ),
                        spacing="4",
                        width="100%",
                    ),
                    id="analogx-terms-form",
                    on_submit=ConnectionsState.accept_terms,
                    reset_on_submit=False,
                    border_top=f"1px solid {COLOR['border']}",
                    margin_top=SPACE["5"],
                    padding_top=SPACE["5"],
                ),
            ),
            with_banner=False,
        ),
        width="960px",
    )
