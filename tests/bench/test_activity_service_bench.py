"""Speed of the activity service's reads and of a whole ingest (run with --benchmark-only); budgets asserted.

Budgets: ingest of a 4-hour ride under 1 s, the overall curve of a rider with 1,000 rides under 20 ms, an
activities page of 20 rows for a rider with 5,000 rides under 30 ms.
"""

from datetime import UTC, datetime, timedelta

import numpy as np
from sqlmodel import delete

from cycling_site.embedded.activity import rides
from cycling_site.embedded.activity.demo_rides import write_fit
from cycling_site.embedded.activity.models import Ride, RideData, RiderCurve
from tests.activity_support import add_ride

RIDER = "11111111-1111-1111-1111-111111111111"
OTHER = "22222222-2222-2222-2222-222222222222"
START = datetime(2024, 1, 1, 5, 0, tzinfo=UTC)


def _ride_fit(seed: int, seconds: int, started_at: datetime) -> bytes:
    rng = np.random.default_rng(seed)
    power = np.clip(
        200 + 80 * np.sin(np.arange(seconds) / (60 + seed % 300)) + rng.normal(0, 50, seconds), 0, 1500
    )
    speed = np.full(seconds, 9.0)
    return write_fit(
        started_at,
        "cycling",
        power=np.round(power),
        heart_rate=np.full(seconds, 150.0),
        cadence=np.full(seconds, 90.0),
        speed=speed,
        altitude=20 + 10 * np.sin(np.arange(seconds) / 600),
        distance=np.cumsum(speed),
    )


def _median_ms(benchmark) -> float:
    return benchmark.stats.stats.median * 1000


def test_ingest_of_a_four_hour_ride(benchmark, session):
    data = _ride_fit(1, 4 * 3600, START)

    def ingest():
        for table in (RideData, RiderCurve, Ride):
            session.exec(delete(table))
        session.commit()
        return add_ride(session, RIDER, data)

    ride = benchmark.pedantic(ingest, rounds=5, iterations=1)
    assert ride.duration_s >= 4 * 3600 - 1
    assert _median_ms(benchmark) < 1000


def test_overall_curve_of_a_rider_with_a_thousand_rides(benchmark, session):
    for n in range(1000):
        seconds = 300 + (n * 37) % 1500
        add_ride(session, RIDER, _ride_fit(n, seconds, START + timedelta(hours=n)))
    curve = benchmark(rides.overall_curve, session, RIDER)
    assert len(curve["power"]) > 100
    assert _median_ms(benchmark) < 20


def test_an_activities_page_of_a_rider_with_five_thousand_rides(benchmark, session):
    rows = []
    for rider in (RIDER, OTHER):
        for n in range(5000):
            rows.append(
                Ride(
                    rider_uuid=rider,
                    type=("ride", "workout", "event")[n % 3],
                    title=f"Ride {n}",
                    route_name="Al Qudra Loop",
                    started_at=START + timedelta(hours=7 * n),
                    duration_s=3600,
                    moving_s=3600,
                    distance_m=35_000,
                    elevation_gain_m=120,
                    avg_power=200,
                    watts_per_kg=2.9,
                    avg_heart_rate=150,
                    ftp=250,
                    weight_kg=70,
                    file_name="ride.fit",
                    file_sha256=f"{rider}-{n}",
                )
            )
    session.add_all(rows)
    session.commit()
    page = benchmark(rides.list_rides, session, RIDER, "all", 1, "desc")
    assert page["totalCount"] == 5000 and len(page["results"]) == 20
    assert _median_ms(benchmark) < 30
