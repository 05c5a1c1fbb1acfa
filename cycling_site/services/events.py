"""Events as riders see them: the lists, one event with the rider's status, the register rule, prizes.

The status message and the Register button follow spec 2 section 4; every rule that decides whether a
rider may register is here, so the pages and the API answer alike.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, func, select

from cycling_site.local_time import local
from cycling_site.messages import events as msg
from cycling_site.models import Account
from cycling_site.models.common import as_utc, utcnow
from cycling_site.models.events import Event, EventGender, EventType, Registration, RegistrationStatus
from cycling_site.wire.ids import row_id

CATEGORY_NAMES = ("Category 1", "Category 2", "Category 3", "Category 4")
CATEGORY_KEYS = {"Category 1": "category-1", "Category 2": "category-2"}
PODIUM = 3
CURRENCY = "AED"


class EventNotFound(LookupError):
    pass


@dataclass(frozen=True)
class RiderState:
    """What the rider's status lets them do on this event."""

    status: str
    message: str
    can_register: bool
    rejoin: bool = False


def get_event(session: Session, event_id: object) -> Event:
    number = row_id(event_id)
    event = session.get(Event, number) if number else None
    if event is None:
        raise EventNotFound(msg.EVENT_NOT_FOUND)
    return event


def latest_registration(session: Session, event: Event, account: Account | None) -> Registration | None:
    if account is None:
        return None
    query = (
        select(Registration)
        .where(Registration.event_id == event.id, Registration.account_id == account.id)
        .order_by(col(Registration.id).desc())
    )
    return session.exec(query).first()


def event_and_registration(
    session: Session, event_id: object, account: Account | None
) -> tuple[Event, Registration | None]:
    """An event and the rider's latest registration for it (None for a visitor), read together."""
    event = get_event(session, event_id)
    return event, latest_registration(session, event, account)


def is_registered(registration: Registration | None) -> bool:
    """A pending or approved registration holds; a declined one leaves the rider free to join again."""
    return registration is not None and registration.status != RegistrationStatus.declined


def is_open(event: Event, now: datetime) -> bool:
    return event.accept and as_utc(event.closes_at) > now


def is_full(event: Event) -> bool:
    return event.booked >= event.capacity


def gender_allowed(event: Event, account: Account) -> bool:
    """Gender 2 is open; otherwise the rider's gender must match the event's."""
    return event.gender == EventGender.open or event.gender == account.gender


def rider_state(event: Event, account: Account | None, registration: Registration | None, now: datetime):
    status = registration.status if registration else ""
    if status == RegistrationStatus.pending:
        return RiderState(status, msg.PENDING, False)
    if status == RegistrationStatus.approved:
        return RiderState(status, msg.APPROVED, False)
    if not is_open(event, now):
        return RiderState(status, msg.CLOSED, False)
    if is_full(event):
        return RiderState(status, msg.ROOM_FULL, False)
    if account is None:
        return RiderState(status, msg.LOGGED_OUT, False)
    if not gender_allowed(event, account):
        return RiderState(status, msg.MEN_ONLY if event.gender == EventGender.men else msg.WOMEN_ONLY, False)
    if status == RegistrationStatus.declined:
        return RiderState(status, msg.DECLINED, True, rejoin=True)
    return RiderState(status, msg.closes_at(local(event.closes_at)), True)


def money(fils: int, conversion_rate: float) -> dict:
    """AED by default, with the USD figure by the event's conversion rate, rounded to 2 decimals."""
    aed = fils / 100
    return {"currency": CURRENCY, "amount": round(aed, 2), "usd": round(aed * conversion_rate, 2)}


def money_text(fils: int, conversion_rate: float) -> tuple[str, str]:
    """The AED and USD figures as shown: "AED 5,000.00", "USD 1,361.50"."""
    figures = money(fils, conversion_rate)
    return f"{CURRENCY} {figures['amount']:,.2f}", f"USD {figures['usd']:,.2f}"


def conversion_rate(event: Event) -> float:
    return float(event.prize_structure.get("conversionRate", 0))


def when_text(moment: datetime) -> str:
    """An event's start as the lists and its page show it: "Sat 05 Dec 2026 · 19:00 GMT+4"."""
    return f"{local(moment):%a %d %b %Y · %H:%M} GMT+4"


def _local_parts(moment: datetime) -> tuple[str, str]:
    shown = local(moment)
    return shown.strftime("%Y-%m-%d"), shown.strftime("%H:%M")


def event_summary(event: Event) -> dict:
    """Spec 2 "Event": times in GMT+4, money in AED with USD."""
    date, time = _local_parts(event.starts_at)
    date_close, time_close = _local_parts(event.closes_at)
    rate = conversion_rate(event)
    return {
        "id": event.id,
        "name": event.name,
        "date": date,
        "time": time,
        "date_close": date_close,
        "time_close": time_close,
        "image": event.image,
        "details": event.details,
        "prizeMoney": money(event.prize_money, rate),
        "distance": event.distance_km,
        "elevation": event.elevation_m,
        "maxGrade": event.max_grade,
        "map": event.map_image,
        "gender": event.gender,
        "event_type": event.event_type,
        "accept": event.accept,
        "participants": {"booked": event.booked, "capacity": event.capacity},
        "categories": event.categories,
        "route_type": event.route_type,
        "laps": event.laps,
        "links": event.links,
        "winners": event.winners,
        "event_prize_money": event.prize_structure,
        "dob_required": event.dob_required,
        "identification": event.identification,
        "device": event.device,
        "team": event.team,
        "otp": event.otp,
        "phone": event.otp,
        "weigh_ins": event.weigh_ins,
        "team_help_text": event.team_help_text,
        "countries": event.dial_codes,
    }


def upcoming(session: Session, now: datetime | None = None) -> dict[str, list[Event]]:
    """Events not yet started, soonest first: the featured group and all the others."""
    now = now or utcnow()
    events = session.exec(select(Event).where(Event.starts_at >= now).order_by(col(Event.starts_at))).all()
    return {
        "featured": [event for event in events if event.event_type == EventType.featured],
        "all": [event for event in events if event.event_type != EventType.featured],
    }


@dataclass(frozen=True)
class UpcomingPage:
    """The featured events and one page of the other upcoming events (`page` of `last_page`)."""

    featured: list[Event]
    others: list[Event]
    page: int
    last_page: int


def upcoming_page(session: Session, page: int, per_page: int, now: datetime | None = None) -> UpcomingPage:
    """As `upcoming`, with only one page of the others read (a page past the end reads the last one): a list
    of hundreds shows as fast as ten."""
    now = now or utcnow()
    ahead = Event.starts_at >= now
    featured = session.exec(
        select(Event).where(ahead, Event.event_type == EventType.featured).order_by(col(Event.starts_at))
    ).all()
    others = (ahead, Event.event_type != EventType.featured)
    total = session.exec(select(func.count()).select_from(Event).where(*others)).one()
    last_page = max(1, -(-total // per_page))
    page = min(max(page, 1), last_page)
    query = select(Event).where(*others).order_by(col(Event.starts_at), col(Event.id))
    found = session.exec(query.offset((page - 1) * per_page).limit(per_page)).all()
    return UpcomingPage(list(featured), list(found), page, last_page)


def category_description(name: str, variant: int, event_type: str) -> str:
    """The category's text in the event's variant (spec 1 section 3); an open event is open to all."""
    if event_type == EventType.open:
        return msg.OPEN_CATEGORY
    descriptions = msg.CATEGORY_DESCRIPTIONS.get(variant, msg.CATEGORY_DESCRIPTIONS[0])
    return descriptions.get(CATEGORY_KEYS.get(name, ""), "")


def past(session: Session, now: datetime | None = None, limit: int = 12) -> list[Event]:
    now = now or utcnow()
    query = select(Event).where(Event.starts_at < now).order_by(col(Event.starts_at).desc()).limit(limit)
    return list(session.exec(query).all())


def statuses(session: Session, account: Account | None, event_ids: list[int]) -> dict[int, Registration]:
    """The rider's latest registration per event, in one query for a whole list."""
    if account is None or not event_ids:
        return {}
    query = (
        select(Registration)
        .where(Registration.account_id == account.id, col(Registration.event_id).in_(event_ids))
        .order_by(col(Registration.id))
    )
    return {registration.event_id: registration for registration in session.exec(query).all()}


def _prize_rows(prizes: list[dict], rate: float) -> list[dict[str, str]]:
    rows = []
    for prize in prizes:
        aed, usd = money_text(int(prize.get("amount", 0)), rate)
        rows.append({"position": str(prize.get("position", "")), "aed": aed, "usd": usd})
    return rows


def prize_tables(structure: dict) -> list[dict]:
    """The prize tables of an event by templateType: a SERIES has overall and per-day tables per category,
    any other template one table per category."""
    rate = float(structure.get("conversionRate", 0))
    series = structure.get("templateType") == "SERIES"
    tables = []
    for group in structure.get("overall", []):
        headings = structure.get("overall_headings") if series else structure.get("headings")
        title = f"Overall · {group.get('category', '')}" if series else str(group.get("category", ""))
        tables.append(
            {
                "title": title,
                "headings": headings or ["Position", "Prize"],
                "rows": _prize_rows(group.get("prizes", []), rate),
            }
        )
    for group in structure.get("day", []) if series else []:
        tables.append(
            {
                "title": f"Day {group.get('day')} · {group.get('category', '')}",
                "headings": structure.get("day_headings") or ["Position", "Prize"],
                "rows": _prize_rows(group.get("prizes", []), rate),
            }
        )
    return tables


def podium(winners: list[dict], rate: float) -> tuple[list[dict], list[dict]]:
    """The top 3 for the podium, then the rest as a list."""
    ranked = sorted(winners, key=lambda winner: winner.get("position", 0))
    shown = [
        {
            "position": str(w.get("position", "")),
            "name": str(w.get("name", "")),
            "category": str(w.get("category", "")),
            "time": str(w.get("time", "")),
            "prize": money_text(int(w.get("prize", 0)), rate)[0],
        }
        for w in ranked
    ]
    return shown[:PODIUM], shown[PODIUM:]
