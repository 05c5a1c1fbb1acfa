"""The event detail (/event/detail/{id}): the event, REGISTER NOW, winners and prize tables."""

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.db import get_session, off_loop
from cycling_site.messages import events as msg
from cycling_site.messages import site as site_msg
from cycling_site.models.common import utcnow
from cycling_site.routes import BY_NAME, path_of
from cycling_site.services import events
from cycling_site.settings import settings
from cycling_site.state.events import event_card
from cycling_site.state.session import signed_in_account

ROUTE = BY_NAME["event_detail"]
# What the built page says before an event is loaded (and for an unknown event).
DEFAULT_TITLE = site_msg.PAGE_TITLE.format(title=ROUTE.title, site=settings.site_name)
DEFAULT_DESCRIPTION = site_msg.PAGE_DESCRIPTIONS[ROUTE.name].format(site=settings.site_name)


class EventDetailState(rx.State):
    loading: bool = True
    error: str = ""
    event: dict = {}
    distance: str = ""
    elevation: str = ""
    max_grade: str = ""
    map_image: str = ""
    podium: list[dict[str, str]] = []
    other_winners: list[dict[str, str]] = []
    prize_tables: list[dict] = []
    is_registered: bool = False
    signed_in: bool = False
    # Each event's page has its own title and description, for the browser tab and for search engines.
    page_title: str = DEFAULT_TITLE
    page_description: str = DEFAULT_DESCRIPTION

    @rx.event
    async def load(self):
        self.loading = True
        self.error = ""
        self.page_title = DEFAULT_TITLE
        self.page_description = DEFAULT_DESCRIPTION
        event_id = self.router.url.path.rstrip("/").rsplit("/", 1)[-1]
        try:
            with get_session() as session:
                account = await signed_in_account(self, session)
                self.signed_in = account is not None
                event, registration = await off_loop(
                    events.event_and_registration, session, event_id, account
                )
        except events.EventNotFound:
            self.error = msg.EVENT_NOT_FOUND
            self.loading = False
            return
        except SQLAlchemyError:
            self.error = msg.LIST_FAILED
            self.loading = False
            return
        state = events.rider_state(event, account, registration, utcnow())
        self.event = event_card(event, state)
        self.is_registered = events.is_registered(registration)
        self.distance = f"{event.distance_km:g} km"
        self.elevation = f"{event.elevation_m:,} m"
        self.max_grade = f"{event.max_grade:g} %"
        self.map_image = event.map_image
        self.podium, self.other_winners = events.podium(event.winners, events.conversion_rate(event))
        self.prize_tables = events.prize_tables(event.prize_structure)
        self.page_title = site_msg.PAGE_TITLE.format(title=event.name, site=settings.site_name)
        self.page_description = site_msg.EVENT_DESCRIPTION.format(
            name=event.name,
            when=self.event["when"],
            distance=self.distance,
            elevation=self.elevation,
            prize=self.event["prize"],
            site=settings.site_name,
        )
        self.loading = False

    @rx.event
    def register(self):
        """Already registered riders go back to the events list; visitors sign in first."""
        event_id = self.event.get("id", "")
        if self.is_registered:
            return rx.redirect(path_of("event_list"))
        if not self.signed_in:
            return rx.redirect(f"{path_of('login')}?redirect=/event/detail/{event_id}")
        return rx.redirect(f"/event/{event_id}")
