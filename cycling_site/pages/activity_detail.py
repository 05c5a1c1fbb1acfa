"""The activity detail view (/user/activities/{fileId}): header, tiles and five graphs (spec 3)."""

import reflex as rx

from components.ride_charts import ride_graph
from cycling_site.messages import activities as activities_msg
from cycling_site.routes import path_of
from cycling_site.state.activity_detail import GRAPHS, NO_DATA, ActivityDetailState
from cycling_site.ui.feedback import loading_line
from cycling_site.ui.forms import form_alert
from cycling_site.ui.layout import card, page
from cycling_site.ui.theme import CHART_COLOR, COLOR, DISPLAY_HEADING, RADIUS, SIZE, SPACE, VISUALLY_HIDDEN

ELEVATION_TICK_EVERY = 12


def _tile(label: str, value: rx.Var, tile_id: str) -> rx.Component:
    return rx.vstack(
        rx.text(
            label, font_size=SIZE["xs"], color=COLOR["muted"], letter_spacing="0.08em", font_weight="700"
        ),
        rx.text(value, font_size=SIZE["xl"], font_weight="800", id=tile_id),
        spacing="1",
        background=COLOR["card"],
        border_radius=RADIUS["md"],
        box_shadow="inset 0 0 0 1px " + COLOR["border"],
        padding=SPACE["4"],
        width="100%",
    )


def _back_link() -> rx.Component:
    return rx.link(
        rx.hstack(rx.icon("chevron-left", size=16), rx.text("ACTIVITIES/"), spacing="1", align="center"),
        href=path_of("new_activities") + "#activities",
        id="back-to-activities",
        color=COLOR["muted"],
        font_weight="700",
        letter_spacing="0.06em",
    )


def _header() -> rx.Component:
    badges = rx.hstack(
        rx.badge(ActivityDetailState.gender, id="detail-gender", variant="solid", color_scheme="gray"),
        rx.cond(
            ActivityDetailState.category != "",
            rx.badge(
                ActivityDetailState.category, id="detail-category", variant="solid", color_scheme="orange"
            ),
        ),
        rx.text(ActivityDetailState.date, id="detail-date", color=COLOR["muted"], font_weight="600"),
        spacing="2",
        align="center",
        flex_wrap="wrap",
    )
    download = rx.button(
        rx.icon("download", size=16),
        "DOWNLOAD",
        on_click=ActivityDetailState.download,
        loading=ActivityDetailState.downloading,
        id="detail-download",
        variant="outline",
        font_weight="700",
        cursor="pointer",
    )
    return card(
        rx.vstack(
            rx.flex(
                rx.vstack(
                    rx.heading(
                        ActivityDetailState.title,
                        as_="h1",
                        id="detail-title",
                        font_size=[SIZE["xl"], SIZE["2xl"]],
                        **DISPLAY_HEADING,
                    ),
                    rx.text(
                        ActivityDetailState.route_name,
                        id="detail-route",
                        color=COLOR["muted"],
                        font_weight="600",
                    ),
                    badges,
                    spacing="2",
                    align="start",
                ),
                download,
                direction=rx.breakpoints(initial="column", sm="row"),
                justify="between",
                gap=SPACE["4"],
                width="100%",
            ),
            form_alert(ActivityDetailState.download_error, id="detail-download-error"),
            rx.grid(
                _tile("AVERAGE WATTS", ActivityDetailState.avg_watts, "tile-watts"),
                _tile("TOTAL WORK", ActivityDetailState.work, "tile-work"),
                _tile("TRAINING LOAD", ActivityDetailState.training_load, "tile-load"),
                _tile("INTENSITY", ActivityDetailState.intensity, "tile-intensity"),
                columns=rx.breakpoints(initial="2", md="4"),
                spacing="3",
                width="100%",
            ),
            rx.hstack(
                rx.text("Distance ", rx.el.strong(ActivityDetailState.distance)),
                rx.text("Elevation ", rx.el.strong(ActivityDetailState.elevation)),
                rx.text("Time ", rx.el.strong(ActivityDetailState.duration)),
                spacing="5",
                color=COLOR["muted"],
                font_size=SIZE["sm"],
                flex_wrap="wrap",
            ),
            spacing="4",
            width="100%",
        )
    )


def _graph(key: str, name: str, unit: str) -> rx.Component:
    return card(
        rx.flex(
            rx.heading(name, as_="h2", font_size=SIZE["lg"], **DISPLAY_HEADING),
            rx.text(
                ActivityDetailState.summaries[key],
                id=f"summary-{key}",
                color=COLOR["muted"],
                font_size=SIZE["sm"],
                font_weight="600",
            ),
            justify="between",
            align="baseline",
            wrap="wrap",
            gap=SPACE["2"],
            margin_bottom=SPACE["3"],
        ),
        rx.cond(
            ActivityDetailState.summaries[key] == NO_DATA,
            rx.center(
                rx.text(f"This ride has no {name.lower()} data.", color=COLOR["muted"]),
                id=f"graph-{key}-empty",
                height="80px",
            ),
            _chart(key, name, unit),
        ),
    )


def _chart(key: str, name: str, unit: str) -> rx.Component:
    return ride_graph(
        data=ActivityDetailState.points,
        data_key=key,
        name=name,
        unit=unit,
        color=CHART_COLOR[key],
        axis=ActivityDetailState.axis,
        average=ActivityDetailState.averages.get(key, None),
        area=key == "altitude",
        tick_every=ELEVATION_TICK_EVERY if key == "altitude" else 0,
        id=f"graph-{key}",
    )


def activity_detail_page() -> rx.Component:
    return page(
        rx.vstack(
            _back_link(),
            rx.cond(
                ActivityDetailState.error != "",
                card(
                    rx.heading(activities_msg.DETAIL_HEADING, as_="h1", style=VISUALLY_HIDDEN),
                    form_alert(ActivityDetailState.error, id="detail-error"),
                ),
                rx.cond(
                    ActivityDetailState.loading,
                    card(loading_line("Loading the activity...", "detail-loading")),
                    rx.vstack(_header(), *[_graph(*graph) for graph in GRAPHS], spacing="4", width="100%"),
                ),
            ),
            spacing="4",
            width="100%",
        )
    )
