"""Synthetic but plausible rides for demo riders, written as real FIT activity files.

The site graphs and analyses uploaded FIT files, so demo riders need months of history that looks like
training (structured workouts, Sunday races, the odd long ride) without shipping anyone's recordings.
"""

import math
import struct
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

import numpy as np
from fit_tool.definition_message import DefinitionMessage
from fit_tool.field_definition import FieldDefinition
from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.fit_file_header import FitFileHeader
from fit_tool.profile.messages.activity_message import ActivityMessage
from fit_tool.profile.messages.event_message import EventMessage
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.lap_message import LapMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.messages.session_message import SessionMessage
from fit_tool.profile.profile_type import Activity, Event, EventType, FileType, Manufacturer, Sport
from fit_tool.record import RecordHeader
from fit_tool.utils.crc import crc16


@dataclass(frozen=True)
class DemoRide:
    """One generated activity: what the rider would have uploaded (`fit`) and how the site labels it."""

    started_at: datetime
    type: str
    sport: str
    title: str
    route_name: str
    fit: bytes


# --- FIT writing -------------------------------------------------------------------------------------------

# Stream fields in the order they sit in a record, named as write_fit takes them.
_STREAMS = ("altitude", "heart_rate", "cadence", "distance", "speed", "power")
# Records get their own local message type so the few other messages can share type 0.
_RECORD_LOCAL_ID = 1


@dataclass(frozen=True)
class _Column:
    """How one record field goes on the wire, taken from fit-tool's profile so scales are not copied here."""

    definition: FieldDefinition
    dtype: np.dtype
    scale: float
    offset: float
    low: int
    high: int


@cache
def _columns() -> dict[str, _Column]:
    message = RecordMessage()
    columns = {}
    for name in ("timestamp", *_STREAMS):
        field = message.get_field_by_name(name)
        base = field.base_type
        columns[name] = _Column(
            definition=FieldDefinition(field.field_id, base.size, base),
            dtype=np.dtype("<" + base.struct_format),
            scale=field.scale or 1.0,
            offset=field.offset or 0.0,
            low=base.min,
            # The all-ones raw value means "invalid", so the largest storable value is one below it.
            high=base.max - 1 if base.invalid_raw_value() == base.max else base.max,
        )
    return columns


def _raw(name: str, values: np.ndarray) -> np.ndarray:
    """Scaled, rounded wire values (NaN stays NaN); refuses values the field cannot hold."""
    column = _columns()[name]
    raw = np.rint((values + column.offset) * column.scale)
    present = raw[~np.isnan(raw)]
    if present.size and (present.min() < column.low or present.max() > column.high):
        raise ValueError(f"{name} out of range for FIT: {present.min()}..{present.max()} raw")
    return raw


def _record_bytes(timestamps: np.ndarray, streams: dict[str, np.ndarray]) -> bytes:
    """All record messages, packed with numpy a run of same-shaped records at a time.

    fit-tool's per-message builder needs ~0.4 ms a record (6 s for a 4 h ride), far too slow for months of
    demo rides; its definitions and profile scales are still used. A NaN leaves the field out of that record:
    each change in which fields are present starts a new definition, as devices do when a sensor drops.
    """
    columns = _columns()
    raws = {name: _raw(name, values) for name, values in streams.items()}
    present = np.stack([~np.isnan(raws[name]) for name in _STREAMS], axis=1)
    shape = present @ (1 << np.arange(len(_STREAMS)))
    starts = np.concatenate(([0], np.flatnonzero(np.diff(shape)) + 1, [len(shape)]))
    data_header = RecordHeader(is_definition=False, local_id=_RECORD_LOCAL_ID).to_bytes()
    definition_header = RecordHeader(is_definition=True, local_id=_RECORD_LOCAL_ID).to_bytes()
    parts = []
    for start, stop in zip(starts[:-1], starts[1:], strict=True):
        names = ["timestamp", *(name for i, name in enumerate(_STREAMS) if present[start, i])]
        definition = DefinitionMessage(
            local_id=_RECORD_LOCAL_ID,
            global_id=RecordMessage.ID,
            field_definitions=[columns[name].definition for name in names],
        )
        rows = np.empty(
            stop - start, dtype=[("header", "u1")] + [(name, columns[name].dtype) for name in names]
        )
        rows["header"] = data_header[0]
        rows["timestamp"] = timestamps[start:stop]
        for name in names[1:]:
            rows[name] = raws[name][start:stop]
        parts += [definition_header, definition.to_bytes(), rows.tobytes()]
    return b"".join(parts)


def _normalized_power(power: np.ndarray) -> float | None:
    """The usual 30 s rolling mean to the fourth power; devices store it, so the demo files do too."""
    watts = np.nan_to_num(power)
    if watts.size < 30:
        return None
    rolling = np.convolve(watts, np.ones(30) / 30, mode="valid")
    return float(np.mean(rolling**4) ** 0.25)


def _summary(streams: dict[str, np.ndarray], start_ms: int, end_ms: int) -> dict:
    """Lap and session totals as a device would write them; fields without data are left out."""
    elapsed = (end_ms - start_ms) / 1000
    values = {
        "start_time": start_ms,
        "timestamp": end_ms,
        "total_elapsed_time": elapsed,
        "total_timer_time": elapsed,
    }
    valid = {name: stream[~np.isnan(stream)] for name, stream in streams.items()}
    if valid["distance"].size:
        values["total_distance"] = float(valid["distance"].max())
    for name in ("speed", "heart_rate", "cadence", "power"):
        samples = valid[name]
        if name == "cadence":
            samples = samples[samples > 0]  # devices average cadence over pedalling time only
        if samples.size:
            average, peak = float(samples.mean()), float(samples.max())
            values[f"avg_{name}"] = average if name == "speed" else round(average)
            values[f"max_{name}"] = peak if name == "speed" else round(peak)
    if valid["altitude"].size > 1:
        climb = np.diff(valid["altitude"])
        values["total_ascent"] = round(float(climb[climb > 0].sum()))
        values["total_descent"] = round(float(-climb[climb < 0].sum()))
    if valid["power"].size and (normalized := _normalized_power(streams["power"])) is not None:
        values["normalized_power"] = round(normalized)
    return values


def _message(cls, **values):
    message = cls()
    for name, value in values.items():
        setattr(message, name, value)
    return message


def write_fit(
    started_at: datetime,
    sport: str,
    power,
    heart_rate,
    cadence,
    speed,
    altitude,
    distance,
) -> bytes:
    """A complete FIT activity file from 1 Hz streams (NaN = no value in that record).

    Units are the FIT ones: W, bpm, rpm, m/s, m and cumulative m. Timestamps are whole seconds from
    `started_at`; elapsed and timer time run from the first record to the last (the streams have no pauses).
    """
    if started_at.tzinfo is None:
        raise ValueError("started_at must be timezone-aware")
    streams = {
        name: np.asarray(values, dtype=float)
        for name, values in zip(
            _STREAMS, (altitude, heart_rate, cadence, distance, speed, power), strict=True
        )
    }
    count = streams["power"].size
    if not count or any(stream.shape != (count,) for stream in streams.values()):
        shapes = {name: stream.shape for name, stream in streams.items()}
        raise ValueError(f"streams must be 1-D, non-empty and of one length, got {shapes}")
    start_ms = math.floor(started_at.timestamp()) * 1000
    end_ms = start_ms + (count - 1) * 1000
    timestamps = _raw("timestamp", start_ms + 1000.0 * np.arange(count))

    summary = _summary(streams, start_ms, end_ms)
    fit_sport = Sport[sport.upper()]
    builder = FitFileBuilder()
    builder.add(
        _message(
            FileIdMessage,
            type=FileType.ACTIVITY,
            manufacturer=Manufacturer.DEVELOPMENT.value,
            product=0,
            serial_number=1,
            time_created=start_ms,
        )
    )
    builder.add(_message(EventMessage, timestamp=start_ms, event=Event.TIMER, event_type=EventType.START))
    before_records = len(builder.records)
    builder.add(_message(EventMessage, timestamp=end_ms, event=Event.TIMER, event_type=EventType.STOP_ALL))
    builder.add(_message(LapMessage, message_index=0, sport=fit_sport, **summary))
    builder.add(
        _message(SessionMessage, message_index=0, sport=fit_sport, first_lap_index=0, num_laps=1, **summary)
    )
    builder.add(
        _message(
            ActivityMessage,
            timestamp=end_ms,
            total_timer_time=summary["total_timer_time"],
            num_sessions=1,
            type=Activity.MANUAL,
            event=Event.ACTIVITY,
            event_type=EventType.STOP,
        )
    )
    encoded = [record.to_bytes() for record in builder.records]
    body = b"".join(
        [*encoded[:before_records], _record_bytes(timestamps, streams), *encoded[before_records:]]
    )
    header = FitFileHeader(records_size=len(body), gen_crc=True).to_bytes()
    return header + body + struct.pack("<H", crc16(body, crc=crc16(header)))


# --- Courses -----------------------------------------------------------------------------------------------

_STEP_M = 10.0  # course profiles are sampled every 10 m


@dataclass(frozen=True)
class _Course:
    name: str
    base_altitude: float
    legs: tuple[tuple[float, float], ...]  # (length km, average grade %), smoothed into a profile
    rollers: float  # amplitude of the small undulations, grade %


_COURSES = {
    course.name: course
    for course in (
        # Out and back: 4 km to the foot, ~11.8 km at 7-9.5 % (about 1000 m up), and down again.
        _Course(
            "Jebel Hafeet",
            290,
            (
                (4, 0.3),
                (2.5, 7),
                (3, 9),
                (3.3, 8.5),
                (3, 9.5),
                (3, -9.5),
                (3.3, -8.5),
                (3, -9),
                (2.5, -7),
                (4, -0.3),
            ),
            0.6,
        ),
        _Course(
            "Al Qudra Loop", 60, ((6, 0.4), (4, -0.6), (8, 0.7), (5, -0.9), (7, 0.3), (6, -0.5), (9, 0)), 0.8
        ),
        _Course("Hatta Dam Climb", 340, ((5, 1), (3, 7), (2, -4), (4, 2), (3, -6.5), (7, -1.2)), 1.2),
        _Course("Mleiha Rollers", 120, ((5, 2), (3, -2.5), (6, 1.5), (4, -3), (7, 1), (5, -1)), 2.0),
        _Course("Corniche Flat", 5, ((12, 0),), 0.3),
        _Course("Meydan Criterium", 12, ((1.2, 0.8), (0.5, -1.5), (1.0, 0.5), (0.7, -1)), 0.4),
    )
}


@dataclass(frozen=True)
class _Profile:
    grade: np.ndarray  # fraction, per 10 m step
    altitude: np.ndarray  # m, one more point than grade so the loop closes

    @property
    def length(self) -> float:
        return self.grade.size * _STEP_M

    def altitude_at(self, distance: np.ndarray) -> np.ndarray:
        return np.interp(distance % self.length, np.arange(self.altitude.size) * _STEP_M, self.altitude)

    def grade_at(self, distance: np.ndarray) -> np.ndarray:
        return self.grade[(distance / _STEP_M).astype(int) % self.grade.size]


@cache
def _profile(name: str) -> _Profile:
    """The course as a smooth closed loop: legs, rollers that repeat exactly, then a 300 m moving average."""
    course = _COURSES[name]
    grade = np.concatenate([np.full(round(km * 1000 / _STEP_M), pct / 100) for km, pct in course.legs])
    grade -= grade.mean()  # back where it started, so laps join up
    cycles = np.arange(grade.size) / grade.size * 2 * np.pi
    laps = grade.size * _STEP_M
    for wavelength_m, share in ((1500, 0.6), (600, 0.4)):
        grade += course.rollers / 100 * share * np.sin(max(1, round(laps / wavelength_m)) * cycles)
    window = 30
    wrapped = np.concatenate((grade[-window:], grade, grade[:window]))
    grade = np.convolve(wrapped, np.ones(window) / window, mode="same")[window:-window]
    altitude = course.base_altitude + np.concatenate(([0.0], np.cumsum(grade * _STEP_M)))
    return _Profile(grade, altitude)


# --- Streams ---------------------------------------------------------------------------------------------

_BIKE_KG = 8.0
_GRAVITY = 9.81
_CRR = 0.004
_CDA = 0.3
_AIR_DENSITY = 1.2
_MAX_SPEED = 17.5  # m/s: riders brake rather than exceed ~63 km/h
_FREEWHEEL_SPEED = 13.5  # m/s: downhill above this nobody pedals


@dataclass(frozen=True)
class _Rider:
    ftp: float
    mass: float  # rider and bike, kg
    max_hr: int


@dataclass(frozen=True)
class _Streams:
    power: np.ndarray
    heart_rate: np.ndarray
    cadence: np.ndarray
    speed: np.ndarray
    altitude: np.ndarray
    distance: np.ndarray


def _smooth_noise(rng: np.random.Generator, n: int, tau: float) -> np.ndarray:
    """Unit-variance noise correlated over ~tau seconds (white noise through an exponential kernel)."""
    kernel = np.exp(-np.arange(max(1, int(4 * tau))) / tau)
    white = rng.standard_normal(n + kernel.size - 1)
    return np.convolve(white, kernel / np.sqrt(np.sum(kernel**2)), mode="valid")


def _lagged(target: np.ndarray, start: float, tau_up: float, tau_down: float) -> np.ndarray:
    """First-order response, faster rising than falling, as heart rate follows effort."""
    rise, fall = 1 / tau_up, 1 / tau_down
    level, out = start, []
    for value in target.tolist():
        level += (value - level) * (rise if value > level else fall)
        out.append(level)
    return np.array(out)


def _heart_rate(rng: np.random.Generator, rider: _Rider, effort: np.ndarray) -> np.ndarray:
    """Heart rate from effort (share of threshold): ~137 bpm at 65 %, ~172 at threshold for max 188.

    It lags effort, drifts up ~3 bpm an hour and varies a little day to day.
    """
    floor = 95.0
    reserve = (rider.max_hr - floor) * (1 - np.exp(-((np.maximum(effort, 0) / 0.8) ** 2.5)))
    hours = np.arange(effort.size) / 3600
    target = floor + reserve + 3 * hours + rng.normal(0, 3) + 1.5 * _smooth_noise(rng, effort.size, 20)
    return np.clip(_lagged(target, start=90, tau_up=20, tau_down=45), 90, rider.max_hr)


def _ride(
    rng: np.random.Generator,
    rider: _Rider,
    course: str,
    plan: np.ndarray,
    terrain: float,
    coasting: bool,
) -> _Streams:
    """Rides a power plan (W each second) over a course.

    `terrain` is how much the rider pushes up climbs (0 for ERG workouts that hold the plan); with
    `coasting` they freewheel on some descents and now and then on the flat. Speed comes from a
    point-mass model (gravity, rolling resistance, air drag, inertia), stepped once a second.
    """
    n = plan.size
    erg = terrain == 0
    wobble, jitter = (0.03, 0.025) if erg else (0.07, 0.05)  # a trainer in ERG mode holds power closer
    noise = wobble * _smooth_noise(rng, n, 4) + jitter * rng.standard_normal(n)
    planned = np.maximum(plan * (1 + noise), 0).tolist()
    freewheel = (_smooth_noise(rng, n, 15) > -0.2).tolist() if coasting else [False] * n
    brief_stop = (_smooth_noise(rng, n, 4) > 2.6).tolist() if coasting else [False] * n

    profile = _profile(course)
    grades, steps = profile.grade.tolist(), profile.grade.size
    mass, drag = rider.mass, 0.5 * _AIR_DENSITY * _CDA
    rolling = mass * _GRAVITY * _CRR
    power, speed, distance, grade_seen = [], [], [], []
    v = x = 0.0
    for t in range(n):
        grade = grades[int(x / _STEP_M) % steps]
        p = planned[t] * min(max(1 + terrain * grade, 0.5), 1.35)
        downhill = grade < -0.02
        if (downhill and (freewheel[t] or v > _FREEWHEEL_SPEED)) or brief_stop[t]:
            p = 0.0
        power.append(p)
        speed.append(v)
        distance.append(x)
        grade_seen.append(grade)
        force = p / max(v, 2.0) - rolling - mass * _GRAVITY * grade - drag * v * v
        v = min(max(v + force / mass, 0.0), _MAX_SPEED)
        x += v

    watts = np.round(power)
    effort = watts / rider.ftp
    pedalling = watts > 0
    cadence = (
        rng.uniform(84, 94)
        + 2.5 * _smooth_noise(rng, n, 30)
        + 1.5 * rng.standard_normal(n)
        - (0 if erg else 120) * np.array(grade_seen).clip(0, 0.1)
        + 8 * (effort - 1).clip(0, 2)
    )
    return _Streams(
        power=watts,
        heart_rate=_heart_rate(rng, rider, effort),
        cadence=np.where(pedalling, cadence.clip(55, 130), 0),
        speed=np.array(speed),
        altitude=profile.altitude_at(np.array(distance)),
        distance=np.array(distance),
    )


def _run(rng: np.random.Generator, rider: _Rider, course: str, seconds: int) -> _Streams:
    """An easy run without a power meter: pace eases off up hills, running cadence ~85 strides/min."""
    profile = _profile(course)
    warm_up = np.minimum(1, 0.8 + 0.2 * np.arange(seconds) / 300)
    planned = rng.uniform(2.8, 3.2) * warm_up * (1 + 0.03 * _smooth_noise(rng, seconds, 60))
    grade = profile.grade_at(np.cumsum(planned))
    speed = planned * (1 - 3 * grade)
    distance = np.concatenate(([0.0], np.cumsum(speed)[:-1]))
    effort = speed / 3.9 * (1 + 6 * grade)
    return _Streams(
        power=np.full(seconds, np.nan),
        heart_rate=_heart_rate(rng, rider, effort),
        cadence=np.round(rng.uniform(82, 88) + 1.5 * _smooth_noise(rng, seconds, 30)),
        speed=speed,
        altitude=profile.altitude_at(distance),
        distance=distance,
    )


# --- Sessions --------------------------------------------------------------------------------------------


def _endurance_plan(rng: np.random.Generator, rider: _Rider, seconds: int, level: float) -> np.ndarray:
    """Steady riding at `level` of FTP, wandering a little, easing in over the first five minutes."""
    ease_in = np.minimum(1, 0.75 + 0.25 * np.arange(seconds) / 300)
    return rider.ftp * level * ease_in * (1 + 0.06 * _smooth_noise(rng, seconds, 180))


def _steps(*steps: tuple[int, float], times: int = 1) -> tuple[tuple[int, float], ...]:
    return tuple(steps) * times


# Main sets as (seconds, share of FTP); each workout also gets a warm-up and a cool-down.
_WORKOUTS = {
    "Sweet spot 3x12": _steps((720, 0.90), (300, 0.55), times=3),
    "Threshold 2x20": _steps((1200, 0.98), (360, 0.55), times=2),
    "VO2 max 5x4": _steps((240, 1.15), (240, 0.50), times=5),
    "VO2 max 6x3": _steps((180, 1.18), (180, 0.50), times=6),
    "Over-unders 3x9": _steps(*_steps((120, 0.95), (60, 1.08), times=3), (300, 0.55), times=3),
    "40/20s 2x10": _steps(*_steps((40, 1.20), (20, 0.50), times=10), (300, 0.55), times=2),
}
_WARM_UP = _steps((120, 0.45), (120, 0.55), (120, 0.62), (120, 0.68), (120, 0.75))
_COOL_DOWN = _steps((240, 0.55), (240, 0.45))


def _workout_plan(rider: _Rider, main_set: tuple[tuple[int, float], ...]) -> np.ndarray:
    steps = (*_WARM_UP, *main_set, *_COOL_DOWN)
    shares = np.repeat([share for _, share in steps], [seconds for seconds, _ in steps])
    return rider.ftp * np.convolve(shares, np.ones(3) / 3, mode="same")  # a trainer ramps over ~3 s


def _race_plan(rng: np.random.Generator, rider: _Rider, seconds: int, crit: bool) -> np.ndarray:
    """Sitting in at ~72 % FTP with attacks and chases, a lead-out and a sprint of up to ~3x FTP.

    Ends with two minutes of spinning down after the line.
    """
    plan = rider.ftp * 0.72 * (1 + 0.08 * _smooth_noise(rng, seconds, 60))
    plan[:180] = rider.ftp * 0.6  # neutral start
    finish = seconds - 120
    gap = 60 if crit else 120
    t = 180 + int(rng.exponential(gap))
    while t < finish - 90:
        length = int(rng.integers(5, 20 if crit else 45))
        plan[t : t + length] = rider.ftp * (2.2 - length / 45 + rng.normal(0, 0.1))
        recovery = int(rng.integers(10, 30))
        plan[t + length : t + length + recovery] *= 0.6
        t += length + recovery + int(rng.exponential(gap))
    sprint = int(rng.integers(8, 13))
    plan[finish - sprint - 30 : finish - sprint] = rider.ftp * rng.uniform(1.3, 1.6)
    plan[finish - sprint : finish] = rider.ftp * rng.uniform(2.4, 2.7)
    plan[finish:] = rider.ftp * 0.4
    return plan


def _pick(rng: np.random.Generator, weights: dict[str, float]) -> str:
    names = list(weights)
    return names[rng.choice(len(names), p=np.array(list(weights.values())) / sum(weights.values()))]


def _minutes(rng: np.random.Generator, low: int, high: int) -> int:
    """A duration in seconds, whole five minutes between low and high."""
    return 60 * 5 * int(rng.integers(low // 5, high // 5 + 1))


@dataclass(frozen=True)
class _Session:
    type: str
    sport: str
    title: str
    route_name: str
    streams: _Streams


def _easy(rng: np.random.Generator, rider: _Rider, title: str) -> _Session:
    if rng.random() < 0.15:
        route = _pick(rng, {"Corniche Flat": 2, "Al Qudra Loop": 1})  # nobody recovers up a mountain
        title, level, seconds = "Recovery spin", rng.uniform(0.48, 0.55), _minutes(rng, 45, 60)
    else:
        route = _pick(
            rng,
            {
                "Corniche Flat": 3,
                "Al Qudra Loop": 3,
                "Mleiha Rollers": 2,
                "Hatta Dam Climb": 1.5,
                "Jebel Hafeet": 1,
            },
        )
        level, seconds = rng.uniform(0.58, 0.70), _minutes(rng, 45, 120)
    plan = _endurance_plan(rng, rider, seconds, level)
    return _Session("ride", "cycling", title, route, _ride(rng, rider, route, plan, terrain=3, coasting=True))


def _long(rng: np.random.Generator, rider: _Rider) -> _Session:
    route = _pick(
        rng, {"Al Qudra Loop": 3.5, "Hatta Dam Climb": 2.5, "Jebel Hafeet": 2.5, "Mleiha Rollers": 1.5}
    )
    plan = _endurance_plan(rng, rider, _minutes(rng, 180, 240), rng.uniform(0.62, 0.68))
    return _Session(
        "ride", "cycling", "Long ride", route, _ride(rng, rider, route, plan, terrain=3, coasting=True)
    )


def _workout(rng: np.random.Generator, rider: _Rider) -> _Session:
    name = _pick(rng, dict.fromkeys(_WORKOUTS, 1))
    route = _pick(rng, {"Corniche Flat": 5, "Al Qudra Loop": 3, "Meydan Criterium": 2})
    plan = _workout_plan(rider, _WORKOUTS[name])
    return _Session(
        "workout", "cycling", name, route, _ride(rng, rider, route, plan, terrain=0, coasting=False)
    )


# Event series: (route, minutes from, minutes to, criterium?)
_SERIES = {
    "Sunday Race Club - Round": ("Al Qudra Loop", 45, 75, False),
    "Hatta Hills Series - Round": ("Hatta Dam Climb", 60, 90, False),
    "Desert Crit Series - Race": ("Meydan Criterium", 30, 45, True),
}


def _event(rng: np.random.Generator, rider: _Rider, series: str, round_number: int) -> _Session:
    route, low, high, crit = _SERIES[series]
    plan = _race_plan(rng, rider, _minutes(rng, low, high), crit)
    streams = _ride(rng, rider, route, plan, terrain=2, coasting=True)
    return _Session("event", "cycling", f"{series} {round_number}", route, streams)


def _morning_run(rng: np.random.Generator, rider: _Rider) -> _Session:
    route = "Corniche Flat"
    return _Session("ride", "running", "Morning run", route, _run(rng, rider, route, _minutes(rng, 30, 55)))


# --- Calendar --------------------------------------------------------------------------------------------

_LOCAL_OFFSET = timedelta(hours=4)  # demo riders live in the UAE: their mornings are UTC+4
_DAYS_PER_MONTH = 30.44
# Local start windows in hours, by kind of session.
_START_HOURS = {
    "event": ((6.0, 7.0),),
    "crit": ((18.5, 19.0),),
    "long": ((5.0, 6.0),),
    "workout": ((5.25, 6.0), (18.0, 19.5)),
    "easy": ((5.5, 7.0), (17.0, 18.5)),
    "run": ((6.0, 7.0),),
}


def _week(rng: np.random.Generator, week: int) -> dict[int, str]:
    """Which weekday (Monday 0) gets what: 3-5 rides, Tuesday intervals, Sunday mostly a race.

    Every fifth week a Wednesday run takes the place of any ride that day.
    """
    days = {6: "event" if rng.random() < 0.7 else "easy", 1: "workout"}
    count = int(rng.integers(3, 6))
    others = rng.choice([3, 5, 2, 4, 0], size=count - 2, replace=False, p=[0.35, 0.3, 0.15, 0.12, 0.08])
    for day in others.tolist():
        if day == 3:
            days[day] = "workout"
        elif day == 5:
            days[day] = "long" if rng.random() < 0.4 else "easy"
        else:
            days[day] = "crit" if day == 2 and rng.random() < 0.25 else "easy"
    if week % 5 == 2:
        days[2] = "run"
    return dict(sorted(days.items()))


def _start_time(rng: np.random.Generator, day: datetime, kind: str) -> datetime:
    windows = _START_HOURS[kind]
    low, high = windows[int(rng.integers(len(windows)))]
    local_seconds = int(rng.integers(int(low * 3600), int(high * 3600) + 1))
    return day + timedelta(seconds=local_seconds) - _LOCAL_OFFSET


def _title(started_at: datetime) -> str:
    hour = (started_at + _LOCAL_OFFSET).hour
    return "Morning ride" if hour < 12 else "Evening ride"


def demo_rides(
    seed: int,
    end: datetime,
    months: int = 3,
    ftp: float = 250,
    weight_kg: float = 72,
    max_hr: int = 188,
) -> list[DemoRide]:
    """A few months of one rider's training up to `end`, oldest first; the same seed gives the same rides.

    Every ride has finished by `end`.
    """
    if end.tzinfo is None:
        raise ValueError("end must be timezone-aware")
    end = end.astimezone(UTC)
    rng = np.random.default_rng(seed)
    rider = _Rider(ftp, weight_kg + _BIKE_KG, max_hr)
    window_start = end - timedelta(days=round(months * _DAYS_PER_MONTH))
    local_start = (window_start + _LOCAL_OFFSET).date()
    # Days are handled as local midnights labelled UTC; _start_time takes the offset off again.
    monday = datetime.combine(local_start - timedelta(days=local_start.weekday()), datetime.min.time(), UTC)
    # The series are already under way when the demo history starts.
    rounds = {series: int(rng.integers(0, 5)) for series in _SERIES}
    rides = []
    week = 0
    while monday - _LOCAL_OFFSET <= end:
        for weekday, kind in _week(rng, week).items():
            started_at = _start_time(rng, monday + timedelta(days=weekday), kind)
            match kind:
                case "event" | "crit":
                    series = (
                        "Desert Crit Series - Race"
                        if kind == "crit"
                        else _pick(rng, {"Sunday Race Club - Round": 3, "Hatta Hills Series - Round": 1})
                    )
                    rounds[series] += 1
                    session = _event(rng, rider, series, rounds[series])
                case "easy":
                    session = _easy(rng, rider, _title(started_at))
                case "long":
                    session = _long(rng, rider)
                case "workout":
                    session = _workout(rng, rider)
                case "run":
                    session = _morning_run(rng, rider)
            streams = session.streams
            if started_at < window_start or started_at + timedelta(seconds=streams.power.size - 1) > end:
                continue
            fit = write_fit(
                started_at,
                session.sport,
                streams.power,
                streams.heart_rate,
                streams.cadence,
                streams.speed,
                streams.altitude,
                streams.distance,
            )
            rides.append(
                DemoRide(started_at, session.type, session.sport, session.title, session.route_name, fit)
            )
        monday += timedelta(days=7)
        week += 1
    return rides
