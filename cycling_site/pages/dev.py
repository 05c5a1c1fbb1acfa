"""The demo-mode mailbox (/dev/mailbox): every e-mail and text the site has sent."""

import reflex as rx

from cycling_site.state.mailbox import MailboxState
from cycling_site.ui.forms import text_input
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.theme import COLOR, SIZE, SPACE


def _message(message: rx.Var) -> rx.Component:
    return card(
        rx.vstack(
            rx.hstack(
                rx.text(message["subject"], font_weight="700"),
                rx.text(message["created_at"], color=COLOR["muted"], font_size=SIZE["xs"]),
                justify="between",
                width="100%",
                wrap="wrap",
            ),
            rx.text("To: ", message["recipient"], color=COLOR["muted"], font_size=SIZE["sm"]),
            rx.text(message["body"], white_space="pre-wrap", font_size=SIZE["sm"], word_break="break-all"),
            rx.foreach(
                message["links"].to(list[str]),
                lambda link: rx.link(
                    rx.button("Open link", size="2", variant="soft", cursor="pointer"),
                    href=link,
                    class_name="mail-link",
                ),
            ),
            spacing="2",
            align="start",
        ),
        class_name="mail-message",
    )


def mailbox_page() -> rx.Component:
    return page(
        heading("Mailbox", "Demo mode: the messages the site has sent"),
        rx.form(
            rx.hstack(
                text_input(
                    "to", "email", placeholder="Filter by recipient", default_value=MailboxState.recipient
                ),
                rx.button("Filter", type="submit", size="3", height="44px", cursor="pointer"),
                width="100%",
                max_width="520px",
            ),
            on_submit=MailboxState.filter,
            margin_bottom=SPACE["5"],
        ),
        rx.cond(
            MailboxState.messages.length() > 0,
            rx.vstack(rx.foreach(MailboxState.messages, _message), spacing="4", width="100%"),
            card(rx.text("No messages yet.", color=COLOR["muted"])),
        ),
    )
