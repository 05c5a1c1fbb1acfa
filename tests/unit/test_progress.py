"""Progress by period in the site's zone, and the spec's week-of-month number."""

from datetime import UTC, date, datetime, timedelta

import pytest

from cycling_site.embedded.activity import progress
from cycling_site.embedded.activity.models import Ride
from cycling_site.embedded.activity.rides import ActivityError
from cycling_site.wire.activity import week_of_month

RIDER = "11111111-1111-1111-1111-111111111111"


@pytest.mark.parametrize(
    ("day", "week"),
    [
        (date(2026, 11, 1), 1),  # a Sunday: the month's first week began on Monday 26 October
        (date(2026, 11, 2), 2),
        (date(2026, 11, 21), 4),
        (date(2026, 11, 30), 6),
        (date(2026, 6, 1), 1),  # a Monday
        (date(2026, 6, 30), 5),
    ],
)
def test_week_of_month(day, week):
    assert week_of_month(day) == week


def _ride(session, started_at: datetime, km: float, climb: float, minutes: int, type: str = "ride") -> None:
    session.add(
        Ride(
            rider_uuid=RIDER,
            type=type,
            title="r",
            started_at=started_at,
            duration_s=minutes * 60,
            moving_s=minutes * 60,
            distance_m=km * 1000,
            elevation_gain_m=climb,
            ftp=250,
            weight_kg=70,
            file_name="r.fit",
            file_sha256=str(started_at.timestamp()),
        )
    )
    session.commit()


def test_the_grid_counts_each_period_in_the_sites_zone(session):
    # 21:30 UTC on 20 November is 01:30 on the 21st in GMT+4: this week (week 4), not the day before.
    _ride(session, datetime(2026, 11, 20, 21, 30, tzinfo=UTC), 40, 300, 90, "event")
    _ride(session, datetime(2026, 11, 3, 6, 0, tzinfo=UTC), 60, 100, 120)
    _ride(session, datetime(2026, 2, 3, 6, 0, tzinfo=UTC), 20, 50, 60)
    _ride(session, datetime(2025, 12, 31, 6, 0, tzinfo=UTC), 100, 900, 240)
    grid = progress.progress_wall(session, RIDER, 2026, 11, 4)
    assert grid["overall"] == {
        "distance": 220.0,
        "timeSpend": 510,
        "elevation": 1350,
        "longestRide": 100.0,
        "races": 1,
        "allRides": 4,
    }
    assert grid["year"]["allRides"] == 3 and grid["year"]["distance"] == 120.0
    assert grid["month"] == {
        "distance": 100.0,
        "timeSpend": 210,
        "elevation": 400,
        "longestRide": 60.0,
        "races": 1,
        "allRides": 2,
    }
    assert grid["week"]["allRides"] == 1 and grid["week"]["races"] == 1


def test_the_bars_of_a_year_a_month_and_a_week(session):
    _ride(session, datetime(2026, 11, 20, 21, 30, tzinfo=UTC), 40, 300, 90)
    _ride(session, datetime(2026, 11, 21, 5, 0, tzinfo=UTC), 10, 20, 30)
    year = progress.progress_bars(session, RIDER, "year", 2026)
    assert [bar["label"] for bar in year][:2] == ["Jan", "Feb"] and len(year) == 12
    assert year[10]["distance"] == 50.0 and year[10]["elevation"] == 320
    month = progress.progress_bars(session, RIDER, "month", 2026, 11)
    assert len(month) == 30 and month[20] == {
        "date": "2026-11-21",
        "label": "21",
        "distance": 50.0,
        "elevation": 320,
    }
    assert month[19]["distance"] == 0
    week = progress.progress_bars(session, RIDER, "week", 2026, 11, 4)
    assert [bar["date"] for bar in week] == [
        (date(2026, 11, 16) + timedelta(days=n)).isoformat() for n in range(7)
    ]
    assert week[5]["label"] == "Sat 21" and week[5]["distance"] == 50.0


@pytest.mark.parametrize(
    ("args"),
    [("year", 1999), ("month", 2026, 13), ("week", 2026, 11, 7), ("week", 2026, 2, 0), ("day", 2026)],
)
def test_periods_that_do_not_exist_are_refused(session, args):
    with pytest.raises(ActivityError, match=progress.BAD_PERIOD):
        progress.progress_bars(session, RIDER, *args)
