"""Stored race results, as the results service shows them: races with results, their days, standings.

A one-day race has the standings of its day. A race over several days (a series) also has overall
standings: every rider who finished each day, by total time.
"""

import random
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import distinct
from sqlmodel import Session, col, func, select

from cycling_site.embedded.results.models import Race, ResultLine
from cycling_site.models.common import as_utc, utcnow

FIELD_SIZE = (20, 40)
# Share of each category in a field, and the w/kg band its riders race at (category 1 is the fastest).
CATEGORY_SHARE = {1: 0.15, 2: 0.3, 3: 0.35, 4: 0.2}
CATEGORY_WKG = {1: (4.1, 5.4), 2: (3.4, 4.3), 3: (2.8, 3.6), 4: (2.1, 2.9)}
DAY_FORM = 0.12  # how far a rider's w/kg on one day strays from their usual level
DEFAULT_COURSE = (30.0, 250)  # km and metres of climbing for an event that gives none
# Riders' names: first and last names that go together, from the Gulf and from abroad.
NAMES = (
    (
        ("Hamdan", "Omar", "Layla", "Sara", "Khalid", "Mariam", "Yusuf", "Aisha", "Rashid", "Noura", "Saeed",
         "Fatima", "Ali", "Hessa", "Majid", "Reem", "Tariq", "Salma", "Youssef", "Lina"),
        ("Al Mansoori", "Al Nuaimi", "Haddad", "Nasser", "Al Falasi", "Al Hashimi", "Khalil", "Al Suwaidi",
         "Al Ketbi", "Al Shamsi", "Al Marri", "Al Zaabi"),
    ),
    (
        ("Lukas", "Sofia", "Marco", "Elena", "James", "Chloe", "Mateo", "Ines", "Tom", "Anna", "Pierre",
         "Camille", "Daniel", "Maya", "Ivan", "Zara", "Niklas", "Emma"),
        ("Brandt", "Marin", "Rossi", "Novak", "Dubois", "Walker", "Costa", "Jensen", "Petrov", "Moreau",
         "Fischer", "Silva", "Lindqvist", "Keller"),
    ),
)  # fmt: skip
FULL_NAMES = tuple(f"{first} {last}" for firsts, lasts in NAMES for first in firsts for last in lasts)


@dataclass(frozen=True)
class RaceEntry:
    """A race the site asks demo results for: its event id, name, start, course and days of racing."""

    event_id: int
    name: str
    starts_at: datetime
    distance_km: float
    elevation_m: int
    days: int


@dataclass(frozen=True)
class ResultEvent:
    id: int
    name: str
    starts_at: datetime
    days: list[int]
    riders: int

    @property
    def series(self) -> bool:
        return len(self.days) > 1


@dataclass(frozen=True)
class Standing:
    position: int
    rider_name: str
    category: int
    time_s: float
    watts_per_kg: float


def race_time(seconds: float) -> str:
    """h:mm:ss, as results are read."""
    total = round(seconds)
    return f"{total // 3600}:{total % 3600 // 60:02d}:{total % 60:02d}"


def _result_events(session: Session, event_id: int | None = None) -> list[ResultEvent]:
    query = (
        select(Race.event_id, Race.name, Race.starts_at, func.count(distinct(ResultLine.rider_name)))
        .join(ResultLine, col(ResultLine.event_id) == Race.event_id)
        .group_by(Race.event_id, Race.name, Race.starts_at)
        .order_by(col(Race.starts_at).desc(), col(Race.event_id).desc())
    )
    days_query = select(ResultLine.event_id, ResultLine.day_id).distinct()
    if event_id is not None:
        query = query.where(Race.event_id == event_id)
        days_query = days_query.where(ResultLine.event_id == event_id)
    days: dict[int, list[int]] = {}
    for owner, day in session.exec(days_query):
        days.setdefault(owner, []).append(day)
    return [
        ResultEvent(key, name, as_utc(starts_at), sorted(days[key]), riders)
        for key, name, starts_at, riders in session.exec(query)
    ]


def events_with_results(session: Session) -> list[ResultEvent]:
    """Newest first."""
    return _result_events(session)


def result_event(session: Session, event_id: int) -> ResultEvent | None:
    found = _result_events(session, event_id)
    return found[0] if found else None


def standings(session: Session, event_id: int, day_id: int | None = None) -> list[Standing]:
    """The standings of one day; with no day, of the only day or, for a series, overall."""
    event = result_event(session, event_id)
    if event is None or (day_id is not None and day_id not in event.days):
        return []
    if day_id is not None or not event.series:
        rows = session.exec(
            select(ResultLine)
            .where(ResultLine.event_id == event_id, ResultLine.day_id == (day_id or event.days[0]))
            .order_by(ResultLine.position)
        )
        return [
            Standing(row.position, row.rider_name, row.category, row.time_s, row.watts_per_kg) for row in rows
        ]
    total = func.sum(ResultLine.time_s)
    # Over the whole series a rider's w/kg is their days' w/kg weighted by time.
    work = func.sum(ResultLine.watts_per_kg * ResultLine.time_s)
    rows = session.exec(
        select(ResultLine.rider_name, ResultLine.category, total, work)
        .where(ResultLine.event_id == event_id)
        .group_by(ResultLine.rider_name, ResultLine.category)
        .having(func.count(distinct(ResultLine.day_id)) == len(event.days))
        .order_by(total, ResultLine.rider_name)
    )
    return [
        Standing(place, name, category, round(seconds, 1), round(weighted / seconds, 2))
        for place, (name, category, seconds, weighted) in enumerate(rows, start=1)
    ]


def _speed(watts_per_kg: float, grade: float) -> float:
    """Steady speed in m/s of a rider in a bunch: climbing and rolling resistance plus (drafted) drag."""
    low, high = 0.5, 30.0
    for _ in range(50):
        speed = (low + high) / 2
        needed = 9.81 * (grade + 0.005) * speed + 0.0021 * speed**3
        low, high = (speed, high) if needed < watts_per_kg else (low, speed)
    return (low + high) / 2


def _field(rng: random.Random) -> list[tuple[str, int, float]]:
    """Riders of one event: unique names, categories in their usual shares, each rider's usual w/kg."""
    size = rng.randint(*FIELD_SIZE)
    names = rng.sample(FULL_NAMES, size)
    categories = rng.choices(list(CATEGORY_SHARE), weights=list(CATEGORY_SHARE.values()), k=size)
    return [(name, cat, rng.uniform(*CATEGORY_WKG[cat])) for name, cat in zip(names, categories, strict=True)]


def _day_results(rng: random.Random, race: RaceEntry, day: int, riders: list) -> list[ResultLine]:
    """Everyone rides the race's course; time follows w/kg, so places agree with w/kg in each category."""
    distance_km, elevation_m = (
        (race.distance_km, race.elevation_m) if race.distance_km > 0 else DEFAULT_COURSE
    )
    grade = elevation_m / (distance_km * 1000)
    finishes = []
    for name, category, usual in riders:
        watts_per_kg = round(usual + rng.uniform(-DAY_FORM, DAY_FORM), 2)
        finishes.append(
            (round(distance_km * 1000 / _speed(watts_per_kg, grade), 1), name, category, watts_per_kg)
        )
    finishes.sort()
    return [
        ResultLine(
            event_id=race.event_id,
            day_id=day,
            position=place,
            rider_name=name,
            category=category,
            time_s=time_s,
            watts_per_kg=watts_per_kg,
        )
        for place, (time_s, name, category, watts_per_kg) in enumerate(finishes, start=1)
    ]


def seed_results(session: Session, races: list[RaceEntry]) -> int:
    """Demo results for each given race that has started and has none yet; answers the lines written.

    The same race always gets the same results. On a series' later days a few riders do not start.
    """
    now = utcnow()
    stored = set(session.exec(select(Race.event_id)))
    written = 0
    for race in races:
        if as_utc(race.starts_at) > now or race.event_id in stored:
            continue
        session.add(Race(event_id=race.event_id, name=race.name, starts_at=race.starts_at))
        rng = random.Random(f"results-{race.event_id}")
        riders = _field(rng)
        for day in range(1, race.days + 1):
            if day > 1:
                riders = rng.sample(riders, len(riders) - rng.randint(1, 3))
            rows = _day_results(rng, race, day, riders)
            session.add_all(rows)
            written += len(rows)
    session.commit()
    return written
