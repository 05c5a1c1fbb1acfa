"""The embedded content service: the content site's API (pages, articles, FAQs, settings, menus, site
info) over the repository's `content/` folder, for a site with no CONTENT_SERVICE_URL.

Every request needs the API key header. Answers are JSON, errors included: 401 without the key, 404 for
an unknown slug, 503 for a content file that cannot be read (never a 500).
"""

import hmac
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Request
from fastapi.responses import JSONResponse

from cycling_site.embedded.content import texts as msg
from cycling_site.embedded.content.store import ContentFolder, NotFound, Unreadable
from cycling_site.settings import PROJECT_ROOT, settings
from cycling_site.wire import content as wire

CONTENT_ROOT = PROJECT_ROOT / "content"
_UNREADABLE = (Unreadable, KeyError, TypeError, ValueError, AttributeError)


def _refusal(status_code: int, message: str) -> JSONResponse:
    return JSONResponse({"status": False, "message": message}, status_code=status_code)


class _Refused(Exception):
    def __init__(self, status_code: int, message: str):
        self.status_code, self.message = status_code, message


def _folder(
    request: Request, api_key: Annotated[str, Header(alias=wire.API_KEY_HEADER)] = ""
) -> ContentFolder:
    if not hmac.compare_digest(api_key.encode(), settings.content_service_key.encode()):
        raise _Refused(401, msg.UNAUTHORISED)
    return request.app.state.content_folder


Folder = Annotated[ContentFolder, Depends(_folder)]
router = APIRouter(prefix=wire.EMBEDDED_PREFIX, include_in_schema=False)


def _answer(read: Callable[[], Any], envelope: bool = True) -> JSONResponse:
    try:
        data = read()
    except NotFound:
        return _refusal(404, msg.NOT_FOUND)
    except _UNREADABLE:
        return _refusal(503, msg.UNREADABLE)
    return JSONResponse({"status": True, "data": data} if envelope else data)


@router.get("/" + wire.ARTICLE)
def article(slug: str, folder: Folder) -> JSONResponse:
    return _answer(lambda: folder.article(slug))


@router.get("/" + wire.FAQS)
def faqs(folder: Folder) -> JSONResponse:
    return _answer(folder.faqs)


@router.get("/" + wire.PAGE)
@router.post("/" + wire.PAGE)
def page(slug: str, folder: Folder) -> JSONResponse:
    """POST answers the same data: the contact page asks for its data that way (spec 2 section 7)."""
    return _answer(lambda: folder.page(slug))


@router.get("/" + wire.SETTING)
def setting(folder: Folder) -> JSONResponse:
    return _answer(folder.settings)


@router.get("/" + wire.MENUS)
def menus(folder: Folder) -> JSONResponse:
    return _answer(lambda: {"menus": folder.menus()}, envelope=False)


@router.get("/" + wire.SITE_INFO)
def site_info(folder: Folder) -> JSONResponse:
    return _answer(folder.site_info, envelope=False)


def install(app: FastAPI, root: Path = CONTENT_ROOT) -> None:
    """Serves the content service from `app`, reading the content folder at `root`."""
    if not getattr(app.state, "content_service", False):
        app.include_router(router)
        app.add_exception_handler(_Refused, lambda _request, exc: _refusal(exc.status_code, exc.message))
        app.state.content_service = True
    app.state.content_folder = ContentFolder(root)
