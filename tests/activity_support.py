"""Rides for tests: the real fixture files and small synthetic FIT files written like the demo rides."""

from datetime import datetime
from pathlib import Path

import numpy as np
from sqlmodel import Session

from cycling_site.embedded.activity import rides
from cycling_site.embedded.activity.demo_rides import write_fit
from cycling_site.embedded.activity.models import Ride

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "fit"
EDGE810 = "Edge810-Vector-2013-08-16-15-35-10.fit"
INDOOR = "sample-activity-indoor-trainer.fit"
ZWIFT = "null_compressed_speed_dist.fit"
PAUSED = "2020-06-01-16-52-40.fit"


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def small_fit(started_at: datetime, watts: float = 200, seconds: int = 600, speed: float = 10.0) -> bytes:
    """A steady ride: constant power, 150 bpm, 90 rpm, flat, at `speed` m/s."""
    n = seconds
    return write_fit(
        started_at,
        "cycling",
        power=np.full(n, float(watts)),
        heart_rate=np.full(n, 150.0),
        cadence=np.full(n, 90.0),
        speed=np.full(n, speed),
        altitude=np.full(n, 20.0),
        distance=np.arange(n) * speed,
    )


def add_ride(
    session: Session,
    rider_uuid: str,
    data: bytes,
    *,
    type: str = "ride",
    title: str = "Test ride",
    route_name: str = "Al Qudra Loop",
    ftp: float = 250,
    weight: float = 70,
    file_name: str = "ride.fit",
) -> Ride:
    new = rides.NewRide(rider_uuid, data, file_name, type, title, route_name, ftp, weight)
    return rides.ingest(session, new)
