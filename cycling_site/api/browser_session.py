"""The site's own session cookies: set, ended and cleared only by HTTP responses, so they can be HttpOnly.

The pages' live connection reads them from its handshake headers and can never write them; a sign-in on the
sign-in page hands the browser a single-use handle that it posts here for the cookies.
"""

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from cycling_site.api.deps import DB
from cycling_site.api.errors import documented
from cycling_site.routes import path_of
from cycling_site.services import accounts, tokens
from cycling_site.services.validation import internal_path
from cycling_site.settings import settings

router = APIRouter(prefix="/auth/session", tags=["browser session"])

HANDLE_MAX = 4096


def _redirect(description: str) -> dict:
    return {303: {"description": description, "headers": {"Location": {"schema": {"type": "string"}}}}}


def _secure(request: Request) -> bool:
    """Secure whenever the site is served over https, and always in production."""
    return (
        settings.cookie_secure
        or settings.app_env == "production"
        or settings.site_url.startswith("https://")
        or request.url.scheme == "https"
    )


def _cookie_options(request: Request) -> dict:
    return {
        "path": "/",
        "domain": settings.cookie_domain or None,
        "secure": _secure(request),
        "httponly": True,
        "samesite": "lax",
    }


def _clear(response: Response, request: Request) -> None:
    for name in (tokens.TOKEN_COOKIE, tokens.USER_ID_COOKIE):
        response.delete_cookie(name, **_cookie_options(request))


def _browser_session(request: Request, session: DB) -> tokens.SessionCheck:
    token = request.cookies.get(tokens.TOKEN_COOKIE, "")
    user_id = request.cookies.get(tokens.USER_ID_COOKIE, "")
    if not token or not user_id:
        return tokens.SessionCheck("missing")
    return tokens.check_session(session, token, user_id)


@router.post(
    "",
    status_code=303,
    response_class=RedirectResponse,
    responses={
        **_redirect(
            "To where the sign-in page said, with the session cookies; to SIGN IN when the handle is used up"
        ),
        **documented(400, 403, 413, 503),
    },
)
def start(
    request: Request, session: DB, handle: Annotated[str, Form(max_length=HANDLE_MAX)] = ""
) -> RedirectResponse:
    """Turns a sign-in handle into the two session cookies and goes where the sign-in page said.

    Without "Stay signed in" the cookies end with the browser (the token itself after 12 hours)."""
    sign_in = tokens.redeem_sign_in(session, handle)
    if sign_in is None:
        return RedirectResponse(f"{path_of('login')}?reason=session_expired", status_code=303)
    response = RedirectResponse(sign_in.destination or "/", status_code=303)
    max_age = int(tokens.session_lifetime(True).total_seconds()) if sign_in.remember else None
    options = _cookie_options(request)
    response.set_cookie(tokens.TOKEN_COOKIE, sign_in.issued.token, max_age=max_age, **options)
    response.set_cookie(tokens.USER_ID_COOKIE, sign_in.account.uuid, max_age=max_age, **options)
    return response


@router.post(
    "/end",
    status_code=303,
    response_class=RedirectResponse,
    responses={
        **_redirect("To `next` (a path of the site) or SIGN IN, the cookies removed"),
        **documented(400, 403, 413, 503),
    },
)
def end(
    request: Request, session: DB, next: Annotated[str, Form(max_length=HANDLE_MAX)] = ""
) -> RedirectResponse:
    """Signs out: the token is revoked and both cookies are removed."""
    token = request.cookies.get(tokens.TOKEN_COOKIE, "")
    if token:
        accounts.logout(session, token)
    response = RedirectResponse(internal_path(next) or path_of("login"), status_code=303)
    _clear(response, request)
    return response


@router.post(
    "/clear",
    status_code=204,
    response_class=Response,
    responses={204: {"description": "Done: stale cookies removed"}, **documented(403, 413, 503)},
)
def clear(request: Request, session: DB) -> Response:
    """Removes cookies that no longer make a session (expired, revoked, one of the two missing).

    A live session is left alone, so no other site can sign a rider out through this."""
    response = Response(status_code=204)
    if _browser_session(request, session).status != "ok":
        _clear(response, request)
    return response
