"""The event detail (/event/detail/{id}): banner, facts, REGISTER NOW, winners widget, prize tables, map."""

import reflex as rx

from cycling_site.messages import events as msg
from cycling_site.routes import path_of
from cycling_site.state.event_detail import EventDetailState
from cycling_site.ui.events import HEADER_CELL, event_image, section_title, winners_card
from cycling_site.ui.feedback import loading_line, primary_link, status_panel
from cycling_site.ui.first_screen import first_screen, live_head
from cycling_site.ui.layout import card, page
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, RADIUS, SIZE, SPACE


def _fact(label: str, value: rx.Var, fact_id: str) -> rx.Component:
    return rx.vstack(
        rx.text(
            label, font_size=SIZE["xs"], color=COLOR["muted"], font_weight="700", letter_spacing="0.08em"
        ),
        rx.text(value, font_size=SIZE["lg"], font_weight="800", id=fact_id),
        spacing="1",
    )


def _prize_table(table: rx.Var) -> rx.Component:
    return rx.box(
        rx.text(table["title"].to(str), font_weight="800", margin_bottom=SPACE["2"]),
        rx.table.root(
            rx.table.header(
                rx.table.row(
                    rx.foreach(
                        table["headings"].to(list[str]),
                        lambda h: rx.table.column_header_cell(h, **HEADER_CELL),
                    )
                )
            ),
            rx.table.body(
                rx.foreach(
                    table["rows"].to(list[dict[str, str]]),
                    lambda row: rx.table.row(
                        rx.table.cell(row["position"]),
                        rx.table.cell(
                            rx.text(row["aed"], font_weight="700"),
                            rx.text(row["usd"], font_size=SIZE["xs"], color=COLOR["muted"]),
                        ),
                    ),
                )
            ),
            size="1",
            variant="ghost",
            width="100%",
        ),
        class_name="prize-table",
        width="100%",
    )


def _prizes() -> rx.Component:
    return rx.cond(
        EventDetailState.prize_tables.length() > 0,
        card(
            section_title("Prizes"),
            rx.grid(
                rx.foreach(EventDetailState.prize_tables, _prize_table),
                columns=rx.breakpoints(initial="1", sm="2", lg="3"),
                spacing="5",
                width="100%",
            ),
            id="prizes",
        ),
    )


def _register_enabled() -> rx.Var:
    """Open to riders who may register, to riders already registered (sent to the list) and to visitors."""
    event = EventDetailState.event
    return (
        event["can_register"].to(bool)
        | EventDetailState.is_registered
        | (~EventDetailState.signed_in & (event["message"].to(str) == msg.LOGGED_OUT))
    )


def _header() -> rx.Component:
    event = EventDetailState.event
    return card(
        rx.flex(
            event_image(event, ["100%", "100%", "360px"], ["200px", "200px", "270px"]),
            rx.vstack(
                rx.heading(
                    event["name"].to(str),
                    as_="h1",
                    id="event-title",
                    font_size=[SIZE["xl"], SIZE["2xl"]],
                    **DISPLAY_HEADING,
                ),
                rx.text(event["when"].to(str), color=COLOR["muted"], font_weight="600"),
                rx.hstack(
                    rx.text(
                        event["prize"].to(str),
                        font_size=SIZE["xl"],
                        font_weight="800",
                        color=COLOR["accent_dark"],
                        id="prize-money",
                        white_space="nowrap",
                    ),
                    rx.text(event["prize_usd"].to(str), color=COLOR["muted"], white_space="nowrap"),
                    spacing="2",
                    align="baseline",
                    flex_wrap="wrap",
                ),
                rx.hstack(
                    _fact("DISTANCE", EventDetailState.distance, "event-distance"),
                    _fact("ELEVATION", EventDetailState.elevation, "event-elevation"),
                    _fact("MAX GRADE", EventDetailState.max_grade, "event-grade"),
                    _fact("RIDERS", event["participants"].to(str), "event-participants"),
                    spacing="5",
                    flex_wrap="wrap",
                ),
                rx.text(
                    event["message"].to(str), id="event-state", color=COLOR["muted"], font_size=SIZE["sm"]
                ),
                rx.button(
                    msg.REGISTER_NOW,
                    on_click=EventDetailState.register,
                    disabled=~_register_enabled(),
                    size="3",
                    background=rx.cond(_register_enabled(), COLOR["accent"], "#F3B49C"),
                    color="white",
                    font_weight="700",
                    cursor=rx.cond(_register_enabled(), "pointer", "not-allowed"),
                    id="register-now",
                ),
                spacing="3",
                align="start",
            ),
            direction=rx.breakpoints(initial="column", md="row"),
            gap=SPACE["5"],
        )
    )


def event_detail_page() -> rx.Component:
    return page(
        rx.cond(
            EventDetailState.error != "",
            status_panel(
                "warning",
                EventDetailState.error,
                msg.EVENT_UNAVAILABLE_HINT,
                primary_link(msg.BACK_TO_EVENTS, path_of("events"), id="event-back"),
                level="h1",
                id="event-error",
            ),
            rx.cond(
                EventDetailState.loading,
                first_screen(card(loading_line("Loading the event...", "event-loading"))),
                rx.vstack(
                    _header(),
                    winners_card(EventDetailState.podium, EventDetailState.other_winners),
                    _prizes(),
                    card(
                        section_title("Course"),
                        rx.html(EventDetailState.event["details"].to(str), class_name="event-details"),
                        rx.image(
                            src=EventDetailState.map_image,
                            alt="Course map",
                            id="course-map",
                            width="100%",
                            max_width="800px",
                            border_radius=RADIUS["md"],
                            margin_top=SPACE["3"],
                        ),
                    ),
                    spacing="5",
                    width="100%",
                    on_mount=live_head(),
                ),
            ),
        )
    )
