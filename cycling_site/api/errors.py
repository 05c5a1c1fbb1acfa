"""Every error answers JSON in one shape: status false, a message, and errors per field."""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException

from cycling_site.messages import site as site_msg
from cycling_site.services.codes import CodeError
from cycling_site.services.validation import FormErrors, TooManyAttempts


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
    return error_response(exc.status_code, str(exc.detail))


async def _form_errors(_request: Request, exc: FormErrors) -> JSONResponse:
    status_code = 429 if isinstance(exc, TooManyAttempts) else 400
    return error_response(status_code, next(iter(exc.errors.values())), exc.errors)


async def _bad_data(_request: Request, _exc: DataError) -> JSONResponse:
    """The database refused a value (for example a NUL character on PostgreSQL): bad input, not a crash."""
    return error_response(400, site_msg.BAD_REQUEST)


async def _code_error(_request: Request, exc: CodeError) -> JSONResponse:
    return error_response(400, str(exc))


def install_error_handlers(api: FastAPI) -> None:
    api.add_exception_handler(CodeError, _code_error)
    api.add_exception_handler(DataError, _bad_data)
    api.add_exception_handler(RequestValidationError, _validation_error)
    api.add_exception_handler(StarletteHTTPException, _http_error)
    api.add_exception_handler(FormErrors, _form_errors)
