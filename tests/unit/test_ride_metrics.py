"""Ride metrics: hand-computed cases, property tests against naive implementations, and the device files."""

import operator
from datetime import UTC, datetime
from itertools import accumulate

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cycling_site.embedded.activity.fit_files import DeviceFigures, FitRide, read_fit
from cycling_site.embedded.activity.ride_metrics import (
    CURVE_SECONDS,
    Streams,
    best_curve,
    downsample,
    mean_max_curve,
    normalized_power,
    resample_1hz,
    ride_metrics,
)
from tests.activity_support import FIXTURES

NO_DEVICE = DeviceFigures(None, None, None, None, None, None, None)


def make_streams(length: int, moving: np.ndarray | None = None, **values: np.ndarray) -> Streams:
    unknown = np.full(length, np.nan)
    names = ("power", "heart_rate", "cadence", "speed", "altitude", "distance")
    return Streams(
        **{name: np.asarray(values.get(name, unknown), dtype=np.float64) for name in names},
        moving=np.ones(length, dtype=bool) if moving is None else moving,
    )


def make_ride(seconds: list[float], timer_stopped=(), **values: list[float]) -> FitRide:
    unknown = [np.nan] * len(seconds)
    names = ("power", "heart_rate", "cadence", "speed", "altitude", "distance")
    return FitRide(
        started_at=datetime(2024, 5, 1, tzinfo=UTC),
        sport="cycling",
        seconds=np.array(seconds, dtype=np.float64),
        **{name: np.array(values.get(name, unknown), dtype=np.float64) for name in names},
        timer_stopped=list(timer_stopped),
        device=NO_DEVICE,
    )


def constant(length: int, watts: float) -> np.ndarray:
    return np.full(length, watts, dtype=np.float64)


# --- the duration grid


def test_curve_grid():
    assert CURVE_SECONDS.dtype == np.int32
    assert CURVE_SECONDS[:1200].tolist() == list(range(1, 1201))
    assert CURVE_SECONDS[1200:1203].tolist() == [1212, 1224, 1236]
    previous = CURVE_SECONDS[1199:-1]
    assert (CURVE_SECONDS[1200:] == np.maximum(previous + 1, previous * 101 // 100)).all()
    assert (CURVE_SECONDS[1200:] / CURVE_SECONDS[1199:-1] <= 1.01).all()
    assert CURVE_SECONDS[-1] <= 86_400 < CURVE_SECONDS[-1] * 101 // 100
    assert len(CURVE_SECONDS) == 1633


# --- normalized power and training load, by hand


def test_np_of_a_constant_ride_is_its_power():
    assert normalized_power(constant(600, 200)) == pytest.approx(200)


def test_np_of_one_hard_second_after_thirty_easy_ones():
    # Averages at seconds 29 and 30 are 0 W and 300 / 30 = 10 W: NP = ((0 + 10^4) / 2) ** 0.25.
    power = np.r_[constant(30, 0), 300.0]
    assert normalized_power(power) == pytest.approx(10 / 2**0.25)


def test_np_needs_thirty_seconds_and_power():
    assert normalized_power(constant(29, 300)) is None
    assert normalized_power(constant(30, 300)) == pytest.approx(300)
    assert normalized_power(constant(600, np.nan)) is None
    assert normalized_power(np.empty(0)) is None


def test_dropouts_are_not_zero_watts():
    power = constant(120, 200)
    power[50:60] = np.nan
    assert normalized_power(power) == pytest.approx(200)
    assert normalized_power(make_streams(120, power=power)) == pytest.approx(200)


def test_the_window_restarts_after_a_long_pause():
    # 40 s at 200 W, a 40 s pause, 40 s at 100 W: eleven 200 W averages (seconds 29-39), then forty of
    # 100 W, since the window holds only samples from after the restart.
    power = np.r_[constant(40, 200), constant(40, np.nan), constant(40, 100)]
    moving = ~np.isnan(power)
    expected = ((11 * 200**4 + 40 * 100**4) / 51) ** 0.25
    assert normalized_power(make_streams(120, moving, power=power)) == pytest.approx(expected)
    metrics = ride_metrics(make_streams(120, moving, power=power), ftp=200, weight_kg=70)
    assert metrics.normalized_power == pytest.approx(expected)
    assert metrics.training_load == pytest.approx(51 * (expected / 200) ** 2 / 36)


def test_an_hour_of_averages_at_ftp_is_100():
    # 3629 s give 3600 rolling averages: the seconds of TSS are the averages NP was taken over.
    metrics = ride_metrics(make_streams(3629, power=constant(3629, 250)), ftp=250, weight_kg=80)
    assert metrics.normalized_power == pytest.approx(250)
    assert metrics.intensity == pytest.approx(1.0)
    assert metrics.training_load == pytest.approx(100)
    hour = ride_metrics(make_streams(3600, power=constant(3600, 250)), ftp=250, weight_kg=80)
    assert hour.training_load == pytest.approx(3571 / 36)


def test_power_totals():
    power = np.r_[constant(1800, 300), constant(1800, 0)]
    metrics = ride_metrics(make_streams(3600, power=power), ftp=300, weight_kg=75)
    assert metrics.avg_power == 150  # zeros count
    assert metrics.max_power == 300
    assert metrics.work_kj == pytest.approx(540)  # 1800 s x 300 W
    assert metrics.watts_per_kg == pytest.approx(2)
    assert metrics.curve[0] == 300
    longest_within_the_effort = np.flatnonzero(CURVE_SECONDS <= 1800)[-1]
    assert metrics.curve[longest_within_the_effort] == 300
    assert metrics.curve[longest_within_the_effort + 1] < 300
    longest = CURVE_SECONDS[len(metrics.curve) - 1]  # the longest grid duration within the hour
    assert longest == 3592
    assert metrics.curve[-1] == pytest.approx(1800 * 300 / longest)
    assert ride_metrics(make_streams(3600, power=power), ftp=0, weight_kg=0).training_load is None
    assert ride_metrics(make_streams(3600, power=power), ftp=0, weight_kg=0).watts_per_kg is None


def test_ride_without_power():
    length = 100
    metrics = ride_metrics(
        make_streams(
            length,
            heart_rate=constant(length, 140),
            cadence=np.r_[constant(50, 90), constant(50, 0)],
            speed=constant(length, 10),
        ),
        ftp=250,
        weight_kg=70,
    )
    assert (metrics.avg_power, metrics.max_power, metrics.normalized_power, metrics.work_kj) == (None,) * 4
    assert (metrics.intensity, metrics.training_load, metrics.watts_per_kg) == (None,) * 3
    assert metrics.curve.dtype == np.float32 and metrics.curve.size == 0
    assert (metrics.duration_s, metrics.moving_s) == (100, 100)
    assert (metrics.avg_heart_rate, metrics.max_heart_rate) == (140, 140)
    assert (metrics.avg_cadence, metrics.max_cadence) == (90, 90)  # coasting is left out
    assert metrics.distance_m == 1000  # no distance stream: speed integrated
    assert metrics.avg_speed_kmh == pytest.approx(36)
    assert metrics.max_speed_kmh == pytest.approx(36)


def test_distance_comes_from_the_distance_stream():
    distance = np.linspace(5, 905, 100)
    metrics = ride_metrics(make_streams(100, speed=constant(100, 3), distance=distance), 250, 70)
    assert metrics.distance_m == 905
    assert metrics.avg_speed_kmh == pytest.approx(905 / 100 * 3.6)
    indoor = ride_metrics(make_streams(100, power=constant(100, 100)), 250, 70)
    assert (indoor.distance_m, indoor.avg_speed_kmh, indoor.max_speed_kmh) == (0, None, None)


# --- elevation gain


def gain(altitude: np.ndarray) -> float:
    return ride_metrics(make_streams(len(altitude), altitude=altitude), 250, 70).elevation_gain_m


def test_clean_climb_counts_exactly():
    assert gain(np.linspace(100, 350, 2501)) == pytest.approx(250)
    # Up 100, down 60, up 100: the smoothing rounds the sharp top and bottom by a fraction of a metre.
    zigzag = np.r_[np.linspace(0, 100, 1001), np.linspace(99.9, 40, 600), np.linspace(40.1, 140, 1000)]
    assert gain(zigzag) == pytest.approx(200, abs=0.5)


def test_noisy_flat_profile_gains_nothing():
    rng = np.random.default_rng(7)
    barometer = np.round((120 + rng.normal(0, 0.6, 4 * 3600)) / 0.2) * 0.2
    assert np.sum(np.clip(np.diff(barometer), 0, None)) > 1000  # what a naive sum would claim
    assert gain(barometer) == 0


def test_noisy_climb_counts_close_to_its_height():
    rng = np.random.default_rng(8)
    assert gain(np.linspace(0, 100, 1000) + rng.normal(0, 0.4, 1000)) == pytest.approx(100, abs=1.5)


def test_wobbles_below_the_hysteresis_are_ignored():
    assert gain(50 + 1.2 * np.sin(np.arange(3600) / 60)) == 0
    assert gain(np.array([10.0])) == 0
    assert gain(np.full(10, np.nan)) == 0


# --- resampling


def test_short_gaps_are_interpolated_and_long_ones_are_stops():
    ride = make_ride(
        [0, 1, 6, 7, 60, 61],
        power=[100, 100, 200, 3000, 50, 50],
        heart_rate=[120, 0, 130, 130, 140, 140],
        distance=[0, 5, 30, 35, 40, 45],
    )
    streams = resample_1hz(ride)
    assert len(streams.power) == 62
    assert streams.power[:7].tolist() == [100, 100, 120, 140, 160, 180, 200]
    assert np.isnan(streams.power[7])  # a spike is missing, not 3000 W
    assert np.isnan(streams.power[8:60]).all()
    assert streams.moving[:8].all() and not streams.moving[8:60].any() and streams.moving[60:].all()
    assert np.isnan(streams.heart_rate[1])  # 0 bpm means no strap
    assert streams.distance[2:6].tolist() == [10, 15, 20, 25]
    metrics = ride_metrics(streams, 250, 70)
    assert (metrics.duration_s, metrics.moving_s) == (62, 10)
    assert metrics.curve[0] == 200
    assert metrics.curve[9] == pytest.approx((100 + 100 + 120 + 140 + 160 + 180 + 200) / 10)


def test_timer_pauses_are_not_moving_even_when_short():
    ride = make_ride([0, 1, 2, 6, 7], timer_stopped=[(2.0, 6.0)], power=[100, 100, 100, 300, 300])
    streams = resample_1hz(ride)
    assert streams.moving.tolist() == [True, True, True, False, False, False, True, True]
    assert np.isnan(streams.power[3:6]).all()
    # In the curve the pause is 0 W: power [100, 100, 100, 0, 0, 0, 300, 300].
    curve = mean_max_curve(np.where(streams.moving, streams.power, 0))
    assert curve.tolist() == pytest.approx([300, 300, 200, 150, 120, 700 / 6, 800 / 7, 112.5])


def test_the_last_record_of_a_second_wins():
    streams = resample_1hz(make_ride([0, 0.2, 1], power=[1, 2, 3]))
    assert streams.power.tolist() == [2, 3]


def test_empty_ride():
    streams = resample_1hz(make_ride([]))
    assert len(streams.power) == 0 and streams.moving.dtype == bool
    metrics = ride_metrics(streams, 250, 70)
    assert (metrics.duration_s, metrics.distance_m, metrics.avg_power, metrics.curve.size) == (0, 0, None, 0)


# --- mean-max curve, best curve and downsampling against naive versions


def naive_curve_exact(watts: list[int]) -> list[float]:
    """Exact integer window sums from Python prefix sums, one duration at a time."""
    sums = [0, *accumulate(watts)]
    return [
        max(map(operator.sub, sums[duration:], sums[: len(sums) - duration])) / duration
        for duration in CURVE_SECONDS.tolist()
        if duration <= len(watts)
    ]


power_arrays = arrays(np.int64, st.integers(1, 3000), elements=st.one_of(st.just(0), st.integers(0, 1500)))


@settings(max_examples=60, deadline=None)
@given(power_arrays)
def test_curve_equals_naive_max_over_all_windows(power):
    curve = mean_max_curve(power.astype(np.float64))
    expected = naive_curve_exact(power.tolist())
    assert curve.dtype == np.float32
    assert len(curve) == len(expected) == np.searchsorted(CURVE_SECONDS, len(power), side="right")
    np.testing.assert_allclose(curve, expected, rtol=1e-6, atol=1e-4)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.integers(1, 250), elements=st.floats(0, 1500)))
def test_curve_equals_convolution(power):
    expected = [
        np.convolve(power, np.ones(duration), "valid").max() / duration
        for duration in range(1, len(power) + 1)
    ]
    np.testing.assert_allclose(mean_max_curve(power), expected, rtol=1e-5, atol=1e-3)


def test_curve_counts_unknown_power_as_zero():
    assert mean_max_curve(np.array([300, np.nan, 300])).tolist() == [300, 150, 200]
    assert mean_max_curve(np.empty(0)).size == 0


curves = st.lists(arrays(np.float32, st.integers(0, 40), elements=st.floats(0, 2000, width=32)), max_size=5)


@given(curves)
def test_best_curve_is_the_elementwise_max(many):
    best = best_curve(many)
    length = max((len(curve) for curve in many), default=0)
    assert best.dtype == np.float32 and len(best) == length
    for index in range(length):
        assert best[index] == max(curve[index] for curve in many if len(curve) > index)


series_lists = st.integers(1, 3).flatmap(
    lambda count: st.integers(1, 5000).flatmap(
        lambda length: st.lists(
            arrays(np.float64, length, elements=st.one_of(st.just(np.nan), st.floats(-100, 2000))),
            min_size=count,
            max_size=count,
        )
    )
)


@settings(max_examples=80, deadline=None)
@given(series_lists, st.integers(20, 800))
def test_downsample_keeps_ends_and_every_extreme(series, points):
    length = len(series[0])
    indices = downsample(length, series, points)
    if length <= points:
        assert indices.tolist() == list(range(length))
        return
    assert len(indices) <= points
    assert (np.diff(indices) > 0).all()
    assert indices[0] == 0 and indices[-1] == length - 1
    for values in series:
        if not np.isnan(values).all():
            assert np.nanmax(values[indices]) == np.nanmax(values)
            assert np.nanmin(values[indices]) == np.nanmin(values)


def test_downsample_keeps_a_one_second_spike():
    power = constant(20_000, 200)
    power[12_345] = 1400
    indices = downsample(20_000, [power, constant(20_000, 150)])
    assert 12_345 in indices.tolist()
    assert len(indices) <= 600
    assert downsample(1000, [], 10).tolist() == [0, 111, 222, 333, 444, 555, 666, 777, 888, 999]


# --- the device files: our NP within 2 W and TSS within 2 % of what the head unit wrote


def fixture_metrics(name: str):
    ride = read_fit((FIXTURES / name).read_bytes())
    return ride, ride_metrics(resample_1hz(ride), ftp=ride.device.threshold_power or 250, weight_kg=75)


@pytest.mark.parametrize(
    ("name", "expected_np", "expected_tss"),
    [
        ("Edge810-Vector-2013-08-16-15-35-10.fit", 301.05, 118.51),
        ("sample-activity-indoor-trainer.fit", 228.47, 50.90),
    ],
)
def test_device_normalized_power_and_training_load(name, expected_np, expected_tss):
    ride, metrics = fixture_metrics(name)
    assert abs(metrics.normalized_power - ride.device.normalized_power) <= 2
    assert metrics.training_load == pytest.approx(ride.device.training_stress_score, rel=0.02)
    assert metrics.intensity == pytest.approx(ride.device.intensity_factor, abs=0.002)
    assert (metrics.normalized_power, metrics.training_load) == pytest.approx(
        (expected_np, expected_tss), abs=0.01
    )


def test_short_paused_ride_against_its_device():
    ride, metrics = fixture_metrics("2020-06-01-16-52-40.fit")
    assert abs(metrics.normalized_power - ride.device.normalized_power) <= 2
    assert metrics.normalized_power == pytest.approx(150.56, abs=0.01)
    # 66 averages: 54 + 42 samples with power, less the first 29 s; the 32 s pause counts for nothing.
    assert metrics.training_load == pytest.approx(66 * (150.559 / 200) ** 2 / 36, abs=0.001)
    # The device's 1.1 (rounded; IF 0.752) implies about 70 s; ours is 1.04, 5.5 % under it: see the report.
    assert metrics.training_load == pytest.approx(1.039, abs=0.001)
    assert (metrics.duration_s, metrics.moving_s) == (127, 96)
    assert metrics.avg_power == pytest.approx(149.3, abs=0.1)
    assert metrics.curve[0] == 434


@pytest.mark.parametrize(
    "name",
    [
        "2020-06-01-16-52-40.fit",
        "Edge810-Vector-2013-08-16-15-35-10.fit",
        "sample-activity-indoor-trainer.fit",
        "null_compressed_speed_dist.fit",
    ],
)
def test_device_average_power(name):
    ride, metrics = fixture_metrics(name)
    assert abs(metrics.avg_power - ride.device.avg_power) <= 1


def test_zwift_ride():
    _, metrics = fixture_metrics("null_compressed_speed_dist.fit")
    assert metrics.avg_power == pytest.approx(123, abs=0.2)
    assert metrics.max_power == 691
    assert metrics.distance_m == pytest.approx(13400.14)
    assert metrics.avg_heart_rate is None  # Zwift wrote 0 bpm throughout
    assert len(metrics.curve) == np.searchsorted(CURVE_SECONDS, 1808, side="right")


def test_edge810_totals_match_its_session():
    _, metrics = fixture_metrics("Edge810-Vector-2013-08-16-15-35-10.fit")
    assert metrics.distance_m == pytest.approx(41339.38, rel=1e-3)
    assert metrics.work_kj == pytest.approx(1296.229, rel=2e-3)
    assert metrics.elevation_gain_m == pytest.approx(514, rel=0.03)
    assert (metrics.max_power, metrics.max_heart_rate, metrics.max_cadence) == (619, 176, 133)
