"""Reading ride FIT files: one decoding pass with the CRC check, keeping only what ride pages need.

fit_reader decodes with numpy; files it does not cover go through fitdecode, which is also the reference the
tests hold it to. fitdecode runs without a data processor: scale and offset are still applied, so values come
in FIT's base units (m, m/s, s), while dates stay raw FIT seconds that we convert once per file.
"""

from dataclasses import dataclass
from datetime import UTC, datetime

import fitdecode
import numpy as np
from fitdecode.records import FitDataMessage

from cycling_site.embedded.activity import fit_reader
from cycling_site.embedded.activity.fit_reader import COLUMNS as _COLUMNS

NOT_FIT_MESSAGE = "This file is not a FIT file."
EMPTY_MESSAGE = "The file is empty."
DAMAGED_MESSAGE = "The FIT file is damaged or incomplete."
NO_SAMPLES_MESSAGE = "The FIT file has no ride samples."
TOO_LONG_MESSAGE = "The FIT file spans more than 14 days: upload one ride at a time."

MAX_SPAN_S = 14 * 24 * 3600  # longer is a damaged clock or many rides; its 1 Hz arrays would not fit

FIT_EPOCH = 631065600  # FIT dates count seconds from 1989-12-31 00:00 UTC
FIT_CLOCK_SET = 0x10000000  # smaller dates count from power-on, before the device had the time
_SLOT = {name: i for i, name in enumerate(_COLUMNS)}
_TIMER_STOPS = frozenset({"stop", "stop_all", "stop_disable", "stop_disable_all"})


class FitFileError(ValueError):
    """The bytes cannot be read as a ride; str(error) is a message for the user."""


@dataclass(frozen=True)
class DeviceFigures:
    """What the head unit wrote in the session message, to show beside ours; None where absent."""

    normalized_power: float | None
    training_stress_score: float | None
    intensity_factor: float | None
    threshold_power: float | None
    avg_power: float | None
    total_timer_time: float | None
    total_elapsed_time: float | None


@dataclass(frozen=True)
class FitRide:
    """One ride as recorded: arrays have one entry per record, NaN where the record lacks the field."""

    started_at: datetime
    sport: str
    seconds: np.ndarray
    power: np.ndarray
    heart_rate: np.ndarray
    cadence: np.ndarray
    speed: np.ndarray
    altitude: np.ndarray
    distance: np.ndarray
    timer_stopped: list[tuple[float, float]]
    device: DeviceFigures


def _check_header(data: bytes) -> None:
    if not data:
        raise FitFileError(EMPTY_MESSAGE)
    if len(data) < 12 or data[0] < 12 or data[8:12] != b".FIT":
        raise FitFileError(NOT_FIT_MESSAGE)


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _merge_same_second(rows: np.ndarray) -> np.ndarray:
    """Records sharing a timestamp become one, each field taken from the last record that has it."""
    first_of_second = np.r_[True, rows[1:, 0] != rows[:-1, 0]]
    if first_of_second.all():
        return rows
    group = np.cumsum(first_of_second) - 1
    merged = np.full((group[-1] + 1, rows.shape[1]), np.nan)
    for column in range(rows.shape[1]):
        present = np.flatnonzero(~np.isnan(rows[:, column]))
        last = present[np.r_[group[present][1:] != group[present][:-1], True]] if present.size else present
        merged[group[last], column] = rows[last, column]
    return merged


def _values(frame: FitDataMessage) -> dict:
    return {f.field.name: f.value for f in frame.fields if f.field is not None and f.value is not None}


def _decode_with_fitdecode(data: bytes) -> tuple[np.ndarray, list[tuple[float, str]], dict]:
    """The reference decoding, for the files fit_reader leaves to fitdecode."""
    rows: list[list] = []
    events: list[tuple[float, str]] = []
    session: dict = {}
    slot_of = _SLOT.get
    with fitdecode.FitReader(
        data,
        processor=None,
        check_crc=fitdecode.CrcCheck.RAISE,
        error_handling=fitdecode.ErrorHandling.RAISE,
    ) as reader:
        for frame in reader:
            if frame.__class__ is not FitDataMessage:
                continue
            number = frame.def_mesg.global_mesg_num
            if number == fit_reader.RECORD:
                row = [None] * len(_COLUMNS)
                for field in frame.fields:
                    if field.field is not None and field.value is not None:
                        slot = slot_of(field.field.name)
                        if slot is not None:
                            value = field.value
                            # A few devices write some of these as arrays: the first entry is the sample.
                            row[slot] = value[0] if value.__class__ is tuple and value else value
                rows.append(row)
            elif number == fit_reader.EVENT:
                values = _values(frame)
                if values.get("event") == "timer" and "timestamp" in values:
                    events.append((values["timestamp"], values.get("event_type")))
            elif number == fit_reader.SESSION and not session:
                session = _values(frame)
    return np.array(rows, dtype=np.float64).reshape(-1, len(_COLUMNS)), events, session


def _pauses(events: list[tuple[float, str]], origin: float) -> list[tuple[float, float]]:
    """(stop, start) pairs of timer events, in seconds from the first record."""
    pauses = []
    stopped_at = None
    for timestamp, kind in sorted(events, key=lambda event: event[0]):
        if kind in _TIMER_STOPS and stopped_at is None:
            stopped_at = float(timestamp) - origin
        elif kind == "start" and stopped_at is not None:
            pauses.append((stopped_at, float(timestamp) - origin))
            stopped_at = None
    return pauses


def _decode(data: bytes) -> tuple[np.ndarray, list[tuple[float, str]], dict]:
    try:
        return fit_reader.decode(data)
    except fit_reader.Unsupported:
        return _decode_with_fitdecode(data)


def _ride(table: np.ndarray, events: list[tuple[float, str]], session: dict) -> FitRide:
    table = table[~np.isnan(table[:, 0])]
    if not len(table):
        raise FitFileError(NO_SAMPLES_MESSAGE)
    if (table[:, 0] >= FIT_CLOCK_SET).any():
        table = table[table[:, 0] >= FIT_CLOCK_SET]  # records from before the clock was set can't be placed
    table = _merge_same_second(table[np.argsort(table[:, 0], kind="stable")])
    origin = float(table[0, 0])
    if table[-1, 0] - origin > MAX_SPAN_S:
        raise FitFileError(TOO_LONG_MESSAGE)

    def column(name: str) -> np.ndarray:
        return table[:, _SLOT[name]]

    def preferred(enhanced: str, plain: str) -> np.ndarray:
        return np.where(np.isnan(column(enhanced)), column(plain), column(enhanced))

    sport = session.get("sport")
    return FitRide(
        started_at=datetime.fromtimestamp(origin + FIT_EPOCH, UTC),
        sport=sport.lower() if isinstance(sport, str) else "cycling",
        seconds=table[:, 0] - origin,
        power=column("power").copy(),
        heart_rate=column("heart_rate").copy(),
        cadence=column("cadence").copy(),
        speed=preferred("enhanced_speed", "speed"),
        altitude=preferred("enhanced_altitude", "altitude"),
        distance=column("distance").copy(),
        timer_stopped=_pauses(events, origin),
        device=DeviceFigures(
            normalized_power=_number(session.get("normalized_power")),
            training_stress_score=_number(session.get("training_stress_score")),
            intensity_factor=_number(session.get("intensity_factor")),
            threshold_power=_number(session.get("threshold_power")),
            avg_power=_number(session.get("avg_power")),
            total_timer_time=_number(session.get("total_timer_time")),
            total_elapsed_time=_number(session.get("total_elapsed_time")),
        ),
    )


def read_fit(data: bytes) -> FitRide:
    """Decodes a ride from FIT bytes; any unreadable input raises FitFileError with a message for the user."""
    _check_header(data)
    try:
        return _ride(*_decode(data))
    except FitFileError:
        raise
    # A CRC, truncation or decoding error, or any other failure on untrusted content, means a bad file.
    except Exception as exc:
        raise FitFileError(DAMAGED_MESSAGE) from exc
