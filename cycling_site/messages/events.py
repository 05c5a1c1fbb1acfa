"""Texts of the event list, the event detail, prizes and registration (spec 2 sections 4 and 8)."""

from datetime import datetime

PENDING = "Your registration for this event is in process, soon you will receive a confirmation email."
APPROVED = "Congratulations! Your registration for this event has been approved."
DECLINED = "Your request for this event is declined. please contact support for further details"
CLOSED = "Registration for this event has been closed."
ROOM_FULL = "The room is already fill for this event."
LOGGED_OUT = "Login or create an account to register for this event."
MEN_ONLY = "This is a Males only event."
WOMEN_ONLY = "This is a Females only event."
EVENT_NOT_FOUND = "Event not found."
PAGES_LABEL = "All events pages"
PREVIOUS = "Previous"
NEXT = "Next"
EVENT_UNAVAILABLE_HINT = "The events open for registration are on the events page."
BACK_TO_EVENTS = "Back to events"
NO_EVENTS = "No upcoming events at the moment. New races are announced here first."
LIST_FAILED = "Unable to fetch events. Please try again."
REJOIN = "Re Join"
REGISTER_NOW = "REGISTER NOW"
JOIN = "Join"


def closes_at(moment: datetime) -> str:
    """The closing time shown on open events, in GMT+4."""
    return f"Registration closes {moment:%a %d %b %Y, %H:%M} GMT+4"


# Spec 1 section 3: the event category descriptions, in three variants keyed 0, 1 and 2.
CATEGORY_DESCRIPTIONS = {
    0: {"category-1": "CAT-1: riders above 4.0 w/kg", "category-2": "CAT-2: 1.0 to 3.9 w/kg"},
    1: {"category-1": "CAT-1: riders above 3.3 w/kg", "category-2": "CAT-2: 1.0 to 3.2 w/kg"},
    2: {"category-1": "CAT-1: riders above 4.0 w/kg", "category-2": "CAT-2: 1.0 to 3.9 w/kg"},
}
OPEN_CATEGORY = "Open: all categories"
