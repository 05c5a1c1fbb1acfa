"""The public pages' first screen is in the HTML the server sends: a crawler that runs no script reads the
real events, event, content, FAQs, teams and tracks, and a phone shows them before the live connection
opens. Once it opens, the live page takes over and works."""

import html
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from cycling_site.models.accounts import Account
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event, Track
from cycling_site.services import events, teams
from cycling_site.settings import PROJECT_ROOT, settings
from tests.e2e.conftest import PHONE
from tests.e2e.helpers import RIDER, session_cookies, sign_in, wait_live, wait_signed_in

CONTENT = PROJECT_ROOT / "content"
CONTENT_PAGES = [
    "/support",
    "/terms-and-conditions",
    "/privacy-policy",
    "/about-us",
    "/team-uae",
    "/sunday-race-club",
    "/al-ula",
]
# The page's live connection; refused, the page keeps what the server sent.
LIVE_CONNECTION = re.compile(r"/_event")


def served(site, path: str) -> str:
    """The page's HTML as a crawler reads it: no script run."""
    response = httpx.get(site.url + path, follow_redirects=True)
    assert response.status_code == 200, path
    return response.text


def _front_matter(path: Path, name: str) -> str:
    found = re.search(rf"^{name}: (.+)$", path.read_text(), re.MULTILINE)
    assert found, (path, name)
    return found.group(1).strip()


def test_a_crawler_reads_the_upcoming_and_past_events_on_the_events_page(site, db: Session):
    upcoming = events.upcoming_page(db, 1, 10, utcnow())
    shown = [*upcoming.featured, *upcoming.others, *events.past(db, utcnow())]
    assert len(shown) >= 3
    for path in ("/", "/events", "/home"):
        page = served(site, path)
        for event in shown:
            assert html.escape(event.name) in page, (path, event.name)


def test_a_crawler_reads_each_events_title_description_and_content(site, db: Session):
    for event in db.exec(select(Event).order_by(Event.id).limit(3)).all():
        page = served(site, f"/event/detail/{event.id}")
        assert f"<title>{html.escape(event.name)} · {settings.site_name}</title>" in page
        name = re.escape(html.escape(event.name))
        assert re.search(rf'<meta content="{name}, [^"]{{20,}}" name="description"[^>]*/>', page)
        assert f"<h1>{html.escape(event.name)}</h1>" in page


@pytest.mark.parametrize("path", CONTENT_PAGES)
def test_a_crawler_reads_the_content_pages(site, path: str):
    title = _front_matter(CONTENT / "pages" / f"{path.strip('/')}.md", "title")
    assert f"<h1>{html.escape(title)}</h1>" in served(site, path)


def test_a_crawler_reads_every_question_of_the_faqs(site):
    page = served(site, "/faqs")
    questions = [
        line.removeprefix("## ").strip()
        for topic in sorted((CONTENT / "faqs").glob("*.md"))
        for line in topic.read_text().splitlines()
        if line.startswith("## ")
    ]
    assert len(questions) > 5
    for question in questions:
        assert f"<summary>{html.escape(question)}</summary>" in page


def test_a_crawler_reads_the_teams_and_the_tracks(site, db: Session):
    public = teams.public_teams(db).teams
    assert public
    page = served(site, "/teams")
    for team in public:
        assert f"<h3>{html.escape(team.name)}</h3>" in page
    tracks = db.exec(select(Track)).all()
    assert tracks
    page = served(site, "/routes")
    for track in tracks:
        assert f"<h2>{html.escape(track.title)}</h2>" in page


def test_a_phone_that_runs_no_script_shows_the_real_content_not_the_placeholders(browser, site, db: Session):
    featured = events.upcoming_page(db, 1, 10, utcnow()).featured[0]
    context = browser.new_context(java_script_enabled=False, viewport=PHONE, base_url=site.url)
    page = context.new_page()
    try:
        page.goto("/")
        expect(page.get_by_role("link", name=featured.name)).to_be_visible()
        expect(page.get_by_text("Loading events...")).to_be_hidden()
        page.goto(f"/event/detail/{featured.id}")
        expect(page.get_by_role("heading", name=featured.name, level=1)).to_be_visible()
        expect(page.get_by_text("Loading the event...")).to_be_hidden()
        page.goto("/faqs")
        expect(page.get_by_text("Who can create an account?")).to_be_visible()
        page.goto("/teams")
        expect(page.locator("#teams-loading")).to_be_hidden()
    finally:
        context.close()


def _without_live_connection(page: Page) -> None:
    page.route_web_socket(LIVE_CONNECTION, lambda socket: None)


# React's own properties on an element it has taken over.
HYDRATED = "() => Object.keys(document.getElementById('skip-link') || {}).some((k) => k.startsWith('__r'))"


def _hydrated(page: Page) -> None:
    page.wait_for_function(HYDRATED)


def test_before_the_live_connection_opens_a_phone_shows_the_events(phone_page: Page, db: Session):
    featured = events.upcoming_page(db, 1, 10, utcnow()).featured[0]
    _without_live_connection(phone_page)
    phone_page.goto("/")
    _hydrated(phone_page)
    expect(phone_page.locator("#first-screen").get_by_role("link", name=featured.name)).to_be_visible()
    expect(phone_page.get_by_text("Loading events...")).to_be_hidden()


def test_before_the_live_connection_opens_an_events_page_shows_the_event(phone_page: Page, db: Session):
    event = db.exec(select(Event).order_by(Event.id)).first()
    _without_live_connection(phone_page)
    phone_page.goto(f"/event/detail/{event.id}")
    _hydrated(phone_page)
    expect(phone_page.locator("#first-screen h1")).to_have_text(event.name)
    expect(phone_page.get_by_text("Loading the event...")).to_be_hidden()


def test_the_live_page_takes_over_from_the_first_screen_and_works(page: Page, db: Session):
    featured = events.upcoming_page(db, 1, 10, utcnow()).featured[0]
    page.goto("/")
    summary = page.locator(f'.event-summary[data-event-id="{featured.id}"]')
    expect(summary.locator(".event-name")).to_have_text(featured.name)
    expect(page.locator("#first-screen")).to_have_count(0)
    summary.get_by_role("button", name="More Details").click()
    expect(summary.get_by_role("button", name="Less Details")).to_be_visible()


def test_the_live_faqs_take_over_and_open(page: Page):
    page.goto("/faqs")
    expect(page.locator("#first-screen")).to_have_count(0)
    page.get_by_role("button", name="Who can create an account?").click()
    expect(page.get_by_text("Anyone aged 6 or over.")).to_be_visible()


def test_a_signed_in_riders_pages_paint_the_frame_and_their_badge_before_the_live_connection(
    page: Page, site, db: Session
):
    initial = db.exec(select(Account).where(Account.email == RIDER)).one().firstname[0].upper()
    sign_in(page)
    wait_signed_in(page)
    cookie = "; ".join(f"{name}={value}" for name, value in session_cookies(page).items())
    served_page = httpx.get(f"{site.url}/wallet/", headers={"cookie": cookie})
    assert served_page.headers["cache-control"] == "private, no-cache"
    assert f'<span class="fs-avatar">{initial}</span>' in served_page.text
    # The build's start of its scripts is found and moved after the first paint, here and on a public page.
    for served in (served_page.text, httpx.get(f"{site.url}/faqs").text):
        assert "requestAnimationFrame(() => setTimeout(takeOver))" in served
        assert 'import("/assets/entry.client' not in served.replace('takeOver = () => import("', "")
    _without_live_connection(page)
    page.goto("/user/activities")
    _hydrated(page)
    expect(page.locator("header #rider-first-screen")).to_have_text(initial)
    expect(page.locator("footer")).to_be_visible()


# Each largest-paint candidate's time, and when the live page took the first screen's place.
PAINTS = """
window.__paints = [];
let served = false;
new PerformanceObserver((list) => window.__paints.push(...list.getEntries().map((entry) => entry.startTime)))
  .observe({type: "largest-contentful-paint", buffered: true});
new MutationObserver((changes, observer) => {
  served = served || document.getElementById("first-screen") !== null;
  if (served && !document.getElementById("first-screen")) {
    window.__live = performance.now();
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""
# Once the live page's pictures are in and two frames are drawn, every paint of it has been reported.
LIVE_PAINTS_REPORTED = """() => new Promise((done) => {
  const images = [...document.querySelectorAll("main img")];
  Promise.all(images.map((image) => image.decode().catch(() => null))).then(() =>
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done({
      paints: window.__paints, live: window.__live,
    })))));
})"""


# Not /routes: its pictures are drawn after their decoding, which on this machine the live page can beat.
@pytest.mark.parametrize("path", ["/event/detail/1", "/support", "/", "/faqs", "/teams"])
def test_on_a_phone_the_live_page_draws_nothing_larger_than_the_first_screen(phone_page: Page, path: str):
    """The largest paint is the first screen's: one the live page drew larger would come as late as the live
    data."""
    phone_page.add_init_script(PAINTS)
    phone_page.goto(path)
    expect(phone_page.locator("#first-screen")).to_have_count(0)
    reported = phone_page.evaluate(LIVE_PAINTS_REPORTED)
    assert reported["paints"] and reported["live"]
    assert max(reported["paints"]) < reported["live"], reported


def test_a_page_downloads_the_radix_components_it_shows_not_the_whole_package(page: Page):
    """Radix Themes whole is 500 KB of script; its theme panel is one component no page shows."""
    scripts = []

    def downloaded(answer) -> None:
        if answer.request.resource_type == "script":
            scripts.append(answer.url)

    page.on("response", downloaded)
    page.goto("/routes")
    wait_live(page)
    assert len(scripts) > 5
    assert [url for url in scripts if "rt-ThemePanel" in httpx.get(url).text] == []
