"""The site-wide middleware as a browser or a caller meets it: the cap on streamed bodies, requests from
other sites, CORS, and the security headers of pages and API answers."""

import base64
import dataclasses
import hashlib
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cycling_site.api import middleware
from cycling_site.api.main import api
from cycling_site.api.middleware import MAX_REQUEST_BYTES, SiteMiddleware, one_vary
from cycling_site.bundling import after_first_paint
from cycling_site.messages import site as site_msg
from cycling_site.settings import settings

MB = 1024 * 1024
SITE = settings.allowed_origins[0]


def _counting_app() -> tuple[Starlette, dict]:
    """An app that reads the whole body and tells how much it got; `calls` counts the requests it saw."""
    calls = {"count": 0}

    async def upload(request: Request) -> PlainTextResponse:
        calls["count"] += 1
        return PlainTextResponse(str(len(await request.body())))

    return Starlette(routes=[Route("/upload", upload, methods=["POST"])]), calls


async def _chunks(total: int, size: int, sent: dict) -> AsyncIterator[bytes]:
    """A body with no Content-Length (sent chunked), counting what the server pulled."""
    while sent["bytes"] < total:
        chunk = b"x" * min(size, total - sent["bytes"])
        sent["bytes"] += len(chunk)
        yield chunk


async def _post_streamed(app, path: str, total: int, size: int = MB) -> tuple[httpx.Response, int]:
    sent = {"bytes": 0}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        response = await client.post(path, content=_chunks(total, size, sent))
    return response, sent["bytes"]


def _assert_too_large(response: httpx.Response) -> None:
    assert response.status_code == 413
    assert response.json() == {"status": False, "message": site_msg.REQUEST_TOO_LARGE}
    assert response.headers["x-content-type-options"] == "nosniff"


# --- Streamed bodies ------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_a_chunked_body_over_64_mb_is_refused_without_reading_it_all():
    app, _calls = _counting_app()
    response, sent = await _post_streamed(SiteMiddleware(app), "/upload", 80 * MB)
    _assert_too_large(response)
    assert "content-length" not in response.request.headers
    assert sent <= MAX_REQUEST_BYTES + MB


@pytest.mark.anyio
async def test_a_chunked_body_under_the_cap_reaches_the_app():
    app, calls = _counting_app()
    response, _sent = await _post_streamed(
        SiteMiddleware(app, max_request_bytes=10_000), "/upload", 9_000, 1000
    )
    assert (response.status_code, response.text, calls["count"]) == (200, "9000", 1)


@pytest.mark.anyio
async def test_the_api_refuses_a_streamed_body_over_the_cap_with_json():
    response, sent = await _post_streamed(
        SiteMiddleware(api, max_request_bytes=10_000), "/api/auth/login", 100_000, 1000
    )
    _assert_too_large(response)
    assert sent <= 11_000


# --- Requests from other sites ----------------------------------------------------------------------------


@pytest.fixture
def site() -> TestClient:
    async def echo(request: Request) -> JSONResponse:
        return JSONResponse({"method": request.method})

    app = Starlette(routes=[Route("/form", echo, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])])
    return TestClient(SiteMiddleware(app))


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://localhost:3001"])
def test_state_changing_requests_from_another_site_are_refused(site, method, origin):
    response = site.request(method, "/form", headers={"Origin": origin})
    assert response.status_code == 403
    assert response.json() == {"status": False, "message": site_msg.CROSS_SITE_REFUSED}
    assert response.headers["x-frame-options"] == "DENY"


def test_a_cross_site_fetch_without_origin_is_refused(site):
    response = site.post("/form", headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403
    assert response.json()["message"] == site_msg.CROSS_SITE_REFUSED


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": SITE},
        {"Origin": "http://127.0.0.1:3000"},  # the demo's loopback twin
        {},  # the game client, curl, other servers
        {"Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "none"},
    ],
)
def test_own_pages_and_callers_without_origin_may_post(site, headers):
    response = site.post("/form", headers=headers)
    assert (response.status_code, response.json()) == (200, {"method": "POST"})


def test_reading_from_another_site_is_not_refused(site):
    assert site.get("/form", headers={"Origin": "https://evil.example"}).status_code == 200


def test_the_api_refuses_a_cross_site_sign_in():
    client = TestClient(SiteMiddleware(api))
    response = client.post("/api/auth/login", json={}, headers={"Origin": "https://evil.example"})
    assert response.status_code == 403
    assert response.json() == {"status": False, "message": site_msg.CROSS_SITE_REFUSED}


def test_cors_answers_only_the_sites_own_origins():
    """Reflex adds CORS (and the event socket's origin check) from rxconfig's cors_allowed_origins."""
    from reflex.app import App
    from reflex.config import get_config

    assert list(get_config().cors_allowed_origins) == settings.allowed_origins
    app = Starlette(routes=[Route("/ping", lambda _request: PlainTextResponse("pong"))])
    App._add_cors(app)
    client = TestClient(app)
    evil = client.get("/ping", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in evil.headers
    own = client.get("/ping", headers={"Origin": SITE})
    assert own.headers["access-control-allow-origin"] == SITE
    assert own.headers["access-control-allow-credentials"] == "true"


# --- Headers ----------------------------------------------------------------------------------------------


INLINE = b"window.__ready = true;\n"
MODULE = b'import "/assets/app.js";\nimport("/assets/entry.client-AbC123_x.js");'
# The same script as pages are served: started after the first paint.
SERVED_MODULE = after_first_paint(MODULE.decode()).encode()


def _sha(source: bytes) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(source).digest()).decode()}'"


@pytest.fixture
def build(tmp_path, monkeypatch):
    """A built frontend with inline scripts (a classic and a module one) and an external one."""
    (tmp_path / "auth").mkdir()
    (tmp_path / "index.html").write_bytes(
        b"<!DOCTYPE html><html><head><script>" + INLINE + b'</script><script src="/assets/a.js"></script>'
        b"</head><body></body></html>"
    )
    (tmp_path / "auth" / "login.html").write_bytes(
        b'<html><body><script type="module" async="">' + MODULE + b"</script></body></html>"
    )
    monkeypatch.setattr(middleware, "BUILD_DIR", tmp_path)
    monkeypatch.setattr(middleware, "_read_from_build", {})
    return tmp_path


@pytest.fixture
def no_build(tmp_path, monkeypatch):
    monkeypatch.setattr(middleware, "BUILD_DIR", tmp_path / "missing")
    monkeypatch.setattr(middleware, "_read_from_build", {})


def _pages_app() -> Starlette:
    async def page(_request):
        return PlainTextResponse("<html></html>", media_type="text/html")

    async def data(_request):
        return JSONResponse({"status": True})

    async def script(_request):
        return PlainTextResponse("export{};", media_type="text/javascript")

    return Starlette(
        routes=[
            Route("/auth/login", page),
            Route("/api/thing", data),
            Route("/assets/app-0123abcd.js", script),
            Route("/_upload/avatar.SVG", script),
        ]
    )


def _directives(response) -> dict[str, str]:
    policy = response.headers["content-security-policy"]
    return {part.split()[0]: " ".join(part.split()[1:]) for part in policy.split(";") if part.strip()}


def test_pages_allow_only_their_own_and_the_builds_inline_scripts(build):
    client = TestClient(SiteMiddleware(_pages_app()))
    directives = _directives(client.get("/auth/login"))
    sources = directives["script-src"].split()
    assert sources[:2] == ["'self'", "'unsafe-eval'"]
    assert SERVED_MODULE != MODULE
    assert set(sources[2:]) == {_sha(INLINE), _sha(MODULE), _sha(SERVED_MODULE)}
    assert "'unsafe-inline'" not in sources and not any("://" in source for source in sources)
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["worker-src"] == "'self' blob:"


@pytest.mark.parametrize("path", ["/assets/app-0123abcd.js", "/_upload/avatar.SVG"])
def test_files_carry_a_short_policy_that_runs_no_script(build, path):
    response = TestClient(SiteMiddleware(_pages_app())).get(path)
    assert _directives(response) == {
        "script-src": "'none'",
        "object-src": "'none'",
        "base-uri": "'self'",
        "frame-ancestors": "'none'",
    }


def test_a_page_without_its_closing_slash_is_served_without_a_redirect(build):
    """The built frontend is served as Reflex serves it: files, with a folder's index.html for its address."""
    (build / "user" / "activities").mkdir(parents=True)
    (build / "user" / "activities" / "index.html").write_text("<html>dashboard</html>")
    files = Starlette(routes=[Mount("/", StaticFiles(directory=build, html=True))])
    assert TestClient(files).get("/user/activities", follow_redirects=False).status_code == 307
    client = TestClient(SiteMiddleware(files), base_url=SITE)
    for address in ("/user/activities", "/user/activities/", "/user/activities?tab=1"):
        response = client.get(address, follow_redirects=False)
        assert (response.status_code, response.text) == (200, "<html>dashboard</html>"), address
    assert client.head("/user/activities", follow_redirects=False).status_code == 200
    posted = {"type": "http", "method": "POST", "path": "/user/activities", "raw_path": b"/user/activities"}
    assert middleware.as_folder(posted) == posted
    missing = client.get("/user/nothing", headers={"accept": "text/html"}, follow_redirects=False)
    assert (missing.status_code, missing.headers["location"]) == (307, "/")


def test_the_build_is_read_once(build):
    client = TestClient(SiteMiddleware(_pages_app()))
    first = client.get("/auth/login").headers["content-security-policy"]
    (build / "index.html").unlink()
    assert client.get("/auth/login").headers["content-security-policy"] == first


def test_api_answers_carry_the_policy_without_the_page_scripts(build):
    response = TestClient(SiteMiddleware(_pages_app())).get("/api/thing")
    assert _directives(response) == {
        "object-src": "'none'",
        "base-uri": "'self'",
        "frame-ancestors": "'none'",
    }
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"


def test_without_a_build_pages_still_get_the_base_policy(no_build):
    response = TestClient(SiteMiddleware(_pages_app())).get("/auth/login")
    assert _directives(response) == {
        "object-src": "'none'",
        "base-uri": "'self'",
        "frame-ancestors": "'none'",
    }


def test_the_real_api_answers_carry_the_headers(no_build, session):
    response = TestClient(SiteMiddleware(api)).get("/api/events/upcoming")
    assert response.status_code == 200
    assert _directives(response)["frame-ancestors"] == "'none'"
    assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"


@pytest.mark.parametrize("path", ["/auth/login", "/api/thing"])
def test_https_adds_strict_transport_security(no_build, path):
    over_https = TestClient(SiteMiddleware(_pages_app()), base_url="https://testserver").get(path)
    assert over_https.headers["strict-transport-security"] == "max-age=31536000; includeSubDomains"
    over_http = TestClient(SiteMiddleware(_pages_app())).get(path)
    assert "strict-transport-security" not in over_http.headers


def test_an_https_site_url_adds_strict_transport_security_behind_a_proxy(no_build, monkeypatch):
    monkeypatch.setattr(
        middleware, "settings", dataclasses.replace(settings, site_url="https://ride.example")
    )
    response = TestClient(SiteMiddleware(_pages_app())).get("/auth/login")
    assert response.headers["strict-transport-security"] == "max-age=31536000; includeSubDomains"


def test_an_answer_names_each_vary_once():
    headers = [(b"vary", b"Accept-Encoding, Origin"), (b"x-other", b"1"), (b"Vary", b"origin, Origin")]
    assert one_vary(headers) == [(b"x-other", b"1"), (b"vary", b"Accept-Encoding, Origin")]
    assert one_vary([(b"x-other", b"1")]) == [(b"x-other", b"1")]


@pytest.mark.parametrize("destination", ["iframe", "frame"])
@pytest.mark.parametrize("path", ["/auth/login", "/iframe-warning", "/user/activities", "/api/thing"])
def test_a_page_asked_for_in_a_frame_gets_the_iframe_warning_which_may_be_framed(build, path, destination):
    """The pages refuse frames, so a browser would show its own error: a framed navigation is answered with
    the small static warning instead, which runs nothing."""
    client = TestClient(SiteMiddleware(_pages_app()))
    framed = client.get(path, headers={"Sec-Fetch-Dest": destination, "Accept": "text/html"})
    assert framed.status_code == 200 and framed.headers["content-type"].startswith("text/html")
    assert site_msg.IFRAME_WARNING in framed.text
    assert "x-frame-options" not in framed.headers
    policy = _directives(framed)
    assert "frame-ancestors" not in policy and policy["default-src"] == "'none'"
    assert "<script" not in framed.text and "<form" not in framed.text
    assert framed.headers["cache-control"] == "no-store"


def test_pages_opened_as_documents_and_the_framed_results_service_are_not_the_warning(build):
    client = TestClient(SiteMiddleware(_pages_app()))
    page = client.get("/auth/login", headers={"Sec-Fetch-Dest": "document", "Accept": "text/html"})
    assert site_msg.IFRAME_WARNING not in page.text and page.headers["x-frame-options"] == "DENY"
    results = client.get("/results-service/", headers={"Sec-Fetch-Dest": "iframe"}, follow_redirects=False)
    assert site_msg.IFRAME_WARNING not in results.text


# --- One address for every visit ----------------------------------------------------------------------------

PAGE = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@pytest.fixture
def canonical_site(monkeypatch) -> TestClient:
    """The whole site (pages, API, services) behind the middleware, at SITE_URL http://127.0.0.1:8123."""
    monkeypatch.setattr(
        middleware, "settings", dataclasses.replace(settings, site_url="http://127.0.0.1:8123")
    )

    async def anything(request: Request) -> PlainTextResponse:
        return PlainTextResponse(request.url.path)

    app = Starlette(routes=[Route("/{path:path}", anything, methods=["GET", "HEAD", "POST"])])
    return TestClient(SiteMiddleware(app), base_url="http://localhost:8123", follow_redirects=False)


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize(
    ("path", "location"),
    [
        ("/", "http://127.0.0.1:8123/"),
        (
            "/user/activities?payment_result=success&orderId=a%20b",
            "/user/activities?payment_result=success&orderId=a%20b",
        ),
        ("/auth/verify-email?code=x%2Fy", "/auth/verify-email?code=x%2Fy"),
        ("/event/detail/3", "/event/detail/3"),
    ],
)
def test_a_page_opened_at_another_host_name_goes_to_the_same_address_at_site_url(
    canonical_site, method, path, location
):
    response = canonical_site.request(method, path, headers=PAGE)
    assert response.status_code == 308
    assert response.headers["location"] == "http://127.0.0.1:8123" + location.removeprefix(
        "http://127.0.0.1:8123"
    )
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("host", ["127.0.0.1:8123", "127.0.0.1:8123".upper()], ids=["site-url", "upper-case"])
def test_a_page_opened_at_site_url_is_served(canonical_site, host):
    response = canonical_site.get("/event/detail/3", headers={**PAGE, "Host": host})
    assert (response.status_code, response.text) == (200, "/event/detail/3")


@pytest.mark.parametrize(
    ("host", "forwarded", "status"),
    [
        ("127.0.0.1:8124", "", 308),
        ("localhost:8123", "127.0.0.1:8123", 200),
        ("app:3000", "evil.example", 308),
    ],
    ids=["other-port", "proxy-forwarding-site-url", "proxy-forwarding-another-host"],
)
def test_the_host_the_visitor_used_decides_behind_a_proxy_too(canonical_site, host, forwarded, status):
    headers = {**PAGE, "Host": host, **({"X-Forwarded-Host": forwarded} if forwarded else {})}
    response = canonical_site.get("/events", headers=headers)
    assert response.status_code == status
    if status == 308:
        assert response.headers["location"] == "http://127.0.0.1:8123/events"


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("GET", "/api/events/upcoming", PAGE),
        ("GET", "/api/demo-oauth/strava/authorize", PAGE),
        ("POST", "/api/shop/webhook", {}),
        ("GET", "/_event/", PAGE),
        ("POST", "/_upload", {}),
        ("GET", "/ping", PAGE),
        ("GET", "/_health", PAGE),
        ("GET", "/payments-service/checkout/cs_test_1", PAGE),
        ("GET", "/results-service/", PAGE),
        ("GET", "/activity-service/v2/rider/activities", PAGE),
        ("GET", "/content-service/api/pages", PAGE),
        ("GET", "/assets/app-AbCdEfGh.js", PAGE),
        ("GET", "/favicon.svg", PAGE),
        ("GET", "/user/activities", {"Accept": "application/json"}),
        ("POST", "/auth/login", PAGE),
    ],
)
def test_the_api_the_services_files_and_calls_that_are_no_page_visit_are_not_redirected(
    canonical_site, method, path, headers
):
    response = canonical_site.request(method, path, headers=headers)
    assert response.status_code != 308
    assert "location" not in response.headers
