"""Client of the activity service and the rider profile service (spec 1 section 7, spec 3).

Request payloads are AES-256-GCM encrypted with ACTIVITY_SERVICE_KEY when ACTIVITY_ENCRYPTION is on. With
no ACTIVITY_SERVICE_URL the embedded service answers: in this process (`InProcessClient`) once the app
serving it has registered itself, otherwise at SITE_URL/activity-service. Only the site's server holds the
key, and it always asks for the signed-in rider's own uuid, so a rider only ever sees their own rides.
"""

import json
from typing import Any

import httpx
from starlette.types import ASGIApp

from cycling_site.clients.in_process import InProcessClient
from cycling_site.clients.pooled import PerLoop
from cycling_site.settings import settings
from cycling_site.wire.activity import EMBEDDED_PREFIX, seal

TIMEOUT = httpx.Timeout(30.0)
UNAVAILABLE = "The activity service cannot be reached. Please try again."
UNEXPECTED = "The activity service gave an answer the site cannot read."

_local_app: ASGIApp | None = None


class ActivityServiceError(Exception):
    def __init__(self, message: str, status_code: int = 502):
        super().__init__(message)
        self.status_code = status_code


def serve_embedded_from(app: ASGIApp) -> None:
    global _local_app
    _local_app = app


def _new_client() -> httpx.AsyncClient | InProcessClient:
    if settings.activity_service_url:
        return httpx.AsyncClient(base_url=settings.activity_service_url, timeout=TIMEOUT)
    if _local_app is not None:
        return InProcessClient(_local_app, f"http://embedded{EMBEDDED_PREFIX}")
    return httpx.AsyncClient(base_url=settings.site_url + EMBEDDED_PREFIX, timeout=TIMEOUT)


_pool = PerLoop(
    _new_client, lambda client: client.aclose(), lambda: (settings.activity_service_url, id(_local_app))
)


def _payload(path: str, fields: dict) -> dict:
    if settings.activity_encryption:
        return seal(fields, settings.activity_service_key, path)
    return fields


async def _send(method: str, path: str, **kwargs: Any) -> httpx.Response:
    try:
        response = await _pool.get().request(method, path, **kwargs)
    except httpx.HTTPError as exc:
        raise ActivityServiceError(UNAVAILABLE, 503) from exc
    if response.is_success:
        return response
    try:
        message = str(response.json()["message"])
    except (ValueError, KeyError, TypeError):
        message = UNAVAILABLE if response.status_code >= 500 else UNEXPECTED
    raise ActivityServiceError(message, response.status_code)


def _data(response: httpx.Response) -> Any:
    try:
        return response.json()["data"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ActivityServiceError(UNEXPECTED) from exc


async def _post(path: str, rider_uuid: str, **fields: Any) -> Any:
    return _data(await _send("POST", path, json=_payload(path, {"uuid": rider_uuid, **fields})))


async def _get(path: str, rider_uuid: str) -> Any:
    header = json.dumps(_payload(path, {"uuid": rider_uuid}))
    return _data(await _send("GET", path, headers={"X-Payload": header}))


async def activities(rider_uuid: str, type: str = "all", page: int = 1, sort: str = "desc") -> dict:
    return await _post("/v2/rider/profile/activities", rider_uuid, type=type, page=page, sortDate=sort)


async def activity_info(rider_uuid: str, file_id: str) -> dict:
    return await _post("/activity-info", rider_uuid, fileId=file_id)


async def detailed_graph_data(rider_uuid: str, file_id: str) -> dict:
    return await _post("/detailed-graph-data", rider_uuid, fileId=file_id)


async def power_curve(rider_uuid: str, file_ids: list[str]) -> dict:
    """No file ids: the overall curve; one or two: the compared rides' curves."""
    return await _post("/power-curve", rider_uuid, activityFileIds=file_ids)


async def download_activity_file(rider_uuid: str, file_id: str) -> tuple[str, bytes]:
    path = "/download-activity-file"
    response = await _send("POST", path, json=_payload(path, {"uuid": rider_uuid, "fileId": file_id}))
    disposition = response.headers.get("content-disposition", "")
    name = disposition.partition('filename="')[2].rstrip('"') or "activity.fit"
    return name, response.content


async def events_count(rider_uuid: str) -> int:
    return int((await _get("/get-user-events-count", rider_uuid))["total"])


async def progress_wall(rider_uuid: str, year: int, month: int, week: int) -> dict:
    return await _get(f"/progressWall/{rider_uuid}/{year}/{month}/{week}", rider_uuid)


async def progress(rider_uuid: str, period: str, year: int, month: int, week: int) -> list[dict]:
    """Bar chart data for the year, the month or the week."""
    path = {
        "year": f"/progress/{rider_uuid}/year/{year}",
        "month": f"/progress/{rider_uuid}/month/{year}/{month}",
        "week": f"/progress/{rider_uuid}/week/{year}/{month}/{week}",
    }[period]
    return await _get(path, rider_uuid)


async def upload(
    rider_uuid: str,
    data: bytes,
    file_name: str,
    *,
    ftp: float,
    weight: float,
    type: str = "ride",
    title: str = "",
    route_name: str = "",
) -> dict:
    """Sends a FIT file the way the game client does, with the service key."""
    form = {"uuid": rider_uuid, "ftp": str(ftp), "weight": str(weight), "type": type, "title": title}
    form["routeName"] = route_name
    response = await _send(
        "POST",
        "/v2/rider/activities/upload",
        data=form,
        files={"file": (file_name, data, "application/vnd.ant.fit")},
        headers={"Authorization": f"Bearer {settings.activity_ingest_key}"},
    )
    return _data(response)
