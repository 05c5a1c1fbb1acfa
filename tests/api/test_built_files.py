"""The built frontend's pages and files answer while every worker thread is taken (by database work waiting
on a lock, say): they are served without one, with the same answers Reflex's file server gives."""

import gzip
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import anyio
import httpx
import pytest
from reflex.utils.precompressed_staticfiles import PrecompressedStaticFiles
from starlette.applications import Starlette
from starlette.routing import Mount

from cycling_site.api import first_screen
from cycling_site.api.built_files import serve_built_files_on_loop
from cycling_site.bundling import EVENT_TEMPLATE_PATH
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event
from cycling_site.services import tokens

pytestmark = pytest.mark.anyio
PAGE = b"<!doctype html><title>Events</title>"
SCRIPT = b"console.log('ride');" * 200
UNCOMPRESSED = {"accept-encoding": "identity"}


@pytest.fixture
def build(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_bytes(PAGE)
    (tmp_path / "404.html").write_bytes(b"<!doctype html><title>Not found</title>")
    (tmp_path / "events").mkdir()
    (tmp_path / "events" / "index.html").write_bytes(PAGE)
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "app-Ab12Cd34.js").write_bytes(SCRIPT)
    (tmp_path / "assets" / "app-Ab12Cd34.js.gz").write_bytes(gzip.compress(SCRIPT))
    return tmp_path


@pytest.fixture
async def client(build: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The site's wiring over Reflex's mount of a build."""
    files = PrecompressedStaticFiles(directory=build, html=True, encodings=["gzip"])
    app = Starlette(routes=[Mount("/", app=files, name="frontend")])
    serve_built_files_on_loop(app.routes)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://site") as site:
        yield site


@pytest.fixture
async def threads_taken() -> AsyncIterator[None]:
    """Every worker thread of the loop busy, as while database work waits on a lock."""
    limiter = anyio.to_thread.current_default_thread_limiter()
    total = limiter.total_tokens
    limiter.total_tokens = 1
    database_work = object()
    await limiter.acquire_on_behalf_of(database_work)
    try:
        yield
    finally:
        limiter.release_on_behalf_of(database_work)
        limiter.total_tokens = total


@pytest.mark.usefixtures("threads_taken")
async def test_pages_and_files_answer_while_every_worker_thread_is_taken(client):
    with anyio.fail_after(2):
        page = await client.get("/")
        events = await client.get("/events/")
        script = await client.get("/assets/app-Ab12Cd34.js", headers={"accept-encoding": "gzip"})
        head = await client.head("/assets/app-Ab12Cd34.js", headers=UNCOMPRESSED)
        missing = await client.get("/no-such-page/")
        partial = await client.get("/assets/app-Ab12Cd34.js", headers={"range": "bytes=0-10", **UNCOMPRESSED})
    assert (page.status_code, page.content) == (200, PAGE)
    assert (events.status_code, events.content) == (200, PAGE)
    assert (script.status_code, script.headers["content-encoding"], script.content) == (200, "gzip", SCRIPT)
    assert (head.status_code, head.headers["content-length"], head.content) == (200, str(len(SCRIPT)), b"")
    assert missing.status_code == 404 and b"Not found" in missing.content
    assert (partial.status_code, partial.content) == (206, SCRIPT[:11])


@pytest.mark.usefixtures("threads_taken")
async def test_an_unchanged_file_is_answered_304_and_a_folder_without_its_slash_is_redirected(client):
    with anyio.fail_after(2):
        first = await client.get("/")
        again = await client.get("/", headers={"if-none-match": first.headers["etag"]})
        folder = await client.get("/events")
    assert again.status_code == 304
    assert (folder.status_code, folder.headers["location"]) == (307, "http://site/events/")


SLOT = '<div id="first-screen" class="rx-Html"></div>'
RIDER_SLOT = '<div id="rider-first-screen" class="rx-Html"></div>'
BUILT_EVENT_PAGE = (
    '<!doctype html><title>Event · Site</title><meta content="A race." name="description"/>'
    f"<main>{SLOT}<p>Loading the event...</p></main>"
)


@pytest.fixture
def public_pages(build: Path, session) -> Path:
    """A build whose events list and event page have the first screen's slot, and a fresh database."""
    first_screen.forget()
    (build / "index.html").write_text(f"<!doctype html><title>Events</title><main>{SLOT}</main>")
    template = build / EVENT_TEMPLATE_PATH.strip("/")
    template.mkdir(parents=True)
    (template / "index.html").write_text(BUILT_EVENT_PAGE)
    yield build
    first_screen.forget()


def _stored_event(session, name: str) -> Event:
    event = Event(name=name, starts_at=utcnow() + timedelta(days=3), closes_at=utcnow() + timedelta(days=2))
    session.add(event)
    session.commit()
    session.refresh(event)
    return event


@pytest.mark.usefixtures("public_pages")
async def test_the_events_page_is_served_with_the_events_in_it(client, session):
    _stored_event(session, "Jebel Jais <Classic>")
    page = await client.get("/", headers=UNCOMPRESSED)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Jebel Jais &lt;Classic&gt;" in page.text
    again = await client.get("/", headers={"if-none-match": page.headers["etag"]})
    assert again.status_code == 304
    compressed = await client.get("/", headers={"accept-encoding": "gzip, br"})
    assert compressed.headers["content-encoding"] == "gzip" and compressed.text == page.text


@pytest.mark.usefixtures("public_pages")
async def test_an_events_page_is_served_with_its_title_description_and_content(client, session):
    event = _stored_event(session, "Night Sprint")
    page = await client.get(f"/event/detail/{event.id}", headers=UNCOMPRESSED)
    assert page.status_code == 200
    assert "<title>Night Sprint · " in page.text
    assert '<meta content="Night Sprint, ' in page.text
    assert "<h1>Night Sprint</h1>" in page.text
    head = await client.head(f"/event/detail/{event.id}", headers=UNCOMPRESSED)
    assert (head.status_code, head.content) == (200, b"")


@pytest.fixture
def rider_cookies(public_pages: Path, session, make_account) -> dict[str, str]:
    """A build with the header's rider slot on a signed-in page, and a signed-in rider's cookies."""
    (public_pages / "wallet").mkdir()
    (public_pages / "wallet" / "index.html").write_text(f"<header>{RIDER_SLOT}</header><main>{SLOT}</main>")
    (public_pages / "index.html").write_text(f"<header>{RIDER_SLOT}</header><main>{SLOT}</main>")
    account = make_account()
    token = tokens.issue_session_token(account, True).token
    return {tokens.TOKEN_COOKIE: token, tokens.USER_ID_COOKIE: account.uuid}


def _cookie_header(cookies: dict[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


async def test_a_signed_in_riders_pages_come_with_their_initial_in_the_header_for_them_alone(
    client, rider_cookies, session
):
    _stored_event(session, "Night Sprint")
    for path in ("/wallet/", "/"):
        page = await client.get(path, headers={**UNCOMPRESSED, "cookie": _cookie_header(rider_cookies)})
        assert f'{RIDER_SLOT[:-6]}<span class="fs-avatar">L</span></div>' in page.text, path
        assert page.headers["cache-control"] == "private, no-cache"
        assert "Cookie" in page.headers["vary"]
    assert "Night Sprint" in page.text
    forged = {**rider_cookies, tokens.USER_ID_COOKIE: "someone-else"}
    for cookies in (forged, {}):
        page = await client.get("/wallet/", headers={**UNCOMPRESSED, "cookie": _cookie_header(cookies)})
        assert "fs-avatar" not in page.text


async def test_pages_drawn_by_the_build_paint_before_their_scripts(client, build: Path, rider_cookies):
    """The sign-in form, and a signed-in rider's page frame, are in their built HTML: without the scripts'
    preloads the stylesheet comes first."""
    preload = '<link rel="modulepreload" href="/assets/app-Ab12Cd34.js"/>'
    (build / "auth" / "login").mkdir(parents=True)
    (build / "auth" / "login" / "index.html").write_text(f"<head>{preload}</head><form>Sign in</form>")
    (build / "wallet" / "index.html").write_text(f"<head>{preload}</head><header>{RIDER_SLOT}</header>")
    login = await client.get("/auth/login/", headers=UNCOMPRESSED)
    assert (login.status_code, login.text) == (200, "<head></head><form>Sign in</form>")
    again = await client.get("/auth/login/", headers={"if-none-match": login.headers["etag"]})
    assert again.status_code == 304
    compressed = await client.get("/auth/login/", headers={"accept-encoding": "gzip"})
    assert compressed.headers["content-encoding"] == "gzip" and compressed.text == login.text
    signed_in = {**UNCOMPRESSED, "cookie": _cookie_header(rider_cookies)}
    assert "modulepreload" not in (await client.get("/auth/login/", headers=signed_in)).text
    wallet = (await client.get("/wallet/", headers=signed_in)).text
    assert wallet == f'<head></head><header>{RIDER_SLOT[:-6]}<span class="fs-avatar">L</span></div></header>'
    # Without a session the page only sends the visitor to sign in: it goes as built.
    assert preload in (await client.get("/wallet/", headers=UNCOMPRESSED)).text
