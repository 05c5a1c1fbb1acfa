"""Demo rides: valid FIT files (read back with fitdecode, CRC checked) holding believable training."""

import io
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import fitdecode
import numpy as np
import pytest

from cycling_site.embedded.activity.demo_rides import _profile, demo_rides, write_fit

START = datetime(2026, 3, 1, 5, 30, tzinfo=UTC)
END = datetime(2026, 5, 20, 12, 0, tzinfo=UTC)
SEED = 11
FTP = 250
MAX_HR = 188
FLAT_ROUTES = {"Corniche Flat", "Al Qudra Loop", "Meydan Criterium"}
# FIT epoch (1989-12-31) in Unix seconds: record timestamps count from it.
FIT_EPOCH = 631065600


@dataclass
class Decoded:
    """Record fields as raw wire values (absent fields missing) and the session's decoded values."""

    records: list[dict[str, int]]
    session: dict

    def stream(self, name: str) -> np.ndarray:
        return np.array([record.get(name, np.nan) for record in self.records], dtype=float)


def decode(data: bytes) -> Decoded:
    records, session = [], {}
    with fitdecode.FitReader(io.BytesIO(data), check_crc=fitdecode.CrcCheck.RAISE) as reader:
        for frame in reader:
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            if frame.name == "record":
                records.append({field.name: field.raw_value for field in frame.fields if field.field_def})
            elif frame.name == "session":
                session = {field.name: field.value for field in frame.fields}
    return Decoded(records, session)


def streams(n: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Noisy 1 Hz streams over each field's range; altitude wanders so the session's ascent fits its field."""
    rng = np.random.default_rng(seed)
    speed = rng.uniform(0, 16, n)
    return {
        "power": rng.uniform(0, 900, n),
        "heart_rate": rng.uniform(90, 190, n),
        "cadence": rng.uniform(0, 120, n),
        "speed": speed,
        "altitude": -20 + np.cumsum(rng.uniform(-0.3, 0.6, n)),
        "distance": np.cumsum(speed),
    }


# Raw FIT values as the record profile stores them: (scale, offset).
WIRE = {
    "power": (1, 0),
    "heart_rate": (1, 0),
    "cadence": (1, 0),
    "speed": (1000, 0),
    "altitude": (5, 500),
    "distance": (100, 0),
}


def wire(name: str, values: np.ndarray) -> np.ndarray:
    scale, offset = WIRE[name]
    return np.rint((values + offset) * scale)


def test_write_fit_round_trips_every_record():
    data = streams(900)

    decoded = decode(write_fit(START, "cycling", **data))

    assert len(decoded.records) == 900
    timestamps = decoded.stream("timestamp")
    assert timestamps[0] == START.timestamp() - FIT_EPOCH
    assert np.all(np.diff(timestamps) == 1)
    for name, values in data.items():
        np.testing.assert_array_equal(decoded.stream(name), wire(name, values), err_msg=name)


def test_nan_leaves_the_field_out_of_that_record():
    data = streams(300, seed=1)
    data["power"][[0, 5, 6, 7, 150]] = np.nan
    data["heart_rate"][100:120] = np.nan
    data["cadence"][:] = np.nan

    decoded = decode(write_fit(START, "cycling", **data))

    assert len(decoded.records) == 300
    for name, values in data.items():
        missing = np.isnan(values)
        assert [name not in record for record in decoded.records] == missing.tolist(), name
        np.testing.assert_array_equal(decoded.stream(name)[~missing], wire(name, values[~missing]))


def test_write_fit_summarises_the_session():
    data = streams(600, seed=2)

    session = decode(write_fit(START, "running", **data)).session

    assert session["sport"] == "running"
    assert session["start_time"] == START
    assert session["total_elapsed_time"] == session["total_timer_time"] == 599
    assert session["total_distance"] == pytest.approx(data["distance"][-1], abs=0.01)
    assert session["avg_power"] == round(data["power"].mean())
    assert session["max_heart_rate"] == round(data["heart_rate"].max())


@pytest.mark.parametrize(
    "change",
    [
        {"power": np.zeros(5)},
        {"power": np.full(10, -1.0)},
        {"heart_rate": np.full(10, 300.0)},
        {"started_at": START.replace(tzinfo=None)},
    ],
    ids=["lengths differ", "negative power", "heart rate too high for a byte", "naive start"],
)
def test_write_fit_refuses_what_fit_cannot_hold(change):
    arguments = {"started_at": START, "sport": "cycling", **streams(10), **change}

    with pytest.raises(ValueError):
        write_fit(**arguments)


def test_jebel_hafeet_climbs_about_a_kilometre():
    altitude = _profile("Jebel Hafeet").altitude

    assert 950 < altitude.max() - altitude.min() < 1100
    assert altitude[0] == pytest.approx(altitude[-1])  # laps join up


@pytest.fixture(scope="module")
def month():
    return demo_rides(SEED, END, months=1, ftp=FTP, max_hr=MAX_HR)


@pytest.fixture(scope="module")
def decoded_month(month):
    return [decode(ride.fit) for ride in month]


def test_same_seed_same_rides(month):
    assert demo_rides(SEED, END, months=1, ftp=FTP, max_hr=MAX_HR) == month
    assert [ride.started_at for ride in demo_rides(SEED + 1, END, months=1)] != [
        ride.started_at for ride in month
    ]


def test_rides_fill_the_months_up_to_end(month, decoded_month):
    starts = [ride.started_at for ride in month]
    finishes = [
        start + timedelta(seconds=len(d.records) - 1) for start, d in zip(starts, decoded_month, strict=True)
    ]

    assert all(start.tzinfo == UTC for start in starts)
    assert starts[0] < END - timedelta(days=30) + timedelta(days=7)
    assert finishes[-1] > END - timedelta(days=7)
    assert max(finishes) <= END
    assert all(finish < following for finish, following in zip(finishes, starts[1:], strict=False))
    assert 3 * 4 <= len(month) <= 6 * 5


def test_a_month_mixes_rides_workouts_events_and_a_run(month):
    assert {ride.type for ride in month} == {"ride", "workout", "event"}
    assert {ride.sport for ride in month} == {"cycling", "running"}
    assert all(ride.title and ride.route_name for ride in month)
    assert any(ride.title.startswith("Sunday Race Club - Round") for ride in month)


def test_records_tick_once_a_second(decoded_month):
    for decoded in decoded_month:
        assert np.all(np.diff(decoded.stream("timestamp")) == 1)


def test_power_is_plausible_for_the_riders_ftp(month, decoded_month):
    for ride, decoded in zip(month, decoded_month, strict=True):
        minutes = len(decoded.records) / 60
        if ride.sport == "running":
            assert np.isnan(decoded.stream("power")).all()
            assert 30 <= minutes <= 56
            continue
        power = decoded.stream("power")
        rolling = np.convolve(power, np.ones(30) / 30, mode="valid")
        normalized = np.mean(rolling**4) ** 0.25
        assert 0.45 * FTP < power.mean() < 0.85 * FTP, ride.title
        assert power.mean() <= normalized < 1.0 * FTP, ride.title
        assert power.max() < 3.5 * FTP, ride.title
        match ride.type:
            case "event":
                assert 30 <= minutes <= 91 and power.max() > 2 * FTP, ride.title
            case "workout":  # intervals: a quarter hour or more hard, in 30 s averages
                assert 45 <= minutes <= 76 and (rolling >= 0.85 * FTP).sum() > 12 * 60, ride.title
            case "ride":
                assert 45 <= minutes <= 241 and power.max() < 1.4 * FTP, ride.title


def test_heart_rate_cadence_and_speed_are_plausible(month, decoded_month):
    for ride, decoded in zip(month, decoded_month, strict=True):
        heart_rate, cadence, speed = (decoded.stream(name) for name in ("heart_rate", "cadence", "speed"))
        assert heart_rate.min() >= 90 and heart_rate.max() <= MAX_HR
        assert np.abs(np.diff(heart_rate)).max() <= 6  # it lags effort rather than jumping with it
        assert speed.max() < 18_000  # m/s x 1000: riders brake before ~65 km/h
        if ride.sport == "cycling":
            pedalling = decoded.stream("power") > 0
            assert (cadence[~pedalling] == 0).all()
            assert cadence[pedalling].min() >= 55 and cadence[pedalling].max() <= 130
            if ride.route_name in FLAT_ROUTES:
                assert 25 < speed.mean() * 3.6 / 1000 < 42, ride.title


def test_altitude_follows_the_route(month, decoded_month):
    for ride, decoded in zip(month, decoded_month, strict=True):
        altitude = decoded.stream("altitude") / 5 - 500
        course = _profile(ride.route_name).altitude
        assert course.min() - 1 <= altitude.min() and altitude.max() <= course.max() + 1, ride.route_name
        assert np.abs(np.diff(altitude)).max() < 3  # smooth: no cliffs
