"""What the event screens share: the event's picture, table header cells, section titles and the winners
card (the list, the detail and the registration wizard)."""

import reflex as rx

from cycling_site.ui.layout import card
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, MEDAL_COLOR, RADIUS, SIZE, SPACE

HEADER_CELL = {"font_size": SIZE["xs"], "color": COLOR["muted"], "letter_spacing": "0.06em"}


def event_image(event: rx.Var, width: list[str], height: list[str]) -> rx.Component:
    """The event's picture at the size of the list, the detail or the wizard's header."""
    return rx.image(
        src=event["image"].to(str),
        alt="",
        width=width,
        height=height,
        object_fit="cover",
        border_radius=RADIUS["md"],
        flex_shrink="0",
    )


def section_title(text: str) -> rx.Component:
    return rx.heading(text, as_="h2", font_size=SIZE["lg"], margin_bottom=SPACE["3"], **DISPLAY_HEADING)


def _podium_place(winner: rx.Var) -> rx.Component:
    return rx.vstack(
        rx.center(
            # Dark on the medals' light metals, white on the muted grey of the places after them.
            rx.text(
                winner["position"],
                font_weight="800",
                color=rx.match(
                    winner["position"], *[(place, COLOR["ink"]) for place in MEDAL_COLOR], "white"
                ),
            ),
            width="36px",
            height="36px",
            border_radius=RADIUS["pill"],
            background=rx.match(winner["position"], *MEDAL_COLOR.items(), COLOR["muted"]),
        ),
        rx.text(winner["name"], font_weight="700", text_align="center"),
        rx.text(winner["category"] + " · " + winner["time"], font_size=SIZE["xs"], color=COLOR["muted"]),
        rx.text(winner["prize"], font_size=SIZE["sm"], font_weight="700", color=COLOR["accent_dark"]),
        align="center",
        spacing="1",
        class_name="podium-place",
        flex="1",
    )


def winners_card(podium: rx.Var, others: rx.Var) -> rx.Component:
    """The prize widget: the podium of the top 3, then the other winners as a list."""
    return rx.cond(
        podium.length() > 0,
        card(
            section_title("Winners"),
            rx.hstack(rx.foreach(podium, _podium_place), spacing="4", width="100%", id="podium"),
            rx.vstack(
                rx.foreach(
                    others,
                    lambda winner: rx.hstack(
                        rx.text(winner["position"], font_weight="800", width="28px"),
                        rx.text(winner["name"], flex="1"),
                        rx.text(winner["prize"], color=COLOR["muted"]),
                        class_name="winner-row",
                        width="100%",
                    ),
                ),
                margin_top=SPACE["4"],
                width="100%",
            ),
            id="winners",
        ),
    )
