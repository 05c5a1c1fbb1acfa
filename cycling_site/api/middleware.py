"""ASGI middleware around the whole site: frame and sniffing headers, unknown pages sent to /, and a
cap on the declared size of request bodies, so an oversized upload is refused before it is read."""

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cycling_site.clients.results import EMBEDDED_PREFIX as RESULTS_PREFIX
from cycling_site.messages import site as msg

# Above every upload limit of the spec (8 MB proofs, 5 files of 5 MB, 10 import proofs); each form
# still checks its own, smaller limit.
MAX_REQUEST_BYTES = 64 * 1024 * 1024

SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
]
# The embedded results service is shown in a frame on the results page: our own pages may frame it.
SAME_ORIGIN_FRAME_HEADERS = [
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"content-security-policy", b"frame-ancestors 'self'"),
    *SECURITY_HEADERS[2:],
]


def _security_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    path = scope["path"]
    if path == RESULTS_PREFIX or path.startswith(RESULTS_PREFIX + "/"):
        return SAME_ORIGIN_FRAME_HEADERS
    return SECURITY_HEADERS


def _wants_page(scope: Scope) -> bool:
    if scope["method"] != "GET" or scope["path"] == "/api" or scope["path"].startswith("/api/"):
        return False
    accept = dict(scope.get("headers", [])).get(b"accept", b"")
    return b"text/html" in accept


async def _refuse_too_large(send: Send) -> None:
    body = json.dumps({"status": False, "message": msg.REQUEST_TOO_LARGE}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": [*headers, *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})


class SiteMiddleware:
    """Adds the security headers; a browser asking for a page that does not exist is redirected to /."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > MAX_REQUEST_BYTES:
            await _refuse_too_large(send)
            return
        redirect_missing = _wants_page(scope)
        security_headers = _security_headers(scope)
        swallowing = False

        async def send_wrapper(message: Message) -> None:
            nonlocal swallowing
            if message["type"] == "http.response.start":
                if redirect_missing and message["status"] == 404:
                    swallowing = True
                    headers = [(b"location", b"/"), (b"content-length", b"0"), *SECURITY_HEADERS]
                    await send({"type": "http.response.start", "status": 307, "headers": headers})
                    await send({"type": "http.response.body", "body": b""})
                    return
                message["headers"] = [*message.get("headers", []), *security_headers]
            elif swallowing:
                return
            await send(message)

        await self.app(scope, receive, send_wrapper)
