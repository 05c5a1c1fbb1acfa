"""Tables on a 375 px phone: each shows its key columns whole without sideways scrolling (the wallet's
transactions and the events' categories as cards), or shows that it scrolls (the progress table, with its
first column pinned, a fade on the hidden side and a hint the region is described by)."""

import re

from playwright.sync_api import Locator, Page, expect

from cycling_site.messages import site as site_msg
from tests.e2e.helpers import RIDER, returning_rider, wait_signed_in

# Whole inside the screen and inside every box around it that clips (a scrolling region among them).
FULLY_SHOWN = """(node) => {
  const box = node.getBoundingClientRect();
  if (box.width === 0 || box.left < 0 || box.right > window.innerWidth + 0.5) return false;
  for (let outer = node.parentElement; outer; outer = outer.parentElement) {
    if (getComputedStyle(outer).overflowX === "visible") continue;
    const clip = outer.getBoundingClientRect();
    if (box.left < clip.left - 0.5 || box.right > clip.right + 0.5) return false;
  }
  return true;
}"""
NO_SIDEWAYS_PAGE = "document.documentElement.scrollWidth <= window.innerWidth"


def assert_shown(found: Locator) -> None:
    shown = found.filter(visible=True).first
    expect(shown).to_be_visible()
    assert shown.evaluate(FULLY_SHOWN), f"{shown.inner_text()!r} is cut off on a phone"


def test_the_wallets_transactions_show_amount_status_and_date_whole(phone_page: Page):
    page = phone_page
    returning_rider(page, RIDER)
    wait_signed_in(page)
    page.goto("/wallet")
    transactions = page.locator("#transactions")
    expect(transactions.locator(".transaction-status").filter(visible=True)).to_have_count(2)
    assert_shown(transactions.get_by_text(re.compile(r"^\d+\.\d{6} BTC$")))
    assert_shown(transactions.locator(".transaction-status"))
    assert_shown(transactions.get_by_text(re.compile(r"^\d\d/\d\d/\d{4} \d\d:\d\d GST$")))
    assert_shown(transactions.get_by_text("WD-000001"))
    assert page.evaluate(NO_SIDEWAYS_PAGE)


def test_the_events_categories_show_time_distance_and_elevation_whole(phone_page: Page):
    page = phone_page
    page.goto("/")
    event = page.locator(".event-summary").first
    expect(event).to_be_visible()
    for label in ("TIME", "DISTANCE", "ELEVATION"):
        assert_shown(event.get_by_text(label, exact=True))
    assert_shown(event.get_by_text(re.compile(r"^\d+ min$")))
    assert_shown(event.get_by_text(re.compile(r"^[\d.]+ km$")))
    assert_shown(event.get_by_text(re.compile(r"^\d+ m$")))
    assert page.evaluate(NO_SIDEWAYS_PAGE)


def test_the_progress_table_keeps_its_first_column_and_says_that_it_scrolls(phone_page: Page):
    page = phone_page
    returning_rider(page, RIDER, path="/auth/login?redirect=/user/activities")
    table = page.locator("#progress-table")
    expect(table.get_by_text("Distance", exact=True)).to_be_visible()
    region = page.get_by_role("region", name="Progress totals")
    hint = page.get_by_text(site_msg.SCROLL_HINT)
    expect(hint).to_be_visible()
    expect(region).to_have_attribute("tabindex", "0")
    expect(region).to_have_accessible_description(site_msg.SCROLL_HINT)
    # At the end of the scroll the last column is whole, and the figures' names are still in sight.
    region.focus()
    region.evaluate("(node) => { node.scrollLeft = node.scrollWidth; }")
    assert_shown(table.get_by_text(re.compile(r"^WEEKLY")))
    assert_shown(table.get_by_text("Distance", exact=True))
    assert page.evaluate(NO_SIDEWAYS_PAGE)
