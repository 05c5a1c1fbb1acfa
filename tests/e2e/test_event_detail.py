"""The event detail: facts, REGISTER NOW for visitors and riders, winners, prize tables in both templates."""

import re

from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from cycling_site.messages import events as msg
from cycling_site.models.events import Event
from tests.e2e.helpers import at, new_account, returning_rider
from tests.e2e.test_events import register_for


def event_id(db: Session, name: str) -> int:
    return db.exec(select(Event.id).where(Event.name == name)).one()


def test_a_series_event_with_its_facts_and_prize_tables(page: Page, db: Session):
    page.goto(f"/event/detail/{event_id(db, 'Sunday Race Club - Round 10')}")
    expect(page.locator("#event-title")).to_have_text("Sunday Race Club - Round 10")
    expect(page.locator("#prize-money")).to_have_text("AED 40,000.00")
    expect(page.locator("#event-distance")).to_have_text("32.4 km")
    expect(page.locator("#event-elevation")).to_have_text("410 m")
    expect(page.locator("#event-grade")).to_have_text("6.5 %")
    expect(page.locator("#course-map")).to_have_attribute("src", "/events/map-desert.svg")
    tables = page.locator("#prizes .prize-table")
    expect(tables).to_have_count(12)
    expect(tables.first).to_contain_text("Overall · Category 1")
    expect(tables.first).to_contain_text("Overall position")
    expect(tables.nth(4)).to_contain_text("Day 1 · Category 1")
    expect(tables.first.locator("tbody tr").first).to_contain_text("AED 5,000.00")
    expect(tables.first.locator("tbody tr").first).to_contain_text("USD 1,361.50")
    expect(page.locator("#winners")).to_have_count(0)
    page.locator("#register-now").click()
    expect(page).to_have_url(re.compile(r"/auth/login\?redirect=/event/detail/\d+$"))


def test_a_past_event_shows_its_winners_on_a_podium(page: Page, db: Session):
    event = db.exec(select(Event).where(Event.name == "Sunday Race Club - Round 9")).one()
    page.goto(f"/event/detail/{event.id}")
    expect(page.locator("#podium .podium-place")).to_have_count(3)
    expect(page.locator("#podium .podium-place").first).to_contain_text(event.winners[0]["name"])
    expect(page.locator("#winners .winner-row")).to_have_count(2)
    expect(page.locator("#event-state")).to_have_text(msg.CLOSED)
    expect(page.locator("#register-now")).to_be_disabled()


def test_a_race_template_has_one_table_per_category(page: Page, db: Session):
    page.goto(f"/event/detail/{event_id(db, 'AlUla Desert Classic')}")
    tables = page.locator("#prizes .prize-table")
    expect(tables).to_have_count(2)
    expect(tables.first).to_contain_text("Category 1")
    expect(tables.first.locator("thead")).to_contain_text("Position")
    expect(tables.first.locator("tbody tr")).to_have_count(6)


def test_register_now_for_a_rider_and_for_one_already_registered(page: Page, db: Session):
    rider = new_account(db, "detail.rider@example.com", gender=1)
    register_for(db, rider, "Corniche Crit", "approved")
    returning_rider(page, "detail.rider@example.com", path="/auth/login?redirect=/events")
    expect(page).to_have_url(at("/events"))
    women = event_id(db, "Women's Series - Round 3")
    page.goto(f"/event/detail/{women}")
    page.locator("#register-now").click()
    expect(page).to_have_url(at(f"/event/{women}"))
    page.goto(f"/event/detail/{event_id(db, 'Corniche Crit')}")
    expect(page.locator("#event-state")).to_have_text(msg.APPROVED)
    page.locator("#register-now").click()
    expect(page).to_have_url(at("/events"))


def test_an_unknown_event_says_so_under_a_heading_with_a_way_back(page: Page):
    page.goto("/event/detail/999999")
    expect(page.get_by_role("heading", level=1)).to_have_text(msg.EVENT_NOT_FOUND)
    page.get_by_role("link", name=msg.BACK_TO_EVENTS).click()
    expect(page).to_have_url(at("/"))
