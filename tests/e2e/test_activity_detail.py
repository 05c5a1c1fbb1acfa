"""The activity detail view: header, tiles, five graphs with their hover, download, back link, failures."""

import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from cycling_site.embedded.activity.demo_rides import write_fit
from cycling_site.embedded.activity.models import Ride, RideData
from cycling_site.messages import activities as msg
from tests.activity_support import EDGE810, add_ride, fixture_bytes
from tests.e2e.helpers import at, new_account, returning_rider
from tests.e2e.test_dashboard import DASHBOARD, open_activities


def test_analysis_opens_the_rides_detail(page: Page, db: Session):
    open_activities(page)
    row = page.locator(".activity-row").first
    file_id = row.get_attribute("data-file-id")
    ride = db.exec(select(Ride).where(Ride.file_id == file_id)).one()
    row.locator(".analysis-link").click()
    expect(page).to_have_url(at(f"{DASHBOARD}/{file_id}"))
    expect(page.locator("#detail-title")).to_have_text(ride.title)
    expect(page.locator("#detail-route")).to_have_text(ride.route_name)
    expect(page.locator("#detail-date")).to_have_text(re.compile(r"^\d{2}/\d{2}/\d{4}$"))
    expect(page.locator("#detail-gender")).to_have_text("FEMALE")
    expect(page.locator("#detail-category")).to_have_text("CAT 2")
    expect(page.locator("#tile-watts")).to_have_text(f"{round(ride.avg_power)} W")
    expect(page.locator("#tile-work")).to_have_text(f"{round(ride.work_kj):,} kJ")
    expect(page.locator("#tile-load")).to_have_text(f"{ride.training_load:.1f}")
    expect(page.locator("#tile-intensity")).to_have_text(f"{round(ride.intensity * 100)} %")
    for key in ("altitude", "power", "speed", "heartRate", "cadence"):
        graph = page.locator(f"#graph-{key}")
        # A graph is drawn when the rider scrolls near it (to its summary line, just above).
        page.locator(f"#summary-{key}").scroll_into_view_if_needed()
        expect(graph.locator(".recharts-surface")).to_be_visible()
        assert graph.bounding_box()["height"] == 220
    expect(page.locator("#summary-power")).to_have_text(re.compile(r"^AVG \d+ W · MAX \d+ W · MIN \d+ W$"))
    expect(page.locator("#summary-speed")).to_have_text(re.compile(r"^AVG \d+ km/h · MAX \d+ km/h$"))
    expect(page.locator("#summary-heartRate")).to_have_text(
        re.compile(r"^AVG \d+ bpm · MAX \d+ bpm · MIN \d+ bpm$")
    )
    expect(page.locator("#summary-cadence")).to_have_text(re.compile(r"^AVG \d+ rpm · MAX \d+ rpm$"))
    page.locator("#back-to-activities").click()
    expect(page).to_have_url(at(DASHBOARD + "#activities"))
    expect(page.locator("#tab-activities")).to_have_attribute("aria-selected", "true")


def test_hovering_a_graph_shows_value_time_and_distance(page: Page):
    open_activities(page)
    page.locator(".activity-row .analysis-link").first.click()
    graph = page.locator("#graph-power .recharts-surface")
    expect(graph).to_be_visible()
    graph.scroll_into_view_if_needed()
    box = graph.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tooltip = page.locator("#graph-power .recharts-tooltip-wrapper")
    expect(tooltip).to_contain_text(re.compile(r"Power: \d+ W"))
    expect(tooltip).to_contain_text(re.compile(r"Time \d+:\d{2}:\d{2}"))
    expect(tooltip).to_contain_text(re.compile(r"Distance [\d.]+ km"))


def test_the_elevation_axis_labels_every_twelfth_tick(page: Page, db: Session):
    account = new_account(db, "climber@example.com")
    ride = add_ride(db, account.uuid, fixture_bytes(EDGE810), ftp=315, title="Vector")
    returning_rider(page, "climber@example.com", path=f"/auth/login?redirect={DASHBOARD}/{ride.file_id}")
    expect(page.locator("#graph-altitude .recharts-surface")).to_be_visible()
    ticks = page.locator("#graph-altitude .recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-label")
    expect(ticks.first).to_be_attached()
    texts = ticks.evaluate_all("ticks => ticks.map((tick) => tick.textContent)")
    assert len(texts) > 24
    assert [i for i, text in enumerate(texts) if text] == list(range(0, len(texts), 12))
    assert all(text.endswith(" km") for text in texts if text)


def test_download_from_the_detail_view(page: Page, db: Session):
    open_activities(page)
    row = page.locator(".activity-row").first
    file_id = row.get_attribute("data-file-id")
    row.locator(".analysis-link").click()
    expect(page.locator("#detail-title")).to_be_visible()
    with page.expect_download() as info:
        page.locator("#detail-download").click()
    stored = db.exec(
        select(RideData.fit_file).join(Ride, Ride.id == RideData.ride_id).where(Ride.file_id == file_id)
    ).one()
    assert Path(info.value.path()).read_bytes() == stored


def test_an_unknown_or_foreign_ride_cannot_be_fetched(page: Page, db: Session):
    other = new_account(db, "someone.else@example.com")
    theirs = add_ride(db, other.uuid, fixture_bytes(EDGE810), ftp=315)
    returning_rider(page, path=f"/auth/login?redirect={DASHBOARD}/{theirs.file_id}")
    expect(page.locator("#detail-error")).to_have_text(msg.DETAIL_FAILED)
    expect(page.locator("#detail-title")).to_have_count(0)
    page.goto(f"{DASHBOARD}/not-a-ride")
    expect(page.locator("#detail-error")).to_have_text(msg.DETAIL_FAILED)


def test_the_detail_view_on_a_phone(phone_page: Page):
    returning_rider(phone_page, path=f"/auth/login?redirect={DASHBOARD}%23activities")
    phone_page.locator(".activity-card .analysis-link").first.click()
    # The graphs more than a screen below are drawn when the rider scrolls near them.
    expect(phone_page.locator("#graph-altitude .recharts-surface")).to_be_visible()
    expect(phone_page.locator("#graph-cadence .recharts-surface")).to_have_count(0)
    phone_page.locator("#summary-cadence").scroll_into_view_if_needed()
    expect(phone_page.locator("#graph-cadence .recharts-surface")).to_be_visible()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 375


def test_a_ride_without_power_says_so_instead_of_an_empty_graph(page: Page, db: Session):
    account = new_account(db, "no.power@example.com")
    n = 1200
    data = write_fit(
        datetime(2026, 10, 5, 4, 0, tzinfo=UTC),
        "running",
        power=np.full(n, np.nan),
        heart_rate=np.full(n, 150.0),
        cadence=np.full(n, np.nan),
        speed=np.full(n, 3.0),
        altitude=np.full(n, 12.0),
        distance=np.arange(n) * 3.0,
    )
    ride = add_ride(db, account.uuid, data, title="Morning run")
    returning_rider(page, "no.power@example.com", path=f"/auth/login?redirect={DASHBOARD}/{ride.file_id}")
    expect(page.locator("#detail-title")).to_have_text("Morning run")
    expect(page.locator("#tile-watts")).to_have_text("-")
    expect(page.locator("#graph-power-empty")).to_have_text("This ride has no power data.")
    expect(page.locator("#graph-cadence-empty")).to_have_text("This ride has no cadence data.")
    page.locator("#summary-heartRate").scroll_into_view_if_needed()
    expect(page.locator("#graph-heartRate .recharts-surface")).to_be_visible()
