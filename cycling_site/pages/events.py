"""The event list (/, /home, /events): featured events, all upcoming events and past events."""

import reflex as rx

from cycling_site.messages import events as msg
from cycling_site.routes import path_of
from cycling_site.state.events import EventListState
from cycling_site.state.session import SessionState
from cycling_site.ui.events import HEADER_CELL, event_image
from cycling_site.ui.feedback import loading_line
from cycling_site.ui.first_screen import first_screen
from cycling_site.ui.forms import form_alert
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.links import link_button
from cycling_site.ui.pagination import pagination
from cycling_site.ui.theme import COLOR, CONTENT_WIDTH, DISPLAY_HEADING, RADIUS, SIZE, SPACE, VISUALLY_HIDDEN


def _chip(text: rx.Var, icon: str) -> rx.Component:
    return rx.hstack(
        rx.icon(icon, size=14),
        rx.text(text),
        spacing="1",
        align="center",
        font_size=SIZE["sm"],
        font_weight="600",
        color=COLOR["muted"],
    )


CATEGORY_COLUMNS = ("TIME", "DISTANCE", "ELEVATION")
CATEGORY_FIGURES = ("time", "distance", "elevation")
# One table for every width: on a phone each category is a row of its own, its name above its three
# figures, each under its column's name (the column headers hide there). A plain table, not Radix's, which
# wraps each one in a scroll area: the list shows a dozen, and its first render and layout on a throttled
# phone were mostly its categories, drawn twice (a table, and cards for phones).
CATEGORY_TABLE_STYLE = {
    "width": "100%",
    "border_collapse": "collapse",
    "font_size": SIZE["sm"],
    "& th, & td": {"padding": f"{SPACE['2']} {SPACE['3']} {SPACE['2']} 0", "text_align": "left"},
    "& thead th": {**HEADER_CELL, "font_weight": "600", "white_space": "nowrap"},
    "& tbody tr": {"border_top": f"1px solid {COLOR['border']}"},
    "& tbody th": {"font_weight": "400", "vertical_align": "top", "overflow_wrap": "anywhere"},
    "& td": {"font_weight": "600", "vertical_align": "top"},
    "& .category-label": {**HEADER_CELL, "display": "none"},
    "@media (max-width: 47.99em)": {
        "display": "block",
        "& thead": {"display": "none"},
        "& tbody": {"display": "block"},
        "& tbody tr": {
            "display": "grid",
            "grid_template_columns": "repeat(3, minmax(0, 1fr))",
            "gap": SPACE["2"],
            "padding": f"{SPACE['3']} 0",
        },
        "& th, & td": {"padding": "0"},
        "& tbody th": {"grid_column": "1 / -1"},
        "& .category-label": {"display": "block"},
    },
}


def _category_row(row: rx.Var) -> rx.Component:
    return rx.el.tr(
        rx.el.th(
            # Not a paragraph: a bold one reads as a heading to screen readers.
            rx.el.div(row["name"], font_weight="700", class_name="category-name"),
            rx.cond(
                row["description"] != "",
                rx.el.div(
                    row["description"],
                    font_size=SIZE["xs"],
                    color=COLOR["muted"],
                    class_name="category-description",
                ),
            ),
            scope="row",
        ),
        *[
            rx.el.td(rx.el.span(label, class_name="category-label"), rx.el.span(row[key]))
            for label, key in zip(CATEGORY_COLUMNS, CATEGORY_FIGURES, strict=True)
        ],
    )


def _category_table(event: rx.Var) -> rx.Component:
    return rx.el.table(
        rx.el.thead(
            rx.el.tr(
                rx.el.th(rx.el.span("Category", style=VISUALLY_HIDDEN), scope="col"),
                *[rx.el.th(label, scope="col") for label in CATEGORY_COLUMNS],
            )
        ),
        rx.el.tbody(rx.foreach(event["categories"].to(list[dict[str, str]]), _category_row)),
        aria_label="Categories of " + event["name"].to(str),
        class_name="category-table",
        style=CATEGORY_TABLE_STYLE,
    )


def _links(event: rx.Var) -> rx.Component:
    def link(label: str, key: str) -> rx.Component:
        return rx.cond(
            event[key] != "",
            rx.link(label, href=event[key].to(str), color=COLOR["accent_dark"], font_weight="600"),
        )

    return rx.hstack(
        link("Technical guide", "guide"),
        link("Ruleset", "ruleset"),
        rx.cond(
            event["requirements"] != "",
            rx.link(
                "Requirements",
                on_click=EventListState.show_requirements(event["requirements"].to(str)),
                color=COLOR["accent_dark"],
                font_weight="600",
                cursor="pointer",
                class_name="requirements-link",
            ),
        ),
        link("Course details", "course"),
        spacing="4",
        flex_wrap="wrap",
    )


def _register_action(event: rx.Var) -> rx.Component:
    detail = "/event/detail/" + event["id"].to(str)
    return rx.cond(
        event["can_register"],
        link_button(
            rx.cond(event["rejoin"], msg.REJOIN, msg.JOIN),
            href="/event/" + event["id"].to(str),
            size="3",
            background=COLOR["accent"],
            color="white",
            font_weight="700",
            cursor="pointer",
            class_name="register-button",
        ),
        rx.cond(
            ~EventListState.signed_in & (event["message"] == msg.LOGGED_OUT),
            link_button(
                "Login",
                href="/auth/login?redirect=" + detail,
                size="3",
                variant="outline",
                cursor="pointer",
                class_name="login-button",
            ),
        ),
    )


def hero() -> rx.Component:
    return rx.box(
        rx.vstack(
            rx.text(
                "Indoor racing · prize money",
                color=COLOR["accent_bright"],
                font_weight="700",
                text_transform="uppercase",
                letter_spacing="0.12em",
                font_size=SIZE["sm"],
            ),
            rx.heading(
                "Race the world from your trainer",
                as_="h1",
                color="white",
                font_size=[SIZE["2xl"], SIZE["3xl"]],
                max_width="720px",
                **DISPLAY_HEADING,
            ),
            rx.text(
                "Sign up, register for events, study your power curves and climb the results.",
                color=COLOR["on_ink"],
                font_size=SIZE["lg"],
                max_width="620px",
            ),
            rx.cond(
                SessionState.signed_in,
                link_button(
                    "My activities",
                    href="/user/activities#profile",
                    size="4",
                    background=COLOR["accent"],
                    cursor="pointer",
                ),
                rx.hstack(
                    link_button(
                        "Create account",
                        href=path_of("register"),
                        size="4",
                        background=COLOR["accent"],
                        cursor="pointer",
                    ),
                    link_button(
                        "Sign in",
                        href=path_of("login"),
                        size="4",
                        variant="outline",
                        color="white",
                        cursor="pointer",
                    ),
                    spacing="3",
                    wrap="wrap",
                ),
            ),
            spacing="5",
            max_width=CONTENT_WIDTH,
            margin="0 auto",
            padding=[f"{SPACE['7']} {SPACE['4']}", f"{SPACE['8']} {SPACE['5']}"],
        ),
        background=f"linear-gradient(120deg, {COLOR['ink']} 0%, {COLOR['ink_soft']} 60%, #3A1608 100%)",
        border_radius=RADIUS["lg"],
        margin_bottom=SPACE["6"],
    )


def event_summary(event: rx.Var) -> rx.Component:
    expanded = EventListState.expanded.contains(event["id"])
    return card(
        rx.flex(
            event_image(event, ["100%", "100%", "240px"], ["160px", "160px", "180px"]),
            rx.vstack(
                rx.link(
                    rx.heading(event["name"].to(str), as_="h3", font_size=SIZE["lg"], **DISPLAY_HEADING),
                    href="/event/detail/" + event["id"].to(str),
                    color=COLOR["text"],
                    class_name="event-name",
                ),
                rx.hstack(
                    _chip(event["when"].to(str), "calendar"),
                    _chip(event["gender"].to(str), "users"),
                    _chip(event["participants"].to(str), "user-check"),
                    spacing="4",
                    flex_wrap="wrap",
                    row_gap=SPACE["1"],
                ),
                rx.hstack(
                    rx.text(event["prize"].to(str), font_weight="800", color=COLOR["accent_dark"]),
                    rx.text(event["prize_usd"].to(str), font_size=SIZE["sm"], color=COLOR["muted"]),
                    spacing="2",
                    align="baseline",
                ),
                _category_table(event),
                spacing="2",
                width="100%",
                min_width="0",
            ),
            direction=rx.breakpoints(initial="column", md="row"),
            gap=SPACE["4"],
            width="100%",
        ),
        rx.cond(
            expanded,
            rx.vstack(
                rx.html(event["details"].to(str), class_name="event-details", color=COLOR["text"]),
                _links(event),
                spacing="3",
                margin_top=SPACE["4"],
                width="100%",
            ),
        ),
        rx.flex(
            rx.text(
                event["message"].to(str), class_name="event-state", color=COLOR["muted"], font_size=SIZE["sm"]
            ),
            rx.hstack(
                rx.button(
                    rx.cond(expanded, "Less Details", "More Details"),
                    on_click=EventListState.toggle_details(event["id"].to(str)),
                    variant="ghost",
                    cursor="pointer",
                    class_name="details-toggle",
                ),
                _register_action(event),
                spacing="3",
                align="center",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            justify="between",
            align=rx.breakpoints(initial="start", sm="center"),
            gap=SPACE["3"],
            margin_top=SPACE["4"],
            padding_top=SPACE["3"],
            border_top=f"1px solid {COLOR['border']}",
        ),
        class_name="event-summary",
        data_event_id=event["id"].to(str),
    )


def _group(title: str, events: rx.Var, group_id: str, *pager: rx.Component) -> rx.Component:
    return rx.cond(
        events.length() > 0,
        rx.vstack(
            rx.heading(
                title,
                as_="h2",
                font_size=SIZE["xl"],
                id=f"{group_id}-heading",
                tab_index=-1,
                **DISPLAY_HEADING,
            ),
            rx.foreach(events, event_summary),
            *pager,
            spacing="4",
            width="100%",
            id=group_id,
        ),
    )


def _requirements_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Requirements"),
            rx.dialog.description(EventListState.requirements, id="requirements-text"),
            rx.dialog.close(rx.button("Close", margin_top=SPACE["4"], cursor="pointer")),
        ),
        open=EventListState.requirements != "",
        on_open_change=EventListState.close_requirements,
    )


def event_list_page() -> rx.Component:
    return page(
        hero(),
        heading("Events", "Featured races and open events", level="h2"),
        _requirements_dialog(),
        rx.cond(
            EventListState.error != "",
            form_alert(EventListState.error, id="events-error"),
            rx.cond(
                EventListState.loading,
                first_screen(card(loading_line("Loading events...", "events-loading"))),
                rx.vstack(
                    _group("Featured", EventListState.featured, "featured-events"),
                    _group(
                        "All events",
                        EventListState.others,
                        "all-events",
                        pagination(
                            EventListState,
                            msg.PREVIOUS,
                            msg.NEXT,
                            label=msg.PAGES_LABEL,
                            nav_id="events-pagination",
                        ),
                    ),
                    rx.cond(
                        (EventListState.featured.length() == 0) & (EventListState.others.length() == 0),
                        card(rx.text(msg.NO_EVENTS, color=COLOR["muted"], id="no-events")),
                    ),
                    _group("Past events", EventListState.past_events, "past-events"),
                    spacing="6",
                    width="100%",
                ),
            ),
        ),
    )
