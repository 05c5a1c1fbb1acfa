"""The content pages and the menus from the content service, clicked through as a visitor would on
desktop and phone: support (devices, article tabs and carousels), the banner pages, rulesets, articles,
FAQs, the header's dropdowns and phone menu, the footer's menus and social links, and d=m."""

import pytest
from playwright.sync_api import Browser, Page, expect

from cycling_site.messages import content as msg
from tests.e2e.helpers import at, wait_live

BANNER_PAGES = [
    ("/terms-and-conditions", "Terms and conditions", False),
    ("/privacy-policy", "Privacy policy", False),
    ("/about-us", "About us", True),
    ("/team-uae", "Team UAE", True),
    ("/sunday-race-club", "Sunday Race Club", True),
    ("/al-ula", "AlUla", True),
]
SOCIAL = {
    "Facebook": "https://www.facebook.com/ridearena",
    "X (Twitter)": "https://x.com/ridearena",
    "LinkedIn": "https://www.linkedin.com/company/ridearena",
    "Instagram": "https://www.instagram.com/ridearena",
    "YouTube": "https://www.youtube.com/@ridearena",
    "Strava": "https://www.strava.com/clubs/ridearena",
}
# Cards wholly inside the carousel's window.
VISIBLE_CARDS = """() => {
  const viewport = document.querySelector("#articles .carousel-viewport").getBoundingClientRect();
  return [...document.querySelectorAll("#articles .carousel-slide > *")].filter((slide) => {
    const box = slide.getBoundingClientRect();
    return box.left >= viewport.left - 1 && box.right <= viewport.right + 1;
  }).length;
}"""


def title(page: Page, text: str):
    return page.locator("main h1").filter(has_text=text)


@pytest.mark.parametrize(("path", "name", "has_banner"), BANNER_PAGES)
def test_banner_pages_show_their_title_and_text(page: Page, path: str, name: str, has_banner: bool):
    page.goto(path)
    expect(title(page, name)).to_be_visible()
    expect(page.locator("#content-body p").first).to_be_visible()
    expect(page.locator("#content-banner")).to_have_count(1 if has_banner else 0)
    expect(page.locator("#content-body script, #content-body iframe")).to_have_count(0)


def test_a_banner_page_on_a_phone_fits_the_screen(phone_page: Page):
    page = phone_page
    page.goto("/about-us")
    expect(title(page, "About us")).to_be_visible()
    expect(page.locator("#content-banner")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_a_ruleset_page_has_its_rules_and_an_unknown_ruleset_goes_home(page: Page):
    page.goto("/ridearena-ruleset")
    expect(title(page, "RideArena ruleset")).to_be_visible()
    expect(page.locator("#content-body table").first).to_be_visible()
    page.locator("#content-body").get_by_role("link", name="contact form").click()
    expect(page).to_have_url(at("/contact-us"))
    page.goto("/zwift-ruleset")
    expect(page).to_have_url(at("/"))


def test_an_article_shows_its_title_image_and_text_and_an_unknown_one_goes_home(page: Page):
    page.goto("/article/first-ride")
    expect(title(page, "Your first ride in five minutes")).to_be_visible()
    expect(page.locator("#article-image")).to_have_attribute("src", "/content/first-ride.svg")
    expect(page.locator("#content-body ol li").first).to_contain_text("Install RideArena")
    page.locator("#article-back").click()
    expect(page).to_have_url(at("/support"))
    page.goto("/article/no-such-article")
    expect(page).to_have_url(at("/"))


def test_faqs_open_and_close_by_click_and_keyboard(page: Page):
    page.goto("/faqs")
    expect(page.get_by_role("heading", name="Account", exact=True)).to_be_visible()
    expect(page.get_by_text("Signing up, signing in and your profile.")).to_be_visible()
    question = page.get_by_role("button", name="Who can create an account?")
    answer = page.get_by_text("Anyone aged 6 or over.")
    expect(question).to_have_attribute("aria-expanded", "false")
    question.click()
    expect(answer).to_be_visible()
    question.click()
    expect(answer).to_be_hidden()

    keyboard_question = page.get_by_role("button", name="Do I need a smart trainer?")
    keyboard_question.focus()
    page.keyboard.press("Enter")
    expect(keyboard_question).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_text("direct-drive smart trainer (Wahoo KICKR")).to_be_visible()
    page.keyboard.press("Space")
    expect(keyboard_question).to_have_attribute("aria-expanded", "false")


def test_faqs_on_a_phone(phone_page: Page):
    page = phone_page
    page.goto("/faqs")
    wait_live(page)
    page.get_by_role("button", name="How do I protest a result?").click()
    expect(page.get_by_text("within 24 hours", exact=False).first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_support_shows_devices_store_links_articles_and_contact(page: Page):
    page.goto("/support")
    expect(title(page, "Support")).to_be_visible()
    expect(page.locator("#content-banner")).to_be_visible()
    expect(page.locator("#ios-devices")).to_contain_text("iPhone X or above")
    expect(page.locator("#android-devices")).to_contain_text("Android 9.0 or above")
    expect(page.get_by_role("link", name="Download on the App Store")).to_have_attribute(
        "href", "https://apps.apple.com/app/ridearena"
    )
    expect(page.get_by_role("link", name="Get it on Google Play")).to_have_attribute(
        "href", "https://play.google.com/store/apps/details?id=com.ridearena.app"
    )
    expect(page.get_by_role("tab", name="Getting Started")).to_have_attribute("aria-selected", "true")
    page.get_by_role("tab", name="Account and Payments").click()
    expect(page.locator("#no-articles")).to_have_text(msg.NO_ARTICLES)
    page.get_by_role("tab", name="Racing").click()
    page.locator(".article-card").filter(has_text="How race categories work").click()
    expect(page).to_have_url(at("/article/race-categories"))
    expect(title(page, "How race categories work")).to_be_visible()
    page.go_back()
    page.locator("#support-contact").click()
    expect(page).to_have_url(at("/contact-us"))


@pytest.mark.parametrize(("width", "cards"), [(375, 1), (700, 2), (1280, 3)])
def test_the_article_carousel_shows_its_cards_per_width_and_moves(
    browser: Browser, site, width: int, cards: int
):
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=site.url)
    page = context.new_page()
    page.goto("/support")
    carousel = page.locator("#articles")
    expect(carousel).to_have_attribute("data-index", "0")
    page.wait_for_function(f"({VISIBLE_CARDS})() === {cards}")
    page.get_by_role("button", name="Next articles").click()
    expect(carousel).not_to_have_attribute("data-index", "0")
    page.wait_for_function(f"({VISIBLE_CARDS})() === {cards}")
    context.close()


def test_the_article_carousel_plays_by_itself(page: Page):
    page.goto("/support")
    carousel = page.locator("#articles")
    expect(carousel).to_have_attribute("data-index", "0")
    expect(carousel).not_to_have_attribute("data-index", "0", timeout=20_000)


def test_d_equals_m_hides_the_footer_and_android_for_the_whole_visit(page: Page):
    page.goto("/support")
    expect(page.locator("#android-devices")).to_be_visible()
    expect(page.locator("footer")).to_be_visible()
    page.goto("/support?d=m")
    expect(page.locator("#ios-devices")).to_be_visible()
    expect(page.locator("#android-devices")).to_have_count(0)
    expect(page.locator("footer")).to_have_count(0)
    page.locator("#support-contact").click()
    expect(page).to_have_url(at("/contact-us"))
    expect(page.locator("#contact-form")).to_be_visible()
    expect(page.locator("footer")).to_have_count(0)
    page.goto("/faqs")
    expect(page.get_by_role("heading", name="Account", exact=True)).to_be_visible()
    expect(page.locator("footer")).to_have_count(0)


def test_the_header_menu_has_dropdowns_with_a_split(page: Page):
    page.goto("/")
    nav = page.get_by_role("navigation", name="Site")
    expect(nav.get_by_role("link", name="Events")).to_be_visible()
    nav.get_by_role("button", name="Community").click()
    menu = page.get_by_role("menu")
    expect(menu.get_by_role("menuitem")).to_have_count(4)
    expect(menu.get_by_role("separator")).to_have_count(1)
    items = menu.locator("[role=menuitem], [role=separator]")
    expect(items.nth(3)).to_have_attribute("role", "separator")
    expect(items.nth(4)).to_have_text("AlUla Desert Classic")
    menu.get_by_role("menuitem", name="Team UAE").click()
    expect(page).to_have_url(at("/team-uae"))
    expect(title(page, "Team UAE")).to_be_visible()

    nav.get_by_role("button", name="Rules").click()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("menuitem", name="RideArena ruleset")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(at("/ridearena-ruleset"))


def test_the_phone_menu_has_the_same_items(phone_page: Page):
    page = phone_page
    page.goto("/")
    expect(page.get_by_role("navigation", name="Site")).to_be_hidden()
    page.get_by_role("button", name="Open site menu").click()
    menu = page.locator("#mobile-menu")
    expect(menu.get_by_text("Community", exact=True)).to_be_visible()
    expect(menu.get_by_role("separator").first).to_be_attached()
    expect(menu.get_by_role("menuitem", name="Support")).to_be_visible()
    menu.get_by_role("menuitem", name="Sunday Race Club", exact=True).click()
    expect(page).to_have_url(at("/sunday-race-club"))
    expect(title(page, "Sunday Race Club")).to_be_visible()


def test_the_footer_has_both_menus_the_social_links_and_the_site_name(page: Page):
    page.goto("/")
    footer = page.locator("footer")
    for name, href in SOCIAL.items():
        expect(footer.get_by_role("link", name=name, exact=True)).to_have_attribute("href", href)
    expect(footer.locator("#social-links a")).to_have_count(6)
    expect(footer.locator("#copyright")).to_contain_text("RideArena. All rights reserved.")
    strava_club = footer.get_by_role("navigation", name="Community").get_by_role("link", name="Strava club")
    expect(strava_club).to_have_attribute("target", "_blank")
    footer.get_by_role("navigation", name="Information").get_by_role("link", name="Privacy policy").click()
    expect(page).to_have_url(at("/privacy-policy"))
    expect(title(page, "Privacy policy")).to_be_visible()


def test_the_contact_page_shows_its_banner_and_text_above_the_form(page: Page, phone_page: Page):
    for screen in (page, phone_page):
        screen.goto("/contact-us")
        expect(screen.locator("#content-banner")).to_be_visible()
        expect(screen.get_by_role("heading", name="Send us a message")).to_be_visible()
        expect(screen.locator("#content-body")).to_contain_text("within 24 hours of the race's finish")
        expect(screen.locator("#contact-form")).to_be_visible()


def test_support_and_an_article_on_a_phone(phone_page: Page):
    page = phone_page
    page.goto("/support")
    expect(title(page, "Support")).to_be_visible()
    expect(page.locator("#android-devices")).to_be_visible()
    expect(page.locator(".article-card").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator(".article-card").filter(has_text="Your first ride in five minutes").click()
    expect(page).to_have_url(at("/article/first-ride"))
    expect(title(page, "Your first ride in five minutes")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("#article-back").click()
    page.locator("#content-body").get_by_role("link", name="FAQs").click()
    expect(page).to_have_url(at("/faqs"))
    expect(page.get_by_role("heading", name="Account", exact=True)).to_be_visible()
