"""What /api/openapi.json promises (the success and error answers, the session schemes) and how the API's
paths answer methods they do not serve: OPTIONS, HEAD, 405, CORS preflights."""

import pytest
from fastapi.testclient import TestClient
from reflex.app import App
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount

from cycling_site.api.deps import BEARER_SCHEME, COOKIE_SCHEME
from cycling_site.api.main import api
from cycling_site.api.middleware import SiteMiddleware
from cycling_site.messages import accounts as accounts_msg
from cycling_site.messages import site as site_msg
from cycling_site.services import tokens
from cycling_site.settings import settings

SITE = settings.allowed_origins[0]
ERROR_REF = {"$ref": "#/components/schemas/ErrorBody"}
STATE_CHANGING = {"post", "put", "patch", "delete"}
SESSION = [{BEARER_SCHEME: []}, {COOKIE_SCHEME: []}]
OPTIONAL_SESSION = [*SESSION, {}]
# Operations that answer without a session but use one when it is sent.
OPTIONAL = {
    "get /api/events",
    "get /api/events/upcoming",
    "get /api/events/{event_id}",
    "post /api/auth/logout",
}
PUBLIC_WITHOUT_DATABASE = {"get /api/altcha/challenge", "get /api/countries", "get /api/static"}
# Success answers that are not JSON: files in their own types, redirects, no content. Every other operation
# answers JSON with a model of its own.
FILE_ANSWERS = {"get /api/auth/avatar/{name}", "get /api/events/files/{token}"}
REDIRECTS = {"post /api/auth/session", "post /api/auth/session/end"}
NO_CONTENT = {"post /api/auth/session/clear"}
BINARY = {"type": "string", "format": "binary"}
# The wallet's transactions and the team lists carry their paging beside the data (spec 3 section 7).
ENVELOPES = [
    {"status", "message"},
    {"status", "data"},
    {"status", "message", "data"},
    {"status", "data", "meta"},
    {"status", "data", "page", "totalPages", "limit", "totalCount"},
]
# The human-check widget reads the ALTCHA challenge in the library's own shape.
WIDGET_SHAPES = {"get /api/altcha/challenge"}


@pytest.fixture(scope="module")
def schema() -> dict:
    return TestClient(api).get("/api/openapi.json").json()


def _operations(schema: dict):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            yield f"{method} {path}", method, operation


def site_client() -> TestClient:
    """The API behind the layers the site puts around it: Reflex's CORS middleware and the site middleware."""
    holder = Starlette()
    App._add_cors(holder)
    cors, args, kwargs = holder.user_middleware[0]
    return TestClient(cors(SiteMiddleware(api), *args, **kwargs))


# --- The documentation -----------------------------------------------------------------------------------


def test_only_the_site_api_is_documented(schema):
    """The embedded services (activity, results, the demo OAuth provider) keep their own contracts. The app's
    deletion request sits beside the API, where the spec puts it (../mobile/delete-account)."""
    paths = list(schema["paths"])
    assert paths and all(path.startswith("/api/") or path == "/mobile/delete-account" for path in paths)
    assert not any(path.startswith("/api/demo-oauth") for path in paths)
    assert len(list(_operations(schema))) == 81


def test_every_error_answer_has_the_one_error_shape(schema):
    error_body = schema["components"]["schemas"]["ErrorBody"]
    assert error_body["required"] == ["status", "message"]
    assert error_body["properties"]["status"]["const"] is False
    for name, _method, operation in _operations(schema):
        errors = {code: answer for code, answer in operation["responses"].items() if int(code) >= 400}
        assert errors or name in PUBLIC_WITHOUT_DATABASE, name
        for code, answer in errors.items():
            assert answer["content"] == {"application/json": {"schema": ERROR_REF}}, (name, code)


def _component(schema: dict, reference: dict) -> dict:
    prefix = "#/components/schemas/"
    assert set(reference) == {"$ref"} and reference["$ref"].startswith(prefix), reference
    return schema["components"]["schemas"][reference["$ref"].removeprefix(prefix)]


def test_every_answer_is_documented_with_its_schema(schema):
    """Each status an operation documents has its shape: the success answer its model (or its file type,
    redirect or empty body), every error answer ErrorBody."""
    for name, _method, operation in _operations(schema):
        responses = operation["responses"]
        # A cached list's 304 (If-None-Match still current) has no body.
        assert "content" not in responses.get("304", {}), name
        success = sorted(code for code in responses if int(code) < 400 and code != "304")
        for code in set(responses) - set(success) - {"304"}:
            assert responses[code]["content"] == {"application/json": {"schema": ERROR_REF}}, (name, code)
        if name in REDIRECTS:
            assert success == ["303"], name
            assert responses["303"]["headers"]["Location"] and "content" not in responses["303"], name
        elif name in NO_CONTENT:
            assert success == ["204"] and "content" not in responses["204"], name
        elif name in FILE_ANSWERS:
            assert success == ["200"], name
            content = responses["200"]["content"]
            assert content and "application/json" not in content, name
            assert all(media["schema"] == BINARY for media in content.values()), name
        else:
            assert success == ["200"], name
            content = responses["200"]["content"]
            assert list(content) == ["application/json"], name
            answer = _component(schema, content["application/json"]["schema"])
            assert answer["type"] == "object" and answer["additionalProperties"] is False, name
            assert answer["properties"], name


def test_the_success_answers_have_the_one_envelope(schema):
    """`status: true` with a message, data or both, each always present."""
    for name, _method, operation in _operations(schema):
        content = operation["responses"].get("200", {}).get("content", {})
        if "application/json" not in content or name in WIDGET_SHAPES:
            continue
        answer = _component(schema, content["application/json"]["schema"])
        assert answer["properties"]["status"]["const"] is True, name
        assert set(answer["properties"]) in ENVELOPES, name
        assert set(answer["required"]) == set(answer["properties"]), name


def test_validation_errors_are_documented_as_400_never_422(schema):
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    for name, _method, operation in _operations(schema):
        assert "422" not in operation["responses"], name
        if "requestBody" in operation:
            assert "400" in operation["responses"], name


def test_the_session_schemes_are_declared(schema):
    assert schema["components"]["securitySchemes"] == {
        BEARER_SCHEME: {
            "type": "http",
            "scheme": "bearer",
            "description": "The token that POST /api/auth/login answers (data.token)",
        },
        COOKIE_SCHEME: {
            "type": "apiKey",
            "in": "cookie",
            "name": tokens.TOKEN_COOKIE,
            "description": "The HttpOnly session cookie the site's pages hold after signing in",
        },
    }


def test_401_is_documented_exactly_where_a_session_is_required(schema):
    for name, _method, operation in _operations(schema):
        security = operation.get("security")
        if name in OPTIONAL:
            assert security == OPTIONAL_SESSION, name
            assert "401" not in operation["responses"], name
        elif "401" in operation["responses"]:
            assert security == SESSION, name
            assert operation["responses"]["401"]["headers"]["WWW-Authenticate"], name
        else:
            # The rider-file link needs the session it was made for, and answers 404 to anyone else.
            assert security is None or name == "get /api/events/files/{token}", name


def test_the_site_middleware_answers_are_documented_on_state_changing_operations(schema):
    for name, method, operation in _operations(schema):
        documented = set(operation["responses"])
        assert ({"403", "413"} <= documented) == (method in STATE_CHANGING), name


def test_a_busy_database_is_documented_with_retry_after(schema):
    for name, _method, operation in _operations(schema):
        if name in PUBLIC_WITHOUT_DATABASE:
            assert "503" not in operation["responses"]
            continue
        busy = operation["responses"]["503"]
        assert busy["headers"]["Retry-After"]["schema"] == {"type": "integer"}, name


def test_rate_limited_operations_document_429(schema):
    limited = {name for name, _method, operation in _operations(schema) if "429" in operation["responses"]}
    assert limited == {
        "post /api/auth/login",
        "post /api/auth/verify-user-resend",
        "post /api/auth/key/new",
        "post /api/auth/parental-consent",
        "post /api/auth/resend-parental-consent",
        "post /api/auth/forget_password",
        "post /api/contact",
        "post /api/subscribe",
        "post /api/auth/change_password",
        "post /api/auth/update_password",
        "post /api/events/otp/send",
        "post /api/wallet/request-phone-otp",
        "post /api/wallet/request-email-otp",
        "post /api/wallet/request-withdrawal-code",
        "post /mobile/delete-account",
    }


def test_redirects_and_no_content_are_documented_with_their_status(schema):
    for path in ("/api/auth/session", "/api/auth/session/end"):
        responses = schema["paths"][path]["post"]["responses"]
        assert "200" not in responses
        assert responses["303"]["headers"]["Location"]
    clear = schema["paths"]["/api/auth/session/clear"]["post"]["responses"]
    assert "200" not in clear and "content" not in clear["204"]


def test_the_registration_submit_documents_its_multipart_form(schema):
    body = schema["paths"]["/api/events/registration"]["post"]["requestBody"]
    form = body["content"]["multipart/form-data"]["schema"]
    assert form["required"] == ["eventId"]
    assert form["properties"]["proof"] == {
        "type": "string",
        "format": "binary",
        "description": "The file, or the key of a file on record",
    }
    assert form["properties"]["terms"] == {"type": "boolean"}


def test_the_docs_page_is_served(schema):
    page = TestClient(api).get("/api/docs")
    assert page.status_code == 200
    assert "/api/openapi.json" in page.text


# --- Sessions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer not-a-token"}, {"Authorization": "Basic cmlkZXI6cmlkZWZhc3Q="}],
    ids=["none", "invalid-bearer", "other-scheme"],
)
def test_without_a_valid_session_the_answer_is_401_with_a_challenge(client, headers):
    response = client.get("/api/auth/profile", headers=headers)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.json() == {"status": False, "message": accounts_msg.SESSION_EXPIRED}


def test_a_bearer_token_or_the_session_cookie_is_a_session(client, make_account):
    account = make_account()
    token = tokens.issue_session_token(account, False).token
    by_bearer = client.get("/api/auth/profile", headers={"Authorization": f"Bearer {token}"})
    assert by_bearer.status_code == 200
    client.cookies.set(tokens.TOKEN_COOKIE, token)
    assert client.get("/api/auth/profile").json()["data"]["uuId"] == account.uuid
    # A bearer token that is sent is the one that counts.
    assert client.get("/api/auth/profile", headers={"Authorization": "Bearer stale"}).status_code == 401


def test_optional_sessions_add_the_riders_own_state(client, make_account):
    token = tokens.issue_session_token(make_account(), False).token
    assert client.get("/api/events/upcoming").status_code == 200
    assert client.get("/api/events/upcoming", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert client.get("/api/events/upcoming", headers={"Authorization": "Bearer stale"}).status_code == 200


# --- Methods ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "allow"),
    [
        ("/api/events", "GET, HEAD, OPTIONS"),
        ("/api/events/12", "GET, HEAD, OPTIONS"),
        ("/api/auth/login", "OPTIONS, POST"),
        ("/api/auth/profile", "GET, HEAD, OPTIONS, PUT"),
        ("/api/auth/avatar", "DELETE, OPTIONS, POST"),
        # A path without parameters comes before a template it fits, as in OpenAPI.
        ("/api/events/event_application", "OPTIONS, POST"),
    ],
)
def test_options_answers_the_paths_methods(path, allow):
    for client in (TestClient(api), site_client()):
        response = client.options(path)
        assert response.status_code == 204
        assert response.headers["allow"] == allow
        assert response.content == b""


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/api/events", "GET, HEAD, OPTIONS"),
        ("PATCH", "/api/auth/login", "OPTIONS, POST"),
        ("TRACE", "/api/auth/profile", "GET, HEAD, OPTIONS, PUT"),
        ("GET", "/api/events/event_application", "OPTIONS, POST"),
    ],
)
def test_a_method_the_path_does_not_serve_answers_405_with_allow(method, path, allow):
    response = TestClient(api).request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allow
    assert response.json() == {"status": False, "message": site_msg.METHOD_NOT_ALLOWED}


def test_head_answers_like_get_without_the_body(client):
    got = client.get("/api/events")
    head = client.head("/api/events")
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    assert head.headers["content-length"] == str(len(got.content))
    assert head.headers["content-type"] == "application/json"


def test_a_path_the_api_does_not_have_answers_a_json_404():
    response = TestClient(api).post("/api/no-such-thing", json={})
    assert response.status_code == 404
    assert response.json() == {"status": False, "message": site_msg.NOT_FOUND}


@pytest.fixture
def api_before_the_site(monkeypatch) -> TestClient:
    """The API with the site mounted behind its routes, as the site's app has it (`_api_in_front`): a path the
    API does not take falls through to the pages, here a plain-text 404 standing for the site's 404 page."""
    monkeypatch.setattr(
        api.router, "routes", [*api.router.routes, Mount("", PlainTextResponse("Not Found", status_code=404))]
    )
    return TestClient(api)


@pytest.mark.parametrize(
    ("method", "status", "allow"),
    [("OPTIONS", 204, "OPTIONS, POST"), ("GET", 405, "OPTIONS, POST"), ("HEAD", 405, "OPTIONS, POST")],
)
def test_the_apps_deletion_request_answers_its_methods(api_before_the_site, method, status, allow):
    response = api_before_the_site.request(method, "/mobile/delete-account")
    assert response.status_code == status
    assert response.headers["allow"] == allow
    if method == "GET":
        assert response.json() == {"status": False, "message": site_msg.METHOD_NOT_ALLOWED}


def test_a_path_under_mobile_the_api_does_not_have_answers_a_json_404(api_before_the_site):
    response = api_before_the_site.get("/mobile/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"status": False, "message": site_msg.NOT_FOUND}


@pytest.mark.parametrize(
    "path",
    [
        "/api/events/upcoming%0A",
        "/api/events/12%0A",
        "/api/auth/parental-approval/a%0Ab",
        "/api/auth/verify-delete-user/%0D",
        "/api/auth/avatar/a%09b.webp",
        "/api/teams/%00",
        "/mobile/delete-account%0A",
    ],
)
def test_a_control_character_in_a_path_answers_a_json_404(api_before_the_site, path):
    response = api_before_the_site.get(path)
    assert response.status_code == 404
    assert response.json() == {"status": False, "message": site_msg.NOT_FOUND}


def test_a_cors_preflight_from_the_site_is_allowed():
    response = site_client().options(
        "/api/auth/login",
        headers={
            "Origin": SITE,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type",
        },
    )
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == SITE
    assert response.headers["access-control-allow-credentials"] == "true"
    assert "POST" in response.headers["access-control-allow-methods"]
    assert response.headers["access-control-allow-headers"] == "authorization, content-type"


def test_a_cors_preflight_from_another_site_is_not_allowed():
    """Refused without Access-Control-Allow-Origin, so no browser lets that site's page send the request."""
    response = site_client().options(
        "/api/auth/login",
        headers={
            "Origin": "https://evil.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization",
        },
    )
    assert response.status_code == 400
    assert "access-control-allow-origin" not in response.headers
