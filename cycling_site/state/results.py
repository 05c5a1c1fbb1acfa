"""The results page (/race-results): the results service in a frame, at the event and day of the query.

The frame's links post a message instead of navigating; the page moves to /race-results with the event
and day the message names, and the new query gives the frame its new address (spec 3 section 2).
"""

from urllib.parse import urlencode

import reflex as rx

from cycling_site.clients import results as results_client
from cycling_site.routes import path_of
from cycling_site.wire.ids import row_id
from cycling_site.wire.results import EVENT_MESSAGES


def results_path(kind: str, event_id: str = "", day_id: str = "") -> str:
    """Where a message from the frame leads: "events" to the list, "series" and "single" to their event."""
    event = row_id(event_id)
    if kind not in EVENT_MESSAGES or event is None:
        return path_of("results")
    day = row_id(day_id)
    query = {"eventId": event, **({"dayId": day} if day else {})}
    return f"{path_of('results')}?{urlencode(query)}"


class ResultsState(rx.State):
    frame_src: str = ""

    @rx.event
    def load(self) -> None:
        query = self.router.url.query_parameters
        self.frame_src = results_client.frame_url(query.get("eventId"), query.get("dayId"))

    @rx.event
    def navigate(self, kind: str, event_id: str, day_id: str):
        """Follows a message from the frame, unless it names the page already shown."""
        url = self.router.url
        target = results_path(kind, event_id, day_id)
        if target != url.path.rstrip("/") + (f"?{url.query}" if url.query else ""):
            return rx.redirect(target)
        return None
