"""Events for visitors and riders (spec 2 section 7): upcoming, all, and one with the rider's status."""

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import Field

from cycling_site.api import caching
from cycling_site.api.answers import Answer, AnswerModel, EventWithStatus
from cycling_site.api.deps import DB, OPTIONAL_SESSION, MaybeAccount, SentToken
from cycling_site.api.errors import documented
from cycling_site.db import get_session, off_loop
from cycling_site.models import Account
from cycling_site.models.common import utcnow
from cycling_site.services import events, tokens

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


def _upcoming(session, account: Account | None) -> Answer[UpcomingEvents]:
    groups = events.upcoming(session)
    data = UpcomingEvents(
        featured=_with_status(session, account, groups["featured"]),
        all=_with_status(session, account, groups["all"]),
    )
    return Answer[UpcomingEvents](data=data)


def _all(session, account: Account | None) -> Answer[list[EventWithStatus]]:
    groups = events.upcoming(session)
    found = [*groups["featured"], *groups["all"], *events.past(session)]
    return Answer[list[EventWithStatus]](data=_with_status(session, account, found))


def _body(build, token: str) -> bytes:
    """The answer for this session (a token that makes none is answered as a visitor)."""
    with get_session() as session:
        account = tokens.check_session(session, token).account if token else None
        return caching.body_of(build(session, account))


async def _list(request: Request, token: str, build) -> Response:
    """Visitors share one answer built every few seconds; a rider's own is built for them. Both with an
    ETag, so a caller holding the answer already gets 304."""
    if not token:
        body = await caching.public_body(build.__name__, lambda: _body(build, ""))
        return caching.answer(request, body, caching.PUBLIC)
    return caching.answer(request, await off_loop(_body, build, token), caching.PRIVATE)


@router.get(
    "/upcoming",
    openapi_extra=OPTIONAL_SESSION,
    responses={**caching.NOT_MODIFIED, **documented(503)},
    response_model=Answer[UpcomingEvents],
)
async def upcoming(request: Request, token: SentToken) -> Response:
    return await _list(request, token, _upcoming)


@router.get(
    "",
    openapi_extra=OPTIONAL_SESSION,
    responses={**caching.NOT_MODIFIED, **documented(503)},
    response_model=Answer[list[EventWithStatus]],
)
async def all_events(request: Request, token: SentToken) -> Response:
    """The upcoming events (featured first), then the latest past ones."""
    return await _list(request, token, _all)


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
