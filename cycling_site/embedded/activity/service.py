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

from fastapi import APIRouter, Depends, FastAPI, File, Form, Header, HTTPException, Request, UploadFile
from fastapi.responses import JSONResponse, Response
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from cycling_site.db import get_session
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


async def body_payload(request: Request) -> dict:
    return _open(await request.body(), request)


async def header_payload(request: Request, x_payload: Annotated[str, Header()] = "") -> dict:
    return _open(x_payload, request)


BodyPayload = Annotated[dict, Depends(body_payload)]
HeaderPayload = Annotated[dict, Depends(header_payload)]


def _answer(call, *args):
    """Runs `call(session, *args)` in a session of its own. Endpoints are plain functions, run in a worker
    thread whole: the connection goes back to the pool there, never waiting on the event loop (the site
    calls this service in-process, from that same loop)."""
    try:
        with get_session() as session:
            return _ok(call(session, *args))
    except ActivityError as exc:
        raise _refuse(exc) from exc


@router.post("/v2/rider/profile/activities")
def list_activities(payload: BodyPayload) -> JSONResponse:
    return _answer(
        rides.list_rides,
        _rider(payload),
        payload.get("type", "all"),
        payload.get("page", 1),
        payload.get("sortDate", "desc"),
    )


@router.post("/activity-info")
def activity_info(payload: BodyPayload) -> JSONResponse:
    return _answer(rides.ride_info, _rider(payload), payload.get("fileId"))


@router.post("/detailed-graph-data")
def detailed_graph_data(payload: BodyPayload) -> JSONResponse:
    return _answer(rides.graph_data, _rider(payload), payload.get("fileId"))


def _power_curve(session: Session, rider_uuid: str, file_ids: object) -> dict:
    if file_ids in (None, []):
        return {"overall": rides.overall_curve(session, rider_uuid), "compare": []}
    return {"overall": None, "compare": rides.compare_curves(session, rider_uuid, file_ids)}


@router.post("/power-curve")
def power_curve(payload: BodyPayload) -> JSONResponse:
    """No activityFileIds: the rider's overall curve; one or two: those rides' curves."""
    return _answer(_power_curve, _rider(payload), payload.get("activityFileIds"))


@router.post("/download-activity-file")
def download_activity_file(payload: BodyPayload) -> Response:
    try:
        with get_session() as session:
            name, data = rides.ride_file(session, _rider(payload), payload.get("fileId"))
    except ActivityError as exc:
        raise _refuse(exc) from exc
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(data, media_type="application/vnd.ant.fit", headers=headers)


def _events_count(session: Session, rider_uuid: str) -> dict:
    return {"total": rides.events_count(session, rider_uuid)}


@router.get("/get-user-events-count")
def user_events_count(payload: HeaderPayload) -> JSONResponse:
    return _answer(_events_count, _rider(payload))


def _same_rider(payload: dict, rider_uuid: str) -> str:
    if _rider(payload) != rider_uuid:
        raise HTTPException(status_code=404, detail=rides.NOT_FOUND)
    return rider_uuid


@router.get("/progressWall/{rider_uuid}/{year}/{month}/{week}")
def progress_wall(rider_uuid: str, year: int, month: int, week: int, payload: HeaderPayload):
    return _answer(progress.progress_wall, _same_rider(payload, rider_uuid), year, month, week)


@router.get("/progress/{rider_uuid}/year/{year}")
def progress_year(rider_uuid: str, year: int, payload: HeaderPayload) -> JSONResponse:
    return _answer(progress.progress_bars, _same_rider(payload, rider_uuid), "year", year)


@router.get("/progress/{rider_uuid}/month/{year}/{month}")
def progress_month(rider_uuid: str, year: int, month: int, payload: HeaderPayload):
    return _answer(progress.progress_bars, _same_rider(payload, rider_uuid), "month", year, month)


@router.get("/progress/{rider_uuid}/week/{year}/{month}/{week}")
def progress_week(rider_uuid: str, year: int, month: int, week: int, payload: HeaderPayload):
    rider_uuid = _same_rider(payload, rider_uuid)
    return _answer(progress.progress_bars, rider_uuid, "week", year, month, week)


def _ingest(new: NewRide):
    with get_session() as session:
        return rides.ingest(session, new)


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
    if not await run_in_threadpool(rider_exists, uuid):
        raise HTTPException(status_code=404, detail=UNKNOWN_RIDER)
    if file is None:
        raise HTTPException(status_code=400, detail=NO_FILE)
    data = await file.read(MAX_FIT_BYTES + 1)
    new = NewRide(uuid, data, file.filename or "", type, title, routeName, ftp, weight)
    try:
        ride = await run_in_threadpool(_ingest, new)
    except (ActivityError, FitFileError) as exc:
        raise _refuse(exc) from exc
    return _ok(rides.activity_row(ride))


def install(app: FastAPI, rider_exists: Callable[[str], bool]) -> None:
    """Serves the activity service from `app`.

    `rider_exists(uuid)` tells whether a rider may own rides: uploads for anyone else are refused."""
    if not getattr(app.state, "activity_service", False):
        app.include_router(router)
        app.state.activity_service = True
    app.state.rider_exists = rider_exists
