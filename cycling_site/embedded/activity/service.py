"""The embedded activity service and rider profile service (spec 1 section 7, spec 3).

Served under /activity-service.

It stands in for the outside service the site calls through `clients/activity.py`, over the same wire
contract: every request carries its payload (the rider's uuid and the call's fields) AES-256-GCM encrypted
with the shared key, in the JSON body of a POST or the X-Payload header of a GET. The game client uploads
rides with the service key (Authorization: Bearer ACTIVITY_INGEST_KEY), for riders the site knows: the site
gives `install` the lookup, so the service needs nothing of the site's accounts.
"""

import json
import secrets
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, FastAPI, File, Form, Header, HTTPException, Request, UploadFile
from fastapi.responses import JSONResponse, Response
from sqlmodel import Session
from starlette.routing import Route

from cycling_site.db import in_session, off_loop
from cycling_site.embedded.activity import progress, rides
from cycling_site.embedded.activity.fit_files import FitFileError
from cycling_site.embedded.activity.rides import ActivityError, NewRide
from cycling_site.settings import settings
from cycling_site.wire.activity import EMBEDDED_PREFIX as PREFIX
from cycling_site.wire.activity import MAX_FIT_BYTES, PayloadError, read_plain, unseal

NOT_AUTHORISED = "A valid service key is required."
NO_FILE = "Choose a FIT file to upload."
NOT_JSON = "The payload must be JSON."
UNKNOWN_RIDER = "No rider has this uuid."
BAD_NUMBER = "The year, month and week must be whole numbers."

router = APIRouter(prefix=PREFIX, include_in_schema=False)


def _ok(data: object) -> JSONResponse:
    return JSONResponse({"status": True, "data": data})


def _refuse(exc: Exception) -> HTTPException:
    status_code = exc.status_code if isinstance(exc, ActivityError) else 400
    return HTTPException(status_code=status_code, detail=str(exc))


def _open(text: str | bytes, request: Request) -> dict:
    """The payload as JSON, unsealed with the shared key for this path (plain with encryption off)."""
    try:
        raw = json.loads(text or "null")
    except ValueError as exc:
        raise HTTPException(status_code=400, detail=NOT_JSON) from exc
    path = request.url.path.removeprefix(PREFIX)
    try:
        if settings.activity_encryption:
            return unseal(raw, settings.activity_service_key, path)
        return read_plain(raw)
    except PayloadError as exc:
        raise _refuse(exc) from exc


def _rider(payload: dict) -> str:
    rider_uuid = payload.get("uuid")
    if not isinstance(rider_uuid, str) or not rider_uuid or len(rider_uuid) > 36:
        raise HTTPException(status_code=400, detail=rides.BAD_RIDER)
    return rider_uuid


async def _body_payload(request: Request) -> dict:
    return _open(await request.body(), request)


def _header_payload(request: Request) -> dict:
    return _open(request.headers.get("x-payload", ""), request)


async def _answer(call: Callable[..., object], *args: object) -> JSONResponse:
    """`call(session, *args)` in a session of its own, in a worker thread: the connection goes back to the
    pool there, never waiting on the event loop (the site calls this service in-process, from that loop)."""
    try:
        return _ok(await in_session(call, *args))
    except ActivityError as exc:
        raise _refuse(exc) from exc


async def list_activities(request: Request) -> JSONResponse:
    payload = await _body_payload(request)
    return await _answer(
        rides.list_rides,
        _rider(payload),
        payload.get("type", "all"),
        payload.get("page", 1),
        payload.get("sortDate", "desc"),
    )


async def activity_info(request: Request) -> JSONResponse:
    payload = await _body_payload(request)
    return await _answer(rides.ride_info, _rider(payload), payload.get("fileId"))


async def detailed_graph_data(request: Request) -> JSONResponse:
    payload = await _body_payload(request)
    return await _answer(rides.graph_data, _rider(payload), payload.get("fileId"))


def _power_curve(session: Session, rider_uuid: str, file_ids: object) -> dict:
    if file_ids in (None, []):
        return {"overall": rides.overall_curve(session, rider_uuid), "compare": []}
    return {"overall": None, "compare": rides.compare_curves(session, rider_uuid, file_ids)}


async def power_curve(request: Request) -> JSONResponse:
    """No activityFileIds: the rider's overall curve; one or two: those rides' curves."""
    payload = await _body_payload(request)
    return await _answer(_power_curve, _rider(payload), payload.get("activityFileIds"))


async def download_activity_file(request: Request) -> Response:
    payload = await _body_payload(request)
    try:
        name, data = await in_session(rides.ride_file, _rider(payload), payload.get("fileId"))
    except ActivityError as exc:
        raise _refuse(exc) from exc
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(data, media_type="application/vnd.ant.fit", headers=headers)


def _events_count(session: Session, rider_uuid: str) -> dict:
    return {"total": rides.events_count(session, rider_uuid)}


async def user_events_count(request: Request) -> JSONResponse:
    return await _answer(_events_count, _rider(_header_payload(request)))


def _same_rider(request: Request) -> str:
    rider_uuid = request.path_params["rider_uuid"]
    if _rider(_header_payload(request)) != rider_uuid:
        raise HTTPException(status_code=404, detail=rides.NOT_FOUND)
    return rider_uuid


def _numbers(request: Request, *names: str) -> list[int]:
    try:
        return [int(request.path_params[name]) for name in names]
    except ValueError as exc:
        raise HTTPException(status_code=400, detail=BAD_NUMBER) from exc


async def progress_wall(request: Request) -> JSONResponse:
    rider_uuid = _same_rider(request)
    return await _answer(progress.progress_wall, rider_uuid, *_numbers(request, "year", "month", "week"))


async def progress_year(request: Request) -> JSONResponse:
    rider_uuid = _same_rider(request)
    return await _answer(progress.progress_bars, rider_uuid, "year", *_numbers(request, "year"))


async def progress_month(request: Request) -> JSONResponse:
    rider_uuid = _same_rider(request)
    return await _answer(progress.progress_bars, rider_uuid, "month", *_numbers(request, "year", "month"))


async def progress_week(request: Request) -> JSONResponse:
    rider_uuid = _same_rider(request)
    numbers = _numbers(request, "year", "month", "week")
    return await _answer(progress.progress_bars, rider_uuid, "week", *numbers)


# The calls that read, as plain routes: they read their payload themselves, and a dashboard load makes three
# of them, where FastAPI's routing and dependency solving cost more than their reads.
READS = [
    Route(PREFIX + "/v2/rider/profile/activities", list_activities, methods=["POST"]),
    Route(PREFIX + "/activity-info", activity_info, methods=["POST"]),
    Route(PREFIX + "/detailed-graph-data", detailed_graph_data, methods=["POST"]),
    Route(PREFIX + "/power-curve", power_curve, methods=["POST"]),
    Route(PREFIX + "/download-activity-file", download_activity_file, methods=["POST"]),
    Route(PREFIX + "/get-user-events-count", user_events_count, methods=["GET"]),
    Route(PREFIX + "/progressWall/{rider_uuid}/{year}/{month}/{week}", progress_wall, methods=["GET"]),
    Route(PREFIX + "/progress/{rider_uuid}/year/{year}", progress_year, methods=["GET"]),
    Route(PREFIX + "/progress/{rider_uuid}/month/{year}/{month}", progress_month, methods=["GET"]),
    Route(PREFIX + "/progress/{rider_uuid}/week/{year}/{month}/{week}", progress_week, methods=["GET"]),
]


def _check_service_key(authorization: str) -> None:
    scheme, _, value = authorization.partition(" ")
    expected = settings.activity_ingest_key.encode()
    if scheme.lower() != "bearer" or not secrets.compare_digest(value.strip().encode(), expected):
        raise HTTPException(status_code=401, detail=NOT_AUTHORISED)


@router.post("/v2/rider/activities/upload")
async def upload_activity(
    request: Request,
    uuid: Annotated[str, Form()],
    ftp: Annotated[float, Form()],
    weight: Annotated[float, Form()],
    file: Annotated[UploadFile | None, File()] = None,
    type: Annotated[str, Form()] = "ride",
    title: Annotated[str, Form()] = "",
    routeName: Annotated[str, Form()] = "",  # noqa: N803 (the wire name)
    authorization: Annotated[str, Header()] = "",
) -> JSONResponse:
    """The game client's (and the site's) ride upload: one FIT file, checked, measured and stored."""
    _check_service_key(authorization)
    rider_exists: Callable[[str], bool] = request.app.state.rider_exists
    if not await off_loop(rider_exists, uuid):
        raise HTTPException(status_code=404, detail=UNKNOWN_RIDER)
    if file is None:
        raise HTTPException(status_code=400, detail=NO_FILE)
    data = await file.read(MAX_FIT_BYTES + 1)
    new = NewRide(uuid, data, file.filename or "", type, title, routeName, ftp, weight)
    try:
        ride = await in_session(rides.ingest, new)
    except (ActivityError, FitFileError) as exc:
        raise _refuse(exc) from exc
    return _ok(rides.activity_row(ride))


def install(app: FastAPI, rider_exists: Callable[[str], bool]) -> None:
    """Serves the activity service from `app`.

    `rider_exists(uuid)` tells whether a rider may own rides: uploads for anyone else are refused."""
    if not getattr(app.state, "activity_service", False):
        app.router.routes.extend(READS)
        app.include_router(router)
        app.state.activity_service = True
    app.state.rider_exists = rider_exists
