"""Results (/race-results): the results service in a frame, whose links move the page itself."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import FrameLocator, Page, expect
from sqlmodel import select

from cycling_site.embedded.results import texts as service_msg
from cycling_site.embedded.results.standings import seed_results, standings
from cycling_site.messages import results as msg
from cycling_site.models import Event
from cycling_site.models.common import utcnow
from cycling_site.seed import race_entries
from tests.e2e.helpers import at, returning_rider

SERIES_NAME = "Results Test Series"
RACE_NAME = "Results Test Race"


def _raced_event(db, name: str, days_ago: int, **fields) -> Event:
    """A past event with stored results; made once for the whole test session."""
    event = db.exec(select(Event).where(Event.name == name)).first()
    if event is None:
        starts_at = utcnow() - timedelta(days=days_ago)
        event = Event(name=name, starts_at=starts_at, closes_at=starts_at - timedelta(hours=2), **fields)
        db.add(event)
        db.commit()
        seed_results(db, race_entries([event]))
    return event


@pytest.fixture
def raced(db) -> dict[str, Event]:
    return {
        "series": _raced_event(
            db, SERIES_NAME, 20, distance_km=30, elevation_m=300, prize_structure={"templateType": "SERIES"}
        ),
        "race": _raced_event(db, RACE_NAME, 27, distance_km=24, elevation_m=35),
    }


@pytest.fixture
def results_page(page: Page) -> Page:
    returning_rider(page)
    expect(page).to_have_url(at("/user/activities"))
    return page


def _frame(page: Page) -> FrameLocator:
    return page.frame_locator("#results-frame")


def _open_results(page: Page, query: str = "") -> FrameLocator:
    page.goto(f"/race-results{'?' + query if query else ''}")
    expect(page.get_by_role("heading", name=msg.TITLE, exact=True)).to_be_visible()
    return _frame(page)


def _current_day(frame: FrameLocator):
    return frame.locator("#days [aria-current='page']")


def test_a_visitor_is_sent_to_sign_in(page: Page):
    page.goto("/race-results?eventId=5")
    expect(page).to_have_url(
        re.compile(
            r"^http://[^/]+/auth/login\?redirect=%2Frace-results(%2F)?%3FeventId%3D5&reason=session_expired$"
        )
    )


def test_a_rider_goes_from_the_events_to_a_series_its_days_and_back(results_page: Page, db, raced):
    page, series = results_page, raced["series"]
    frame = _open_results(page)
    expect(frame.get_by_role("heading", name=service_msg.EVENTS_HEADING)).to_be_visible()

    frame.get_by_role("link", name=re.compile(SERIES_NAME)).click()
    expect(page).to_have_url(at("/race-results", f"eventId={series.id}"))
    expect(frame.locator("#event-name")).to_have_text(SERIES_NAME)
    expect(_current_day(frame)).to_have_text(service_msg.OVERALL)
    overall = standings(db, series.id)
    rows = frame.locator("#standings tbody tr")
    expect(rows).to_have_count(len(overall))
    expect(rows.first).to_contain_text(overall[0].rider_name)

    frame.get_by_role("link", name="Day 2", exact=True).click()
    expect(page).to_have_url(at("/race-results", f"eventId={series.id}&dayId=2"))
    expect(_current_day(frame)).to_have_text("Day 2")
    day_2 = standings(db, series.id, 2)
    expect(rows).to_have_count(len(day_2))
    expect(rows.first).to_contain_text(day_2[0].rider_name)

    frame.locator("#back-to-events").click()
    expect(page).to_have_url(at("/race-results"))
    expect(frame.get_by_role("link", name=re.compile(SERIES_NAME))).to_be_visible()

    # The browser's Back button walks the same way back.
    page.go_back()
    expect(page).to_have_url(at("/race-results", f"eventId={series.id}&dayId=2"))
    expect(_current_day(frame)).to_have_text("Day 2")


def test_a_one_day_race_opens_on_its_day(results_page: Page, db, raced):
    page, race = results_page, raced["race"]
    frame = _open_results(page)
    frame.get_by_role("link", name=re.compile(RACE_NAME)).click()
    expect(page).to_have_url(at("/race-results", f"eventId={race.id}&dayId=1"))
    expect(frame.locator("#event-name")).to_have_text(RACE_NAME)
    expect(frame.locator("#days")).to_have_count(0)
    winner = standings(db, race.id, 1)[0]
    expect(frame.locator("#standings tbody tr").first).to_contain_text(winner.rider_name)


def test_the_query_opens_an_event_and_bad_ids_show_no_results(results_page: Page, raced):
    page, series = results_page, raced["series"]
    frame = _open_results(page, f"eventId={series.id}&dayId=1")
    expect(_current_day(frame)).to_have_text("Day 1")

    # Only numeric ids reach the frame: anything else opens the events.
    frame = _open_results(page, "eventId=abc&dayId=1")
    expect(page.locator("#results-frame")).to_have_attribute("src", "/results-service/")
    expect(frame.get_by_role("link", name=re.compile(SERIES_NAME))).to_be_visible()

    for query in ("eventId=987654321", f"eventId={series.id}&dayId=9"):
        frame = _open_results(page, query)
        expect(frame.locator("#no-results")).to_have_text(service_msg.NO_RESULTS)
    frame.locator("#back-to-events").click()
    expect(page).to_have_url(at("/race-results"))
    expect(frame.get_by_role("link", name=re.compile(SERIES_NAME))).to_be_visible()


def test_messages_not_from_the_frame_are_ignored(results_page: Page, raced):
    page, series = results_page, raced["series"]
    frame = _open_results(page, f"eventId={series.id}")
    expect(_current_day(frame)).to_have_text(service_msg.OVERALL)
    # Same origin, but not the frame: had it been followed, Back would land on Day 2.
    page.evaluate(f"window.postMessage({{type: 'single', eventId: {series.id}, dayId: 2}}, '*')")
    frame.get_by_role("link", name="Day 1", exact=True).click()
    expect(page).to_have_url(at("/race-results", f"eventId={series.id}&dayId=1"))
    page.go_back()
    expect(page).to_have_url(at("/race-results", f"eventId={series.id}"))


def test_results_fit_a_phone(phone_page: Page, raced):
    page, series = phone_page, raced["series"]
    returning_rider(page)
    expect(page).to_have_url(at("/user/activities"))
    frame = _open_results(page, f"eventId={series.id}")
    expect(frame.locator("#standings tbody tr").first).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"/race-results is {width}px wide on a 375px phone"
    # The whole table, W/kg included, fits the frame.
    table = frame.locator(".table-wrap")
    assert table.evaluate("(wrap) => wrap.scrollWidth <= wrap.clientWidth")
