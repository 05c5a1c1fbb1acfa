"""The event list (/, /home, /events) and the event detail (/event/detail/{id}), for visitors and riders."""

from datetime import datetime

import nh3
import reflex as rx
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from cycling_site.db import get_session, off_loop
from cycling_site.messages import events as msg
from cycling_site.models.accounts import Account
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event
from cycling_site.services import events
from cycling_site.state.dom import focus
from cycling_site.state.paging import page_window
from cycling_site.state.session import signed_in_account

GENDER_LABELS = {0: "Men", 1: "Women", 2: "Open"}
# "All events" shows this many at a time: the seeded list fits on one page, hundreds of events page.
EVENTS_PER_PAGE = 10
ALL_EVENTS_HEADING = "all-events-heading"


def category_rows(event: Event) -> list[dict[str, str]]:
    """Spec 2: Category 1 to 4, each an array whose first item has time, distance and elevation; with the
    category's description in the event's variant (spec 1)."""
    rows = []
    for name in events.CATEGORY_NAMES:
        first = (event.categories.get(name) or [{}])[0]
        rows.append(
            {
                "name": name,
                "description": events.category_description(name, event.category_variant, event.event_type),
                **{key: str(first.get(key, "-")) for key in ("time", "distance", "elevation")},
            }
        )
    return rows


def event_card(event: Event, state: events.RiderState) -> dict:
    prize, prize_usd = events.money_text(event.prize_money, events.conversion_rate(event))
    return {
        "id": str(event.id),
        "name": event.name,
        "when": events.when_text(event.starts_at),
        "image": event.image,
        "details": nh3.clean(event.details),
        "prize": prize,
        "prize_usd": prize_usd,
        "participants": f"{event.booked} / {event.capacity}",
        "gender": GENDER_LABELS.get(event.gender, ""),
        "categories": category_rows(event),
        "guide": event.links.get("technical_guide") or event.links.get("guideline") or "",
        "ruleset": event.links.get("ruleset", ""),
        "requirements": event.links.get("requirements", ""),
        "course": event.links.get("course_details", ""),
        "message": state.message,
        "can_register": state.can_register,
        "rejoin": state.rejoin,
        "status": state.status,
    }


def _read_lists(session: Session, account: Account | None, page: int, now: datetime) -> tuple:
    """The featured events, page `page` of the other upcoming ones, the past events and the rider's
    registrations, read off the event loop."""
    upcoming = events.upcoming_page(session, page, EVENTS_PER_PAGE, now)
    past = events.past(session, now)
    shown = [*upcoming.featured, *upcoming.others, *past]
    return upcoming, past, events.statuses(session, account, [event.id for event in shown])


class EventListState(rx.State):
    loading: bool = True
    error: str = ""
    signed_in: bool = False
    featured: list[dict] = []
    others: list[dict] = []
    past_events: list[dict] = []
    expanded: list[str] = []
    requirements: str = ""
    current_page: int = 1
    last_page: int = 1

    @rx.var
    def pages(self) -> list[int]:
        return page_window(self.current_page, self.last_page)

    @rx.event
    async def load(self):
        self.loading = True
        self.error = ""
        await self._read(1)

    @rx.event
    async def go_to_page(self, page: int):
        """Another page of "All events"; the list stays on screen until the new page is in, then the focus
        goes to the list's heading, so a keyboard or screen reader user starts reading at the top of it."""
        try:
            wanted = int(page)
        except (TypeError, ValueError):
            return None
        await self._read(wanted)
        return focus(ALL_EVENTS_HEADING)

    async def _read(self, page: int) -> None:
        now = utcnow()
        try:
            with get_session() as session:
                account = await signed_in_account(self, session)
                self.signed_in = account is not None
                upcoming, past, registrations = await off_loop(_read_lists, session, account, page, now)
        except SQLAlchemyError:
            self.error = msg.LIST_FAILED
            self.loading = False
            return

        def cards(found: list[Event]) -> list[dict]:
            return [
                event_card(event, events.rider_state(event, account, registrations.get(event.id), now))
                for event in found
            ]

        self.featured = cards(upcoming.featured)
        self.others = cards(upcoming.others)
        self.past_events = cards(past)
        self.current_page, self.last_page = upcoming.page, upcoming.last_page
        self.loading = False

    @rx.event
    def toggle_details(self, event_id: str) -> None:
        if event_id in self.expanded:
            self.expanded = [shown for shown in self.expanded if shown != event_id]
        else:
            self.expanded = [*self.expanded, event_id]

    @rx.event
    def show_requirements(self, text: str) -> None:
        self.requirements = text

    @rx.event
    def close_requirements(self, _open: bool = False) -> None:
        self.requirements = ""
