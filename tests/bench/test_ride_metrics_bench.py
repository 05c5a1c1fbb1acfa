"""Speed of ride ingest on a 4-hour 1 Hz ride (run with --benchmark-only): the budgets are asserted."""

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

FOUR_HOURS = 4 * 3600
START_MS = 1_700_000_000_000


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


def test_mean_max_curve_of_four_hours(benchmark):
    power = np.random.default_rng(1).integers(0, 900, FOUR_HOURS).astype(np.float64)
    curve = benchmark(mean_max_curve, power)
    assert len(curve) == 1453
    assert curve[0] == power.max()
    assert benchmark.stats.stats.median < 0.030


def test_read_fit_of_four_hours(benchmark, four_hour_fit):
    ride = benchmark.pedantic(read_fit, args=(four_hour_fit,), rounds=5)
    assert len(ride.seconds) == FOUR_HOURS
    assert benchmark.stats.stats.median < 1.0


def test_whole_ingest_of_four_hours(benchmark, four_hour_fit):
    def ingest():
        return ride_metrics(resample_1hz(read_fit(four_hour_fit)), ftp=250, weight_kg=75)

    metrics = benchmark.pedantic(ingest, rounds=5)
    assert metrics.duration_s == metrics.moving_s == FOUR_HOURS
    assert metrics.distance_m == pytest.approx(8.5 * (FOUR_HOURS - 1))
    assert benchmark.stats.stats.median < 1.0
