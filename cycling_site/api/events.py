"""Events for visitors and riders (spec 2 section 7): upcoming, all, and one with the rider's status."""

from fastapi import APIRouter, HTTPException
from pydantic import Field

from cycling_site.api.answers import Answer, AnswerModel, EventWithStatus
from cycling_site.api.deps import DB, OPTIONAL_SESSION, MaybeAccount
from cycling_site.api.errors import documented
from cycling_site.models import Account
from cycling_site.models.common import utcnow
from cycling_site.services import events

# Events are public; a valid session adds the rider's own status.
router = APIRouter(prefix="/events", tags=["events"])


class UpcomingEvents(AnswerModel):
    """Events not yet started, soonest first."""

    featured: list[EventWithStatus]
    all: list[EventWithStatus] = Field(description="Every other upcoming event")


class EventViewer(AnswerModel):
    """The signed-in rider, as the event page needs them."""

    firstname: str
    lastname: str
    email: str
    gender: int = Field(description="0 male, 1 female")
    isKid: bool


class EventDetail(AnswerModel):
    """Spec 2 "Event response"."""

    event: EventWithStatus
    user: EventViewer | None = Field(description="null without a session")
    is_registered: bool = Field(description="A pending or approved registration holds")


def _row(event, account: Account | None, registration, now) -> EventWithStatus:
    state = events.rider_state(event, account, registration, now)
    return EventWithStatus(
        **events.event_summary(event),
        ustatus=state.status,
        state_message=state.message,
        can_register=state.can_register,
    )


def _with_status(session, account: Account | None, found: list) -> list[EventWithStatus]:
    now = utcnow()
    registrations = events.statuses(session, account, [event.id for event in found])
    return [_row(event, account, registrations.get(event.id), now) for event in found]


@router.get("/upcoming", openapi_extra=OPTIONAL_SESSION, responses=documented(503))
def upcoming(session: DB, account: MaybeAccount) -> Answer[UpcomingEvents]:
    groups = events.upcoming(session)
    data = UpcomingEvents(
        featured=_with_status(session, account, groups["featured"]),
        all=_with_status(session, account, groups["all"]),
    )
    return Answer[UpcomingEvents](data=data)


@router.get("", openapi_extra=OPTIONAL_SESSION, responses=documented(503))
def all_events(session: DB, account: MaybeAccount) -> Answer[list[EventWithStatus]]:
    """The upcoming events (featured first), then the latest past ones."""
    groups = events.upcoming(session)
    found = [*groups["featured"], *groups["all"], *events.past(session)]
    return Answer[list[EventWithStatus]](data=_with_status(session, account, found))


@router.get("/{event_id}", openapi_extra=OPTIONAL_SESSION, responses=documented(404, 503))
def event_detail(event_id: str, session: DB, account: MaybeAccount) -> Answer[EventDetail]:
    """Spec 2 "Event response": event, user and is_registered."""
    try:
        event = events.get_event(session, event_id)
    except events.EventNotFound as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from exc
    registration = events.latest_registration(session, event, account)
    row = _row(event, account, registration, utcnow())
    user = None
    if account is not None:
        user = EventViewer(
            firstname=account.firstname,
            lastname=account.lastname,
            email=account.email,
            gender=account.gender,
            isKid=account.is_kid,
        )
    detail = EventDetail(event=row, user=user, is_registered=events.is_registered(registration))
    return Answer[EventDetail](data=detail)
