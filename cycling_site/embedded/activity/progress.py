"""The rider profile service's progress figures: the grid by period and the bar chart (spec 3).

Periods are calendar periods in the site's zone. Weeks run Monday to Sunday and are numbered within
their month: week 1 is the week holding the 1st (spec 3: weeks since the start of the month's first
week, plus one).
"""

import calendar
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import date, datetime, time, timedelta
from typing import TypeVar

from sqlalchemy import bindparam, case, func
from sqlmodel import Session, select

from cycling_site.db import read_columns
from cycling_site.embedded.activity.models import Ride, RideType
from cycling_site.embedded.activity.rides import ActivityError
from cycling_site.local_time import LOCAL_TZ, local
from cycling_site.wire.activity import first_week_start, week_of_month

PERIODS = ("year", "month", "week")
YEAR_RANGE = (2000, 2100)
BAD_PERIOD = "Year, month and week must name a real period."
# Figures kept for riders whose rides have not changed since: the dashboard asks for them on every visit.
KEPT_ANSWERS = 4096

T = TypeVar("T")
_kept: OrderedDict[tuple, object] = OrderedDict()
_kept_lock = threading.Lock()


_VERSION = select(func.count(), func.max(Ride.id), func.max(Ride.created_at)).where(
    Ride.rider_uuid == bindparam("rider_uuid")
)


def _rides_version(session: Session, rider_uuid: str) -> tuple:
    """Rides are only ever added, so their count and latest id change with every new one; the latest stored
    time tells apart a database reset under a running site that happens to reach the same count."""
    return tuple(read_columns(session, _VERSION, rider_uuid=rider_uuid).one())


def _kept_or(session: Session, rider_uuid: str, question: tuple, work: Callable[[], T]) -> T:
    """The answer to `question` worked out for the rider's rides as they are now, or `work()` kept for next
    time. One small read instead of the rides themselves."""
    key = (rider_uuid, *_rides_version(session, rider_uuid), *question)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]  # type: ignore[return-value]
    answer = work()
    with _kept_lock:
        _kept[key] = answer
        while len(_kept) > KEPT_ANSWERS:
            _kept.popitem(last=False)
    return answer


def weeks_in_month(year: int, month: int) -> int:
    return week_of_month(date(year, month, calendar.monthrange(year, month)[1]))


def check_period(year: int, month: int = 1, week: int = 1) -> None:
    if not (YEAR_RANGE[0] <= year <= YEAR_RANGE[1]) or not (1 <= month <= 12):
        raise ActivityError(BAD_PERIOD)
    if not (1 <= week <= weeks_in_month(year, month)):
        raise ActivityError(BAD_PERIOD)


def period_days(period: str, year: int, month: int, week: int) -> tuple[date, date]:
    """First day and the day after the last, in the site's zone."""
    if period == "year":
        return date(year, 1, 1), date(year + 1, 1, 1)
    if period == "month":
        return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1]) + timedelta(
            days=1
        )
    start = first_week_start(year, month) + timedelta(weeks=week - 1)
    return start, start + timedelta(days=7)


def _utc_bound(day: date) -> datetime:
    return datetime.combine(day, time(), LOCAL_TZ)


def _figures(rows: Iterable[tuple]) -> dict:
    rows = list(rows)
    return {
        "distance": round(sum(row[1] for row in rows) / 1000, 1),
        "timeSpend": round(sum(row[3] for row in rows) / 60),
        "elevation": round(sum(row[2] for row in rows)),
        "longestRide": round(max((row[1] for row in rows), default=0) / 1000, 1),
        "races": sum(1 for row in rows if row[4] == RideType.event),
        "allRides": len(rows),
    }


def _rows(session: Session, rider_uuid: str, start: date, end: date) -> list[tuple]:
    query = select(Ride.started_at, Ride.distance_m, Ride.elevation_gain_m, Ride.duration_s, Ride.type).where(
        Ride.rider_uuid == rider_uuid,
        Ride.started_at >= _utc_bound(start),
        Ride.started_at < _utc_bound(end),
    )
    return [(local(row[0]).date(), *row[1:]) for row in session.exec(query).all()]


def _overall(session: Session, rider_uuid: str) -> dict:
    races = func.sum(case((Ride.type == RideType.event, 1), else_=0))
    query = select(
        func.count(),
        func.coalesce(func.sum(Ride.distance_m), 0),
        func.coalesce(func.sum(Ride.elevation_gain_m), 0),
        func.coalesce(func.sum(Ride.duration_s), 0),
        func.coalesce(func.max(Ride.distance_m), 0),
        func.coalesce(races, 0),
    ).where(Ride.rider_uuid == rider_uuid)
    count, distance, elevation, seconds, longest, race_count = session.exec(query).one()
    return {
        "distance": round(distance / 1000, 1),
        "timeSpend": round(seconds / 60),
        "elevation": round(elevation),
        "longestRide": round(longest / 1000, 1),
        "races": int(race_count),
        "allRides": count,
    }


def progress_wall(session: Session, rider_uuid: str, year: int, month: int, week: int) -> dict:
    """The progress grid: overall, this year, this month and this week."""
    check_period(year, month, week)
    return _kept_or(
        session,
        rider_uuid,
        ("wall", year, month, week),
        lambda: _wall(session, rider_uuid, year, month, week),
    )


def _wall(session: Session, rider_uuid: str, year: int, month: int, week: int) -> dict:
    spans = {period: period_days(period, year, month, week) for period in PERIODS}
    rows = _rows(session, rider_uuid, min(s for s, _ in spans.values()), max(e for _, e in spans.values()))
    grid = {"overall": _overall(session, rider_uuid)}
    for period, (start, end) in spans.items():
        grid[period] = _figures(row for row in rows if start <= row[0] < end)
    return grid


def progress_bars(
    session: Session, rider_uuid: str, period: str, year: int, month: int = 1, week: int = 1
) -> list[dict]:
    """Bar chart data: months of a year, days of a month or of a week, each with distance and elevation."""
    if period not in PERIODS:
        raise ActivityError(BAD_PERIOD)
    check_period(year, month, week)
    return _kept_or(
        session,
        rider_uuid,
        (period, year, month, week),
        lambda: _bars(session, rider_uuid, period, year, month, week),
    )


def _bars(session: Session, rider_uuid: str, period: str, year: int, month: int, week: int) -> list[dict]:
    start, end = period_days(period, year, month, week)
    rows = _rows(session, rider_uuid, start, end)
    if period == "year":
        buckets = [(date(year, m, 1), calendar.month_abbr[m]) for m in range(1, 13)]
    else:
        days = [start + timedelta(days=n) for n in range((end - start).days)]
        buckets = [(day, day.strftime("%a %d") if period == "week" else str(day.day)) for day in days]
    totals = {bucket: [0.0, 0.0] for bucket, _ in buckets}
    for row in rows:
        total = totals[row[0].replace(day=1) if period == "year" else row[0]]
        total[0] += row[1]
        total[1] += row[2]
    return [
        {
            "date": bucket.isoformat(),
            "label": label,
            "distance": round(totals[bucket][0] / 1000, 1),
            "elevation": round(totals[bucket][1]),
        }
        for bucket, label in buckets
    ]
