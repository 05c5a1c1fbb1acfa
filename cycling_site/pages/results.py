"""Results (/race-results): the results service in a frame, at the event and day of the page's query."""

import reflex as rx

from components.results_frame import results_frame
from cycling_site.clients.results import frame_origin
from cycling_site.messages import results as msg
from cycling_site.state.results import ResultsState
from cycling_site.ui.layout import heading, page
from cycling_site.ui.theme import COLOR, RADIUS, SHADOW

FRAME_HEIGHT = "80vh"


def results_page() -> rx.Component:
    return page(
        heading(msg.TITLE, msg.SUBTITLE),
        rx.box(
            rx.cond(
                ResultsState.frame_src != "",
                results_frame(
                    src=ResultsState.frame_src,
                    origin=frame_origin(),
                    title=msg.FRAME_TITLE,
                    on_navigate=ResultsState.navigate,
                    id="results-frame",
                    width="100%",
                    height=FRAME_HEIGHT,
                    border="0",
                    display="block",
                ),
                rx.center(rx.spinner(size="3"), height=FRAME_HEIGHT),
            ),
            background=COLOR["card"],
            border_radius=RADIUS["lg"],
            box_shadow=SHADOW["card"],
            overflow="hidden",
            width="100%",
        ),
    )
