"""Rider verification as riders and race control use it: the dashboard's verification alert, the
pre-verification form with its messages, the race-control console deciding submissions and registrations,
and the refusal for everyone else."""

import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session, select

from cycling_site.messages import events as events_msg
from cycling_site.messages import pre_verification as msg
from cycling_site.messages import race_control as rc_msg
from cycling_site.messages import third_party_import as import_msg
from cycling_site.models import Account, Event, PreVerification, Registration, RiderFile, WeightSubmission
from cycling_site.services import pre_verification, rider_files, weigh_ins
from cycling_site.services import third_party_import as imports
from cycling_site.services.pre_verification import Form
from tests import file_samples
from tests.e2e.conftest import DESKTOP, Site
from tests.e2e.helpers import RIDER, at, new_account, returning_rider, wait_dashboard

FORM = "/pre-verification-form"
DASHBOARD = "/user/activities"
CONSOLE = "/race-control"
RACE_CONTROL = "racecontrol@example.com"
ADMIN = "admin@example.com"
GOOD = Form(
    smartTrainer="Tacx Neo 3M",
    secondaryPowerSource="Hub power meter",
    weight="66.6",
    height="174",
    videoLink="https://www.youtube.com/watch?v=weighin",
    stravaLink="https://www.strava.com/athletes/99",
)


def submitted(db: Session, email: str) -> tuple[Account, PreVerification]:
    rider = new_account(db, email, firstname="Nadia", lastname="Farouk")
    row = pre_verification.submit(db, rider, GOOD)
    return rider, row


def stored_file(
    site: Site, db: Session, rider: Account, name: str, data: bytes, kind: str = "proof"
) -> RiderFile:
    """A file the rider gave, kept where the site keeps rider files (beside its database)."""
    stored_as = f"{uuid.uuid4().hex}.jpg"
    folder = Path(site.db_url.removeprefix("sqlite:///")).parent / rider_files.FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / stored_as).write_bytes(data)
    row = RiderFile(
        account_id=rider.id,
        kind=kind,
        name=name,
        content_type="image/jpeg",
        stored_as=stored_as,
        size=len(data),
    )
    db.add(row)
    db.commit()
    return row


def fill_form(page: Page, weight: str = "66.6") -> None:
    page.select_option("#smartTrainer", "Tacx Neo 3M")
    page.select_option("#secondaryPowerSource", "Hub power meter")
    page.fill("#weight", weight)
    page.fill("#height", "174")
    page.fill("#videoLink", "https://www.youtube.com/watch?v=weighin")
    page.fill("#stravaLink", "https://www.strava.com/athletes/99")
    page.fill("#message", "Scale calibrated.")


def console_page(browser: Browser, site: Site, email: str = RACE_CONTROL) -> Page:
    page = browser.new_context(base_url=site.url, viewport=DESKTOP).new_page()
    returning_rider(page, email, path=f"/auth/login?redirect={CONSOLE}")
    expect(page.locator("#queues")).to_be_visible()
    return page


def decide(console: Page, item_id: int, approve: bool, reason: str = "", category: str = "") -> None:
    item = console.locator(f"#item-{item_id}")
    item.locator(".item-approve" if approve else ".item-reject").click()
    if category:
        console.select_option("#category", category)
    if reason:
        console.fill("#reason", reason)
    console.locator("#decision-confirm").click()


@pytest.mark.multi_worker
def test_a_rider_submits_and_race_control_approves_with_cat_2(
    page: Page, browser: Browser, site: Site, db: Session
):
    new_account(db, "verify.me@example.com", firstname="Nadia", lastname="Farouk")
    returning_rider(page, "verify.me@example.com", path=f"/auth/login?redirect={DASHBOARD}")
    alert = page.locator("#verification-alert")
    expect(alert).to_contain_text(msg.ALERT_VERIFY_TITLE)
    page.locator("#verification-verify").click()
    expect(page).to_have_url(at(FORM))
    expect(page.get_by_role("heading", name=msg.TITLE)).to_be_visible()
    expect(page.locator("#verification-rules")).to_contain_text(msg.VIDEO_RULE)
    expect(page.get_by_text("within 72 hours")).to_be_visible()

    page.locator("#verification-submit").click()
    errors = page.locator("#verification-errors")
    expect(errors).to_contain_text(msg.ERRORS_HEADING)
    for message in (
        msg.SMART_TRAINER_REQUIRED,
        msg.POWER_SOURCE_REQUIRED,
        msg.WEIGHT_REQUIRED,
        msg.HEIGHT_REQUIRED,
        msg.VIDEO_REQUIRED,
        msg.STRAVA_REQUIRED,
    ):
        expect(errors).to_contain_text(message)
    expect(page.locator("#weight-error")).to_have_text(msg.WEIGHT_REQUIRED)
    expect(page.locator("#weight")).to_have_attribute("aria-invalid", "true")

    fill_form(page, weight="24.5")
    page.fill("#videoLink", "youtube.com/watch?v=weighin")
    page.locator("#verification-submit").click()
    expect(page.locator("#weight-error")).to_have_text(msg.WEIGHT_INVALID)
    expect(page.locator("#videoLink-error")).to_have_text(msg.VIDEO_INVALID)
    expect(page.locator("#verification-errors li")).to_have_count(2)

    page.fill("#weight", "66.6")
    page.fill("#videoLink", "https://www.youtube.com/watch?v=weighin")
    page.locator("#verification-submit").click()
    expect(page.locator("#verification-thank-you")).to_contain_text(msg.THANK_YOU)
    expect(page.locator("#verification-thank-you")).to_contain_text("within 12 hours")
    expect(page).to_have_url(at(f"{DASHBOARD}#profile"), timeout=10_000)
    expect(alert).to_contain_text(msg.ALERT_PENDING_TITLE)
    page.locator("#verification-got-it").click()
    expect(alert).to_have_count(0)

    rider = db.exec(select(Account).where(Account.email == "verify.me@example.com")).one()
    row = db.exec(select(PreVerification).where(PreVerification.account_id == rider.id)).one()
    console = console_page(browser, site)
    expect(console.locator("#queue-pre_verification")).to_be_visible()
    item = console.locator(f"#item-{row.id}")
    expect(item).to_contain_text("Tacx Neo 3M")
    expect(item).to_contain_text("verify.me@example.com")
    item.locator(".item-approve").click()
    console.locator("#decision-confirm").click()
    expect(console.locator("#decision-error")).to_have_text(msg.CATEGORY_REQUIRED)
    console.select_option("#category", "2")
    console.locator("#decision-confirm").click()
    expect(console.locator("#console-notice")).to_have_text(rc_msg.DECIDED.format(decision="approved"))
    expect(console.locator(f"#item-{row.id}")).to_have_count(0)
    console.get_by_role("radio", name="Approved").click()
    approved = console.locator(f"#item-{row.id}")
    expect(approved.locator(".item-history")).to_contain_text("Race Control approved on")
    expect(approved).to_contain_text("CAT 2")
    console.context.close()

    page.goto(DASHBOARD)
    expect(page.locator("#rider-category")).to_have_text("CAT 2")
    expect(page.locator("#rider-weight")).to_have_text("66.6")
    wait_dashboard(page)
    expect(alert).to_have_count(0)
    page.goto(FORM)
    expect(page).to_have_url(at(f"{DASHBOARD}#profile"))


def test_a_rejection_shows_resubmit_with_the_reason(page: Page, browser: Browser, site: Site, db: Session):
    _rider, row = submitted(db, "rejected.rider@example.com")
    console = console_page(browser, site)
    decide(console, row.id, approve=False)
    expect(console.locator("#decision-error")).to_have_text(rc_msg.REASON_REQUIRED)
    console.fill("#reason", "The scale is not visible in the video.")
    console.locator("#decision-confirm").click()
    expect(console.locator("#console-notice")).to_have_text(rc_msg.DECIDED.format(decision="rejected"))
    console.context.close()

    returning_rider(page, "rejected.rider@example.com", path=f"/auth/login?redirect={DASHBOARD}")
    alert = page.locator("#verification-alert")
    expect(alert).to_contain_text(msg.ALERT_REJECTED_TITLE)
    expect(page.locator("#verification-reason")).to_have_text(
        "Reason: The scale is not visible in the video."
    )
    page.locator("#verification-resubmit").click()
    expect(page).to_have_url(at(FORM))
    fill_form(page)
    page.locator("#verification-submit").click()
    expect(page.locator("#verification-thank-you")).to_be_visible()
    db.expire_all()
    rows = db.exec(select(PreVerification).where(PreVerification.account_id == row.account_id)).all()
    assert [r.status for r in rows] == ["rejected", "pending"]


def test_a_second_submission_from_another_tab_is_refused(
    page: Page, browser: Browser, site: Site, db: Session
):
    new_account(db, "two.tabs@example.com")
    returning_rider(page, "two.tabs@example.com", path=f"/auth/login?redirect={FORM}")
    # Signed in (the session cookies set) before the second tab opens.
    expect(page.locator("#smartTrainer")).to_be_visible()
    other = page.context.new_page()
    other.goto(FORM)
    for tab in (page, other):
        fill_form(tab)
    page.locator("#verification-submit").click()
    expect(page.locator("#verification-thank-you")).to_be_visible()
    other.locator("#verification-submit").click()
    expect(other.locator("#verification-form-error")).to_have_text(msg.ALREADY_SUBMITTED)
    expect(other.get_by_text(msg.SUBMISSION_FAILED)).to_be_visible()
    db.expire_all()
    rider = db.exec(select(Account).where(Account.email == "two.tabs@example.com")).one()
    assert len(db.exec(select(PreVerification).where(PreVerification.account_id == rider.id)).all()) == 1


@pytest.mark.multi_worker
def test_two_race_controllers_deciding_one_item_decide_once(browser: Browser, site: Site, db: Session):
    _rider, row = submitted(db, "contested.rider@example.com")
    first, second = console_page(browser, site), console_page(browser, site, ADMIN)
    first.locator(f"#item-{row.id} .item-approve").click()
    second.locator(f"#item-{row.id} .item-reject").click()
    first.select_option("#category", "1")
    first.locator("#decision-confirm").click()
    expect(first.locator("#console-notice")).to_be_visible()
    second.fill("#reason", "Too late")
    second.locator("#decision-confirm").click()
    expect(second.locator("#decision-error")).to_have_text(rc_msg.ALREADY_DECIDED)
    db.expire_all()
    rider = db.get(Account, row.account_id)
    assert (rider.verification_status, rider.category_id) == ("approved", 1)
    first.context.close()
    second.context.close()


def test_registrations_approved_from_the_console_change_the_event_list(
    page: Page, browser: Browser, site: Site, db: Session
):
    rider = new_account(db, "console.registrant@example.com", gender=1, firstname="Huda", lastname="Kareem")
    event = db.exec(select(Event).where(Event.name == "Corniche Crit")).one()
    proof = stored_file(site, db, rider, "huda-birth-certificate.jpg", file_samples.jpeg())
    registration = Registration(
        event_id=event.id,
        account_id=rider.id,
        first_name="Huda",
        last_name="Kareem",
        email=rider.email,
        gender=1,
        proof_file_id=proof.id,
    )
    db.add(registration)
    db.commit()
    console = console_page(browser, site)
    console.locator("#queue-registration").click()
    item = console.locator(f"#item-{registration.id}")
    expect(item).to_contain_text("Corniche Crit")
    # The link opens in a new tab, which downloads the file under its own name.
    with console.context.expect_event(
        "response", lambda answer: "/api/events/files/" in answer.url
    ) as served:
        item.locator(".item-file", has_text="huda-birth-certificate.jpg").click()
    answer = served.value
    assert answer.status == 200 and answer.headers["content-type"] == "image/jpeg"
    assert "huda-birth-certificate.jpg" in answer.headers["content-disposition"]
    decide(console, registration.id, approve=True)
    expect(console.locator("#console-notice")).to_be_visible()
    console.context.close()

    returning_rider(page, rider.email, path="/auth/login?redirect=/events")
    card = page.locator(".event-summary", has_text="Corniche Crit").first
    expect(card.locator(".event-state")).to_have_text(events_msg.APPROVED)


@pytest.mark.multi_worker
def test_race_control_approves_an_import_after_opening_its_proof(
    page: Page, browser: Browser, site: Site, db: Session
):
    rider = new_account(db, "console.importer@example.com", firstname="Rami", lastname="Aziz")
    proof = stored_file(site, db, rider, "rouvy-totals.jpg", file_samples.jpeg(), kind=imports.PROOF_KIND)
    form = imports.ImportForm(
        migration_platform="Rouvy",
        days="2",
        hours="5",
        minutes="0",
        distance="1000",
        distance_unit="kilometers",
        elevation="12000",
        profile_link="https://rouvy.com/rami",
    )
    row = imports.submit(db, rider, form, [str(proof.id)])
    console = console_page(browser, site)
    console.locator("#queue-third_party_import").click()
    item = console.locator(f"#item-{row.id}")
    expect(item).to_contain_text("Rouvy")
    with console.context.expect_event(
        "response", lambda answer: "/api/events/files/" in answer.url
    ) as served:
        item.locator(".item-file", has_text="rouvy-totals.jpg").click()
    assert served.value.status == 200
    decide(console, row.id, approve=True)
    expect(console.locator("#console-notice")).to_have_text(rc_msg.DECIDED.format(decision="approved"))
    console.context.close()

    returning_rider(page, rider.email, path=f"/auth/login?redirect={DASHBOARD}")
    expect(page.locator("#import-banner-approved")).to_contain_text(import_msg.APPROVED_TITLE)


def test_race_control_rejects_a_weigh_in_after_opening_its_proof(browser: Browser, site: Site, db: Session):
    rider = new_account(db, "console.weigher@example.com", firstname="Omar", lastname="Said")
    event = db.exec(select(Event).where(Event.name == "Corniche Crit")).one()
    proof = stored_file(site, db, rider, "scale-photo.jpg", file_samples.jpeg(), kind=weigh_ins.PROOF_KIND)
    submission = WeightSubmission(
        account_id=rider.id, event_id=event.id, type="pre_weight", weight_kg=71.4, proof_file_id=proof.id
    )
    db.add(submission)
    db.commit()
    console = console_page(browser, site)
    console.locator("#queue-weight_submission").click()
    item = console.locator(f"#item-{submission.id}")
    expect(item).to_contain_text("Pre-Weight Submission: Corniche Crit (pending)")
    expect(item).to_contain_text("71.4 kg")
    with console.context.expect_event(
        "response", lambda answer: "/api/events/files/" in answer.url
    ) as served:
        item.locator(".item-file", has_text="scale-photo.jpg").click()
    assert served.value.status == 200
    decide(console, submission.id, approve=False, reason="The scale's display is not readable.")
    expect(console.locator("#console-notice")).to_have_text(rc_msg.DECIDED.format(decision="rejected"))
    console.get_by_role("radio", name="Rejected").click()
    expect(console.locator(f"#item-{submission.id} .item-history")).to_contain_text(
        "The scale's display is not readable."
    )
    console.context.close()
    db.expire_all()
    assert db.get(WeightSubmission, submission.id).status == "rejected"


def test_riders_are_refused_the_console(page: Page):
    returning_rider(page, RIDER, path=f"/auth/login?redirect={CONSOLE}")
    expect(page.locator("#console-refused")).to_contain_text(rc_msg.NOT_RACE_CONTROL)
    expect(page.locator("#queues")).to_have_count(0)
    expect(page.locator(".review-item")).to_have_count(0)


def test_approved_riders_are_sent_from_the_form_to_their_profile(page: Page):
    returning_rider(page, RIDER, path=f"/auth/login?redirect={FORM}")
    expect(page).to_have_url(at(f"{DASHBOARD}#profile"))
    expect(page.locator("#rider-category")).to_have_text("CAT 2")
    expect(page.locator("#verification-alert")).to_have_count(0)


def test_cancel_asks_only_once_something_is_typed(page: Page, db: Session):
    new_account(db, "cancel.me@example.com")
    returning_rider(page, "cancel.me@example.com", path=f"/auth/login?redirect={DASHBOARD}")
    page.locator("#verification-verify").click()
    expect(page).to_have_url(at(FORM))
    page.locator("#verification-cancel").click()
    expect(page).to_have_url(at(DASHBOARD))
    page.locator("#verification-verify").click()
    page.fill("#height", "180")
    page.locator("#verification-cancel").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(msg.CANCEL_CONFIRM)
    page.locator("#cancel-keep").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#height")).to_have_value("180")
    page.locator("#verification-cancel").click()
    page.locator("#cancel-confirm").click()
    expect(page).to_have_url(at(DASHBOARD))
    db.expire_all()
    rider = db.exec(select(Account).where(Account.email == "cancel.me@example.com")).one()
    assert rider.verification_status == "not submitted"


def test_the_form_and_the_alert_on_a_phone(phone_page: Page, db: Session):
    new_account(db, "phone.verify@example.com")
    returning_rider(phone_page, "phone.verify@example.com", path=f"/auth/login?redirect={DASHBOARD}")
    expect(phone_page.locator("#verification-verify")).to_be_visible()
    phone_page.locator("#verification-verify").click()
    fill_form(phone_page)
    overflow = phone_page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    phone_page.locator("#verification-submit").click()
    expect(phone_page.locator("#verification-thank-you")).to_be_visible()
    expect(phone_page).to_have_url(at(f"{DASHBOARD}#profile"), timeout=10_000)
    expect(phone_page.locator("#verification-alert")).to_contain_text(msg.ALERT_PENDING_TITLE)
