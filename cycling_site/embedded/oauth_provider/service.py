"""The demo OAuth 2 provider that stands in for every fitness app with no client id configured.

Served under /api/demo-oauth/<app> in demo mode only (production answers 404): an authorize page asking
"Allow <site> to connect to <App>?", a token endpoint (authorization code; for Xert the password grant, which
accepts any username with the password "xert-demo") and a profile endpoint. Codes and tokens are signed
and short-lived, so any worker can check them; a code is refused the second time this worker sees it.
The site's OAuth client reaches it over HTTP exactly as it reaches a real app.
"""

import base64
import binascii
import html
import secrets
import time
from typing import Annotated
from urllib.parse import urlencode

import jwt
from fastapi import APIRouter, FastAPI, Form, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from cycling_site.settings import PASSWORD_GRANT_NETWORKS, settings
from cycling_site.wire import oauth as wire

XERT_DEMO_PASSWORD = "xert-demo"
DEMO_ATHLETE = {"id": 1001, "username": "demo.athlete", "name": "Demo Athlete"}
CODE_SECONDS = 300
ACCESS_SECONDS = 6 * 3600
ALGORITHM = "HS256"
FIELD_MAX = 2000

router = APIRouter(prefix=wire.EMBEDDED_PREFIX, include_in_schema=False)
_used_codes: dict[str, float] = {}


class ProviderError(Exception):
    def __init__(self, error: str, status_code: int = 400):
        super().__init__(error)
        self.error = error
        self.status_code = status_code


def _signing_key() -> str:
    return f"{settings.secret_key}:demo-oauth"


def _sign(purpose: str, network: str, lifetime: int, **claims) -> str:
    now = int(time.time())
    body = {"purpose": purpose, "net": network, "iat": now, "exp": now + lifetime, **claims}
    return jwt.encode(body, _signing_key(), algorithm=ALGORITHM)


def _read(token: str, purpose: str, network: str) -> dict | None:
    try:
        claims = jwt.decode(
            token[:FIELD_MAX], _signing_key(), algorithms=[ALGORITHM], options={"require": ["exp"]}
        )
    except jwt.PyJWTError:
        return None
    return claims if claims.get("purpose") == purpose and claims.get("net") == network else None


def _served(network: str) -> bool:
    return settings.demo and network in wire.NETWORK_NAMES and not settings.oauth[network].configured


def _check_client(network: str, client_id: str, client_secret: str | None = None) -> None:
    expected_id, expected_secret = wire.demo_registration(network)
    if not secrets.compare_digest(client_id.encode(), expected_id.encode()):
        raise ProviderError("invalid_client", 401)
    if client_secret is not None and not secrets.compare_digest(
        client_secret.encode(), expected_secret.encode()
    ):
        raise ProviderError("invalid_client", 401)


def _check_redirect(network: str, redirect_uri: str) -> None:
    registered = wire.redirect_uri(network)
    if redirect_uri != registered and not redirect_uri.startswith(registered + "/"):
        raise ProviderError("invalid_redirect_uri")


# The provider's own look (a neutral "demo app"), kept here as an outside provider keeps its stylesheet.
_STYLE = {
    "body": "margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;"
    "box-sizing:border-box;background:#F4F6FA;color:#111827;font-family:system-ui,-apple-system,'Segoe UI',"
    "Roboto,Arial,sans-serif",
    "main": "background:#FFFFFF;border-radius:16px;box-shadow:0 1px 2px rgba(16,24,40,.06),0 8px 24px "
    "rgba(16,24,40,.08);padding:32px 24px;max-width:420px;width:100%;box-sizing:border-box;text-align:center",
    ".badge": "display:inline-block;background:#0B1220;color:white;border-radius:999px;"
    "padding:4px 12px;font-size:12px;letter-spacing:.08em;text-transform:uppercase",
    "h1": "font-size:22px;margin:16px 0 8px",
    "p": "color:#40454F;margin:0 0 24px",
    ".actions": "display:flex;gap:12px",
    "button": "flex:1;height:44px;border-radius:6px;font-size:16px;font-weight:700;"
    "cursor:pointer;border:1px solid #E3E7EF;background:#FFFFFF;color:#111827",
    "button.allow": "background:#933109;border-color:#933109;color:white",
    "button:focus-visible": "outline:3px solid #FF5A1F;outline-offset:2px",
}
STYLE_SHEET = "".join(f"{selector}{{{rules}}}" for selector, rules in _STYLE.items())


def _page(title: str, body: str, status_code: int = 200) -> HTMLResponse:
    """A plain server-rendered page: it belongs to the "other" site."""
    document = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE_SHEET}</style></head>"
        f"<body><main>{body}</main></body></html>"
    )
    return HTMLResponse(document, status_code=status_code)


def _invalid_request_page(network: str, error: str) -> HTMLResponse:
    name = html.escape(wire.NETWORK_NAMES.get(network, "Demo provider"))
    body = (
        f'<span class="badge">{name} · demo</span><h1>This request is not valid</h1>'
        f'<p id="provider-error">{html.escape(error)}</p>'
    )
    return _page("Invalid request", body, 400)


def _refusal(network: str, response_type: str, client_id: str, redirect_uri: str) -> HTMLResponse | None:
    """An error page for a request that must not be answered with a redirect (RFC 6749 section 4.1.2.1)."""
    try:
        if response_type != "code":
            raise ProviderError("unsupported_response_type")
        _check_client(network, client_id[:FIELD_MAX])
        _check_redirect(network, redirect_uri[:FIELD_MAX])
    except ProviderError as exc:
        return _invalid_request_page(network, exc.error)
    return None


@router.get("/{network}/authorize", response_class=HTMLResponse)
def authorize_page(
    network: str,
    client_id: str = "",
    redirect_uri: str = "",
    response_type: str = "",
    state: str = "",
    scope: str = "",
) -> Response:
    if not _served(network) or network in PASSWORD_GRANT_NETWORKS:
        return Response(status_code=404)
    if refusal := _refusal(network, response_type, client_id, redirect_uri):
        return refusal
    name = html.escape(wire.NETWORK_NAMES[network])
    site = html.escape(settings.site_name)
    hidden = "".join(
        f'<input type="hidden" name="{key}" value="{html.escape(value[:FIELD_MAX])}">'
        for key, value in (
            ("response_type", response_type),
            ("client_id", client_id),
            ("redirect_uri", redirect_uri),
            ("state", state),
            ("scope", scope),
        )
    )
    body = f"""<span class="badge">{name} · demo</span>
<h1 id="consent-question">Allow {site} to connect to {name}?</h1>
<p>Signed in to {name} as {html.escape(DEMO_ATHLETE["name"])}. {site} will be able to read your rides.</p>
<form method="post" class="actions">{hidden}
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
<button type="submit" name="decision" value="allow" id="allow" class="allow" autofocus>Allow</button>
</form>"""
    return _page(f"Connect to {wire.NETWORK_NAMES[network]}", body)


@router.post("/{network}/authorize")
def authorize_decision(
    network: str,
    decision: Annotated[str, Form()] = "",
    response_type: Annotated[str, Form()] = "",
    client_id: Annotated[str, Form()] = "",
    redirect_uri: Annotated[str, Form()] = "",
    state: Annotated[str, Form()] = "",
) -> Response:
    if not _served(network) or network in PASSWORD_GRANT_NETWORKS:
        return Response(status_code=404)
    if refusal := _refusal(network, response_type, client_id, redirect_uri):
        return refusal
    if decision == "allow":
        code = _sign(
            "code",
            network,
            CODE_SECONDS,
            cid=client_id,
            ruri=redirect_uri,
            sub=DEMO_ATHLETE["username"],
            jti=secrets.token_urlsafe(12),
        )
        answer = {"code": code}
    else:
        answer = {"error": "access_denied", "error_description": "The user denied the request"}
    if state:
        answer["state"] = state[:FIELD_MAX]
    return RedirectResponse(f"{redirect_uri}?{urlencode(answer)}", status_code=303)


def _use_code(jti: str, expires: float) -> bool:
    """Single use within this worker; expired entries are forgotten."""
    now = time.time()
    for used, until in list(_used_codes.items()):
        if until < now:
            _used_codes.pop(used, None)
    if jti in _used_codes:
        return False
    _used_codes[jti] = expires
    return True


def _client_credentials(request: Request, form: dict) -> tuple[str, str]:
    """client_secret_basic or client_secret_post, as the client chose."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "basic":
        try:
            client_id, _, client_secret = base64.b64decode(value, validate=True).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError) as exc:
            raise ProviderError("invalid_client", 401) from exc
        return client_id, client_secret
    return form.get("client_id", ""), form.get("client_secret", "")


def _grant(network: str, client_id: str, form: dict) -> str:
    """The demo username the grant opens; ProviderError says why not."""
    grant_type = form.get("grant_type", "")
    if network in PASSWORD_GRANT_NETWORKS:
        if grant_type != "password":
            raise ProviderError("unsupported_grant_type")
        username = form.get("username", "").strip()
        if not username or form.get("password", "") != XERT_DEMO_PASSWORD:
            raise ProviderError("invalid_grant")
        return username[:100]
    if grant_type != "authorization_code":
        raise ProviderError("unsupported_grant_type")
    claims = _read(form.get("code", ""), "code", network)
    if claims is None or claims.get("cid") != client_id or claims.get("ruri") != form.get("redirect_uri", ""):
        raise ProviderError("invalid_grant")
    if not _use_code(str(claims.get("jti", "")), float(claims["exp"])):
        raise ProviderError("invalid_grant")
    return str(claims.get("sub", ""))


@router.post("/{network}/token")
async def token(network: str, request: Request) -> Response:
    if not _served(network):
        return Response(status_code=404)
    try:
        form = {key: str(value)[:FIELD_MAX] for key, value in (await request.form()).items()}
        client_id, client_secret = _client_credentials(request, form)
        _check_client(network, client_id, client_secret)
        username = _grant(network, client_id, form)
    except ProviderError as exc:
        return JSONResponse({"error": exc.error}, status_code=exc.status_code)
    access_token = _sign("access", network, ACCESS_SECONDS, sub=username, jti=secrets.token_urlsafe(12))
    answer = {
        "token_type": "Bearer",
        "access_token": access_token,
        "refresh_token": secrets.token_urlsafe(32),
        "expires_in": ACCESS_SECONDS,
    }
    return JSONResponse(answer, headers={"cache-control": "no-store"})


@router.get("/{network}/me")
def profile(network: str, request: Request) -> Response:
    if not _served(network):
        return Response(status_code=404)
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    claims = _read(value.strip(), "access", network) if scheme.lower() == "bearer" else None
    if claims is None:
        return JSONResponse({"error": "invalid_token"}, status_code=401)
    username = str(claims.get("sub", ""))
    if username == DEMO_ATHLETE["username"]:
        return JSONResponse(DEMO_ATHLETE)
    return JSONResponse({"username": username})


def install(app: FastAPI) -> None:
    """Serves the demo provider from `app`."""
    if not getattr(app.state, "demo_oauth_provider", False):
        app.include_router(router)
        app.state.demo_oauth_provider = True
