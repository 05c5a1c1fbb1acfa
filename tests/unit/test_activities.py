"""The activity service's rules: ingest, a rider's own lists, details, curves and files, bad input."""

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from sqlmodel import func, select

from cycling_site.embedded.activity import ride_metrics, rides
from cycling_site.embedded.activity.fit_files import FitFileError
from cycling_site.embedded.activity.models import Ride, RideData, RiderCurve
from cycling_site.embedded.activity.rides import ActivityError, ActivityNotFound, DuplicateRide
from cycling_site.wire.activity import MAX_FIT_BYTES
from tests.activity_support import EDGE810, INDOOR, add_ride, fixture_bytes, small_fit

RIDER = "11111111-1111-1111-1111-111111111111"
OTHER = "22222222-2222-2222-2222-222222222222"
START = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)


def _count(session, table) -> int:
    return session.exec(select(func.count()).select_from(table)).one()


def test_ingest_stores_the_figures_the_file_and_the_curve(session):
    data = fixture_bytes(EDGE810)
    ride = add_ride(session, RIDER, data, ftp=315, weight=70, file_name=EDGE810)
    assert ride.duration_s > 3600 and ride.distance_m > 40_000
    assert abs(ride.normalized_power - 301) <= 2
    assert abs(ride.training_load - 118.7) <= 118.7 * 0.02
    assert ride.intensity == pytest.approx(ride.normalized_power / 315, abs=0.002)
    assert ride.watts_per_kg == pytest.approx(ride.avg_power / 70, abs=0.01)
    stored = session.get(RideData, ride.id)
    assert stored.fit_file == data
    curve = np.frombuffer(stored.curve, dtype=np.float32)
    assert curve.size == np.searchsorted(ride_metrics.CURVE_SECONDS, ride.duration_s, side="right")
    assert curve[0] == pytest.approx(ride.max_power, abs=1)


def test_the_best_curve_is_the_running_maximum_of_every_ride(session):
    easy = add_ride(session, RIDER, small_fit(START, watts=150, seconds=1800))
    hard = add_ride(session, RIDER, small_fit(START + timedelta(days=1), watts=300, seconds=600))
    best = session.get(RiderCurve, RIDER)
    power = np.frombuffer(best.power, dtype=np.float32)
    easy_curve = np.frombuffer(session.get(RideData, easy.id).curve, dtype=np.float32)
    hard_curve = np.frombuffer(session.get(RideData, hard.id).curve, dtype=np.float32)
    assert power.size == easy_curve.size
    assert np.array_equal(
        power, np.maximum(easy_curve, np.pad(hard_curve, (0, easy_curve.size - hard_curve.size)))
    )
    overall = rides.overall_curve(session, RIDER)
    assert overall["power"][0] == 300 and overall["power"][-1] == 150
    assert overall["power_weight"][0] == pytest.approx(300 / 70, abs=0.01)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n" + b"\0" * 100, "not a FIT file"),
        (b"hello, this is text", "not a FIT file"),
    ],
)
def test_a_file_that_is_not_fit_is_refused_and_nothing_is_stored(session, data, message):
    with pytest.raises(FitFileError, match=message):
        add_ride(session, RIDER, data)
    assert _count(session, Ride) == 0 and _count(session, RiderCurve) == 0


@pytest.mark.parametrize("cut", [20, 1000, -3])
def test_a_truncated_or_damaged_fit_file_is_refused(session, cut):
    data = fixture_bytes(INDOOR)
    with pytest.raises(FitFileError):
        add_ride(session, RIDER, data[:cut])
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0xFF
    with pytest.raises(FitFileError):
        add_ride(session, RIDER, bytes(damaged))
    assert _count(session, Ride) == 0


def test_the_same_file_twice_is_refused(session):
    data = small_fit(START)
    add_ride(session, RIDER, data)
    with pytest.raises(DuplicateRide, match=rides.ALREADY_UPLOADED):
        add_ride(session, RIDER, data)
    add_ride(session, OTHER, data)
    assert _count(session, Ride) == 2


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("type", "race", rides.BAD_TYPE),
        ("ftp", 10, rides.BAD_FTP),
        ("weight", 400, rides.BAD_WEIGHT),
        ("title", "x" * 101, rides.BAD_TEXT),
    ],
)
def test_bad_ride_fields_are_refused(session, field, value, message):
    with pytest.raises(ActivityError, match=message):
        add_ride(session, RIDER, small_fit(START), **{field: value})
    assert _count(session, Ride) == 0


def test_a_file_over_the_limit_is_refused(session):
    with pytest.raises(ActivityError, match="too large"):
        add_ride(session, RIDER, b"\0" * (MAX_FIT_BYTES + 1))


def test_a_ride_without_power_keeps_its_other_figures(session):
    n = 900
    from cycling_site.embedded.activity.demo_rides import write_fit

    data = write_fit(
        START,
        "cycling",
        power=np.full(n, np.nan),
        heart_rate=np.full(n, 140.0),
        cadence=np.full(n, np.nan),
        speed=np.full(n, 8.0),
        altitude=np.linspace(10, 60, n),
        distance=np.arange(n) * 8.0,
    )
    ride = add_ride(session, RIDER, data)
    assert ride.avg_power is None and ride.normalized_power is None and ride.training_load is None
    assert ride.avg_heart_rate == pytest.approx(140)
    assert ride.distance_m == pytest.approx((n - 1) * 8, rel=0.01)
    assert session.get(RiderCurve, RIDER) is None
    assert rides.list_rides(session, RIDER)["results"][0]["watt"] is None


def test_pages_of_twenty_sorted_by_date_and_filtered_by_type(session):
    for day in range(45):
        kind = "event" if day % 5 == 0 else "ride"
        add_ride(
            session, RIDER, small_fit(START + timedelta(days=day), watts=100 + day, seconds=120), type=kind
        )
    add_ride(session, OTHER, small_fit(START, watts=999, seconds=120))
    first = rides.list_rides(session, RIDER)
    assert (first["totalCount"], first["totalPages"], first["currentPage"]) == (45, 3, 1)
    assert len(first["results"]) == 20
    dates = [row["date"] for row in first["results"]]
    assert dates == sorted(dates, reverse=True)
    last = rides.list_rides(session, RIDER, page=3, sort="asc")
    assert len(last["results"]) == 5 and last["results"][-1]["watt"] == 144
    events = rides.list_rides(session, RIDER, type="event")
    assert events["totalCount"] == 9 and {row["type"] for row in events["results"]} == {"event"}
    assert rides.events_count(session, RIDER) == 9
    assert rides.list_rides(session, RIDER, page=9)["results"] == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"type": "swim"}, rides.BAD_TYPE),
        ({"sort": "up"}, rides.BAD_SORT),
        ({"page": 0}, rides.BAD_PAGE),
        ({"page": 10**20}, rides.BAD_PAGE),
        ({"page": "2"}, rides.BAD_PAGE),
        ({"page": True}, rides.BAD_PAGE),
    ],
)
def test_bad_list_requests_are_refused(session, kwargs, message):
    with pytest.raises(ActivityError, match=message):
        rides.list_rides(session, RIDER, **kwargs)


def test_another_riders_ride_is_not_found(session):
    ride = add_ride(session, OTHER, small_fit(START))
    for call in (rides.ride_info, rides.graph_data, rides.ride_file):
        with pytest.raises(ActivityNotFound, match=rides.NOT_FOUND):
            call(session, RIDER, ride.file_id)
    with pytest.raises(ActivityNotFound):
        rides.compare_curves(session, RIDER, [ride.file_id])
    for bad in (None, 5, "", "x" * 37):
        with pytest.raises(ActivityNotFound):
            rides.ride_info(session, RIDER, bad)


def test_detail_header_and_graphs(session):
    ride = add_ride(
        session, RIDER, fixture_bytes(EDGE810), ftp=315, title="Vector test", route_name="Outdoor"
    )
    header = rides.ride_info(session, RIDER, ride.file_id)["header_detail"]
    assert header["title"] == "Vector test" and header["routeName"] == "Outdoor"
    assert header["normalizePower"] == round(ride.normalized_power)
    assert header["intensity"] == round(ride.intensity * 100)
    assert header["totalWorkout"] == round(ride.work_kj)
    graph = rides.graph_data(session, RIDER, ride.file_id)
    assert graph["axis"] == "distance"
    lengths = {
        len(graph[key]) for key in ("time", "distance", "altitude", "power", "speed", "heartRate", "cadence")
    }
    assert len(lengths) == 1 and lengths.pop() <= rides.GRAPH_POINTS * 2 + 2
    assert max(value for value in graph["power"] if value is not None) == round(ride.max_power)
    assert graph["summary"]["power"]["max"] == round(ride.max_power)
    assert set(graph["summary"]["speed"]) == {"avg", "max"}
    assert graph["distance"] == sorted(graph["distance"])


def test_an_indoor_ride_without_distance_is_drawn_against_time(session):
    ride = add_ride(session, RIDER, fixture_bytes(INDOOR), ftp=250)
    assert rides.graph_data(session, RIDER, ride.file_id)["axis"] == "time"


def test_compare_gives_each_rides_curve(session):
    a = add_ride(session, RIDER, small_fit(START, watts=200, seconds=300), title="A")
    b = add_ride(session, RIDER, small_fit(START + timedelta(days=1), watts=250, seconds=120), title="B")
    curves = rides.compare_curves(session, RIDER, [a.file_id, b.file_id])
    assert [curve["title"] for curve in curves] == ["A", "B"]
    assert set(curves[0]["power"]) == {200} and set(curves[1]["power"]) == {250}
    assert curves[0]["seconds"][-1] == 300 and curves[1]["seconds"][-1] == 120
    for bad in ([a.file_id, b.file_id, a.file_id], "abc", [1]):
        with pytest.raises(ActivityError, match=rides.BAD_FILE_IDS):
            rides.compare_curves(session, RIDER, bad)


def test_download_gives_back_the_original_file(session):
    data = fixture_bytes(INDOOR)
    ride = add_ride(session, RIDER, data, file_name=INDOOR)
    assert rides.ride_file(session, RIDER, ride.file_id) == (INDOOR, data)
