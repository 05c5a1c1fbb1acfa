"""What a returning browser asks again, what crawlers read (robots.txt, titles, descriptions), and a rider
sent to sign in from a dashboard tab coming back to that tab."""

import re

import httpx
import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from cycling_site.models.events import Event
from cycling_site.seed import DEMO_PASSWORD
from cycling_site.settings import settings
from tests.e2e.helpers import RIDER, at, fill_login, submit

YEAR_IMMUTABLE = "public, max-age=31536000, immutable"
DASHBOARD = "/user/activities"
PUBLIC_PAGES = ["/", "/auth/login", "/auth/register", "/support", "/faqs", "/teams", "/contact-us", "/routes"]


def _asset_loads(page: Page, path: str) -> list[dict]:
    """Loads `path` as a new document and returns each /assets/ file it used: its status, its
    Cache-Control and Content-Encoding, and whether the browser took it from its cache without asking the
    site."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    from_cache: set[str] = set()
    loads: dict[str, dict] = {}
    cdp.on("Network.requestServedFromCache", lambda event: from_cache.add(event["requestId"]))

    def received(event: dict) -> None:
        response = event["response"]
        if "/assets/" in response["url"]:
            headers = {k.lower(): v for k, v in response["headers"].items()}
            loads[event["requestId"]] = {
                "url": response["url"],
                "status": response["status"],
                "cache_control": headers.get("cache-control"),
                "encoding": headers.get("content-encoding"),
                "disk_cache": response.get("fromDiskCache", False),
            }

    cdp.on("Network.responseReceived", received)
    page.goto(path)
    expect(page.locator("footer")).to_be_visible()
    page.wait_for_load_state("networkidle")
    cdp.detach()
    return [{**load, "cached": load["disk_cache"] or rid in from_cache} for rid, load in loads.items()]


def test_a_repeat_visit_takes_every_hashed_file_from_the_cache(page: Page):
    first = _asset_loads(page, "/")
    assert len(first) > 10
    assert {load["cache_control"] for load in first} == {YEAR_IMMUTABLE}
    again = _asset_loads(page, "/")
    assert len(again) > 10
    asked_again = [load["url"] for load in again if not load["cached"] or load["status"] == 304]
    assert asked_again == []


def test_the_browser_gets_the_built_files_brotli_compressed(page: Page):
    built = [load for load in _asset_loads(page, "/") if load["url"].endswith((".js", ".css"))]
    assert len(built) > 10
    encodings = {load["url"].rsplit("/", 1)[-1].split("-")[0]: load["encoding"] for load in built}
    assert encodings["entry.client"] == encodings["__reflex_global_styles"] == "br"
    assert set(encodings.values()) <= {"br", None}, (
        "nothing larger than a few hundred bytes goes uncompressed"
    )


def test_pages_and_unhashed_files_are_revalidated(site):
    for path in ("/", "/support", "/favicon.svg", "/site.css"):
        response = httpx.get(site.url + path, follow_redirects=True)
        assert response.status_code == 200, path
        assert response.headers["cache-control"] == "no-cache", path
        again = httpx.get(response.url, headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304, path


def test_robots_txt_keeps_crawlers_to_the_pages(page: Page):
    response = page.request.get("/robots.txt")
    assert response.ok
    assert response.headers["content-type"].startswith("text/plain")
    lines = response.text().splitlines()
    assert lines == ["User-agent: *", "Disallow: /api/", "Disallow: /dev/", "Disallow: /_upload/"]


def _description(page: Page):
    return page.locator('head meta[name="description"]')


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_every_page_has_a_title_and_its_own_description(page: Page, site, path):
    page.goto(path)
    expect(page).to_have_title(re.compile(rf".+ · {settings.site_name}$"))
    expect(_description(page)).to_have_count(1)
    expect(_description(page)).to_have_attribute("content", re.compile(r".{40,160}"))
    # Crawlers that run no script read the same description in the served document.
    served = httpx.get(site.url + path, follow_redirects=True).text
    assert re.search(r'<meta content="[^"]{40,}" name="description"/>', served)


def test_each_event_page_has_its_own_title_and_description(page: Page, db: Session):
    events = db.exec(select(Event).order_by(Event.id).limit(2)).all()
    seen = set()
    for event in events:
        page.goto(f"/event/detail/{event.id}")
        expect(page.locator("#event-title")).to_have_text(event.name)
        expect(page).to_have_title(f"{event.name} · {settings.site_name}")
        expect(_description(page)).to_have_attribute("content", re.compile(rf"^{re.escape(event.name)}, .+"))
        seen.add(_description(page).get_attribute("content"))
    assert len(seen) == 2


def test_an_unknown_event_keeps_the_general_title(page: Page):
    page.goto("/event/detail/999999")
    expect(page.get_by_text("Event not found.")).to_be_visible()
    expect(page).to_have_title(f"Event · {settings.site_name}")


@pytest.mark.multi_worker
@pytest.mark.parametrize("tab", ["activities", "in-game-shop"])
def test_sent_to_sign_in_from_a_dashboard_tab_the_rider_comes_back_to_it(page: Page, tab: str):
    page.goto(f"{DASHBOARD}#{tab}")
    expect(page).to_have_url(re.compile(rf"/auth/login\?redirect=%2Fuser%2Factivities(%2F)?%23{tab}&reason="))
    fill_login(page, RIDER, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page).to_have_url(at(f"{DASHBOARD}#{tab}"))
    expect(page.locator(f"#tab-{tab}")).to_have_attribute("aria-selected", "true")


def test_on_a_phone_the_shop_tab_survives_the_sign_in(phone_page: Page):
    phone_page.goto(f"{DASHBOARD}#in-game-shop")
    expect(phone_page).to_have_url(
        re.compile(r"/auth/login\?redirect=%2Fuser%2Factivities(%2F)?%23in-game-shop&")
    )
    fill_login(phone_page, RIDER, DEMO_PASSWORD)
    submit(phone_page, "#login-submit")
    expect(phone_page).to_have_url(at(f"{DASHBOARD}#in-game-shop"))
    expect(phone_page.locator("#tab-in-game-shop")).to_have_attribute("aria-selected", "true")


def test_a_hash_cannot_lead_off_the_site(page: Page):
    page.goto("/auth/login?redirect=%23%2F%2Fevil.example")
    fill_login(page, RIDER, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page).to_have_url(at(f"{DASHBOARD}#profile"))
