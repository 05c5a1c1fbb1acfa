"""Where the results page's frame points: the results service, with the event and day to show.

With no RESULTS_SERVICE_URL the embedded service answers at /results-service on the site itself.
"""

from urllib.parse import urlencode, urlsplit

from cycling_site.settings import settings
from cycling_site.wire.ids import row_id
from cycling_site.wire.results import EMBEDDED_PREFIX


def frame_url(event_id: str | None = None, day_id: str | None = None) -> str:
    """The frame's address; only numeric ids are passed on, and a day only with its event."""
    base = settings.results_service_url or f"{EMBEDDED_PREFIX}/"
    event = row_id(event_id)
    day = row_id(day_id) if event else None
    query = {key: value for key, value in (("eventId", event), ("dayId", day)) if value}
    if not query:
        return base
    return f"{base}{'&' if '?' in base else '?'}{urlencode(query)}"


def frame_origin() -> str:
    """The origin the frame's messages come from; empty: the site's own."""
    if not settings.results_service_url:
        return ""
    parts = urlsplit(settings.results_service_url)
    return f"{parts.scheme}://{parts.netloc}"
