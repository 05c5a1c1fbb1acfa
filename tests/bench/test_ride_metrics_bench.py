"""Speed of ride ingest (run with --benchmark-only): the budgets are asserted.

Ingest is what an upload does: read the FIT file, resample to 1 Hz, compute the metrics. Budgets: a 4-hour
ride under 100 ms, the longest real ride in tests/fixtures too, a 14-hour multisport file under 1 s.
"""

import math

import numpy as np
import pytest
from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.event_message import EventMessage
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.messages.session_message import SessionMessage
from fit_tool.profile.profile_type import Event, EventType, FileType, Manufacturer, Sport

from cycling_site.embedded.activity.fit_files import read_fit
from cycling_site.embedded.activity.ride_metrics import mean_max_curve, resample_1hz, ride_metrics
from tests import fit_writer as w
from tests.activity_support import EDGE810, FIXTURES

FOUR_HOURS = 4 * 3600
FOURTEEN_HOURS = 14 * 3600
START_MS = 1_700_000_000_000
T0 = 1_000_000_000  # FIT seconds


@pytest.fixture(scope="module")
def four_hour_fit() -> bytes:
    """A synthetic outdoor ride: one record a second with GPS position, power, heart rate and the rest."""
    builder = FitFileBuilder(auto_define=True)
    file_id = FileIdMessage()
    file_id.type = FileType.ACTIVITY
    file_id.manufacturer = Manufacturer.DEVELOPMENT.value
    file_id.time_created = START_MS
    builder.add(file_id)
    start = EventMessage()
    start.event = Event.TIMER
    start.event_type = EventType.START
    start.timestamp = START_MS
    builder.add(start)
    rng = np.random.default_rng(4)
    power = np.clip(220 + 60 * np.sin(np.arange(FOUR_HOURS) / 300) + rng.normal(0, 40, FOUR_HOURS), 0, None)
    records = []
    for second in range(FOUR_HOURS):
        record = RecordMessage()
        record.timestamp = START_MS + second * 1000
        record.position_lat = 45 + second * 1e-5
        record.position_long = 6 + second * 1e-5
        record.power = int(power[second])
        record.heart_rate = 140 + second % 20
        record.cadence = 85 + second % 10
        record.speed = 8.5
        record.distance = 8.5 * second
        record.altitude = 500 + 200 * math.sin(second / 1800)
        records.append(record)
    builder.add_all(records)
    session = SessionMessage()
    session.timestamp = START_MS + FOUR_HOURS * 1000
    session.start_time = START_MS
    session.sport = Sport.CYCLING
    session.total_timer_time = FOUR_HOURS
    session.total_elapsed_time = FOUR_HOURS
    builder.add(session)
    return builder.build().to_bytes()


@pytest.fixture(scope="module")
def multisport_fit() -> bytes:
    """14 hours of swim, bike and run at 1 Hz with GPS, as a watch writes them: laps every 10 minutes between
    the records, a pause in each leg, one session per leg."""
    rng = np.random.default_rng(14)
    record_fields = [(253, 4, w.UINT32), (0, 4, w.SINT32), (1, 4, w.SINT32), (5, 4, w.UINT32)]
    record_fields += [
        (73, 4, w.UINT32),
        (78, 4, w.UINT32),
        (7, 2, w.UINT16),
        (3, 1, w.UINT8),
        (4, 1, w.UINT8),
    ]
    record = np.dtype(
        [("header", "u1"), ("timestamp", "<u4"), ("lat", "<i4"), ("long", "<i4"), ("distance", "<u4")]
        + [("speed", "<u4"), ("altitude", "<u4"), ("power", "<u2"), ("heart_rate", "u1"), ("cadence", "u1")]
    )
    body = w.definition(0, 0, [(0, 1, w.ENUM), (4, 4, w.UINT32)]) + w.data(
        0, bytes([4]) + w.value(w.UINT32, [T0])
    )
    body += w.definition(1, 20, record_fields)
    body += w.definition(2, 21, [(253, 4, w.UINT32), (0, 1, w.ENUM), (1, 1, w.ENUM)])
    body += w.definition(3, 19, [(253, 4, w.UINT32), (2, 4, w.UINT32), (7, 4, w.UINT32)])
    body += w.definition(4, 18, [(253, 4, w.UINT32), (5, 1, w.ENUM), (7, 4, w.UINT32), (8, 4, w.UINT32)])
    timer = {"start": bytes([0, 0]), "stop": bytes([0, 4])}
    t = T0
    for sport, seconds in (
        (5, FOURTEEN_HOURS // 7),
        (2, FOURTEEN_HOURS * 4 // 7),
        (1, FOURTEEN_HOURS * 2 // 7),
    ):
        leg_start = t
        body += w.data(2, w.value(w.UINT32, [t]) + timer["start"])
        for lap_start in range(0, seconds, 600):
            rows = np.zeros(min(600, seconds - lap_start), record)
            rows["header"] = 1
            rows["timestamp"] = t + np.arange(len(rows))
            rows["lat"], rows["long"] = rng.integers(0, 1 << 30, (2, len(rows)))
            rows["distance"] = (lap_start + np.arange(len(rows))) * 800
            rows["speed"] = 8000
            rows["altitude"] = 2500 + rng.integers(0, 100, len(rows))
            rows["power"] = rng.integers(100, 400, len(rows))
            rows["heart_rate"] = rng.integers(100, 180, len(rows))
            rows["cadence"] = rng.integers(60, 100, len(rows))
            body += rows.tobytes()
            t += len(rows)
            body += w.data(3, w.value(w.UINT32, [t, t - len(rows), len(rows) * 1000]))
            if lap_start == 1200:
                body += w.data(2, w.value(w.UINT32, [t]) + timer["stop"])
                t += 120
                body += w.data(2, w.value(w.UINT32, [t]) + timer["start"])
        body += w.data(2, w.value(w.UINT32, [t]) + timer["stop"])
        body += w.data(
            4, w.value(w.UINT32, [t]) + bytes([sport]) + w.value(w.UINT32, [(t - leg_start) * 1000] * 2)
        )
    return w.fit_file(body)


def ingest(data: bytes):
    return ride_metrics(resample_1hz(read_fit(data)), ftp=250, weight_kg=75)


def test_mean_max_curve_of_four_hours(benchmark):
    power = np.random.default_rng(1).integers(0, 900, FOUR_HOURS).astype(np.float64)
    curve = benchmark(mean_max_curve, power)
    assert len(curve) == 1453
    assert curve[0] == power.max()
    assert benchmark.stats.stats.median < 0.030


def test_read_fit_of_four_hours(benchmark, four_hour_fit):
    ride = benchmark.pedantic(read_fit, args=(four_hour_fit,), rounds=10)
    assert len(ride.seconds) == FOUR_HOURS
    assert benchmark.stats.stats.median < 0.05


def test_whole_ingest_of_four_hours(benchmark, four_hour_fit):
    metrics = benchmark.pedantic(ingest, args=(four_hour_fit,), rounds=10)
    assert metrics.duration_s == metrics.moving_s == FOUR_HOURS
    assert metrics.distance_m == pytest.approx(8.5 * (FOUR_HOURS - 1))
    assert benchmark.stats.stats.median < 0.1


def test_whole_ingest_of_the_longest_device_ride(benchmark):
    metrics = benchmark.pedantic(ingest, args=((FIXTURES / EDGE810).read_bytes(),), rounds=10)
    assert metrics.duration_s == 4700
    assert benchmark.stats.stats.median < 0.1


def test_whole_ingest_of_fourteen_hours_of_multisport(benchmark, multisport_fit):
    metrics = benchmark.pedantic(ingest, args=(multisport_fit,), rounds=5)
    assert metrics.duration_s == FOURTEEN_HOURS + 3 * 120
    assert metrics.moving_s == FOURTEEN_HOURS
    assert benchmark.stats.stats.median < 1.0
