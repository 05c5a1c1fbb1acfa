"""What browsers may keep and what crawlers may read: the caching policy of the built frontend as Reflex
serves it in production, and /robots.txt."""

from urllib.robotparser import RobotFileParser

import pytest
from fastapi.testclient import TestClient
from reflex.utils.precompressed_staticfiles import PrecompressedStaticFiles
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route

from cycling_site.api import middleware
from cycling_site.api.main import api
from cycling_site.api.middleware import SiteMiddleware

YEAR_IMMUTABLE = "public, max-age=31536000, immutable"


@pytest.fixture
def frontend(tmp_path, monkeypatch):
    """A production build as Reflex serves it (hashed files under /assets/, pages, unhashed images)
    behind the site's middleware."""
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "root-32P1ywdx.js").write_text("export const a = 1;")
    (tmp_path / "assets" / "__reflex_global_styles-DLuAzH_-.css").write_text("body{}")
    (tmp_path / "assets" / "notes.txt").write_text("no hash in this name")
    (tmp_path / "index.html").write_text("<!DOCTYPE html><html><body>Events</body></html>")
    (tmp_path / "favicon.svg").write_text("<svg/>")
    monkeypatch.setattr(middleware, "BUILD_DIR", tmp_path / "missing")
    monkeypatch.setattr(middleware, "_read_from_build", {})

    async def private(_request):
        return PlainTextResponse("mine", headers={"Cache-Control": "private, no-store"})

    app = Starlette(
        routes=[
            Route("/api/mine", private),
            Mount("/", app=PrecompressedStaticFiles(directory=tmp_path, html=True)),
        ]
    )
    return TestClient(SiteMiddleware(app))


@pytest.mark.parametrize("path", ["/assets/root-32P1ywdx.js", "/assets/__reflex_global_styles-DLuAzH_-.css"])
def test_hashed_build_files_are_kept_for_a_year_without_asking(frontend, path):
    first = frontend.get(path)
    assert first.status_code == 200
    assert first.headers["cache-control"] == YEAR_IMMUTABLE
    again = frontend.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.headers["cache-control"] == YEAR_IMMUTABLE


@pytest.mark.parametrize("path", ["/", "/favicon.svg", "/assets/notes.txt"])
def test_pages_and_unhashed_files_are_revalidated(frontend, path):
    first = frontend.get(path)
    assert first.status_code == 200
    assert first.headers["cache-control"] == "no-cache"
    again = frontend.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304


def test_a_missing_hashed_name_is_not_kept(frontend):
    response = frontend.get("/assets/gone-AAAAAAAA.js")
    assert response.status_code == 404
    assert response.headers["cache-control"] == "no-cache"


def test_an_answers_own_policy_is_kept(frontend):
    assert frontend.get("/api/mine").headers["cache-control"] == "private, no-store"


def _robots() -> RobotFileParser:
    response = TestClient(SiteMiddleware(api)).get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    parser = RobotFileParser()
    parser.parse(response.text.splitlines())
    return parser


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/events",
        "/event/detail/1",
        "/support",
        "/faqs",
        "/teams",
        "/auth/login",
        "/article/first-ride",
        "/user/activities",
        "/wallet",
    ],
)
def test_robots_lets_crawlers_read_every_page(path):
    assert _robots().can_fetch("*", path)


@pytest.mark.parametrize("path", ["/api/docs", "/api/events", "/dev/mailbox", "/_upload/x"])
def test_robots_keeps_crawlers_out_of_what_is_not_a_page(path):
    assert not _robots().can_fetch("*", path)
