"""The iframe warning, unknown paths, the route table and the layout on a phone."""

import re

from playwright.sync_api import Browser, Page, expect

from cycling_site.messages import site as msg
from cycling_site.routes import ROUTES, path_of
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP
from tests.e2e.helpers import at, returning_rider

STATIC_ROUTES = [r for r in ROUTES if "[" not in r.path and r.name != "dev-mailbox"]
# Pages that need their query send a visitor who arrives without it elsewhere.
VISITOR_REDIRECTS = {"parental-consent": "register"}
# Forms the demo rider has done already send them on (spec 3: a verified rider's pre-verification goes
# to the profile, an approved wallet's verification to the wallet).
RIDER_REDIRECTS = {"pre-verification": "/user/activities#profile", "wallet-verification": "/wallet"}


def test_pages_forbid_framing(page: Page):
    response = page.goto("/auth/login")
    assert response.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_framed_site_shows_the_iframe_warning(browser: Browser, site):
    """A page frames the login page, headers and all: the browser asks for it as a frame and shows the site's
    warning instead of its own error. In a browser of its own: a framed page must not share a renderer with
    the session's long run. The framing page is on the site's own origin: Chromium keeps a page of a public
    address from framing one on the loopback."""
    own_browser = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        page = own_browser.new_page(viewport=DESKTOP)
        page.route(
            f"{site.url}/frame-host",
            lambda route: route.fulfill(
                content_type="text/html",
                body=f'<iframe id="site" src="{site.url}/auth/login" width="800" height="600"></iframe>',
            ),
        )
        page.goto(f"{site.url}/frame-host")
        frame = page.frame_locator("#site")
        expect(frame.locator("#iframe-warning")).to_have_text(msg.IFRAME_WARNING)
        expect(frame.get_by_role("link")).to_have_attribute("target", "_blank")
        # What the frame holds runs nothing and offers no form.
        expect(frame.locator("script, form, input, button")).to_have_count(0)
    finally:
        own_browser.close()


def test_unknown_paths_go_home(page: Page):
    for path in ("/no/such/page", "/nosuchpage", "/event/1/2/3/4"):
        page.goto(path)
        expect(page).to_have_url(re.compile(r"^http://127\.0\.0\.1:\d+/$"))
        expect(page.get_by_role("heading", name="Race the world from your trainer")).to_be_visible()


def test_client_side_navigation_to_an_unknown_path_goes_home(page: Page):
    page.goto("/auth/login")
    expect(page.get_by_role("heading", name="SIGN IN")).to_be_visible()
    page.evaluate(
        "window.history.pushState({}, '', '/missing/page');"
        "window.dispatchEvent(new PopStateEvent('popstate'))"
    )
    expect(page).to_have_url(re.compile(r"^http://127\.0\.0\.1:\d+/$"))


def test_ruleset_pages_have_their_route(page: Page):
    page.goto("/sunday-race-club-ruleset")
    expect(page).to_have_url(at("/sunday-race-club-ruleset"))
    expect(page.locator("main h1")).to_have_text("Sunday Race Club ruleset")
    expect(page.locator("#content-body h2").first).to_be_visible()


def test_every_declared_route_answers_for_a_visitor(page: Page):
    for route in STATIC_ROUTES:
        page.goto(route.path)
        if route.auth_required:
            expect(page).to_have_url(
                re.compile(r"^http://[^/]+/auth/login\?redirect=.*reason=session_expired$")
            )
        else:
            expect(page).to_have_url(at(path_of(VISITOR_REDIRECTS.get(route.name, route.name))))
            expect(page.locator("header")).to_be_visible()


def test_every_auth_route_opens_for_a_rider(page: Page):
    returning_rider(page)
    expect(page).to_have_url(at("/user/activities"))
    for route in STATIC_ROUTES:
        if route.auth_required:
            page.goto(route.path)
            expect(page).to_have_url(at(RIDER_REDIRECTS.get(route.name, route.path)))
            expect(page.locator("main h1")).to_be_visible()


def test_layout_fits_a_phone(phone_page: Page):
    page = phone_page
    for path in ("/", "/auth/login", "/auth/register"):
        page.goto(path)
        expect(page.locator("footer")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"{path} is {width}px wide on a 375px phone"
    page.get_by_role("button", name="Open site menu").click()
    expect(page.get_by_role("menuitem", name="Events")).to_be_visible()


def test_footer_shows_support_and_the_year(page: Page):
    from datetime import date

    page.goto("/")
    expect(page.locator("#copyright")).to_contain_text(str(date.today().year))
    expect(page.locator("footer").get_by_role("link", name="support@example.com")).to_be_visible()
