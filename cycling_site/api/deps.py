"""Request dependencies: a database session and the signed-in account."""

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from sqlmodel import Session

from cycling_site.db import get_session
from cycling_site.messages import accounts as msg
from cycling_site.models import Account
from cycling_site.services import tokens

TOKEN_COOKIE = "rider_token"
USER_ID_COOKIE = "rider_id"


def db() -> Iterator[Session]:
    with get_session() as session:
        yield session


DB = Annotated[Session, Depends(db)]


def request_token(request: Request) -> str:
    """The bearer token, or the session cookie the site sets."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.cookies.get(TOKEN_COOKIE, "")


def current_account(request: Request, session: DB) -> Account:
    check = tokens.check_session(session, request_token(request))
    if check.account is None:
        raise HTTPException(status_code=401, detail=msg.SESSION_EXPIRED)
    return check.account


CurrentAccount = Annotated[Account, Depends(current_account)]
