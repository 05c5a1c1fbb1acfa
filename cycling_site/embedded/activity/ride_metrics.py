"""Ride metrics on a 1 Hz grid: normalized power, training load, the mean-max power curve and ride totals.

Power metrics follow Coggan's definitions as GoldenCheetah computes them; where recordings are imperfect
(pauses, sensor dropouts, spikes) the choices below are the ones that reproduce what head units write.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cycling_site.embedded.activity.fit_files import FitRide

SPIKE_WATTS = 2500.0  # no rider holds this for a second: such a sample is a sensor glitch, read as missing
MAX_FILLED_GAP_S = 25  # GoldenCheetah's smart-recording limit: shorter gaps between records are interpolated
NP_WINDOW_S = 30
ELEVATION_SMOOTHING_S = 9
ELEVATION_HYSTERESIS_M = 3.0  # GoldenCheetah's default: barometric noise stays below it


def _curve_seconds() -> np.ndarray:
    seconds = list(range(1, 1201))
    # Integer arithmetic so that floor(prev * 1.01) is exact.
    while (following := max(seconds[-1] + 1, seconds[-1] * 101 // 100)) <= 24 * 3600:
        seconds.append(following)
    return np.array(seconds, dtype=np.int32)


CURVE_SECONDS = _curve_seconds()


@dataclass(frozen=True)
class Streams:
    """One value per second from the first record; NaN where unknown, moving False in pauses and long gaps."""

    power: np.ndarray
    heart_rate: np.ndarray
    cadence: np.ndarray
    speed: np.ndarray
    altitude: np.ndarray
    distance: np.ndarray
    moving: np.ndarray


@dataclass(frozen=True)
class RideMetrics:
    duration_s: int
    moving_s: int
    distance_m: float
    elevation_gain_m: float
    avg_power: float | None
    max_power: float | None
    normalized_power: float | None
    intensity: float | None
    training_load: float | None
    work_kj: float | None
    watts_per_kg: float | None
    avg_heart_rate: float | None
    max_heart_rate: float | None
    avg_cadence: float | None
    max_cadence: float | None
    avg_speed_kmh: float | None
    max_speed_kmh: float | None
    curve: np.ndarray


def resample_1hz(ride: FitRide) -> Streams:
    """Places records on whole seconds from the start (the last record wins within a second).

    A gap of up to MAX_FILLED_GAP_S between records is smart recording or a short dropout: it is
    interpolated linearly and counts as riding. Seconds inside a timer pause, or in a longer gap, are not
    moving and have no values; the power curve counts them as 0 W, as GoldenCheetah fills recording gaps,
    so no best effort bridges a stop. Power above SPIKE_WATTS and a heart rate of 0 are missing values.
    """
    if not len(ride.seconds):
        return Streams(*(np.empty(0) for _ in range(6)), moving=np.empty(0, dtype=bool))
    second = np.rint(ride.seconds).astype(np.int64)
    last_in_second = np.r_[second[1:] != second[:-1], True]
    second = second[last_in_second]
    length = int(second[-1]) + 1

    paused = np.zeros(length, dtype=bool)
    for stop, start in ride.timer_stopped:
        paused[max(int(np.rint(stop)) + 1, 0) : max(int(np.rint(start)), 0)] = True
    paused_before = np.concatenate(([0], np.cumsum(paused)))

    step = np.diff(second)
    no_pause_inside = paused_before[second[1:]] == paused_before[second[:-1] + 1]
    gap = np.flatnonzero((step > 1) & (step <= MAX_FILLED_GAP_S) & no_pause_inside)
    missing = step[gap] - 1
    left = np.repeat(gap, missing)  # the record before each filled second
    offset = np.arange(missing.sum()) - np.repeat(np.cumsum(missing) - missing, missing) + 1
    filled = second[left] + offset
    fraction = offset / step[left]

    def spread(values: np.ndarray) -> np.ndarray:
        values = values[last_in_second]
        out = np.full(length, np.nan)
        out[second] = values
        out[filled] = values[left] + fraction * (values[left + 1] - values[left])
        return out

    moving = np.zeros(length, dtype=bool)
    moving[second] = True
    moving[filled] = True
    moving &= ~paused
    return Streams(
        power=spread(np.where(ride.power > SPIKE_WATTS, np.nan, ride.power)),
        heart_rate=spread(np.where(ride.heart_rate > 0, ride.heart_rate, np.nan)),
        cadence=spread(ride.cadence),
        speed=spread(ride.speed),
        altitude=spread(ride.altitude),
        distance=spread(ride.distance),
        moving=moving,
    )


def _thirty_second_averages(power: np.ndarray, moving: np.ndarray) -> np.ndarray:
    """The 30 s rolling average of power at every second that has a power sample, from the 30th second on.

    The window is 30 s of clock time averaged over the samples it holds: a dropout or a pause is not read as
    0 W, and after a pause longer than the window the average restarts from the samples since the restart.
    This is the standard rolling average for a ride without gaps, and what head units do otherwise: on the
    indoor fixture (41 s of dropouts) it gives the device's 228.5 W, where dropouts as 0 W give 227.3 W.
    """
    valid = moving & ~np.isnan(power)
    sums = np.concatenate(([0.0], np.cumsum(np.where(valid, power, 0.0))))
    counts = np.concatenate(([0], np.cumsum(valid)))
    ends = np.flatnonzero(valid[NP_WINDOW_S - 1 :]) + NP_WINDOW_S
    starts = ends - NP_WINDOW_S
    return (sums[ends] - sums[starts]) / (counts[ends] - counts[starts])


def _fourth_power_mean_root(averages: np.ndarray) -> float | None:
    return float(np.mean(averages**4) ** 0.25) if len(averages) else None


def normalized_power(data: Streams | np.ndarray) -> float | None:
    """Coggan's NP: 4th root of the mean 4th power of the 30 s rolling averages (1 Hz power, NaN unknown).

    None without power, or for a ride shorter than the 30 s window, as head units leave it blank.
    """
    if isinstance(data, Streams):
        return _fourth_power_mean_root(_thirty_second_averages(data.power, data.moving))
    power = np.asarray(data, dtype=np.float64)
    return _fourth_power_mean_root(_thirty_second_averages(power, np.ones(len(power), dtype=bool)))


def mean_max_curve(power_1hz: np.ndarray) -> np.ndarray:
    """Best average power over every CURVE_SECONDS duration up to the ride's length; NaN counts as 0 W."""
    watts = np.nan_to_num(np.asarray(power_1hz, dtype=np.float64), nan=0.0)
    length = len(watts)
    count = int(np.searchsorted(CURVE_SECONDS, length, side="right"))
    curve = np.empty(count, dtype=np.float32)
    sums = np.zeros(length + 1)
    np.cumsum(watts, out=sums[1:])
    window_sums = np.empty(length)
    for index, duration in enumerate(CURVE_SECONDS[:count].tolist()):
        windows = window_sums[: length - duration + 1]
        np.subtract(sums[duration:], sums[: length - duration + 1], out=windows)
        curve[index] = windows.max() / duration
    return curve


def best_curve(curves: Sequence[np.ndarray]) -> np.ndarray:
    """Element-wise max of curves on the shared grid; the longest curve's tail is kept as is."""
    if not curves:
        return np.empty(0, dtype=np.float32)
    best = np.array(max(curves, key=len), dtype=np.float32)
    for curve in curves:
        np.maximum(best[: len(curve)], curve, out=best[: len(curve)])
    return best


def downsample(length: int, series: Sequence[np.ndarray], points: int = 600) -> np.ndarray:
    """Sorted indices to draw: first, last, and each series' min and max in every bucket, so no peak is lost.

    Buckets are sized so that the result has at most `points` indices (at least one bucket).
    """
    if length <= points:
        return np.arange(length)
    if not series:
        return np.unique(np.linspace(0, length - 1, points).astype(np.int64))
    buckets = max((points - 2) // (2 * len(series)), 1)
    size = -(-length // buckets)
    buckets = -(-length // size)
    rows = np.arange(buckets)
    keep = [np.array([0, length - 1])]
    for values in series:
        values = np.asarray(values, dtype=np.float64)[:length]
        padded = np.full(buckets * size, np.nan)
        padded[:length] = values
        for fill, pick in ((-np.inf, np.argmax), (np.inf, np.argmin)):
            grid = np.where(np.isnan(padded), fill, padded).reshape(buckets, size)
            column = pick(grid, axis=1)
            found = grid[rows, column] != fill
            keep.append(rows[found] * size + column[found])
    return np.unique(np.concatenate(keep))


def _elevation_gain(altitude: np.ndarray) -> float:
    """Sum of climbs after a light 9 s moving average and a 3 m hysteresis.

    The average is padded by point reflection so a steady slope is left exactly as it is; a climb only
    counts once it rises ELEVATION_HYSTERESIS_M above the last low, and a descent only ends it once it
    falls that much, so sensor noise and small wobbles add nothing while real climbs count in full.
    """
    heights = altitude[~np.isnan(altitude)]
    half = ELEVATION_SMOOTHING_S // 2
    if len(heights) > half:
        padded = np.concatenate(
            (2 * heights[0] - heights[half:0:-1], heights, 2 * heights[-1] - heights[-2 : -half - 2 : -1])
        )
        heights = np.convolve(padded, np.full(ELEVATION_SMOOTHING_S, 1 / ELEVATION_SMOOTHING_S), "valid")
    gain = 0.0
    climbing = False
    low = high = float(heights[0]) if len(heights) else 0.0
    for height in heights.tolist():
        if climbing:
            if height > high:
                high = height
            elif high - height >= ELEVATION_HYSTERESIS_M:
                gain += high - low
                climbing = False
                low = height
        elif height < low:
            low = height
        elif height - low >= ELEVATION_HYSTERESIS_M:
            climbing = True
            high = height
    return gain + (high - low if climbing else 0.0)


def _mean_max(values: np.ndarray) -> tuple[float | None, float | None]:
    known = values[~np.isnan(values)]
    return (float(known.mean()), float(known.max())) if len(known) else (None, None)


def ride_metrics(streams: Streams, ftp: float, weight_kg: float) -> RideMetrics:
    """Ride totals over moving seconds; power figures are None (and the curve empty) without power.

    Training load is Coggan's TSS, seconds x NP x IF / (FTP x 3600) x 100, where the seconds are the
    30 s averages NP was taken over (GoldenCheetah's count), so NP and TSS cover the same time; head units
    also leave out the first 29 s: this is within 0.2 % of the device TSS of the Edge 810 and indoor files.
    Average power includes zeros, like head units; average cadence leaves out coasting (0 rpm), as
    GoldenCheetah and most head units do; watts per kg is average power over body weight.
    """
    moving = streams.moving
    moving_s = int(moving.sum())
    power = np.where(moving, streams.power, np.nan)
    avg_power, max_power = _mean_max(power)
    normalized = intensity = training_load = work_kj = watts_per_kg = None
    curve = np.empty(0, dtype=np.float32)
    if avg_power is not None:
        work_kj = float(np.nansum(power)) / 1000
        watts_per_kg = avg_power / weight_kg if weight_kg > 0 else None
        averages = _thirty_second_averages(streams.power, moving)
        normalized = _fourth_power_mean_root(averages)
        if normalized is not None and ftp > 0:
            intensity = normalized / ftp
            training_load = len(averages) * intensity**2 / 36
        curve = mean_max_curve(power)

    speed = np.where(moving, streams.speed, np.nan)
    if not np.isnan(streams.distance).all():
        distance_m = float(np.nanmax(streams.distance))
    else:
        distance_m = float(np.nansum(speed))
    avg_heart_rate, max_heart_rate = _mean_max(np.where(moving, streams.heart_rate, np.nan))
    avg_cadence, max_cadence = _mean_max(np.where(moving & (streams.cadence > 0), streams.cadence, np.nan))
    max_speed = _mean_max(speed)[1]
    return RideMetrics(
        duration_s=len(moving),
        moving_s=moving_s,
        distance_m=distance_m,
        elevation_gain_m=_elevation_gain(streams.altitude),
        avg_power=avg_power,
        max_power=max_power,
        normalized_power=normalized,
        intensity=intensity,
        training_load=training_load,
        work_kj=work_kj,
        watts_per_kg=watts_per_kg,
        avg_heart_rate=avg_heart_rate,
        max_heart_rate=max_heart_rate,
        avg_cadence=avg_cadence,
        max_cadence=max_cadence,
        avg_speed_kmh=distance_m / moving_s * 3.6 if distance_m > 0 and moving_s else None,
        max_speed_kmh=max_speed * 3.6 if max_speed is not None else None,
        curve=curve,
    )
