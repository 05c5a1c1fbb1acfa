"""ASGI middleware around the whole site: frame and sniffing headers, and unknown pages sent to /."""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
]


def _wants_page(scope: Scope) -> bool:
    if scope["method"] != "GET" or scope["path"] == "/api" or scope["path"].startswith("/api/"):
        return False
    accept = dict(scope.get("headers", [])).get(b"accept", b"")
    return b"text/html" in accept


class SiteMiddleware:
    """Adds the security headers; a browser asking for a page that does not exist is redirected to /."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        redirect_missing = _wants_page(scope)
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
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            elif swallowing:
                return
            await send(message)

        await self.app(scope, receive, send_wrapper)
