"""Keyboard and screen-reader use beyond what axe-core checks on every page: the skip link, menus that
follow their links from the keyboard, where the focus goes after a refused sign-in and after each wizard
step, controls with names, and screens that fit a phone. The site's one colour scheme whatever the
system prefers, and the accessibility check itself on a page made to fail it."""

import re
from datetime import date
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from sqlmodel import Session

from cycling_site.messages import accounts as accounts_msg
from cycling_site.messages import contact as contact_msg
from cycling_site.messages import registration as registration_msg
from tests.e2e.accessibility import AccessibilityCheck
from tests.e2e.conftest import DESKTOP, Site
from tests.e2e.helpers import RIDER, at, fill_login, sign_in, submit, wait_signed_in
from tests.e2e.test_registration import accept_disclaimer, open_wizard


def arrow_down_to(page: Page, item: Locator, presses: int = 12) -> None:
    """Moves the focus down an open menu to `item` as a keyboard user would, one item per press: each
    press waits for the focus to move, so a busy page cannot let presses run ahead of it."""
    walked = []
    for _ in range(presses):
        if item.evaluate("element => element === document.activeElement"):
            return
        focused = page.evaluate_handle("() => document.activeElement")
        walked.append(focused.evaluate("element => element.id || element.textContent.trim()"))
        page.keyboard.press("ArrowDown")
        page.wait_for_function("focused => document.activeElement !== focused", arg=focused, timeout=5_000)
    raise AssertionError(f"the focus went {walked} without reaching the item")


def test_the_skip_link_is_the_first_tab_stop_and_moves_to_the_main_content(page: Page):
    page.goto("/faqs")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to main content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("main#main")).to_be_focused()


def test_the_rider_menu_follows_its_links_from_the_keyboard(page: Page):
    sign_in(page, RIDER, path="/auth/login?redirect=/user/profile")
    expect(page).to_have_url(at("/user/profile"))
    wait_signed_in(page)
    # The page's own loads have arrived: nothing re-renders the header while the menu is walked.
    expect(page.locator("#profile-loading")).to_have_count(0)
    page.locator("#avatar-button").focus()
    page.keyboard.press("Enter")
    activities = page.get_by_role("menuitem", name="Activities")
    expect(activities).to_be_visible()
    arrow_down_to(page, activities)
    page.keyboard.press("Enter")
    expect(page).to_have_url(at("/user/activities#activities"))
    expect(page.locator("#tab-activities")).to_have_attribute("data-state", "active")


def test_the_phone_menu_follows_its_links_from_the_keyboard(phone_page: Page):
    page = phone_page
    page.goto("/")
    expect(page.locator("#menu-loading")).to_have_count(0)
    menu_button = page.get_by_role("button", name="Open site menu")
    menu_button.focus()
    page.keyboard.press("Enter")
    support = page.locator("#mobile-menu").get_by_role("menuitem", name="Support")
    expect(support).to_be_visible()
    arrow_down_to(page, support)
    page.keyboard.press("Space")
    expect(page).to_have_url(at("/support"))


def test_a_refused_sign_in_marks_both_fields_and_puts_the_focus_back_in_the_form(page: Page):
    page.goto("/auth/login")
    fill_login(page, RIDER, "not-the-password")
    submit(page, "#login-submit")
    expect(page.locator("#login-error")).to_have_text(accounts_msg.LOGIN_FAILED)
    expect(page.locator("#email")).to_be_focused()
    for name in ("email", "password"):
        expect(page.locator(f"#{name}")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_role("checkbox", name="Stay signed in")).to_be_checked()


def test_each_wizard_step_opens_with_the_focus_on_its_heading_and_back_before_next(page: Page, db: Session):
    open_wizard(page, db, "focus.steps@example.com", "Hatta Hills Time Trial", gender=0, dob=date(1990, 6, 1))
    expect(page.get_by_role("checkbox", name=registration_msg.DISCLAIMER_ACCEPT)).to_be_visible()
    accept_disclaimer(page)
    heading = page.locator("#wizard-step-heading")
    expect(heading).to_have_text("PERSONAL DETAILS")
    expect(heading).to_be_focused()
    page.locator("#wizard-back").focus()
    page.keyboard.press("Tab")
    expect(page.locator("#wizard-next")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#wizard-step-heading")).to_have_text("DISCLAIMER")
    expect(page.locator("#wizard-step-heading")).to_be_focused()
    expect(page.locator(".wizard-step[aria-current=step]")).to_contain_text("DISCLAIMER")
    expect(page.locator("#disclaimer")).to_have_attribute("data-state", "checked")


def test_the_subscribe_notice_stays_with_its_page(page: Page):
    page.goto("/faqs")
    page.locator("#subscribe-email").fill("news.reader@example.com")
    page.locator("#subscribe-submit").click()
    expect(page.locator("#subscribe-notice")).to_have_text(contact_msg.SUBSCRIBED)
    page.get_by_role("contentinfo").get_by_role("link", name="About us").click()
    expect(page).to_have_url(at("/about-us"))
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.locator("#subscribe-notice")).to_have_count(0)


# Pairs of the header's links and buttons drawn over each other (neither inside the other).
HEADER_OVERLAPS = """() => {
  const shown = [...document.querySelectorAll("header a, header button")]
    .filter((e) => e.getClientRects().length);
  const overlaps = [];
  shown.forEach((a, i) => shown.slice(i + 1).forEach((b) => {
    if (a.contains(b) || b.contains(a)) return;
    const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
    if (r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom) {
      overlaps.push([a.textContent.trim(), b.textContent.trim()]);
    }
  }));
  return overlaps;
}"""


@pytest.mark.parametrize("width", [800, 1000, 1280])
def test_the_header_fits_a_tablet_and_a_desktop(page: Page, width: int):
    """An upright tablet opens the site's menu from its button; a wider screen shows it whole, beside the
    logo, not over it."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/faqs")
    expect(page.locator("#menu-loading")).to_have_count(0)
    wide = width >= 992
    expect(page.get_by_role("navigation", name="Site").get_by_role("link", name="Events")).to_be_visible(
        visible=wide
    )
    expect(page.get_by_role("button", name="Open site menu")).to_be_visible(visible=not wide)
    assert page.evaluate(HEADER_OVERLAPS) == []


def test_the_dashboard_tabs_and_progress_fit_a_phone(phone_page: Page):
    page = phone_page
    sign_in(page, RIDER, path="/auth/login?redirect=/user/activities")
    expect(page.locator("#progress-table")).to_be_visible()
    width = page.viewport_size["width"]
    for tab in ("#tab-profile", "#tab-activities", "#tab-in-game-shop"):
        box = page.locator(tab).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, tab
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# Records every question a page's scripts ask about the system's colour scheme.
SCHEME_SPY = """(() => {
  const ask = window.matchMedia.bind(window);
  window.__schemeQueries = [];
  window.matchMedia = (query) => {
    if (query.includes("prefers-color-scheme")) window.__schemeQueries.push(query);
    return ask(query);
  };
})();"""


def test_a_dark_system_and_a_stored_dark_choice_leave_the_site_light(browser: Browser, site: Site):
    def colours(scheme: str, stored: str | None) -> dict:
        context = browser.new_context(viewport=DESKTOP, base_url=site.url, color_scheme=scheme)
        context.add_init_script(script=SCHEME_SPY)
        if stored:
            context.add_init_script(script=f"localStorage.setItem('theme', '{stored}')")
        page = context.new_page()
        page.goto("/faqs")
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_be_visible()
        expect(page.locator(".radix-themes[data-is-root-theme=true]")).to_have_class(re.compile(r"\blight\b"))
        shown = {
            "page": page.evaluate("getComputedStyle(document.documentElement).colorScheme"),
            "heading": heading.evaluate("element => getComputedStyle(element).color"),
            "topic": page.locator(".faq-topic").first.evaluate("element => getComputedStyle(element).color"),
            "asked": page.evaluate("window.__schemeQueries"),
        }
        context.close()
        return shown

    light = colours("light", None)
    assert light["page"] == "light" and light["asked"] == []
    assert colours("dark", None) == light
    assert colours("dark", "dark") == light
    assert colours("light", "system") == light


FAILING_PAGE = """<!doctype html><html lang="en"><head><title>Check</title><style>
  @media (prefers-color-scheme: dark) { #dark-only { color: #555; background: #333; } }
  #faint { background: linear-gradient(90deg, #ffffff, #e0e0e0); padding: 8px; }
</style></head><body><main><h1>Check</h1><p id="dark-only">Faint in the dark only</p>
<h3>A heading level skipped</h3>
<p id="faint" style="color: #9a9a9a">Faint over a gradient</p></main></body></html>"""


HTML = {"content-type": "text/html"}


def test_the_check_meets_each_scheme_every_impact_and_the_contrast_axe_leaves_for_review(browser: Browser):
    check = AccessibilityCheck()
    context = check.watch(browser.unwatched.new_context(viewport=DESKTOP))
    context.route("http://check.test/", lambda route: route.fulfill(body=FAILING_PAGE, headers=HTML))
    page = context.new_page()
    page.goto("http://check.test/")
    failures = check.finish_test()
    # The measure hid the text for a moment and gave it back its own colour.
    assert page.locator("#faint").evaluate("element => element.style.color") == "rgb(154, 154, 154)"
    context.close()
    found = "\n".join(failures)
    dark_contrast = [f for f in failures if "#dark-only" in f]
    assert len(dark_contrast) == 1 and "(desktop, dark): color-contrast [serious]" in dark_contrast[0], found
    assert "(desktop, light): heading-order [moderate]" in found
    faint = next(f for f in failures if "#faint" in f and "(desktop, light)" in f)
    assert "color-contrast (pixels)" in faint and ": #9A9A9A on" in faint, found


KIND_PAGE = """<!doctype html><html lang="en"><head><title>Check</title><style>
  @media (prefers-color-scheme: dark) { #dark-only { color: #555; background: #333; } }
</style></head><body><main><h1>Check</h1><p id="dark-only">Faint in the dark only</p>
<h3>A heading level skipped</h3>EXTRA</main></body></html>"""


def test_the_other_scheme_is_checked_once_per_kind_of_screen(browser: Browser):
    """Every path is checked in the context's scheme; the other scheme once per route and the ids shown: a
    second event's page like the first is spared it, an event's page showing something else is not."""
    check = AccessibilityCheck()
    context = check.watch(browser.unwatched.new_context(viewport=DESKTOP))
    pages = {
        "/event/1": KIND_PAGE.replace("EXTRA", ""),
        "/event/2": KIND_PAGE.replace("EXTRA", ""),
        "/event/3": KIND_PAGE.replace("EXTRA", '<p id="registration-closed">Closed</p>'),
    }
    context.route(
        "http://check.test/**",
        lambda route: route.fulfill(body=pages[urlsplit(route.request.url).path], headers=HTML),
    )
    page = context.new_page()
    for path in pages:
        page.goto(f"http://check.test{path}")
        check.check_screens(context)
    found = "\n".join(check.finish_test())
    context.close()
    for path in pages:
        assert f"{path} (desktop, light): heading-order [moderate]" in found, found
    assert "/event/1 (desktop, dark): color-contrast [serious]" in found, found
    assert "/event/2 (desktop, dark)" not in found, found
    assert "/event/3 (desktop, dark): color-contrast [serious]" in found, found
