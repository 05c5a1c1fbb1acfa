"""HTTP methods on the API's paths, as RFC 9110 has them: OPTIONS answers 204 with the path's methods in
`Allow`, HEAD answers like GET without its body, and any other method the path does not serve answers 405
with `Allow`. A path the API does not have answers a JSON 404 rather than falling through to the site (whose
HTML 404 page or plain-text 404 a caller of the API cannot read). So does a path with a control character (a
`%0A` in a path parameter): no API path has one, and Starlette's patterns, whose `$` matches before a closing
newline, would otherwise route `/api/events/upcoming%0A` as `/api/events/upcoming`.

CORS preflights never get here: the CORS middleware around the whole site answers them first.
"""

import re
from re import Pattern

from fastapi.routing import iter_route_contexts
from starlette.routing import Mount, Router
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cycling_site.api.errors import error_response
from cycling_site.messages import site as site_msg

CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f]")


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix.rstrip("/") + "/")


class ApiMethods:
    """ASGI middleware of the API app: `router` is the app's router, whose routes decide what a path serves,
    under each of `prefixes` (the API's, and the app's /mobile). The routes are read on each request, so
    routes included later (the embedded services) count too."""

    def __init__(self, app: ASGIApp, router: Router, prefixes: tuple[str, ...]):
        self.app = app
        self.router = router
        self.prefixes = prefixes
        self._table_of: tuple[tuple[int, ...], list[tuple[Pattern[str], bool, frozenset[str]]]] = ((), [])

    def mounted(self, path: str) -> bool:
        """Whether an app mounted inside the API (the docs' files) takes this path."""
        return any(
            isinstance(route, Mount) and route.path and _under(path, route.path)
            for route in self.router.routes
        )

    def _table(self) -> list[tuple[Pattern[str], bool, frozenset[str]]]:
        """Each route's path pattern, whether it has parameters, and its methods; made again when routes are
        added (the embedded services and the site are added after the API's own)."""
        key = tuple(map(id, self.router.routes))
        if key != self._table_of[0]:
            table = []
            for route in iter_route_contexts(self.router.routes):
                path_regex, methods = getattr(route, "path_regex", None), getattr(route, "methods", None)
                if methods and path_regex is not None:
                    table.append((path_regex, "{" in (route.path_format or ""), frozenset(methods)))
            self._table_of = (key, table)
        return self._table_of[1]

    def methods(self, path: str) -> set[str]:
        """The methods this path serves; none when the API has no such path. As in OpenAPI, a path without
        parameters comes first (/api/events/upcoming before the template /api/events/{event_id})."""
        literal: set[str] = set()
        templated: set[str] = set()
        for path_regex, has_parameters, methods in self._table():
            if path_regex.match(path):
                (templated if has_parameters else literal).update(methods)
        return literal or templated

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not any(_under(scope["path"], prefix) for prefix in self.prefixes):
            await self.app(scope, receive, send)
            return
        if CONTROL_CHARACTER.search(scope["path"]):
            await error_response(404, site_msg.NOT_FOUND)(scope, receive, send)
            return
        methods = self.methods(scope["path"])
        method = scope["method"]
        if method in methods or (not methods and self.mounted(scope["path"])):
            await self.app(scope, receive, send)
            return
        if not methods:
            await error_response(404, site_msg.NOT_FOUND)(scope, receive, send)
            return
        allow = ", ".join(sorted(methods | {"OPTIONS"} | ({"HEAD"} if "GET" in methods else set())))
        if method == "HEAD" and "GET" in methods:
            await self.app({**scope, "method": "GET"}, receive, _without_body(send))
            return
        if method == "OPTIONS":
            await send(
                {"type": "http.response.start", "status": 204, "headers": [(b"allow", allow.encode())]}
            )
            await send({"type": "http.response.body", "body": b""})
            return
        response = error_response(405, site_msg.METHOD_NOT_ALLOWED)
        response.headers["Allow"] = allow
        await response(scope, receive, send)


def _without_body(send: Send) -> Send:
    """HEAD: the GET answer's status and headers (its Content-Length too), no body."""

    async def send_headers_only(message: Message) -> None:
        if message["type"] == "http.response.body":
            if not message.get("more_body", False):
                await send({"type": "http.response.body", "body": b""})
            return
        await send(message)

    return send_headers_only
