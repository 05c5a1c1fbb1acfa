"""Requests to an embedded service's ASGI app in this process, as one ASGI call each.

A dashboard load makes three calls to the embedded activity service. Through `httpx.AsyncClient` and its
ASGI transport each call cost about three times the service's own reads (URL merging, cookies, redirects,
auth, the transport's streams), none of which a call within the process needs. Here httpx still builds the
request, so JSON, forms and files are encoded as on the wire, and the answer comes back as an
`httpx.Response`: a client reads it exactly as a remote service's. An error inside the app is raised to the
caller, as httpx's ASGI transport does.
"""

import asyncio
from collections.abc import Mapping
from typing import Any

import httpx
from starlette.types import ASGIApp, Message


class InProcessClient:
    """What the service clients use of `httpx.AsyncClient`: `request(method, path, ...)` and `aclose()`."""

    def __init__(self, app: ASGIApp, base_url: str, headers: Mapping[str, str] | None = None):
        self._app = app
        # As httpx joins them: the base's path with a trailing slash, then the call's path.
        self._base_url = base_url.rstrip("/") + "/"
        self._headers = dict(headers or {})

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {**self._headers, **kwargs.pop("headers", {})}
        request = httpx.Request(method, self._base_url + path.lstrip("/"), headers=headers, **kwargs)
        body = request.read()
        url = request.url
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": request.method,
            "scheme": url.scheme,
            "path": url.path,
            "raw_path": url.raw_path.split(b"?")[0],
            "query_string": url.query,
            "root_path": "",
            "headers": [(name.lower(), value) for name, value in request.headers.raw],
            "server": (url.host, url.port or 80),
            "client": ("127.0.0.1", 0),
        }
        received, answered = False, asyncio.Event()

        async def receive() -> Message:
            """The body once; then, like a client that stays connected, nothing until the answer is in."""
            nonlocal received
            if received:
                await answered.wait()
                return {"type": "http.disconnect"}
            received = True
            return {"type": "http.request", "body": body, "more_body": False}

        status, answer_headers, chunks = 500, [], []

        async def send(message: Message) -> None:
            nonlocal status, answer_headers
            if message["type"] == "http.response.start":
                status, answer_headers = message["status"], message.get("headers", [])
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    answered.set()

        await self._app(scope, receive, send)
        return httpx.Response(status, headers=answer_headers, content=b"".join(chunks), request=request)

    async def aclose(self) -> None:
        """Nothing to close: no connection is ever opened."""
