"""The event list as visitors and riders see it: groups, details, links, each status message, Register."""

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, col, select

from cycling_site.messages import events as msg
from cycling_site.models import Account
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event, Registration
from cycling_site.services.demo_events import demo_events
from tests.e2e.helpers import at, new_account, returning_rider


def summary(page: Page, name: str):
    return page.locator(".event-summary").filter(has=page.get_by_role("heading", name=name, exact=True))


def register_for(db: Session, account: Account, event_name: str, status: str) -> None:
    event = db.exec(select(Event).where(Event.name == event_name)).one()
    db.add(
        Registration(
            event_id=event.id,
            account_id=account.id,
            status=status,
            first_name=account.firstname,
            last_name=account.lastname,
            email=account.email,
            gender=account.gender,
        )
    )
    db.commit()


def test_a_visitor_sees_featured_all_and_past_events(page: Page):
    page.goto("/events")
    expect(page.locator("#featured-events .event-summary")).to_have_count(2)
    expect(page.locator("#all-events .event-summary")).to_have_count(9)
    past = page.locator("#past-events")
    for name in ("Sunday Race Club - Round 9", "Desert Crit Series - Race 2"):
        expect(past.get_by_role("heading", name=name, exact=True)).to_be_visible()
    first = summary(page, "Sunday Race Club - Round 10")
    expect(first).to_contain_text(re.compile(r"\w{3} \d{2} \w{3} \d{4} · 19:00 GMT\+4"))
    expect(first).to_contain_text("112 / 300")
    expect(first).to_contain_text("AED 40,000.00")
    expect(first).to_contain_text("USD 10,892.00")
    expect(first.locator(".category-table .category-name")).to_have_text(
        ["Category 1", "Category 2", "Category 3", "Category 4"]
    )
    expect(first.locator(".category-table .category-description")).to_have_text(
        ["CAT-1: riders above 4.0 w/kg", "CAT-2: 1.0 to 3.9 w/kg"]
    )
    expect(first.locator(".event-state")).to_have_text(msg.LOGGED_OUT)
    expect(first.locator(".register-button")).to_have_count(0)
    first.locator(".login-button").click()
    expect(page).to_have_url(re.compile(r"/auth/login\?redirect=/event/detail/\d+$"))


def test_more_details_shows_the_description_links_and_requirements(page: Page):
    page.goto("/")
    event = summary(page, "AlUla Desert Classic")
    expect(event.locator(".event-details")).to_have_count(0)
    event.locator(".details-toggle").click()
    expect(event.locator(".event-details")).to_contain_text("a race on the game's virtual roads")
    expect(event.get_by_role("link", name="Ruleset")).to_have_attribute("href", "/sunday-race-club-ruleset")
    expect(event.get_by_role("link", name="Technical guide")).to_have_attribute("href", "/support")
    event.locator(".requirements-link").click()
    expect(page.locator("#requirements-text")).to_contain_text("Direct-drive smart trainer")
    page.get_by_role("button", name="Close").click()
    expect(page.locator("#requirements-text")).to_have_count(0)
    event.locator(".details-toggle").click()
    expect(event.locator(".details-toggle")).to_have_text("More Details")
    expect(event.locator(".event-details")).to_have_count(0)


def test_the_state_messages_a_rider_sees(page: Page, db: Session):
    rider = new_account(db, "statuses@example.com", gender=1)
    register_for(db, rider, "Corniche Crit", "pending")
    register_for(db, rider, "Meydan Night Race", "approved")
    register_for(db, rider, "Al Qudra Team Relay", "declined")
    returning_rider(page, "statuses@example.com", path="/auth/login?redirect=/events")
    expect(page).to_have_url(at("/events"))
    cases = {
        "Corniche Crit": msg.PENDING,
        "Meydan Night Race": msg.APPROVED,
        "Al Qudra Team Relay": msg.DECLINED,
        "Closed Registration Classic": msg.CLOSED,
        "Full House Sprint": msg.ROOM_FULL,
        "Men's Masters Race": msg.MEN_ONLY,
    }
    for name, message in cases.items():
        expect(summary(page, name).locator(".event-state")).to_have_text(message)
    for name in ("Corniche Crit", "Meydan Night Race", "Closed Registration Classic", "Full House Sprint"):
        expect(summary(page, name).locator(".register-button")).to_have_count(0)
    expect(summary(page, "Al Qudra Team Relay").locator(".register-button")).to_have_text(msg.REJOIN)
    women = summary(page, "Women's Series - Round 3")
    expect(women.locator(".event-state")).to_have_text(re.compile(r"^Registration closes .* GMT\+4$"))
    women.locator(".register-button").click()
    expect(page).to_have_url(re.compile(r"/event/\d+$"))


def test_a_man_sees_the_women_only_message(page: Page, db: Session):
    new_account(db, "statuses.man@example.com", gender=0)
    returning_rider(page, "statuses.man@example.com", path="/auth/login?redirect=/events")
    expect(summary(page, "Women's Series - Round 3").locator(".event-state")).to_have_text(msg.WOMEN_ONLY)
    expect(summary(page, "Men's Masters Race").locator(".register-button")).to_have_text(msg.JOIN)


def test_the_event_list_on_a_phone(phone_page: Page):
    phone_page.goto("/")
    expect(phone_page.locator(".event-summary").first).to_be_visible()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 375


PAGING_RACES = 15


@pytest.fixture
def many_events(db: Session) -> Iterator[None]:
    """Fifteen more open events after the seeded ones (24 in "All events", three pages), removed afterwards:
    the other tests count the seeded list."""
    template = demo_events(utcnow())[2]
    fields = template.model_dump(exclude={"id", "name", "starts_at", "closes_at", "event_type"})
    for number in range(1, PAGING_RACES + 1):
        starts_at = utcnow() + timedelta(days=400 + number)
        name = f"Paging race {number:02d}"
        db.add(Event(**fields, name=name, starts_at=starts_at, closes_at=starts_at - timedelta(hours=2)))
    db.commit()
    yield
    for event in db.exec(select(Event).where(col(Event.name).startswith("Paging race"))).all():
        db.delete(event)
    db.commit()


def test_all_events_come_ten_to_a_page(page: Page, many_events: None):
    page.goto("/events")
    listed = page.locator("#all-events .event-summary")
    expect(listed).to_have_count(10)
    expect(page.locator("#featured-events .event-summary")).to_have_count(2)
    pager = page.locator("#events-pagination")
    expect(pager).to_have_attribute("aria-label", msg.PAGES_LABEL)
    expect(pager.locator(".page-number")).to_have_text(["1", "2", "3"])
    expect(pager.locator(".page-current")).to_have_text("1")
    expect(page.locator("#page-prev")).to_be_disabled()

    page.locator("#page-next").click()
    expect(pager.locator(".page-current")).to_have_text("2")
    expect(listed).to_have_count(10)
    expect(listed.get_by_role("heading", level=3).first).to_have_text("Paging race 02")
    expect(page.locator("#all-events-heading")).to_be_focused()
    expect(page.locator("#past-events .event-summary").first).to_be_visible()

    page.get_by_role("button", name="Page 3").click()
    expect(pager.locator(".page-current")).to_have_text("3")
    expect(page.locator("#all-events-heading")).to_be_focused()
    expect(listed).to_have_count(4)
    expect(listed.get_by_role("heading", level=3).last).to_have_text(f"Paging race {PAGING_RACES}")
    expect(page.locator("#page-next")).to_be_disabled()

    page.locator("#page-prev").press("Enter")
    expect(pager.locator(".page-current")).to_have_text("2")


def test_the_pages_fit_a_phone(phone_page: Page, many_events: None):
    phone_page.goto("/events")
    pager = phone_page.locator("#events-pagination")
    pager.scroll_into_view_if_needed()
    expect(pager.locator(".page-number")).to_have_text(["1", "2", "3"])
    phone_page.locator("#page-next").click()
    expect(pager.locator(".page-current")).to_have_text("2")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 375
