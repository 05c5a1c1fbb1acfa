"""The built frontend's pages and files, served on the event loop; the public pages with their first screen
(cycling_site/api/first_screen.py).

Starlette's file server looks each file up and reads it in worker threads: the DB_THREADS few that database
work runs in too. While they all waited on a locked database, `GET /` waited with them (31 s with SQLite's
30 s busy timeout). A page or a file needs no database: its lookup is a stat and its read comes from the page
cache, each shorter than the hop to a thread would be.
"""

import gzip
import os
import re
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import BinaryIO

from reflex.utils.precompressed_staticfiles import PrecompressedStaticFiles
from starlette.datastructures import URL, Headers
from starlette.exceptions import HTTPException
from starlette.requests import cookie_parser
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

from cycling_site.api import first_screen
from cycling_site.api.caching import etag_of, held
from cycling_site.routes import requires_login
from cycling_site.services import tokens


class _ReadsOnLoop:
    """A file read in the event loop, with the calls FileResponse makes."""

    def __init__(self, file: BinaryIO) -> None:
        self._file = file

    async def read(self, size: int) -> bytes:
        return self._file.read(size)

    async def seek(self, offset: int) -> int:
        return self._file.seek(offset)


class _FileReadOnLoop(FileResponse):
    @asynccontextmanager
    async def _open_file(self) -> AsyncIterator[_ReadsOnLoop]:
        with open(self.path, "rb") as file:
            yield _ReadsOnLoop(file)


class _LookupsOnLoop(StaticFiles):
    """Starlette's lookups (the folder served, the file, a folder's index.html, the 404 page) without a worker
    thread."""

    async def check_config(self) -> None:
        if self.directory is not None and not os.path.isdir(self.directory):
            raise RuntimeError(f"StaticFiles directory '{self.directory}' is not a directory.")

    def _lookup(self, path: str) -> tuple[str, os.stat_result | None]:
        try:
            return self.lookup_path(path)
        except PermissionError:
            raise HTTPException(status_code=401) from None
        except (OSError, ValueError):
            # A name too long or with a NUL byte cannot be a built file.
            raise HTTPException(status_code=404) from None

    async def get_response(self, path: str, scope: Scope) -> Response:
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(status_code=405, headers={"Allow": "GET, HEAD"})
        full_path, found = self._lookup(path)
        if found and stat.S_ISREG(found.st_mode):
            return self.file_response(full_path, found, scope)
        if found and stat.S_ISDIR(found.st_mode) and self.html:
            full_path, found = self._lookup(os.path.join(path, "index.html"))
            if found is not None and stat.S_ISREG(found.st_mode):
                if not scope["path"].endswith("/"):
                    url = URL(scope=scope)
                    return RedirectResponse(url=url.replace(path=url.path + "/"))
                return self.file_response(full_path, found, scope)
        if self.html:
            full_path, found = self._lookup("404.html")
            if found and stat.S_ISREG(found.st_mode):
                return _FileReadOnLoop(full_path, stat_result=found, status_code=404)
        raise HTTPException(status_code=404)


# Each public page as last sent, per snapshot: the snapshot, the built page's time, the page and its gzip.
_with_snapshot: dict[str, tuple[first_screen.FirstScreen, float, bytes, bytes]] = {}
# Each public page without a snapshot, by its built file: the file's time, the page and its gzip.
_drawn: dict[str, tuple[float, bytes, bytes]] = {}


# The compressed copies Reflex's build keeps beside each file.
_SIDECAR = re.compile(r"\.(br|gz|zst)$")


def _accepts_gzip(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == b"accept-encoding":
            return any(part.split(b";")[0].strip() == b"gzip" for part in value.lower().split(b","))
    return False


def _session_cookies(scope: Scope) -> tuple[str, str]:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            cookies = cookie_parser(value.decode("latin-1"))
            return cookies.get(tokens.TOKEN_COOKIE, ""), cookies.get(tokens.USER_ID_COOKIE, "")
    return "", ""


def _page_answer(body: bytes, compressed: bytes, scope: Scope, private: bool) -> Response:
    """A page made for this answer: gzip for a browser that takes it, 304 for one that holds it. A page with
    the rider's badge is theirs: no shared cache keeps it."""
    headers = {"ETag": etag_of(body), "Vary": "Accept-Encoding, Cookie" if private else "Accept-Encoding"}
    if private:
        headers["Cache-Control"] = "private, no-cache"
    if _accepts_gzip(scope):
        headers["Content-Encoding"] = "gzip"
        body = compressed
    if held(Headers(scope=scope).get("if-none-match", ""), headers["ETag"]):
        return NotModifiedResponse(Headers(headers=headers))
    return Response(b"" if scope["method"] == "HEAD" else body, media_type="text/html", headers=headers)


class BuiltFiles(PrecompressedStaticFiles, _LookupsOnLoop):
    """Reflex's server of the built frontend (compressed copies, pages of dynamic routes) with its lookups
    and reads on the event loop, and the public pages with their first screen."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if scope["method"] not in ("GET", "HEAD") or "." in scope["path"].rsplit("/", 1)[-1]:
            return await super().get_response(path, scope)
        badge = await first_screen.rider(*_session_cookies(scope))
        page = first_screen.served(scope["path"])
        if page is not None:
            answer = await self._with_first_screen(page, badge, scope)
            if answer is not None:
                return answer
        response = await super().get_response(path, scope)
        if response.status_code != 200 or not isinstance(response, FileResponse):
            return response
        built = _SIDECAR.sub("", os.fspath(response.path))
        public = not requires_login(scope["path"])
        if not built.endswith(".html") or (badge is None and not public):
            return response
        if badge is not None:
            with open(built, encoding="utf-8") as page_file:
                body = first_screen.with_first_screen(page_file.read(), None, badge).encode()
            return _page_answer(body, gzip.compress(body, 6), scope, private=True)
        modified = os.stat(built).st_mtime
        kept = _drawn.get(built)
        if kept is None or kept[0] != modified:
            with open(built, encoding="utf-8") as page_file:
                body = first_screen.with_first_screen(page_file.read(), None).encode()
            kept = _drawn[built] = (modified, body, gzip.compress(body, 6))
        return _page_answer(kept[1], kept[2], scope, private=False)

    async def _with_first_screen(
        self, page: first_screen.Served, badge: str | None, scope: Scope
    ) -> Response | None:
        """The built page with its snapshot (and the rider's badge); None (the page as built) while the build
        or the snapshot is missing."""
        folder = page.template.strip("/")
        full_path, found = self._lookup(f"{folder}/index.html" if folder else "index.html")
        if found is None or not stat.S_ISREG(found.st_mode):
            return None
        screen = await first_screen.snapshot(page)
        if screen is None:
            return None
        if badge is not None:
            with open(full_path, encoding="utf-8") as built:
                body = first_screen.with_first_screen(built.read(), screen, badge).encode()
            return _page_answer(body, gzip.compress(body, 6), scope, private=True)
        kept = _with_snapshot.get(page.key)
        if kept is None or kept[0] is not screen or kept[1] != found.st_mtime:
            with open(full_path, encoding="utf-8") as built:
                body = first_screen.with_first_screen(built.read(), screen).encode()
            kept = _with_snapshot[page.key] = (screen, found.st_mtime, body, gzip.compress(body, 6))
        return _page_answer(kept[2], kept[3], scope, private=False)

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        if type(response) is FileResponse:
            # Reflex builds a plain FileResponse; the same answer, read without a thread.
            response.__class__ = _FileReadOnLoop
        return response


def serve_built_files_on_loop(routes: list) -> None:
    """Reflex's mount of the built frontend, among `routes`, serves with `BuiltFiles` instead."""
    for route in routes:
        if isinstance(route, Mount) and type(route.app) is PrecompressedStaticFiles:
            route.app.__class__ = BuiltFiles
