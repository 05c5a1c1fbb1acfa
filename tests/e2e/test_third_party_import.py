"""Third-party import as a rider goes through it on the dashboard's Overview tab: the offer, the wizard with
each step's messages, proof files (too many, spoofed), the success screen, review, race control's decision
(made through the service, as the console makes it), Congratulations and Got It, the Other Platform column,
a decline with its re-import, and the phone layout."""

import re

from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from cycling_site.messages import registration as file_msg
from cycling_site.messages import third_party_import as msg
from cycling_site.models import Account, RiderFile
from cycling_site.models.third_party_import import ImportStatus, ThirdPartyImport
from cycling_site.services import third_party_import as imports
from tests import file_samples
from tests.e2e.helpers import new_account, returning_rider, wait_dashboard

DASHBOARD = "/user/activities"


def open_overview(page: Page, email: str) -> None:
    returning_rider(page, email, path=f"/auth/login?redirect={DASHBOARD}")
    wait_dashboard(page)


def reviewer(db: Session) -> Account:
    return db.exec(select(Account).where(Account.email == "racecontrol@example.com")).one()


def import_of(db: Session, account: Account) -> ThirdPartyImport | None:
    db.expire_all()
    return imports.latest(db, account)


def proofs_of(db: Session, account: Account) -> int:
    db.expire_all()
    return len(db.exec(select(RiderFile).where(RiderFile.account_id == account.id)).all())


def file(name: str, data: bytes, mime: str) -> dict:
    return {"name": name, "mimeType": mime, "buffer": data}


def choose_files(page: Page, files: list[dict]) -> None:
    page.locator("#import-proofs input[type=file]").set_input_files(files)


def upload_files(page: Page, files: list[dict]) -> None:
    """Chooses files the browser sends, and waits until the site has answered them."""
    with page.expect_response(lambda response: "/_upload" in response.url) as answer:
        choose_files(page, files)
    answer.value.finished()


def expect_error(page: Page, field: str, message: str) -> None:
    expect(page.locator(f"#{field}-error")).to_have_text(message)


def press_next(page: Page) -> None:
    page.locator("#import-next").click()


def expect_title(page: Page, title: str) -> None:
    expect(page.locator("#import-wizard")).to_have_accessible_name(title)


def choose_platform(page: Page, platform: str) -> None:
    page.locator(f"#platform-{platform.lower().replace(' ', '-')}").click()
    press_next(page)
    expect_title(page, msg.STEP_STATS.format(platform=platform))


def fill_stats(page: Page, days="3", hours="4", minutes="30", distance="100", unit="miles", elevation="2500"):
    for name, value in (("days", days), ("hours", hours), ("minutes", minutes), ("distance", distance)):
        page.locator(f"#{name}").fill(value)
    page.locator("#distance_unit").select_option(unit)
    page.locator("#elevation").fill(elevation)


def other_platform_cells(page: Page) -> list[str]:
    return page.locator("#progress-table .other-platform-cell").all_inner_texts()


def test_import_from_offer_to_approval_and_the_other_platform_column(page: Page, db: Session):
    rider = new_account(db, "import.approved@example.com", firstname="Imran")
    open_overview(page, rider.email)
    offer = page.locator("#import-banner-offer")
    expect(offer).to_contain_text(msg.OFFER_TEXT)
    expect(page.locator("#progress-table")).to_be_visible()
    expect(page.locator("#other-platform-header")).to_have_count(0)

    offer.locator("#import-open").click()
    expect(page.locator("#import-wizard")).to_be_visible()
    expect_title(page, msg.STEP_PLATFORM)
    press_next(page)
    expect_error(page, "migration_platform", msg.PLATFORM_REQUIRED)
    choose_platform(page, "Strava")

    # Step 2: every rule, with its message under its field.
    fill_stats(page, days="-1", hours="24", minutes="1.5", distance="", elevation="")
    press_next(page)
    expect_error(page, "days", msg.DAYS_NEGATIVE)
    expect_error(page, "hours", msg.HOURS_RANGE)
    expect_error(page, "minutes", msg.TIME_INTEGER)
    expect_error(page, "distance", msg.DISTANCE_REQUIRED)
    expect_error(page, "elevation", msg.ELEVATION_REQUIRED)
    fill_stats(page, days="", minutes="60", distance="far")
    press_next(page)
    expect_error(page, "days", msg.TIME_REQUIRED)
    expect_error(page, "minutes", msg.MINUTES_RANGE)
    expect_error(page, "distance", msg.DISTANCE_INVALID.format(most=imports.MAX_DISTANCE))
    expect(page.locator("#elevation-error")).to_have_count(0)
    fill_stats(page)
    press_next(page)
    expect_title(page, msg.STEP_PROOF.format(platform="Strava"))

    # Back keeps what was typed.
    page.locator("#import-back").click()
    expect_title(page, msg.STEP_STATS.format(platform="Strava"))
    expect(page.locator("#days")).to_have_value("3")
    expect(page.locator("#distance_unit")).to_have_value("miles")
    press_next(page)
    expect_title(page, msg.STEP_PROOF.format(platform="Strava"))

    # Step 3: the link and the files.
    page.locator("#import-next").click()
    expect_error(page, "profile_link", msg.PROFILE_LINK_REQUIRED)
    expect_error(page, "proof_files", msg.PROOF_REQUIRED)
    page.locator("#profile_link").fill("ftp://www.strava.com/athletes/42")
    page.locator("#import-next").click()
    expect_error(page, "profile_link", msg.PROFILE_LINK_INVALID)

    eleven = [file(f"totals-{n}.png", file_samples.png(), "image/png") for n in range(11)]
    # The dropzone refuses them all, yet still sends its (empty) list of accepted files: let that answer
    # arrive before the next files go.
    upload_files(page, eleven)
    expect(page.locator("#proof-files-alert")).to_have_text(msg.TOO_MANY_FILES)
    upload_files(page, [file("photo.jpg", file_samples.text_as_jpeg(), "image/jpeg")])
    expect_error(page, "proof_files", file_msg.INVALID_FILE_TYPE)
    assert proofs_of(db, rider) == 0
    upload_files(
        page,
        [
            file("totals.png", file_samples.png(), "image/png"),
            file("export.pdf", file_samples.pdf(), "application/pdf"),
        ],
    )
    expect(page.locator(".proof-file")).to_have_text(["totals.png", "export.pdf"])
    expect(page.locator("#proof_files-error")).to_have_count(0)
    page.locator("#profile_link").fill("https://www.strava.com/athletes/42")
    page.locator("#import-next").click()

    success = page.locator("#import-success")
    expect(success).to_contain_text(msg.SUBMITTED)
    expect(success).to_contain_text(msg.SUBMITTED_TEXT)
    expect(page.get_by_role("dialog")).to_have_accessible_name(msg.SUBMITTED)
    row = import_of(db, rider)
    assert row.status == ImportStatus.submitted and row.migration_platform == "Strava"
    assert row.total_ride_time == (3 * 24 + 4) * 3600 + 30 * 60
    assert abs(row.total_distance - 160.9344) < 1e-9 and row.total_elevation == 2500
    assert len(row.proof_file_ids) == 2 and proofs_of(db, rider) == 2

    with page.expect_navigation():
        page.locator("#import-done").click()
    expect(page.locator("#import-banner-submitted")).to_contain_text(msg.UNDER_REVIEW_TEXT)
    expect(page.locator("#import-open")).to_have_count(0)

    imports.decide(db, reviewer(db), row.id, True, "")
    page.reload()
    congratulations = page.locator("#import-banner-approved")
    expect(congratulations).to_contain_text(msg.APPROVED_TITLE)
    expect(congratulations).to_contain_text(msg.APPROVED_TEXT.format(platform="Strava"))
    expect(page.locator("#other-platform-header")).to_have_text("OTHER PLATFORM")
    expect(page.locator("#progress-table thead th").nth(2)).to_have_text("OTHER PLATFORM")
    assert other_platform_cells(page) == ["76.5 h", "-", "160.9 KM", "2,500 M", "-", "-"]

    congratulations.locator("#import-got-it").click()
    expect(page.locator("#import-banner-approved")).to_have_count(0)
    assert import_of(db, rider).has_seen
    page.reload()
    expect(page.locator("#other-platform-header")).to_be_visible()
    expect(page.locator("[id^=import-banner]")).to_have_count(0)


def test_a_declined_import_is_imported_again(page: Page, db: Session):
    rider = new_account(db, "import.declined@example.com")
    db.add(
        ThirdPartyImport(
            account_id=rider.id,
            migration_platform="Zwift",
            total_ride_time=3600,
            total_distance=30,
            total_elevation=200,
            profile_link="https://zwift.com/me",
        )
    )
    db.commit()
    imports.decide(db, reviewer(db), import_of(db, rider).id, False, "The totals on the screenshot differ.")
    open_overview(page, rider.email)
    declined = page.locator("#import-banner-rejected")
    expect(declined.locator("#import-declined-text")).to_have_text(msg.DECLINED)
    expect(declined).to_contain_text("The totals on the screenshot differ.")
    expect(page.locator("#other-platform-header")).to_have_count(0)

    declined.locator("#import-reimport").click()
    expect_title(page, msg.STEP_PLATFORM)
    choose_platform(page, "Trainer road")
    fill_stats(page, days="0", hours="12", minutes="0", distance="321.5", unit="kilometers", elevation="4000")
    press_next(page)
    expect_title(page, msg.STEP_PROOF.format(platform="Trainer road"))
    upload_files(page, [file("tr.jpg", file_samples.jpeg(), "image/jpeg")])
    page.locator("#profile_link").fill("https://www.trainerroad.com/app/profile/rider")
    page.locator("#import-next").click()
    expect(page.locator("#import-success")).to_contain_text(msg.SUBMITTED)
    row = import_of(db, rider)
    assert (row.status, row.migration_platform, row.total_distance) == ("submitted", "Trainer road", 321.5)
    with page.expect_navigation():
        page.locator("#import-done").click()
    expect(page.locator("#import-banner-submitted")).to_be_visible()


def test_phone_layout_and_a_second_submit_while_one_waits(phone_page: Page, db: Session):
    page = phone_page
    rider = new_account(db, "import.phone@example.com")
    open_overview(page, rider.email)
    expect(page.locator("#import-banner-offer")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("#import-open").click()
    choose_platform(page, "Bkool")
    fill_stats(page)
    press_next(page)
    upload_files(page, [file("bkool.png", file_samples.png(), "image/png")])
    page.locator("#profile_link").fill("https://www.bkool.com/rider/1")
    wizard = page.locator("#import-wizard")
    box = wizard.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    # Meanwhile an import of this rider arrived another way (another tab, the API): this one is refused.
    db.add(
        ThirdPartyImport(
            account_id=rider.id,
            migration_platform="Rouvy",
            total_ride_time=60,
            total_distance=1,
            total_elevation=1,
            profile_link="https://rouvy.com/me",
        )
    )
    db.commit()
    page.locator("#import-next").click()
    expect(page.locator("#import-form-error")).to_have_text(msg.ALREADY_WAITING)
    db.expire_all()
    rows = db.exec(select(ThirdPartyImport).where(ThirdPartyImport.account_id == rider.id)).all()
    assert [row.migration_platform for row in rows] == ["Rouvy"]
    page.locator("#import-close").click()
    expect(wizard).to_have_count(0)
    page.reload()
    expect(page.locator("#import-banner-submitted")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    expect(page.locator("#import-banner-submitted")).to_have_text(re.compile(msg.UNDER_REVIEW_TITLE))
