"""Demo events that cover every case of the event screens: featured and open, both prize templates,
each wizard flag alone and all together, men-only and women-only, full, closed, past, and with winners;
and weigh-ins: one window open now, one opening in a few hours, one that has just ended."""

from datetime import datetime, timedelta

from cycling_site.models.events import Event, EventGender, EventType
from cycling_site.models.weigh_ins import WeighInType, WeighInWindow

LINKS = {
    "technical_guide": "/support",
    "ruleset": "/sunday-race-club-ruleset",
    "requirements": "Direct-drive smart trainer, heart rate monitor, and a verified weight before the start.",
    "course_details": "/routes",
}
CONVERSION_RATE = 0.2723  # USD per AED


def _categories(distance_km: float, elevation_m: int, minutes: int) -> dict:
    """Spec 2: Category 1 to 4, each an array whose first item has time, distance and elevation."""
    return {
        f"Category {n}": [
            {
                "time": f"{minutes + 6 * (n - 1)} min",
                "distance": f"{round(distance_km * (1 - 0.1 * (n - 1)), 1)} km",
                "elevation": f"{round(elevation_m * (1 - 0.1 * (n - 1)))} m",
            }
        ]
        for n in range(1, 5)
    }


def _prizes(amounts_aed: list[int]) -> list[dict]:
    return [{"position": place, "amount": aed * 100} for place, aed in enumerate(amounts_aed, start=1)]


def series_prizes() -> dict:
    """A series: an overall prize table per category and a table per race day."""
    categories = ["Category 1", "Category 2", "Category 3", "Category 4"]
    return {
        "templateType": "SERIES",
        "currency": "AED",
        "conversionRate": CONVERSION_RATE,
        "headings": ["Position", "Prize"],
        "overall_headings": ["Overall position", "Prize"],
        "day_headings": ["Day position", "Prize"],
        "categories": categories,
        "overall": [{"category": c, "prizes": _prizes([5000, 3000, 2000, 1000, 500])} for c in categories],
        "day": [
            {"day": day, "category": c, "prizes": _prizes([1000, 600, 400])}
            for day in (1, 2)
            for c in categories
        ],
    }


def race_prizes() -> dict:
    """A single race: one prize table per category."""
    categories = ["Category 1", "Category 2"]
    return {
        "templateType": "RACE",
        "currency": "AED",
        "conversionRate": CONVERSION_RATE,
        "headings": ["Position", "Prize"],
        "overall_headings": [],
        "day_headings": [],
        "categories": categories,
        "overall": [
            {"category": c, "prizes": _prizes([20000, 12000, 8000, 4000, 2000, 1000])} for c in categories
        ],
        "day": [],
    }


WINNER_PRIZES = [500000, 300000, 200000, 100000, 50000]  # fils, first to fifth
# Stand-in winners; the seed replaces them with the top of each past event's stored results.
WINNERS = [
    {
        "position": 1,
        "name": "Hamdan Al Mansoori",
        "category": "Category 1",
        "time": "1:02:14",
        "prize": 500000,
    },
    {"position": 2, "name": "Lukas Brandt", "category": "Category 1", "time": "1:02:19", "prize": 300000},
    {"position": 3, "name": "Omar Khalil", "category": "Category 1", "time": "1:02:47", "prize": 200000},
    {"position": 4, "name": "Sofia Marin", "category": "Category 1", "time": "1:03:05", "prize": 100000},
    {"position": 5, "name": "Yusuf Demir", "category": "Category 1", "time": "1:03:32", "prize": 50000},
]


def _event(now: datetime, name: str, days: float, theme: str, **fields) -> Event:
    """Races start at 19:00 GMT+4 (15:00 UTC) on the given day from now."""
    starts_at = (now + timedelta(days=days)).replace(hour=15, minute=0, second=0, microsecond=0)
    distance_km, elevation_m = fields.get("distance_km", 32.4), fields.get("elevation_m", 410)
    values = {
        "name": name,
        "starts_at": starts_at,
        "closes_at": starts_at - timedelta(hours=2),
        "image": f"/events/event-{theme}.svg",
        "map_image": f"/events/map-{theme}.svg",
        "details": f"<p>{name}: a race on the game's virtual roads. Ride to your category's distance; "
        "results are checked by race control.</p>",
        "prize_money": 1_000_000,
        "distance_km": distance_km,
        "elevation_m": elevation_m,
        "max_grade": 6.5,
        "route_type": "Circuit",
        "laps": 3,
        "categories": _categories(distance_km, elevation_m, round(distance_km * 1.8)),
        "links": LINKS,
        "prize_structure": race_prizes(),
        "dial_codes": ["971"],
        **fields,
    }
    return Event(**values)


def demo_events(now: datetime) -> list[Event]:
    return [
        _event(
            now,
            "Sunday Race Club - Round 10",
            8,
            "desert",
            event_type=EventType.featured,
            prize_structure=series_prizes(),
            prize_money=4_000_000,
            capacity=300,
            booked=112,
        ),
        _event(
            now,
            "AlUla Desert Classic",
            15,
            "mountain",
            event_type=EventType.featured,
            prize_money=9_600_000,
            dob_required=True,
            identification=True,
            device=True,
            team=True,
            otp=True,
            team_help_text="Riders of one team start together; give the team name your captain registered.",
            dial_codes=["971", "966", "973", "968"],
            distance_km=64.2,
            elevation_m=1210,
            max_grade=9.0,
        ),
        _event(
            now,
            "Hatta Hills Time Trial",
            5,
            "mountain",
            dob_required=True,
            event_type=EventType.open,
            weigh_ins=True,
        ),
        _event(now, "Corniche Crit", 6, "coast", identification=True),
        _event(now, "Meydan Night Race", 9, "night", device=True, event_type=EventType.open, weigh_ins=True),
        _event(
            now,
            "Al Qudra Team Relay",
            10,
            "desert",
            team=True,
            team_help_text="Teams of four; each rider rides one lap. Give your team's registered name.",
        ),
        _event(
            now,
            "Jebel Hafeet Hill Climb",
            12,
            "mountain",
            otp=True,
            dial_codes=["971", "968"],
            distance_km=11.8,
            elevation_m=1018,
            max_grade=10.0,
            laps=1,
            route_type="Point to point",
        ),
        _event(now, "Women's Series - Round 3", 7, "coast", gender=EventGender.women),
        _event(now, "Men's Masters Race", 11, "night", gender=EventGender.men),
        _event(now, "Full House Sprint", 4, "night", capacity=20, booked=20),
        _event(now, "Closed Registration Classic", 3, "desert", accept=False),
        _event(
            now,
            "Sunday Race Club - Round 9",
            -6,
            "desert",
            prize_structure=series_prizes(),
            winners=WINNERS,
            weigh_ins=True,
        ),
        _event(now, "Desert Crit Series - Race 2", -13, "coast", winners=WINNERS[:3]),
    ]


# The demo's weigh-in windows, relative to when the seed runs: (event, type, opens, closes) from now.
WEIGH_INS = (
    ("Hatta Hills Time Trial", WeighInType.pre_weight, timedelta(hours=-1), timedelta(days=1)),
    ("Meydan Night Race", WeighInType.pre_weight, timedelta(hours=3), timedelta(days=2)),
    ("Sunday Race Club - Round 9", WeighInType.post_weight, timedelta(days=-2), timedelta(minutes=-10)),
)


def weigh_in_windows(events: list[Event], now: datetime) -> list[WeighInWindow]:
    """The windows of the demo events with weigh-ins (the events stored first, for their ids)."""
    by_name = {event.name: event for event in events}
    return [
        WeighInWindow(event_id=by_name[name].id, type=kind, starts_at=now + opens, ends_at=now + closes)
        for name, kind, opens, closes in WEIGH_INS
    ]
