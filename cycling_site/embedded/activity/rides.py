"""The activity service's rules: ingest of FIT rides, and the rider's lists, details, curves and files.

Every read is scoped to one rider: another rider's fileId is simply not found. Metrics and the
mean-maximal curve are computed once at ingest; the overall curve is kept as a running element-wise
maximum, so neither the dashboard nor a comparison ever rescans a ride's samples.
"""

import hashlib
import math
import zlib
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from sqlalchemy import bindparam, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from cycling_site.db import read_columns
from cycling_site.embedded.activity import ride_metrics
from cycling_site.embedded.activity.fit_files import read_fit
from cycling_site.embedded.activity.models import Ride, RideData, RiderCurve, RideType
from cycling_site.models.common import as_utc, utcnow
from cycling_site.wire.activity import MAX_COMPARE, MAX_FIT_BYTES

RIDE_TYPES = (RideType.ride, RideType.workout, RideType.event)
LIST_TYPES = ("all", *RIDE_TYPES)
SORTS = ("desc", "asc")
PAGE_SIZE = 20
MAX_PAGE = 100_000
FTP_RANGE = (50, 1000)
WEIGHT_RANGE = (20, 250)
TEXT_MAX = 100
GRAPH_POINTS = 600
STREAM_NAMES = ("power", "heart_rate", "cadence", "speed", "altitude", "distance")

NOT_FOUND = "Activity not found."
ALREADY_UPLOADED = "This ride has already been uploaded."
FILE_TOO_LARGE = "The file is too large (16 MB at most)."
BAD_TYPE = "Type must be one of all, ride, workout or event."
BAD_SORT = "sortDate must be desc or asc."
BAD_PAGE = f"page must be a whole number from 1 to {MAX_PAGE}."
BAD_FILE_IDS = "activityFileIds must be a list of at most 2 activity file ids."
BAD_RIDER = "A rider uuid is required."
BAD_FTP = f"FTP must be between {FTP_RANGE[0]} and {FTP_RANGE[1]} W."
BAD_WEIGHT = f"Weight must be between {WEIGHT_RANGE[0]} and {WEIGHT_RANGE[1]} kg."
BAD_TEXT = f"Title and route name are at most {TEXT_MAX} characters."


class ActivityError(ValueError):
    """Bad input: the message says what; nothing was stored."""

    status_code = 400


class ActivityNotFound(ActivityError):
    status_code = 404


class DuplicateRide(ActivityError):
    status_code = 409


@dataclass(frozen=True)
class NewRide:
    rider_uuid: str
    data: bytes
    file_name: str
    type: str
    title: str
    route_name: str
    ftp: float
    weight_kg: float


def _check_new_ride(new: NewRide) -> None:
    if not new.rider_uuid or len(new.rider_uuid) > 36:
        raise ActivityError(BAD_RIDER)
    if new.type not in RIDE_TYPES:
        raise ActivityError(BAD_TYPE)
    if len(new.title) > TEXT_MAX or len(new.route_name) > TEXT_MAX:
        raise ActivityError(BAD_TEXT)
    if not (FTP_RANGE[0] <= new.ftp <= FTP_RANGE[1]):
        raise ActivityError(BAD_FTP)
    if not (WEIGHT_RANGE[0] <= new.weight_kg <= WEIGHT_RANGE[1]):
        raise ActivityError(BAD_WEIGHT)
    if len(new.data) > MAX_FIT_BYTES:
        raise ActivityError(FILE_TOO_LARGE)


def _optional(value: float | None, digits: int = 1) -> float | None:
    return None if value is None or not math.isfinite(value) else round(float(value), digits)


def _pack_streams(streams: ride_metrics.Streams) -> bytes:
    matrix = np.vstack([getattr(streams, name) for name in STREAM_NAMES]).astype(np.float32)
    return zlib.compress(matrix.tobytes(), 6)


def _unpack_streams(blob: bytes) -> np.ndarray:
    return np.frombuffer(zlib.decompress(blob), dtype=np.float32).reshape(len(STREAM_NAMES), -1)


def _default_title(started_at: datetime, sport: str) -> str:
    hour = started_at.hour
    part = "Morning" if 5 <= hour < 12 else "Afternoon" if 12 <= hour < 17 else "Evening"
    return f"{part} {'run' if sport == 'running' else 'ride'}"


def ingest(session: Session, new: NewRide) -> Ride:
    """Parses the FIT file once, computes every metric, stores the ride and raises the rider's best curve."""
    _check_new_ride(new)
    digest = hashlib.sha256(new.data).hexdigest()
    duplicate = select(Ride.id).where(Ride.rider_uuid == new.rider_uuid, Ride.file_sha256 == digest)
    if session.exec(duplicate).first() is not None:
        raise DuplicateRide(ALREADY_UPLOADED)
    fit = read_fit(new.data)
    streams = ride_metrics.resample_1hz(fit)
    metrics = ride_metrics.ride_metrics(streams, new.ftp, new.weight_kg)
    ride = Ride(
        rider_uuid=new.rider_uuid,
        type=new.type,
        sport=fit.sport,
        title=new.title.strip() or _default_title(fit.started_at, fit.sport),
        route_name=new.route_name.strip(),
        started_at=fit.started_at,
        duration_s=metrics.duration_s,
        moving_s=metrics.moving_s,
        distance_m=round(metrics.distance_m, 1),
        elevation_gain_m=round(metrics.elevation_gain_m, 1),
        avg_power=_optional(metrics.avg_power),
        max_power=_optional(metrics.max_power),
        normalized_power=_optional(metrics.normalized_power),
        intensity=_optional(metrics.intensity, 3),
        training_load=_optional(metrics.training_load),
        work_kj=_optional(metrics.work_kj),
        watts_per_kg=_optional(metrics.watts_per_kg, 2),
        avg_heart_rate=_optional(metrics.avg_heart_rate),
        max_heart_rate=_optional(metrics.max_heart_rate),
        avg_cadence=_optional(metrics.avg_cadence),
        max_cadence=_optional(metrics.max_cadence),
        avg_speed_kmh=_optional(metrics.avg_speed_kmh),
        max_speed_kmh=_optional(metrics.max_speed_kmh),
        ftp=new.ftp,
        weight_kg=new.weight_kg,
        file_name=(new.file_name or "ride.fit")[-120:],
        file_sha256=digest,
    )
    curve = metrics.curve.astype(np.float32)
    try:
        session.add(ride)
        session.flush()
        session.add(
            RideData(
                ride_id=ride.id, curve=curve.tobytes(), streams=_pack_streams(streams), fit_file=new.data
            )
        )
        _raise_best_curve(session, new.rider_uuid, curve, new.weight_kg)
        session.commit()
    except IntegrityError as exc:
        session.rollback()
        raise DuplicateRide(ALREADY_UPLOADED) from exc
    return ride


def _raise_best_curve(session: Session, rider_uuid: str, curve: np.ndarray, weight_kg: float) -> None:
    if not curve.size:
        return
    query = select(RiderCurve).where(RiderCurve.rider_uuid == rider_uuid).with_for_update()
    best = session.exec(query).first()
    per_kg = (curve / weight_kg).astype(np.float32)
    if best is None:
        best = RiderCurve(rider_uuid=rider_uuid, power=curve.tobytes(), power_weight=per_kg.tobytes())
    else:
        power = ride_metrics.best_curve([np.frombuffer(best.power, dtype=np.float32), curve])
        weight = ride_metrics.best_curve([np.frombuffer(best.power_weight, dtype=np.float32), per_kg])
        best.power = power.astype(np.float32).tobytes()
        best.power_weight = weight.astype(np.float32).tobytes()
        best.updated_at = utcnow()
    session.add(best)


def _rider_ride(session: Session, rider_uuid: str, file_id: object) -> Ride:
    if not isinstance(file_id, str) or not file_id or len(file_id) > 36:
        raise ActivityNotFound(NOT_FOUND)
    ride = session.exec(select(Ride).where(Ride.file_id == file_id, Ride.rider_uuid == rider_uuid)).first()
    if ride is None:
        raise ActivityNotFound(NOT_FOUND)
    return ride


def _km(metres: float) -> float:
    return round(metres / 1000, 2)


def activity_row(ride: Ride) -> dict:
    """Spec 3 "Activity row"."""
    return {
        "date": as_utc(ride.started_at).isoformat(),
        "type": ride.type,
        "sportType": ride.sport,
        "title": ride.title,
        "routeName": ride.route_name,
        "distance": _km(ride.distance_m),
        "elevation": round(ride.elevation_gain_m),
        "watt": None if ride.avg_power is None else round(ride.avg_power),
        "wattPerKg": ride.watts_per_kg,
        "heartrate": None if ride.avg_heart_rate is None else round(ride.avg_heart_rate),
        "rideDuration": ride.duration_s,
        "activityFileId": ride.file_id,
    }


def _page_number(page: object) -> int:
    if isinstance(page, bool) or not isinstance(page, int) or not 1 <= page <= MAX_PAGE:
        raise ActivityError(BAD_PAGE)
    return page


def list_rides(
    session: Session, rider_uuid: str, type: object = "all", page: object = 1, sort: object = "desc"
):
    """One page of the rider's rides (spec 1 "Activities page")."""
    if type not in LIST_TYPES:
        raise ActivityError(BAD_TYPE)
    if sort not in SORTS:
        raise ActivityError(BAD_SORT)
    page = _page_number(page)
    conditions = [Ride.rider_uuid == rider_uuid]
    if type != "all":
        conditions.append(Ride.type == type)
    total = session.exec(select(func.count()).select_from(Ride).where(*conditions)).one()
    order = col(Ride.started_at).desc() if sort == "desc" else col(Ride.started_at).asc()
    query = select(Ride).where(*conditions).order_by(order, col(Ride.id)).offset((page - 1) * PAGE_SIZE)
    rides = session.exec(query.limit(PAGE_SIZE)).all()
    return {
        "results": [activity_row(ride) for ride in rides],
        "totalCount": total,
        "totalPages": max(1, math.ceil(total / PAGE_SIZE)),
        "currentPage": page,
    }


def ride_info(session: Session, rider_uuid: str, file_id: object) -> dict:
    """Spec 3 "Activity detail": the header figures of one ride."""
    ride = _rider_ride(session, rider_uuid, file_id)
    return {
        "header_detail": {
            **activity_row(ride),
            "normalizePower": None if ride.normalized_power is None else round(ride.normalized_power),
            "totalWorkout": None if ride.work_kj is None else round(ride.work_kj),
            "traningLoad": ride.training_load,
            "intensity": None if ride.intensity is None else round(ride.intensity * 100),
            "maxPower": None if ride.max_power is None else round(ride.max_power),
            "ftp": ride.ftp,
            "weight": ride.weight_kg,
        }
    }


def _series(values: np.ndarray, digits: int) -> list[float | None]:
    return [None if math.isnan(v) else round(v, digits) for v in values.tolist()]


def _summary(values: np.ndarray, with_min: bool = True) -> dict | None:
    known = values[~np.isnan(values)]
    if not known.size:
        return None
    figures = {"avg": round(float(known.mean())), "max": round(float(known.max()))}
    if with_min:
        figures["min"] = round(float(known.min()))
    return figures


def graph_data(session: Session, rider_uuid: str, file_id: object) -> dict:
    """The five graphs of the detail view, down-sampled for drawing without losing a peak."""
    ride = _rider_ride(session, rider_uuid, file_id)
    blob = session.exec(select(RideData.streams).where(RideData.ride_id == ride.id)).one()
    power, heart_rate, cadence, speed, altitude, distance = _unpack_streams(blob).astype(np.float64)
    speed_kmh = speed * 3.6
    length = power.size
    keep = ride_metrics.downsample(length, [power, heart_rate, cadence, speed_kmh, altitude], GRAPH_POINTS)
    has_distance = bool(np.nanmax(distance, initial=0) > 0) if length else False
    return {
        "axis": "distance" if has_distance else "time",
        "time": keep.tolist(),
        "distance": _series(distance[keep] / 1000, 3),
        "altitude": _series(altitude[keep], 1),
        "power": _series(power[keep], 0),
        "speed": _series(speed_kmh[keep], 1),
        "heartRate": _series(heart_rate[keep], 0),
        "cadence": _series(cadence[keep], 0),
        "summary": {
            "power": _summary(power),
            "speed": _summary(speed_kmh, with_min=False),
            "heartRate": _summary(heart_rate),
            "cadence": _summary(cadence, with_min=False),
        },
    }


def _display_indices() -> np.ndarray:
    """Grid points worth drawing: every second to 10 s, then about 4 % apart (and each curve's last)."""
    seconds = ride_metrics.CURVE_SECONDS
    keep, last = [], 0.0
    for index, value in enumerate(seconds.tolist()):
        if value <= 10 or value >= last * 1.04:
            keep.append(index)
            last = value
    return np.array(keep, dtype=np.int64)


DISPLAY_INDICES = _display_indices()


def _curve_points(power: np.ndarray, per_kg: np.ndarray) -> dict:
    keep = DISPLAY_INDICES[: np.searchsorted(DISPLAY_INDICES, power.size)]
    if power.size and (not keep.size or keep[-1] != power.size - 1):
        keep = np.append(keep, power.size - 1)
    return {
        "seconds": ride_metrics.CURVE_SECONDS[keep].tolist(),
        "power": [round(v) for v in power[keep].tolist()],
        "power_weight": [round(v, 2) for v in per_kg[keep].tolist()],
    }


_BEST_CURVE = select(RiderCurve.power, RiderCurve.power_weight).where(
    RiderCurve.rider_uuid == bindparam("rider_uuid")
)


def overall_curve(session: Session, rider_uuid: str) -> dict:
    """The rider's best power over every ride, in W and W/kg (the dashboard's overall graph)."""
    best = read_columns(session, _BEST_CURVE, rider_uuid=rider_uuid).first()
    if best is None:
        return {"seconds": [], "power": [], "power_weight": []}
    power = np.frombuffer(best.power, dtype=np.float32)
    per_kg = np.frombuffer(best.power_weight, dtype=np.float32)
    return _curve_points(power, per_kg)


def compare_curves(session: Session, rider_uuid: str, file_ids: object) -> list[dict]:
    """Spec 1 "Compare data": the stored curves of up to two of the rider's rides."""
    if (
        not isinstance(file_ids, list)
        or len(file_ids) > MAX_COMPARE
        or not all(isinstance(file_id, str) for file_id in file_ids)
    ):
        raise ActivityError(BAD_FILE_IDS)
    compared = []
    for file_id in file_ids:
        ride = _rider_ride(session, rider_uuid, file_id)
        blob = session.exec(select(RideData.curve).where(RideData.ride_id == ride.id)).one()
        power = np.frombuffer(blob, dtype=np.float32)
        points = _curve_points(power, power / ride.weight_kg)
        compared.append({**activity_row(ride), **points})
    return compared


def ride_file(session: Session, rider_uuid: str, file_id: object) -> tuple[str, bytes]:
    """The original FIT file as it was uploaded."""
    ride = _rider_ride(session, rider_uuid, file_id)
    data = session.exec(select(RideData.fit_file).where(RideData.ride_id == ride.id)).one()
    return ride.file_name, data


def events_count(session: Session, rider_uuid: str) -> int:
    query = select(func.count()).select_from(Ride).where(Ride.rider_uuid == rider_uuid, Ride.type == "event")
    return session.exec(query).one()
