"""The in-process client answers exactly what httpx's own ASGI transport answers, for every kind of request
the service clients send, and raises an error of the app as that transport does."""

from typing import Annotated

import httpx
import pytest
from fastapi import FastAPI, File, Form, Header, Request, UploadFile
from fastapi.responses import JSONResponse, Response

from cycling_site.clients.in_process import InProcessClient

pytestmark = pytest.mark.anyio
BASE = "http://embedded/service"

app = FastAPI()


@app.post("/service/echo/{name}")
async def echo(request: Request, name: str) -> JSONResponse:
    body = await request.json()
    query, key = dict(request.query_params), request.headers.get("x-key")
    return JSONResponse({"name": name, "body": body, "query": query, "key": key}, headers={"X-Seen": "yes"})


@app.get("/service/header")
async def header(x_payload: Annotated[str, Header()] = "") -> JSONResponse:
    return JSONResponse({"payload": x_payload})


@app.post("/service/upload")
async def upload(uuid: Annotated[str, Form()], file: Annotated[UploadFile, File()]) -> JSONResponse:
    return JSONResponse({"uuid": uuid, "name": file.filename, "size": len(await file.read())})


@app.post("/service/file")
async def file() -> Response:
    headers = {"Content-Disposition": 'attachment; filename="ride.fit"'}
    return Response(b"\x0e\x10fit", media_type="application/vnd.ant.fit", headers=headers)


@app.get("/service/refused")
async def refused() -> JSONResponse:
    return JSONResponse({"status": False, "message": "No."}, status_code=404)


@app.get("/service/broken")
async def broken() -> JSONResponse:
    raise RuntimeError("a bug in the service")


CALLS = [
    ("POST", "/echo/rider%20one?page=2", {"json": {"uuid": "u", "ids": [1, 2]}, "headers": {"X-Key": "k"}}),
    ("POST", "echo/no-leading-slash", {"json": {}}),
    ("POST", "/echo/zo%C3%AB", {"json": {"name": "Zoë", "km": 1.5}, "headers": {"X-Key": "k"}}),
    ("GET", "/header", {"headers": {"X-Payload": '{"iv": "a", "data": "b"}'}}),
    ("POST", "/upload", {"data": {"uuid": "u"}, "files": {"file": ("ride.fit", b"x" * 5000, "text/plain")}}),
    ("POST", "/file", {}),
    ("GET", "/refused", {}),
    ("GET", "/missing", {}),
]


@pytest.mark.parametrize(("method", "path", "options"), CALLS, ids=[path for _, path, _ in CALLS])
async def test_the_answer_is_the_one_over_httpx(method, path, options):
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as reference:
        expected = await reference.request(method, path, **options)
    answer = await InProcessClient(app, BASE).request(method, path, **options)
    assert answer.status_code == expected.status_code
    assert answer.content == expected.content
    assert dict(answer.headers) == dict(expected.headers)


async def test_default_headers_go_with_every_request_and_a_call_can_add_its_own():
    client = InProcessClient(app, BASE, headers={"X-Key": "site"})
    answer = await client.request("POST", "/echo/a", json={}, headers={"X-Other": "1"})
    assert answer.json()["key"] == "site"


async def test_an_error_in_the_app_reaches_the_caller():
    with pytest.raises(RuntimeError, match="a bug in the service"):
        await InProcessClient(app, BASE).request("GET", "/broken")
