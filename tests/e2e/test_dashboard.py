"""The rider dashboard as a rider uses it: header, Overview (curve, progress), Activities, compare, upload."""

import itertools
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from cycling_site.embedded.activity import rides
from cycling_site.embedded.activity.fit_files import NOT_FIT_MESSAGE
from cycling_site.embedded.activity.models import Ride, RideData
from cycling_site.messages import activities as msg
from cycling_site.models import Account
from tests.activity_support import FIXTURES, INDOOR, add_ride, small_fit
from tests.e2e.helpers import KID, at, choose_files, new_account, returning_rider, wait_dashboard

DASHBOARD = "/user/activities"
DATE = re.compile(r"^\d{2}/\d{2}/\d{4}$")


def open_dashboard(page: Page, email: str = "rider@example.com", hash_: str = "") -> None:
    returning_rider(page, email, path=f"/auth/login?redirect={DASHBOARD}{'%23' + hash_ if hash_ else ''}")
    wait_dashboard(page)


def open_activities(page: Page, email: str = "rider@example.com") -> None:
    open_dashboard(page, email)
    page.locator("#tab-activities").click()
    expect(page).to_have_url(at(DASHBOARD + "#activities"))
    expect(page.locator(".activity-row").first).to_be_visible()


def rider_with_rides(db: Session, email: str, count: int) -> Account:
    account = new_account(db, email, weight=70, ftp=250)
    start = datetime(2026, 9, 1, 5, 0, tzinfo=UTC)
    for day in range(count):
        add_ride(
            db,
            account.uuid,
            small_fit(start + timedelta(days=day), watts=150 + day, seconds=300),
            title=f"Ride {day + 1}",
        )
    return account


def test_the_header_shows_the_rider_and_the_overall_curve(page: Page):
    open_dashboard(page)
    expect(page.locator("#rider-name")).to_have_text("Layla Haddad")
    expect(page.locator("#rider-team")).to_have_text("Desert Falcons")
    expect(page.locator("#rider-gender")).to_have_text("FEMALE")
    expect(page.locator("#rider-category")).to_have_text("CAT 2")
    expect(page.locator("#rider-level")).to_have_text("18")
    expect(page.locator("#rider-ftp")).to_have_text("235")
    expect(page.locator("#rider-weight")).to_have_text("58.5")
    expect(page.locator("#rider-height")).to_have_text("168")
    expect(page.locator("#rider-age")).to_have_text(re.compile(r"^\d{2}$"))
    expect(page.locator("#rider-jersey")).to_have_attribute("src", "/jerseys/jersey-orange.svg")
    expect(page.get_by_role("img", name="Flag of United Arab Emirates")).to_be_visible()
    expect(page.locator("#tab-profile")).to_have_attribute("aria-selected", "true")
    curve = page.locator("#overall-curve")
    expect(curve.locator(".recharts-line")).to_have_count(2)
    expect(curve.locator(".recharts-legend-item")).to_have_text(["Power", "Power / weight"])
    page.locator("#edit-profile").click()
    expect(page).to_have_url(at("/user/profile"))


def test_the_charts_draw_their_axes_without_measuring_labels_and_no_labels_overlap_on_a_phone(
    phone_page: Page,
):
    open_dashboard(phone_page)
    curve_labels = "#overall-curve .recharts-xAxis-tick-labels text"
    expect(phone_page.locator(curve_labels).nth(4)).to_have_text("20m")
    phone_ticks = ["1s", "15s", "1m", "5m", "20m", "1h", "4h", "24h"]
    texts = phone_page.locator(curve_labels).all_text_contents()
    assert texts == phone_ticks[: len(texts)]
    month_labels = "#progress-chart .recharts-xAxis-tick-labels text"
    phone_page.locator("#progress-chart").scroll_into_view_if_needed()
    expect(phone_page.locator(month_labels).first).to_be_visible()
    assert phone_page.locator("#recharts_measurement_span").count() == 0
    for labels in (curve_labels, month_labels):
        boxes = phone_page.locator(labels).evaluate_all(
            "texts => texts.map((text) => [text.getBBox().x, text.getBBox().width])"
        )
        spans = [(x, x + width) for x, width in boxes]
        assert len(spans) > 3 and all(end < start for (_, end), (start, _) in itertools.pairwise(spans)), (
            spans
        )


def test_no_category_badge_until_verification_is_approved(page: Page, db: Session):
    new_account(db, "pending.badge@example.com", category_id=3, verification_status="pending")
    open_dashboard(page, "pending.badge@example.com")
    expect(page.locator("#rider-gender")).to_have_text("MEN")
    expect(page.locator("#rider-category")).to_have_count(0)


def test_progress_table_periods_and_data_types(page: Page):
    open_dashboard(page)
    table = page.locator("#progress-table")
    headers = table.locator("thead th")
    expect(headers).to_have_text(
        [
            "Figure",
            "OVERALL",
            re.compile(r"^YEARLY \(\d{4}\)$"),
            re.compile(r"^MONTHLY \(\w{3}\)$"),
            re.compile(r"^WEEKLY \(WEEK \d\)$"),
        ]
    )
    expect(table.locator("tbody th")).to_have_text(
        ["Time spent", "All rides", "Distance", "Elevation", "Longest ride", "Race"]
    )
    expect(table.locator("tbody tr").nth(0).locator("td").first).to_have_text(re.compile(r"^[\d,]+\.\d h$"))
    expect(table.locator("tbody tr").nth(2).locator("td").first).to_have_text(re.compile(r"KM$"))
    chart = page.locator("#progress-chart")
    chart.scroll_into_view_if_needed()
    expect(chart.get_by_text("Jan", exact=True)).to_be_visible()
    expect(chart).to_have_attribute("data-type", "distance")
    expect(chart.locator(".recharts-bar-rectangle path").first).to_have_attribute("fill", "#2563EB")
    page.locator("#progress-period").get_by_role("radio", name="THIS WEEK").click()
    expect(chart.get_by_text(re.compile(r"^Mon \d{2}$"))).to_be_visible()
    expect(chart.get_by_text("Jan", exact=True)).to_have_count(0)
    page.locator("#progress-period").get_by_role("radio", name="THIS MONTH").click()
    expect(chart.get_by_text("1", exact=True)).to_be_visible()
    page.locator("#progress-type").get_by_role("radio", name="ELEVATION").click()
    expect(chart).to_have_attribute("data-type", "elevation")
    expect(chart.locator(".recharts-bar-rectangle path").first).to_have_attribute("fill", "#F5B400")


def test_load_more_pages_until_the_last(page: Page, db: Session):
    rider_with_rides(db, "pager@example.com", 45)
    open_activities(page, "pager@example.com")
    rows = page.locator(".activity-row")
    expect(rows).to_have_count(20)
    expect(rows.first.locator("td").nth(2)).to_contain_text("Ride 45")
    page.locator("#load-more").click()
    expect(rows).to_have_count(40)
    page.locator("#load-more").click()
    expect(rows).to_have_count(45)
    expect(page.locator("#load-more")).to_have_count(0)
    expect(rows.last.locator("td").nth(2)).to_contain_text("Ride 1")


def test_sorting_ascending_starts_again_from_page_one(page: Page, db: Session):
    rider_with_rides(db, "sorter@example.com", 25)
    open_activities(page, "sorter@example.com")
    page.locator("#load-more").click()
    rows = page.locator(".activity-row")
    expect(rows).to_have_count(25)
    page.locator("#activities-sort").select_option("asc")
    expect(rows).to_have_count(20)
    expect(rows.first.locator("td").nth(2)).to_contain_text("Ride 1")
    expect(rows.first.locator("td").nth(1)).to_have_text("01/09/2026")
    expect(page.locator("#activities-sort option:checked")).to_have_text("SORT BY DATE ASC")
    expect(page.locator("#activities-type")).to_be_hidden()


def test_the_activity_row_shows_the_spec_columns(page: Page):
    open_activities(page)
    expect(page.locator("#activities-table thead th")).to_have_text(
        ["Compare", "DATE", "RIDE", "DIST", "ELEV", "W", "W/KG", "HEART", "TIME", "ANALYSIS", "DOWNLOAD"]
    )
    cells = page.locator(".activity-row").first.locator("td")
    expect(cells.nth(1)).to_have_text(DATE)
    expect(cells.nth(3)).to_have_text(re.compile(r" KM$"))
    expect(cells.nth(4)).to_have_text(re.compile(r" M$"))
    expect(cells.nth(8)).to_have_text(re.compile(r"^\d+:\d{2}:\d{2}$"))
    expect(page.get_by_label("type event").first).to_be_visible()


def test_compare_holds_two_rides_and_restores_the_overall_curve(page: Page):
    open_activities(page)
    boxes = page.locator(".activity-row .compare-checkbox")
    expect(page.locator("#activities-overall-curve")).to_be_visible()
    boxes.nth(0).click()
    expect(page.locator("#compare-curve .recharts-legend-item")).to_have_count(1)
    boxes.nth(1).click()
    expect(page.locator("#compare-curve .recharts-legend-item")).to_have_count(2)
    boxes.nth(2).click()
    expect(boxes.nth(0)).to_have_attribute("aria-checked", "false")
    expect(boxes.nth(1)).to_have_attribute("aria-checked", "true")
    expect(boxes.nth(2)).to_have_attribute("aria-checked", "true")
    expect(page.locator("#compare-curve .recharts-line")).to_have_count(2)
    boxes.nth(1).click()
    boxes.nth(2).click()
    expect(page.locator("#compare-curve")).to_have_count(0)
    expect(page.locator("#activities-overall-curve")).to_be_visible()


def test_clear_ends_the_comparison_and_the_rides_can_be_compared_again(page: Page):
    open_activities(page)
    boxes = page.locator(".activity-row .compare-checkbox")
    boxes.nth(0).click()
    boxes.nth(1).click()
    expect(page.locator("#compare-curve .recharts-line")).to_have_count(2)
    page.locator("#compare-clear").click()
    expect(page.locator("#compare-curve")).to_have_count(0)
    expect(page.locator("#activities-overall-curve")).to_be_visible()
    expect(boxes.nth(0)).to_have_attribute("aria-checked", "false")
    expect(boxes.nth(1)).to_have_attribute("aria-checked", "false")
    boxes.nth(1).click()
    expect(page.locator("#compare-curve .recharts-legend-item")).to_have_count(1)


@pytest.mark.multi_worker
def test_download_gives_the_original_fit_file(page: Page, db: Session):
    open_activities(page)
    row = page.locator(".activity-row").first
    file_id = row.get_attribute("data-file-id")
    with page.expect_download() as info:
        row.locator(".download-button").click()
    download = info.value
    stored = db.exec(
        select(RideData.fit_file).join(Ride, Ride.id == RideData.ride_id).where(Ride.file_id == file_id)
    ).one()
    assert Path(download.path()).read_bytes() == stored
    assert download.suggested_filename.endswith(".fit")


def test_a_failed_download_says_so(page: Page, db: Session):
    account = rider_with_rides(db, "vanishing@example.com", 1)
    open_activities(page, "vanishing@example.com")
    ride = db.exec(select(Ride).where(Ride.rider_uuid == account.uuid)).one()
    db.delete(db.get(RideData, ride.id))
    db.delete(ride)
    db.commit()
    page.locator(".activity-row .download-button").first.click()
    expect(page.locator("#download-error")).to_have_text(msg.DOWNLOAD_FAILED)


@pytest.mark.multi_worker
def test_a_rider_without_rides_sees_empty_states_and_uploads_one(page: Page, db: Session, tmp_path: Path):
    new_account(db, "first.ride@example.com", weight=70, ftp=250)
    open_dashboard(page, "first.ride@example.com")
    expect(page.locator("#overall-curve-empty")).to_have_text(msg.NO_CURVE)
    expect(page.locator("#progress-table tbody tr").nth(1).locator("td").first).to_have_text("0")
    page.locator("#tab-activities").click()
    expect(page.locator("#activities-empty .empty-text")).to_have_text(msg.NO_FILES)
    expect(page.locator("#activities-empty")).to_contain_text(msg.NO_FILES_HINT)
    expect(page.locator("#load-more")).to_have_count(0)
    choose_files(page.locator("#ride-upload input[type=file]"), str(FIXTURES / INDOOR))
    expect(page.locator("#upload-notice")).to_contain_text("Ride uploaded")
    expect(page.locator(".activity-row")).to_have_count(1)
    expect(page.locator("#activities-overall-curve .recharts-line")).to_have_count(2)
    again = tmp_path / "same-ride-again.fit"
    again.write_bytes((FIXTURES / INDOOR).read_bytes())
    choose_files(page.locator("#ride-upload input[type=file]"), str(again))
    expect(page.locator("#upload-error")).to_have_text(rides.ALREADY_UPLOADED)
    expect(page.locator(".activity-row")).to_have_count(1)


@pytest.mark.multi_worker
def test_a_day_long_ride_shows_its_progress_then_joins_the_list(page: Page, db: Session, tmp_path: Path):
    """The upload is a background event: the button tells how far it is (the labels it showed are recorded,
    as reading a day-long ride now takes a fraction of a second), then the ride joins the sortable list."""
    rider_with_rides(db, "long.ride@example.com", 3)
    open_dashboard(page, "long.ride@example.com", "activities")
    expect(page.locator(".activity-row").first).to_contain_text("Ride 3")
    day_long = tmp_path / "day-long.fit"
    day_long.write_bytes(small_fit(datetime(2026, 10, 2, 4, 0, tzinfo=UTC), seconds=24 * 3600))
    button = page.locator("#upload-button")
    expect(button).to_have_text(msg.UPLOAD_BUTTON)
    button.evaluate(
        """button => {
            window.uploadLabels = [];
            new MutationObserver(() => window.uploadLabels.push([button.textContent, button.disabled]))
                .observe(button, { subtree: true, childList: true, characterData: true, attributes: true });
        }"""
    )
    page.locator("#ride-upload input[type=file]").set_input_files(str(day_long))
    expect(page.locator("#upload-notice")).to_contain_text("Ride uploaded", timeout=60_000)
    expect(button).to_have_text(msg.UPLOAD_BUTTON)
    assert [msg.UPLOAD_PROCESSING, True] in page.evaluate("window.uploadLabels")
    expect(page.locator(".activity-row")).to_have_count(4)
    page.select_option("#activities-sort", "asc")
    expect(page.locator(".activity-row").first).to_contain_text("Ride 1")


@pytest.mark.multi_worker
def test_uploads_that_are_not_fit_files_are_refused(page: Page, db: Session, tmp_path: Path):
    new_account(db, "bad.upload@example.com")
    open_dashboard(page, "bad.upload@example.com", "activities")
    fake = tmp_path / "holiday.fit"
    fake.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(500))
    choose_files(page.locator("#ride-upload input[type=file]"), str(fake))
    expect(page.locator("#upload-error")).to_have_text(NOT_FIT_MESSAGE)
    text = tmp_path / "notes.txt"
    text.write_text("not a ride")
    choose_files(page.locator("#ride-upload input[type=file]"), str(text))
    expect(page.locator("#upload-error")).to_have_text(msg.NOT_A_FIT_NAME)
    expect(page.locator("#activities-empty")).to_be_visible()
    account = db.exec(select(Account).where(Account.email == "bad.upload@example.com")).one()
    assert db.exec(select(Ride).where(Ride.rider_uuid == account.uuid)).first() is None


def test_kids_never_see_the_shop(page: Page):
    open_dashboard(page, KID, "in-game-shop")
    expect(page).to_have_url(at(DASHBOARD + "#profile"))
    expect(page.locator("#tab-profile")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#tab-in-game-shop")).to_have_count(0)
    expect(page.locator("#rider-name")).to_have_text("Omar Haddad")


def test_the_shop_tab_opens_by_hash_for_adults(page: Page):
    open_dashboard(page, hash_="in-game-shop")
    expect(page.locator("#tab-in-game-shop")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#shop-panel #products .product-card").first).to_be_visible()
    page.locator("#tab-profile").click()
    expect(page).to_have_url(at(DASHBOARD + "#profile"))


def test_on_a_phone_activities_are_cards(phone_page: Page):
    open_dashboard(phone_page, hash_="activities")
    cards = phone_page.locator(".activity-card")
    expect(cards.first).to_be_visible()
    expect(phone_page.locator("#activities-table")).to_be_hidden()
    expect(cards.first).to_contain_text(re.compile(r"\d{2}/\d{2}/\d{4}"))
    cards.nth(0).locator(".compare-checkbox").click()
    expect(phone_page.locator("#compare-curve")).to_be_visible()
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
