"""Every error answers JSON in one shape: status false, a message, and errors per field.

`documented(...)` puts the error answers an operation can give in its OpenAPI `responses`, all with that one
shape; FastAPI's default 422 is never documented, since validation errors answer 400 here.
"""

import logging
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema
from sqlalchemy.exc import DataError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from cycling_site.db import database_busy
from cycling_site.messages import race_control as race_control_msg
from cycling_site.messages import shop as shop_msg
from cycling_site.messages import site as site_msg
from cycling_site.services.codes import CodeError, CodeLimit
from cycling_site.services.race_control import NotReviewer, ReviewRefused
from cycling_site.services.shop import ShopClosed
from cycling_site.services.validation import FormErrors

RETRY_AFTER_SECONDS = 2

_log = logging.getLogger(__name__)


class ErrorBody(BaseModel):
    """The one shape of every error answer."""

    status: Literal[False]
    message: str = Field(description="What went wrong, to show the caller")
    errors: dict[str, list[str]] | SkipJsonSchema[None] = Field(
        default=None,
        description="Messages per field of the request; absent when the error is not about a field",
    )


_RETRY_AFTER_HEADER = {
    "Retry-After": {"description": "Seconds to wait before trying again", "schema": {"type": "integer"}}
}
ERROR_ANSWERS: dict[int, dict[str, Any]] = {
    400: {"description": "Bad input: a malformed request, or values the rules refuse (messages per field)"},
    401: {
        "description": "No valid session: the bearer token or session cookie is missing, expired or revoked",
        "headers": {
            "WWW-Authenticate": {"description": "The scheme to sign in with", "schema": {"type": "string"}}
        },
    },
    403: {"description": "Refused: a state-changing request sent by a page of another website"},
    404: {"description": "Not found"},
    413: {"description": "The request body is larger than the site accepts"},
    429: {"description": "Too many attempts or messages: try again later"},
    502: {"description": "The payment provider could not be reached: try again later"},
    503: {
        "description": "The database is busy: try again after Retry-After seconds",
        "headers": _RETRY_AFTER_HEADER,
    },
}


def documented(*status_codes: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of an operation: each error status it can answer, with the error shape."""
    return {code: {"model": ErrorBody, **ERROR_ANSWERS[code]} for code in status_codes}


def error_response(status_code: int, message: str, errors: dict[str, str] | None = None) -> JSONResponse:
    body: dict = {"status": False, "message": message}
    if errors:
        body["errors"] = {field: [text] for field, text in errors.items()}
    return JSONResponse(body, status_code=status_code)


def _field(location: tuple) -> str:
    names = [str(part) for part in location if part not in ("body", "query", "path")]
    return ".".join(names) or "body"


async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
    errors: dict[str, str] = {}
    for error in exc.errors():
        errors.setdefault(_field(tuple(error.get("loc", ()))), str(error.get("msg", "Invalid value")))
    return error_response(400, next(iter(errors.values()), site_msg.BAD_REQUEST), errors)


async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
    response = error_response(exc.status_code, str(exc.detail))
    response.headers.update(exc.headers or {})
    return response


async def _form_errors(_request: Request, exc: FormErrors) -> JSONResponse:
    return error_response(exc.status_code, next(iter(exc.errors.values())), exc.errors)


async def _shop_closed(_request: Request, _exc: ShopClosed) -> JSONResponse:
    return error_response(403, shop_msg.KIDS_NO_SHOP)


async def _review_refused(_request: Request, exc: ReviewRefused) -> JSONResponse:
    if isinstance(exc, NotReviewer):
        return error_response(403, str(exc))
    return error_response(404 if str(exc) == race_control_msg.NOT_FOUND else 400, str(exc))


async def _bad_data(_request: Request, _exc: DataError) -> JSONResponse:
    """The database refused a value (for example a NUL character on PostgreSQL): bad input, not a crash."""
    return error_response(400, site_msg.BAD_REQUEST)


async def _database_error(request: Request, exc: Exception) -> JSONResponse:
    if database_busy(exc):
        response = error_response(503, site_msg.DATABASE_BUSY)
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    _log.error("Database error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, site_msg.SERVER_ERROR)


async def _server_error(_request: Request, _exc: Exception) -> JSONResponse:
    """Anything unexpected still answers JSON, never a plain-text page (Starlette logs the exception)."""
    return error_response(500, site_msg.SERVER_ERROR)


async def _code_error(_request: Request, exc: CodeError) -> JSONResponse:
    return error_response(429 if isinstance(exc, CodeLimit) else 400, str(exc))


def _without_default_422(api: FastAPI) -> None:
    """FastAPI documents a 422 on every operation with parameters; here validation errors answer 400."""
    generate = api.openapi

    def openapi() -> dict[str, Any]:
        if api.openapi_schema is None:
            schema = generate()
            for operations in schema.get("paths", {}).values():
                for operation in operations.values():
                    operation.get("responses", {}).pop("422", None)
            schemas = schema.get("components", {}).get("schemas", {})
            for name in ("HTTPValidationError", "ValidationError"):
                schemas.pop(name, None)
        return api.openapi_schema

    api.openapi = openapi  # type: ignore[method-assign]


def install_error_handlers(api: FastAPI) -> None:
    api.add_exception_handler(CodeError, _code_error)
    api.add_exception_handler(DataError, _bad_data)
    api.add_exception_handler(OperationalError, _database_error)
    api.add_exception_handler(PoolTimeout, _database_error)
    api.add_exception_handler(Exception, _server_error)
    api.add_exception_handler(RequestValidationError, _validation_error)
    api.add_exception_handler(StarletteHTTPException, _http_error)
    api.add_exception_handler(FormErrors, _form_errors)
    api.add_exception_handler(ShopClosed, _shop_closed)
    api.add_exception_handler(ReviewRefused, _review_refused)
    _without_default_422(api)
