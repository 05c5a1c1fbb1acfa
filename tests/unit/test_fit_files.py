"""FIT reading: device files decode with the right units, and every kind of bad input is a FitFileError."""

import math
from datetime import UTC, datetime

import numpy as np
import pytest
from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.event_message import EventMessage
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.messages.session_message import SessionMessage
from fit_tool.profile.profile_type import Event, EventType, FileType, Manufacturer, Sport
from fitdecode.utils import compute_crc
from hypothesis import given, settings
from hypothesis import strategies as st

from cycling_site.embedded.activity.fit_files import (
    DAMAGED_MESSAGE,
    EMPTY_MESSAGE,
    NO_SAMPLES_MESSAGE,
    NOT_FIT_MESSAGE,
    TOO_LONG_MESSAGE,
    FitFileError,
    read_fit,
)
from tests import activity_support
from tests.activity_support import FIXTURES

PAUSED = FIXTURES / activity_support.PAUSED
EDGE810 = FIXTURES / activity_support.EDGE810
INDOOR = FIXTURES / activity_support.INDOOR
ZWIFT = FIXTURES / activity_support.ZWIFT
START_MS = 1_600_000_000_000  # 2020-09-13 12:26:40 UTC


def fit_bytes(records: list[dict], events: tuple = (), sport: Sport | None = Sport.CYCLING) -> bytes:
    """A small activity file: records are {"t": seconds, field: value}, events (seconds, EventType)."""
    builder = FitFileBuilder(auto_define=True)
    file_id = FileIdMessage()
    file_id.type = FileType.ACTIVITY
    file_id.manufacturer = Manufacturer.DEVELOPMENT.value
    file_id.time_created = START_MS
    builder.add(file_id)
    for seconds, kind in events:
        event = EventMessage()
        event.event = Event.TIMER
        event.event_type = kind
        event.timestamp = START_MS + seconds * 1000
        builder.add(event)
    for fields in records:
        record = RecordMessage()
        record.timestamp = START_MS + fields["t"] * 1000
        for name, value in fields.items():
            if name != "t":
                setattr(record, name, value)
        builder.add(record)
    if sport is not None:
        session = SessionMessage()
        session.timestamp = START_MS
        session.start_time = START_MS
        session.sport = sport
        builder.add(session)
    return builder.build().to_bytes()


def test_fixtures_folder_is_beside_the_checkout():
    assert all(path.is_file() for path in (PAUSED, EDGE810, INDOOR, ZWIFT))


def test_paused_ride_keeps_its_pause_and_session_figures():
    ride = read_fit(PAUSED.read_bytes())
    assert ride.started_at == datetime(2020, 6, 1, 14, 52, 40, tzinfo=UTC)
    assert ride.sport == "cycling"
    assert len(ride.seconds) == 96
    assert ride.seconds[:3].tolist() == [0.0, 1.0, 2.0]
    assert ride.seconds[53:56].tolist() == [53.0, 85.0, 86.0]
    assert ride.seconds[-1] == 126.0
    assert ride.timer_stopped == [(53.0, 85.0)]
    assert ride.power[:3].tolist() == [162.0, 148.0, 157.0]
    assert math.isnan(ride.power[54])  # the first record after the restart has no power
    assert ride.heart_rate[0] == 154.0
    assert ride.cadence[0] == 90.0
    assert ride.speed[0] == pytest.approx(6.438)  # m/s
    assert ride.altitude[0] == pytest.approx(-20.2)  # m
    assert ride.distance[-1] == pytest.approx(668.19)  # m
    device = ride.device
    assert (device.normalized_power, device.training_stress_score, device.threshold_power) == (150, 1.1, 200)
    assert device.intensity_factor == pytest.approx(0.752)
    assert device.avg_power == 149
    assert device.total_timer_time == pytest.approx(93.7)
    assert device.total_elapsed_time == pytest.approx(113.15)


@pytest.mark.parametrize(
    ("path", "records", "seconds", "device_np", "device_tss"),
    [(EDGE810, 4700, 4699, 301, 118.7), (INDOOR, 2263, 2263, 228, 50.8), (ZWIFT, 1808, 1807, None, None)],
)
def test_device_files(path, records, seconds, device_np, device_tss):
    ride = read_fit(path.read_bytes())
    assert len(ride.seconds) == records
    assert ride.seconds[-1] == seconds
    assert np.all(np.diff(ride.seconds) > 0)
    assert ride.timer_stopped == []
    assert (ride.device.normalized_power, ride.device.training_stress_score) == (device_np, device_tss)
    assert all(len(array) == records for array in (ride.power, ride.speed, ride.altitude, ride.distance))


def test_indoor_ride_has_no_speed_and_a_power_dropout():
    ride = read_fit(INDOOR.read_bytes())
    assert np.isnan(ride.speed).all()
    assert np.isnan(ride.distance).all()
    assert np.flatnonzero(np.isnan(ride.power)).tolist() == [*range(320, 325), *range(336, 372)]


def test_compressed_speed_and_distance_fields_are_read():
    ride = read_fit(ZWIFT.read_bytes())
    assert ride.speed[:3].tolist() == pytest.approx([2.57, 3.24, 3.611])
    assert ride.distance[-1] == pytest.approx(13400.14)
    assert ride.device.avg_power == 123


def test_timer_events_make_pauses_and_same_second_records_merge():
    data = fit_bytes(
        [
            {"t": 0, "power": 100},
            {"t": 1, "power": 200},
            {"t": 1, "heart_rate": 150},
            {"t": 30, "power": 300, "speed": 5.0, "altitude": 12.4, "distance": 40.0},
        ],
        events=((0, EventType.START), (1, EventType.STOP_ALL), (30, EventType.START), (30, EventType.STOP)),
        sport=Sport.RUNNING,
    )
    ride = read_fit(data)
    assert ride.started_at == datetime(2020, 9, 13, 12, 26, 40, tzinfo=UTC)
    assert ride.sport == "running"
    assert ride.seconds.tolist() == [0.0, 1.0, 30.0]
    assert ride.power.tolist() == [100.0, 200.0, 300.0]
    assert np.isnan(ride.heart_rate[[0, 2]]).all() and ride.heart_rate[1] == 150.0
    assert (ride.speed[2], ride.altitude[2], ride.distance[2]) == pytest.approx((5.0, 12.4, 40.0))
    assert ride.timer_stopped == [(1.0, 30.0)]  # the last stop has no restart: the ride ended
    assert ride.device.normalized_power is None


def test_sport_defaults_to_cycling_without_a_session():
    assert read_fit(fit_bytes([{"t": 0, "power": 1}], sport=None)).sport == "cycling"


def test_chained_fit_files_read_as_one_ride():
    first = fit_bytes([{"t": 0, "power": 100}])
    second = fit_bytes([{"t": 5, "power": 200}])
    assert read_fit(first + second).power.tolist() == [100.0, 200.0]


def test_records_from_before_the_clock_was_set_are_dropped():
    since_power_on = 1000 - (START_MS // 1000 - 631065600)  # FIT date 1000: 1000 s after power-on
    ride = read_fit(
        fit_bytes([{"t": since_power_on, "power": 5}, {"t": 0, "power": 100}, {"t": 1, "power": 200}])
    )
    assert ride.started_at == datetime(2020, 9, 13, 12, 26, 40, tzinfo=UTC)
    assert ride.power.tolist() == [100.0, 200.0]


def test_a_span_of_weeks_is_refused():
    two_weeks = 14 * 24 * 3600
    assert len(read_fit(fit_bytes([{"t": 0, "power": 1}, {"t": two_weeks, "power": 1}])).seconds) == 2
    with pytest.raises(FitFileError, match=TOO_LONG_MESSAGE):
        read_fit(fit_bytes([{"t": 0, "power": 1}, {"t": two_weeks + 1, "power": 1}]))


def test_no_records():
    with pytest.raises(FitFileError, match=NO_SAMPLES_MESSAGE):
        read_fit(fit_bytes([]))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", EMPTY_MESSAGE),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10", NOT_FIT_MESSAGE),
        (b"Date,Power\n2020-06-01,200\n", NOT_FIT_MESSAGE),
        (b".FIT", NOT_FIT_MESSAGE),
    ],
)
def test_not_fit(data, message):
    with pytest.raises(FitFileError) as error:
        read_fit(data)
    assert str(error.value) == message


@pytest.mark.parametrize("keep", [12, 14, 100, 3885, 7769, 7770])
def test_truncated(keep):
    data = PAUSED.read_bytes()
    assert len(data) == 7771
    with pytest.raises(FitFileError) as error:
        read_fit(data[:keep])
    assert str(error.value) == DAMAGED_MESSAGE


@pytest.mark.parametrize("position", [1, 5, 12, 13, 20, 3885, 7769, 7770])
def test_flipped_byte(position):
    data = bytearray(PAUSED.read_bytes())
    data[position] ^= 0x10
    with pytest.raises(FitFileError) as error:
        read_fit(bytes(data))
    assert str(error.value) == DAMAGED_MESSAGE


def test_trailing_bytes_after_the_file():
    with pytest.raises(FitFileError, match=DAMAGED_MESSAGE):
        read_fit(PAUSED.read_bytes() + b"\x00" * 20)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_only_raise_fit_file_error(data):
    with pytest.raises(FitFileError):
        read_fit(data)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_cut_or_changed_byte_is_damage(data):
    original = PAUSED.read_bytes()
    position = data.draw(st.integers(12, len(original) - 1))
    if data.draw(st.booleans()):
        damaged = original[:position]
    else:
        changed = bytearray(original)
        changed[position] ^= data.draw(st.integers(1, 255))
        damaged = bytes(changed)
    with pytest.raises(FitFileError, match="damaged"):
        read_fit(damaged)


def test_valid_crc_with_bad_content_is_damage():
    # A data message of a local type that was never defined, with correct CRCs around it.
    body = b"\x05\x00"
    header = bytes([12, 0x20]) + (2140).to_bytes(2, "little") + len(body).to_bytes(4, "little") + b".FIT"
    content = header + body
    with pytest.raises(FitFileError, match=DAMAGED_MESSAGE):
        read_fit(content + compute_crc(content).to_bytes(2, "little"))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_garbage_behind_a_valid_crc_is_a_ride_or_a_fit_file_error(data):
    original = bytearray(PAUSED.read_bytes()[:-2])  # header and body; the CRC is recomputed below
    for _ in range(data.draw(st.integers(1, 8))):
        original[data.draw(st.integers(14, len(original) - 1))] = data.draw(st.integers(0, 255))
    content = bytes(original)
    try:
        ride = read_fit(content + compute_crc(content).to_bytes(2, "little"))
    except FitFileError as error:
        assert str(error) in (DAMAGED_MESSAGE, NO_SAMPLES_MESSAGE, TOO_LONG_MESSAGE)
    else:
        assert len(ride.seconds) == len(ride.power) > 0
