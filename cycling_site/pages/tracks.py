"""Tracks (/routes): every course with its image, title and description (spec 2 section 2)."""

import reflex as rx

from cycling_site.messages import tracks as msg
from cycling_site.state.tracks import TracksState
from cycling_site.ui.feedback import loading_line
from cycling_site.ui.first_screen import TRACK_IMAGE_RATIO, first_screen
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, RADIUS, SHADOW, SIZE, SPACE

GRID_COLUMNS = rx.breakpoints(initial="1", sm="2", lg="3")


def _track(track: dict) -> rx.Component:
    return rx.el.article(
        rx.image(
            src=track["image"],
            alt=track["title"],
            loading="lazy",
            width="100%",
            aspect_ratio=TRACK_IMAGE_RATIO,
            object_fit="cover",
            display="block",
            background=COLOR["ink"],
        ),
        rx.vstack(
            rx.heading(track["title"], as_="h2", font_size=SIZE["lg"], **DISPLAY_HEADING),
            rx.text(track["description"], color=COLOR["muted"], font_size=SIZE["sm"], line_height="1.6"),
            spacing="2",
            padding=SPACE["5"],
        ),
        class_name="track-card",
        background=COLOR["card"],
        border_radius=RADIUS["lg"],
        box_shadow=SHADOW["card"],
        overflow="hidden",
    )


def _placeholder() -> rx.Component:
    return rx.box(
        rx.skeleton(rx.box(width="100%", aspect_ratio=TRACK_IMAGE_RATIO), loading=True),
        rx.vstack(
            rx.skeleton(rx.box(height="22px", width="60%"), loading=True),
            rx.skeleton(rx.box(height="64px", width="100%"), loading=True),
            spacing="3",
            padding=SPACE["5"],
        ),
        background=COLOR["card"],
        border_radius=RADIUS["lg"],
        box_shadow=SHADOW["card"],
        overflow="hidden",
    )


def _loading() -> rx.Component:
    return rx.vstack(
        loading_line(msg.LOADING),
        rx.grid(*(_placeholder() for _ in range(3)), columns=GRID_COLUMNS, spacing="5", width="100%"),
        id="tracks-loading",
        spacing="4",
        width="100%",
    )


def _empty() -> rx.Component:
    return card(
        rx.hstack(
            rx.icon("map", color=COLOR["accent"]),
            rx.text(msg.EMPTY, color=COLOR["muted"]),
            spacing="3",
            align="center",
        ),
        id="no-tracks",
    )


def tracks_page() -> rx.Component:
    return page(
        heading(msg.TITLE, msg.SUBTITLE),
        rx.cond(
            TracksState.loading,
            first_screen(_loading()),
            rx.cond(
                TracksState.tracks.length() > 0,
                rx.grid(
                    rx.foreach(TracksState.tracks, _track),
                    id="tracks",
                    columns=GRID_COLUMNS,
                    spacing="5",
                    width="100%",
                ),
                _empty(),
            ),
        ),
    )
