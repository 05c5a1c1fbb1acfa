"""ASGI middleware around the whole site: security headers (with a script policy for the site's pages),
a caching policy, pages opened at another host name sent to the site's own address (SITE_URL), unknown
pages sent to /, the iframe warning for a page opened in a frame, state-changing requests from other sites
refused, and a cap on request bodies, declared or streamed, so an oversized upload is never read in full."""

import base64
import hashlib
import html
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from reflex_base.constants import Endpoint
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cycling_site.bundling import after_first_paint
from cycling_site.messages import site as msg
from cycling_site.settings import DEFAULT_PORTS, PROJECT_ROOT, origin_of, settings
from cycling_site.wire.activity import EMBEDDED_PREFIX as ACTIVITY_PREFIX
from cycling_site.wire.content import EMBEDDED_PREFIX as CONTENT_PREFIX
from cycling_site.wire.payments import EMBEDDED_PREFIX as PAYMENTS_PREFIX
from cycling_site.wire.results import EMBEDDED_PREFIX as RESULTS_PREFIX

# Above every upload limit of the spec (8 MB proofs, 5 files of 5 MB, 10 import proofs); each form
# still checks its own, smaller limit.
MAX_REQUEST_BYTES = 64 * 1024 * 1024
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# The production build of the frontend that Reflex serves; its inline scripts are allowed by their hashes.
BUILD_DIR = PROJECT_ROOT / ".web" / "build" / "client"

BASE_POLICY = "object-src 'none'; base-uri 'self'"
# Reflex runs call-script events through eval(); the ALTCHA widget solves in a worker made from a blob.
PAGE_SCRIPT_POLICY = "script-src 'self' 'unsafe-eval' {hashes}; worker-src 'self' blob:"
# A policy rules only the document it comes with, so files (scripts, styles, images, uploads) do without the
# page's 3 KB script list: it went out with each of a page's thirty files. Opened on their own, they run no
# script. Pages have no extension in their address; files do.
FILE_SCRIPT_POLICY = "script-src 'none'"
FILE = re.compile(r"\.(js|css|svg|png|jpe?g|webp|gif|ico|woff2?|ttf|json|txt|xml)$", re.IGNORECASE)
COMMON_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")
# The API and the embedded services (Swagger UI, the results pages) keep their own scripts: they get the
# policy without the page's script list.
SERVICE_PREFIXES = ("/api", ACTIVITY_PREFIX, RESULTS_PREFIX)

# The build names every file under /assets/ after its content (name-HASH.ext): a changed file gets a new
# address, so the browser keeps these for a year without asking. Everything else without a policy of its own
# (pages, unhashed images, answers) is asked for again each time and answered 304 while unchanged.
HASHED_ASSET = re.compile(r"^/assets/[^/]+-[A-Za-z0-9_-]{8}\.[A-Za-z0-9]+$")
IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"

_INLINE_SCRIPT = re.compile(rb"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
_SRC_ATTRIBUTE = re.compile(rb"\ssrc\s*=", re.IGNORECASE)
T = TypeVar("T")
# What was read from the build, per reader: once per process.
_read_from_build: dict[Callable[[Path], Any], Any] = {}


def script_hash(source: bytes) -> str:
    """A CSP source for one inline script, hashed as the browser reads it (line ends made \\n)."""
    normalized = source.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return f"'sha256-{base64.b64encode(hashlib.sha256(normalized).digest()).decode()}'"


def inline_script_hashes(build_dir: Path) -> list[str]:
    """The hash of every inline script of the built pages, as built and as served (after_first_paint)."""
    found = set()
    for page in build_dir.rglob("*.html"):
        built = page.read_text()
        for served in (built, after_first_paint(built)):
            for attributes, source in _INLINE_SCRIPT.findall(served.encode()):
                if not _SRC_ATTRIBUTE.search(attributes):
                    found.add(script_hash(source))
    return sorted(found)


def _from_build(read: Callable[[Path], T]) -> T | None:
    """What `read` finds in the build, read once at first use; None (and asked again later) while no build
    is there, as in unit tests or before `reflex run --env prod` has built the frontend."""
    if read not in _read_from_build and BUILD_DIR.is_dir():
        try:
            _read_from_build[read] = read(BUILD_DIR)
        except OSError:
            return None
    return _read_from_build.get(read)


def built_pages(build_dir: Path) -> frozenset[str]:
    """The address of every built page that is a folder's index.html (/events, /user/activities)."""
    return frozenset(
        "/" + page.parent.relative_to(build_dir).as_posix() for page in build_dir.rglob("*/index.html")
    )


def as_folder(scope: Scope) -> Scope:
    """A page asked for without its closing slash (/events) is served as its folder (/events/): the built
    frontend's file server answers it with a redirect to that address first, one round trip more on a full
    page load (the one after sign-in among them)."""
    path = scope["path"]
    if scope["method"] not in ("GET", "HEAD") or path not in (_from_build(built_pages) or ()):
        return scope
    return {**scope, "path": path + "/", "raw_path": (scope.get("raw_path") or path.encode()) + b"/"}


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix + "/")


def _header(scope: Scope, name: bytes) -> str:
    return dict(scope.get("headers", [])).get(name, b"").decode("latin-1")


def _json_refusal(status_code: int, message: str, headers: list[tuple[bytes, bytes]]) -> list[Message]:
    body = json.dumps({"status": False, "message": message}).encode()
    start_headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *headers,
    ]
    return [
        {"type": "http.response.start", "status": status_code, "headers": start_headers},
        {"type": "http.response.body", "body": body},
    ]


# Navigations a browser makes to load a page inside a frame of another page (the Sec-Fetch-Dest it sends).
FRAMED = frozenset({"iframe", "frame"})
# The iframe warning may be framed (that is where it shows) and runs nothing: no script, no form, one link
# that opens the site in a tab of its own.
IFRAME_WARNING_HEADERS = [
    (b"content-type", b"text/html; charset=utf-8"),
    (b"content-security-policy", b"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'"),
    (b"cache-control", b"no-store"),
    (b"vary", b"Sec-Fetch-Dest"),
    *COMMON_HEADERS,
]


def iframe_warning_page() -> bytes:
    """The small static page a framed navigation gets instead of the site (spec 2: /iframe-warning)."""
    text, site = html.escape(msg.IFRAME_WARNING), html.escape(settings.site_name)
    home = html.escape(settings.site_url + "/")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{site}</title><style>"
        ":root{color-scheme:light dark}body{margin:0;min-height:100vh;display:grid;place-items:center;"
        "font:16px/1.5 system-ui,sans-serif;text-align:center;padding:24px;box-sizing:border-box}"
        "h1{font-size:1.25rem;margin:0 0 12px}a{color:#C2410C;font-weight:600}"
        "@media (prefers-color-scheme:dark){a{color:#FDBA74}}"
        f'</style></head><body><main><h1 id="iframe-warning">{text}</h1>'
        f'<a href="{home}" target="_blank" rel="noopener noreferrer">Open {site}</a>'
        "</main></body></html>"
    ).encode()


def _framed(scope: Scope) -> bool:
    """A page asked for to fill a frame: every page refuses frames (frame-ancestors 'none'), so the browser
    would show its own error; it gets the warning instead. The results service is framed by the site's own
    results page."""
    return (
        scope["method"] in ("GET", "HEAD")
        and _header(scope, b"sec-fetch-dest") in FRAMED
        and not _under(scope["path"], RESULTS_PREFIX)
    )


def cache_policy(scope: Scope, status: int) -> bytes:
    if scope["method"] in ("GET", "HEAD") and status in (200, 304) and HASHED_ASSET.match(scope["path"]):
        return IMMUTABLE
    return REVALIDATE


def one_vary(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The answer's Vary headers as one, each name once: every layer of CORS handling adds its own Origin."""
    others, names = [], {}
    for name, value in headers:
        if name.lower() != b"vary":
            others.append((name, value))
            continue
        for part in value.split(b","):
            if part.strip():
                names.setdefault(part.strip().lower(), part.strip())
    return [*others, (b"vary", b", ".join(names.values()))] if names else others


def _wants_page(scope: Scope) -> bool:
    if scope["method"] != "GET" or _under(scope["path"], "/api"):
        return False
    return "text/html" in _header(scope, b"accept")


# What a browser opens at another host name goes to SITE_URL, but not these: the API and the live connection
# (called by the pages and the game client at whatever address they were given), uploads, health checks, and
# the embedded services (the payment sandbox stands for the provider's own site, the results service fills
# a frame of the site).
NOT_REDIRECTED = (
    "/api",
    *(str(endpoint) for endpoint in Endpoint),
    ACTIVITY_PREFIX,
    CONTENT_PREFIX,
    PAYMENTS_PREFIX,
    RESULTS_PREFIX,
)


def _host_and_port(url: str) -> tuple[str, int | None]:
    """An address's host name and port, the scheme's default port left out (a port that is no number: -1)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    return parts.hostname or "", None if port == DEFAULT_PORTS.get(parts.scheme) else port


def canonical_location(scope: Scope, site_url: str) -> bytes | None:
    """Where a page opened at another host name than SITE_URL's goes: the same path and query there. Cookies
    belong to one host name, so a rider who signed in at 127.0.0.1 is signed out at localhost, where a card
    payment's return and the e-mailed links lead; every visit starts at the one address instead. Only pages
    a browser opens (GET or HEAD asking for HTML, no file); behind a reverse proxy the host the visitor used
    is its X-Forwarded-Host."""
    path = scope["path"]
    if (
        scope["method"] not in ("GET", "HEAD")
        or "text/html" not in _header(scope, b"accept")
        or FILE.search(path)
        or any(_under(path, prefix) for prefix in NOT_REDIRECTED)
    ):
        return None
    visited = _header(scope, b"x-forwarded-host").split(",")[0].strip() or _header(scope, b"host")
    scheme = urlsplit(site_url).scheme
    if not visited or _host_and_port(f"{scheme}://{visited}") == _host_and_port(site_url):
        return None
    query = scope.get("query_string", b"")
    location = origin_of(site_url).encode() + (scope.get("raw_path") or path.encode())
    return location + (b"?" + query if query else b"")


class SiteMiddleware:
    """Adds the security headers; a browser asking for a page that does not exist is redirected to /."""

    def __init__(self, app: ASGIApp, max_request_bytes: int = MAX_REQUEST_BYTES):
        self.app = app
        self.max_request_bytes = max_request_bytes
        self.allowed_origins = frozenset(settings.allowed_origins)
        self.site_is_https = settings.site_url.startswith("https://")

    def security_headers(self, scope: Scope) -> list[tuple[bytes, bytes]]:
        path = scope["path"]
        framing = "frame-ancestors 'self'" if _under(path, RESULTS_PREFIX) else "frame-ancestors 'none'"
        policy = [BASE_POLICY, framing]
        hashes = _from_build(inline_script_hashes)
        if FILE.search(path):
            policy.insert(0, FILE_SCRIPT_POLICY)
        elif hashes is not None and not any(_under(path, prefix) for prefix in SERVICE_PREFIXES):
            policy.insert(0, PAGE_SCRIPT_POLICY.format(hashes=" ".join(hashes)))
        headers = [
            (b"x-frame-options", b"SAMEORIGIN" if _under(path, RESULTS_PREFIX) else b"DENY"),
            (b"content-security-policy", "; ".join(policy).encode()),
            *COMMON_HEADERS,
        ]
        if self.site_is_https or scope.get("scheme") == "https":
            headers.append(HSTS)
        return headers

    def from_another_site(self, scope: Scope) -> bool:
        """A state-changing request a page of another site made the browser send (a cross-site form post,
        say). Callers that send no Origin (the game client, curl, other servers) are not browsers' pages."""
        if scope["method"] not in STATE_CHANGING:
            return False
        origin = _header(scope, b"origin")
        if origin:
            return origin not in self.allowed_origins
        return _header(scope, b"sec-fetch-site") == "cross-site"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _framed(scope):
            body = iframe_warning_page()
            headers = [*IFRAME_WARNING_HEADERS, (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
            return
        if location := canonical_location(scope, settings.site_url):
            headers = [(b"location", location), (b"content-length", b"0"), (b"cache-control", REVALIDATE)]
            headers += self.security_headers(scope)
            await send({"type": "http.response.start", "status": 308, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        scope = as_folder(scope)
        security_headers = self.security_headers(scope)
        if self.from_another_site(scope):
            for message in _json_refusal(403, msg.CROSS_SITE_REFUSED, security_headers):
                await send(message)
            return
        declared = _header(scope, b"content-length")
        if declared.isdigit() and int(declared) > self.max_request_bytes:
            for message in _json_refusal(413, msg.REQUEST_TOO_LARGE, security_headers):
                await send(message)
            return
        redirect_missing = _wants_page(scope)
        received = 0
        too_large = False
        started = finished = False
        swallowing = False

        async def capped_receive() -> Message:
            """Hands the body on until it passes the cap (a chunked body declares no length); from then
            on the app hears that the client left, and the answer becomes a 413."""
            nonlocal received, too_large
            if too_large:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_request_bytes:
                    too_large = True
                    return {"type": "http.disconnect"}
            return message

        async def send_wrapper(message: Message) -> None:
            nonlocal swallowing, started, finished
            if too_large:
                return
            if message["type"] == "http.response.start":
                if redirect_missing and message["status"] == 404:
                    swallowing = True
                    headers = [(b"location", b"/"), (b"content-length", b"0"), *security_headers]
                    message = {"type": "http.response.start", "status": 307, "headers": headers}
                    await send(message)
                    await send({"type": "http.response.body", "body": b""})
                    started = finished = True
                    return
                headers = [*one_vary(message.get("headers", [])), *security_headers]
                if not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append((b"cache-control", cache_policy(scope, message["status"])))
                message["headers"] = headers
                started = True
            elif swallowing:
                return
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                finished = True
            await send(message)

        try:
            await self.app(scope, capped_receive, send_wrapper)
        except Exception:
            if not too_large:
                raise
        if too_large and not started:
            for message in _json_refusal(413, msg.REQUEST_TOO_LARGE, security_headers):
                await send(message)
        elif too_large and not finished:
            # The app answered before it read the whole body: end that answer here, cut short.
            await send({"type": "http.response.body", "body": b""})
