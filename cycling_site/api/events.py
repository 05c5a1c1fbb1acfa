"""Events for visitors and riders (spec 2 section 7): upcoming, all, and one with the rider's status."""

from fastapi import APIRouter, HTTPException

from cycling_site.api.deps import DB, OPTIONAL_SESSION, MaybeAccount
from cycling_site.api.errors import documented
from cycling_site.models import Account
from cycling_site.models.common import utcnow
from cycling_site.services import events

# Events are public; a valid session adds the rider's own status.
router = APIRouter(prefix="/events", tags=["events"])


def _row(event, account: Account | None, registration, now) -> dict:
    state = events.rider_state(event, account, registration, now)
    return {
        **events.event_summary(event),
        "ustatus": state.status,
        "state_message": state.message,
        "can_register": state.can_register,
    }


def _with_status(session, account: Account | None, found: list) -> list[dict]:
    now = utcnow()
    registrations = events.statuses(session, account, [event.id for event in found])
    return [_row(event, account, registrations.get(event.id), now) for event in found]


@router.get("/upcoming", openapi_extra=OPTIONAL_SESSION, responses=documented(503))
def upcoming(session: DB, account: MaybeAccount) -> dict:
    groups = events.upcoming(session)
    return {
        "status": True,
        "data": {name: _with_status(session, account, found) for name, found in groups.items()},
    }


@router.get("", openapi_extra=OPTIONAL_SESSION, responses=documented(503))
def all_events(session: DB, account: MaybeAccount) -> dict:
    groups = events.upcoming(session)
    found = [*groups["featured"], *groups["all"], *events.past(session)]
    return {"status": True, "data": _with_status(session, account, found)}


@router.get("/{event_id}", openapi_extra=OPTIONAL_SESSION, responses=documented(404, 503))
def event_detail(event_id: str, session: DB, account: MaybeAccount) -> dict:
    """Spec 2 "Event response": event, user and is_registered."""
    try:
        event = events.get_event(session, event_id)
    except events.EventNotFound as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from exc
    registration = events.latest_registration(session, event, account)
    row = _row(event, account, registration, utcnow())
    user = None
    if account is not None:
        user = {
            "firstname": account.firstname,
            "lastname": account.lastname,
            "email": account.email,
            "gender": account.gender,
            "isKid": account.is_kid,
        }
    return {
        "status": True,
        "data": {"event": row, "user": user, "is_registered": events.is_registered(registration)},
    }
