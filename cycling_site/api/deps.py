"""Request dependencies: a database session and the signed-in account.

A session is a bearer token (what POST /api/auth/login answers) or the session cookie the site's pages hold;
both are declared as security schemes, so the OpenAPI documents them and /api/docs can authorize.
"""

from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel import Session

from cycling_site.db import session_per_request
from cycling_site.messages import accounts as msg
from cycling_site.models import Account
from cycling_site.services import tokens

BEARER_SCHEME = "bearer"
COOKIE_SCHEME = "sessionCookie"

_bearer = HTTPBearer(
    scheme_name=BEARER_SCHEME,
    auto_error=False,
    description="The token that POST /api/auth/login answers (data.token)",
)
_session_cookie = APIKeyCookie(
    name=tokens.TOKEN_COOKIE,
    scheme_name=COOKIE_SCHEME,
    auto_error=False,
    description="The HttpOnly session cookie the site's pages hold after signing in",
)

# For operations where a session is optional: the `{}` requirement says they also answer without one.
OPTIONAL_SESSION: dict[str, Any] = {"security": [{}]}


DB = Annotated[Session, Depends(session_per_request)]


def request_token(request: Request) -> str:
    """The bearer token, or the session cookie the site sets."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.cookies.get(tokens.TOKEN_COOKIE, "")


async def sent_token(
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    cookie: Annotated[str | None, Depends(_session_cookie)],
) -> str:
    """The session the caller sent, read as `request_token` reads it, through the declared schemes."""
    return bearer.credentials if bearer is not None else cookie or ""


SentToken = Annotated[str, Depends(sent_token)]


def current_account(session: DB, token: SentToken) -> Account:
    check = tokens.check_session(session, token)
    if check.account is None:
        raise HTTPException(
            status_code=401, detail=msg.SESSION_EXPIRED, headers={"WWW-Authenticate": "Bearer"}
        )
    return check.account


def optional_account(session: DB, token: SentToken) -> Account | None:
    """The signed-in account when a valid session is sent, else None (the operation answers all the same).
    Operations using it add OPTIONAL_SESSION to their OpenAPI."""
    return tokens.check_session(session, token).account if token else None


CurrentAccount = Annotated[Account, Depends(current_account)]
MaybeAccount = Annotated[Account | None, Depends(optional_account)]
