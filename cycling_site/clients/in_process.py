"""Requests to an embedded service's ASGI app in this process, as one ASGI call each.

A dashboard load makes three calls to the embedded activity service. Through `httpx.AsyncClient` and its
ASGI transport each call cost about three times the service's own reads (URL merging, cookies, redirects,
auth, the transport's streams), none of which a call within the process needs. A call with a JSON body or
none, and no query (every call of a page load), is encoded here as httpx encodes it: building httpx's
request object (URL parsing, header normalisation) cost as much as the service's own work on the loop.
Forms, files and queries still go through httpx's encoding. The answer comes back as an `httpx.Response`:
a client reads it exactly as a remote service's. An error inside the app is raised to the caller, as
httpx's ASGI transport does.
"""

import asyncio
import json as json_module
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

import httpx
from starlette.types import ASGIApp, Message


def _json_body(content: Any) -> bytes:
    """As httpx encodes a `json=` body."""
    return json_module.dumps(content, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


class InProcessClient:
    """What the service clients use of `httpx.AsyncClient`: `request(method, path, ...)` and `aclose()`."""

    def __init__(self, app: ASGIApp, base_url: str, headers: Mapping[str, str] | None = None):
        self._app = app
        # As httpx joins them: the base's path with a trailing slash, then the call's path.
        self._base_url = base_url.rstrip("/") + "/"
        base = httpx.URL(self._base_url)
        self._scheme, self._host, self._port = base.scheme, base.host, base.port
        self._netloc, self._raw_base = base.netloc, base.raw_path
        self._headers = dict(headers or {})

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {**self._headers, **kwargs.pop("headers", {})}
        if kwargs.keys() <= {"json"} and "?" not in path:
            raw_path = self._raw_base + path.lstrip("/").encode()
            sent = [(b"host", self._netloc)]
            body = b""
            if "json" in kwargs:
                body = _json_body(kwargs["json"])
                sent += [(b"content-length", str(len(body)).encode()), (b"content-type", b"application/json")]
            elif method in ("POST", "PUT", "PATCH"):
                sent.append((b"content-length", b"0"))
            sent += [(name.lower().encode(), value.encode()) for name, value in headers.items()]
            scope_path, query, request = unquote(raw_path.decode()), b"", None
        else:
            request = httpx.Request(method, self._base_url + path.lstrip("/"), headers=headers, **kwargs)
            body, url = request.read(), request.url
            raw_path, query = url.raw_path.split(b"?")[0], url.query
            scope_path = url.path
            sent = [(name.lower(), value) for name, value in request.headers.raw]
        status, answer_headers, chunks = await self._call(method, scope_path, raw_path, query, sent, body)
        return httpx.Response(status, headers=answer_headers, content=b"".join(chunks), request=request)

    async def _call(
        self, method: str, path: str, raw_path: bytes, query: bytes, headers: list, body: bytes
    ) -> tuple[int, list, list[bytes]]:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": self._scheme,
            "path": path,
            "raw_path": raw_path,
            "query_string": query,
            "root_path": "",
            "headers": headers,
            "server": (self._host, self._port or 80),
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
        return status, answer_headers, chunks

    async def aclose(self) -> None:
        """Nothing to close: no connection is ever opened."""
