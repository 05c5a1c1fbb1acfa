"""The registration wizard as a rider clicks through it: every step, its messages, files, the phone code
read from the outbox, the thank-you page, and the states that keep the form closed."""

import re
from datetime import date, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, col, select

from cycling_site.local_time import local
from cycling_site.messages import events as events_msg
from cycling_site.messages import registration as msg
from cycling_site.models import OutboxMessage
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event, Registration, RiderFile
from tests import file_samples
from tests.e2e.conftest import Site
from tests.e2e.helpers import at, new_account, returning_rider, wait_signed_in
from tests.e2e.test_events import register_for

# The site's day is Dubai's (GMT+4): from 20:00 UTC it is already tomorrow there.
TODAY = local(utcnow()).date()


def event_of(db: Session, name: str) -> Event:
    db.expire_all()
    return db.exec(select(Event).where(Event.name == name)).one()


def open_wizard(page: Page, db: Session, email: str, event_name: str, **fields) -> Event:
    new_account(db, email, **fields)
    event = event_of(db, event_name)
    returning_rider(page, email, path=f"/auth/login?redirect=/event/{event.id}")
    expect(page).to_have_url(at(f"/event/{event.id}"))
    expect(page.locator("#wizard-form")).to_be_visible()
    return event


def step_title(page: Page) -> str:
    return page.locator(".wizard-step[aria-current=step]").inner_text()


def next_step(page: Page, expected_title: str) -> None:
    page.locator("#wizard-next").click()
    expect(page.locator(".wizard-step[aria-current=step]")).to_contain_text(expected_title)


def expect_error(page: Page, field: str, message: str) -> None:
    expect(page.locator(f"#{field}-error")).to_have_text(message)


def sample(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def choose(page: Page, kind: str, file: str | dict) -> None:
    """Chooses a file and waits until the site has answered the upload. A file the browser itself refuses
    (its type or size) is not sent, yet the dropzone still posts its empty list of accepted files: its
    answer must arrive before the next file goes."""
    with page.expect_response(lambda response: "/_upload" in response.url) as answer:
        page.locator(f"#upload-{kind} input[type=file]").set_input_files(file)
    answer.value.finished()


def accept_disclaimer(page: Page) -> None:
    page.locator("#wizard-next").click()
    expect_error(page, "disclaimer", msg.DISCLAIMER_REQUIRED)
    page.locator("#disclaimer").click()
    page.locator("#wizard-next").click()


def newest_code(db: Session, phone: str) -> str:
    db.expire_all()
    query = (
        select(OutboxMessage).where(OutboxMessage.recipient == phone).order_by(col(OutboxMessage.id).desc())
    )
    return re.search(r"\b(\d{6})\b", db.exec(query).first().body)[1]


def verify_phone(page: Page, db: Session, number: str, channel: str = "sms", dial_code: str = "971") -> None:
    page.locator("#dial_code").select_option(dial_code)
    page.locator("#phone").fill(number)
    page.locator(f"#otp-type-{channel}").click()
    page.locator("#send-code").click()
    expect(page.locator("#otp-notice")).to_contain_text(f"+{dial_code}{number}")
    page.locator("#otp").fill(newest_code(db, f"+{dial_code}{number}"))
    page.locator("#verify-code").click()
    expect(page.locator("#otp-verified")).to_have_text(msg.OTP_VERIFIED)


def expect_thank_you(page: Page, event: Event) -> None:
    expect(page).to_have_url(at(f"/event/{event.id}/thank-you"))
    expect(page.locator("#thank-you")).to_contain_text(msg.THANK_YOU)
    expect(page.locator("#support-contact")).to_contain_text("@")
    expect(page.locator("#rules-link")).to_have_attribute("href", event.links["ruleset"])


def stored_registration(db: Session, email: str) -> Registration:
    db.expire_all()
    return db.exec(select(Registration).where(Registration.email == email)).one()


@pytest.mark.multi_worker
def test_every_step_of_an_event_with_all_flags(page: Page, db: Session, tmp_path: Path):
    email = "all.flags@example.com"
    event = open_wizard(page, db, email, "AlUla Desert Classic", gender=0, dob=date(1975, 3, 2))
    booked = event.booked
    expect(page.locator("#wizard-steps .wizard-step")).to_have_count(6)
    accept_disclaimer(page)
    expect(page.locator(".wizard-step[aria-current=step]")).to_contain_text("PERSONAL DETAILS")

    expect(page.locator("#email")).to_have_value(email)
    expect(page.locator("#dob")).to_have_attribute("max", (TODAY.replace(year=TODAY.year - 10)).isoformat())
    page.locator("#first_name").fill("")
    page.locator("#dob").fill((TODAY - timedelta(days=365 * 9)).isoformat())
    page.locator("#wizard-next").click()
    expect_error(page, "first_name", "First name is required.")
    expect_error(page, "dob", msg.DOB_TOO_RECENT)
    page.locator("#first_name").fill("Omar")
    page.locator("#dob").fill("1975-03-02")
    page.locator("#wizard-next").click()
    expect_error(page, "proof", msg.PROOF_REQUIRED)
    choose(page, "proof", sample(tmp_path, "scan.gif", file_samples.gif()))
    expect_error(page, "proof", msg.INVALID_FILE_TYPE)
    choose(page, "proof", sample(tmp_path, "photo.jpg", file_samples.text_as_jpeg()))
    expect_error(page, "proof", msg.INVALID_FILE_TYPE)
    choose(page, "proof", sample(tmp_path, "passport.pdf", file_samples.pdf()))
    expect(page.locator("#proof-chosen")).to_contain_text("passport.pdf")
    next_step(page, "IDENTITY VERIFICATION")

    page.locator("#id_type").select_option("passport")
    expect(page.locator("#upload-back")).to_have_count(0)
    expect(page.locator("#id_expiry")).to_have_value((TODAY + timedelta(days=10)).isoformat())
    page.locator("#id_expiry").fill((TODAY + timedelta(days=5)).isoformat())
    page.locator("#wizard-next").click()
    expect_error(page, "front", "Front image is required.")
    expect_error(page, "id_expiry", msg.EXPIRY_TOO_SOON)
    choose(page, "front", sample(tmp_path, "passport-front.jpg", file_samples.jpeg()))
    expect(page.locator("#front-chosen")).to_contain_text("passport-front.jpg")
    page.locator("#id_expiry").fill((TODAY + timedelta(days=400)).isoformat())
    next_step(page, "DEVICE DETAILS")

    expect(page.locator("#recommended-devices")).to_contain_text("iPad Mini 5")
    expect(page.locator("#recommended-devices")).to_contain_text("Snapdragon 660")
    expect(page.locator("#device_platform")).to_have_value("iOS")
    page.locator("#wizard-next").click()
    expect_error(page, "device_model", "Trainer model name is required.")
    expect_error(page, "device_serial", "Trainer serial number is required.")
    page.locator("#device_platform").select_option("Android")
    page.locator("#device_model").fill("Wahoo KICKR v6")
    page.locator("#device_serial").fill("KX6-00042")
    next_step(page, "TEAM")

    expect(page.locator("#team-help")).to_have_text(event.team_help_text)
    expect(page.locator("#team_name")).to_have_count(0)
    page.locator("#team-type-y").click()
    page.locator("#wizard-next").click()
    expect_error(page, "team_name", "required")
    page.locator("#team_name").fill("Desert Falcons")
    next_step(page, "PHONE VERIFICATION")

    options = page.locator("#dial_code option")
    expect(options).to_have_text(["+971", "+966", "+973", "+968"])
    expect(page.locator("#dial_code")).to_have_value("971")
    page.locator("#phone").fill("123")
    page.locator("#send-code").click()
    expect_error(page, "phone", msg.PHONE_INVALID)
    page.locator("#phone").fill("501110001")
    page.locator("#otp-type-whatsapp").click()
    page.locator("#send-code").click()
    expect(page.locator("#otp-notice")).to_have_text(msg.OTP_SENT.format(phone="971501110001"))
    expect(page.locator("#send-code")).to_have_text("Resend")
    code = newest_code(db, "+971501110001")
    page.locator("#otp").fill(f"{(int(code) + 1) % 1_000_000:06d}")
    page.locator("#verify-code").click()
    expect_error(page, "otp", msg.OTP_WRONG)
    page.locator("#otp").fill(code)
    page.locator("#verify-code").click()
    expect(page.locator("#otp-verified")).to_have_text(msg.OTP_VERIFIED)
    expect(page.locator("#wizard-next")).to_have_text("Submit")
    page.locator("#wizard-next").click()
    expect_error(page, "terms", msg.TERMS_REQUIRED)
    page.locator("#terms").click()
    page.locator("#wizard-next").click()
    expect_thank_you(page, event)

    saved = stored_registration(db, email)
    assert (saved.status, saved.first_name, saved.dob) == ("pending", "Omar", date(1975, 3, 2))
    assert (saved.id_type, saved.back_file_id, saved.device_platform) == ("passport", None, "Android")
    assert (saved.team_type, saved.team_name, saved.phone) == ("y", "Desert Falcons", "971501110001")
    assert db.get(RiderFile, saved.proof_file_id).content_type == "application/pdf"
    assert event_of(db, "AlUla Desert Classic").booked == booked + 1
    whatsapp = db.exec(select(OutboxMessage).where(OutboxMessage.recipient == "+971501110001")).first()
    assert whatsapp.channel == "whatsapp"

    page.goto(f"/event/{event.id}")
    expect(page).to_have_url(at("/events"))


@pytest.mark.multi_worker
def test_files_on_record_are_reused_and_open_through_a_private_link(page: Page, db: Session, tmp_path: Path):
    email = "files.rider@example.com"
    event = open_wizard(page, db, email, "Corniche Crit", gender=1)
    accept_disclaimer(page)
    next_step(page, "IDENTITY VERIFICATION")
    expect(page.locator("#id_type")).to_have_value("nationalId")
    big = {"name": "huge.jpg", "mimeType": "image/jpeg", "buffer": file_samples.oversized_jpeg()}
    choose(page, "front", big)
    expect_error(page, "front", msg.FILE_TOO_LARGE)
    choose(page, "front", sample(tmp_path, "id-front.png", file_samples.png()))
    expect(page.locator("#front-chosen")).to_contain_text("id-front.png")
    with page.expect_download() as download:
        page.locator("#front-view").click()
    assert Path(download.value.path()).read_bytes() == file_samples.png()

    choose(page, "back", sample(tmp_path, "old-back.jpg", file_samples.jpeg()))
    expect(page.locator("#back-chosen")).to_contain_text("old-back.jpg")
    gone = db.exec(select(RiderFile).where(RiderFile.name == "old-back.jpg")).one()
    db.delete(gone)
    db.commit()
    page.locator("#back-view").click()
    expect(page.get_by_text(msg.DOWNLOAD_FAILED)).to_be_visible()
    page.locator("#back-change").click()

    page.locator("#front-change").click()
    expect(page.locator("#front-reuse")).to_have_text("Use the file on record: id-front.png")
    page.locator("#front-reuse").click()
    expect(page.locator("#front-chosen")).to_contain_text("id-front.png")
    page.locator("#wizard-next").click()
    expect_error(page, "back", "Back image is required.")
    choose(page, "back", sample(tmp_path, "id-back.jpg", file_samples.jpeg()))
    expect(page.locator("#back-chosen")).to_contain_text("id-back.jpg")
    page.locator("#id_expiry").fill((TODAY + timedelta(days=30)).isoformat())
    page.locator("#wizard-back").click()
    expect(page.locator(".wizard-step[aria-current=step]")).to_contain_text("PERSONAL DETAILS")
    next_step(page, "IDENTITY VERIFICATION")
    expect(page.locator("#id_expiry")).to_have_value((TODAY + timedelta(days=30)).isoformat())
    page.locator("#wizard-next").click()
    expect_thank_you(page, event)

    saved = stored_registration(db, email)
    front = db.get(RiderFile, saved.front_file_id)
    assert (front.name, front.content_type) == ("id-front.png", "image/png")
    assert db.exec(select(RiderFile).where(RiderFile.account_id == saved.account_id)).all().__len__() == 2


@pytest.mark.parametrize(
    ("event_name", "gender", "titles"),
    [
        ("Hatta Hills Time Trial", 0, ["DISCLAIMER", "PERSONAL DETAILS"]),
        ("Meydan Night Race", 1, ["DISCLAIMER", "PERSONAL DETAILS", "DEVICE DETAILS"]),
        ("Al Qudra Team Relay", 0, ["DISCLAIMER", "PERSONAL DETAILS", "TEAM"]),
        ("Jebel Hafeet Hill Climb", 1, ["DISCLAIMER", "PERSONAL DETAILS", "PHONE VERIFICATION"]),
        ("Women's Series - Round 3", 1, ["DISCLAIMER", "PERSONAL DETAILS"]),
    ],
)
def test_each_flag_alone_makes_its_own_path(page: Page, db: Session, event_name, gender, titles):
    email = f"path.{event_name.split()[0].lower().replace(chr(39), '')}@example.com"
    event = open_wizard(page, db, email, event_name, gender=gender, dob=date(1990, 6, 1))
    expect(page.locator("#wizard-steps .wizard-step")).to_have_count(len(titles))
    accept_disclaimer(page)
    if event.dob_required:
        expect(page.locator("#dob")).to_have_value("1990-06-01")
    else:
        expect(page.locator("#dob")).to_have_count(0)
    if event.device:
        next_step(page, "DEVICE DETAILS")
        page.locator("#device_model").fill("Tacx NEO 2T")
        page.locator("#device_serial").fill("NEO-7")
    if event.team:
        next_step(page, "TEAM")
        expect(page.locator("#team-type-i")).to_have_attribute("data-state", "checked")
    if event.otp:
        next_step(page, "PHONE VERIFICATION")
        expect(page.locator("#dial_code option")).to_have_text(["+971", "+968"])
        verify_phone(page, db, "92345678", dial_code="968")
        page.locator("#terms").click()
    page.locator("#wizard-next").click()
    expect_thank_you(page, event)
    saved = stored_registration(db, email)
    assert saved.event_id == event.id and saved.status == "pending"
    assert (saved.dob is not None) is event.dob_required
    assert (saved.team_type == "i") is event.team


def test_the_form_stays_closed_for_closed_full_and_wrong_gender_events(page: Page, db: Session):
    new_account(db, "closed.rider@example.com", gender=1)
    returning_rider(page, "closed.rider@example.com", path="/auth/login?redirect=/events")
    wait_signed_in(page)
    for name, message in (
        ("Closed Registration Classic", events_msg.CLOSED),
        ("Full House Sprint", events_msg.ROOM_FULL),
        ("Men's Masters Race", events_msg.MEN_ONLY),
        ("Sunday Race Club - Round 9", events_msg.CLOSED),
    ):
        page.goto(f"/event/{event_of(db, name).id}")
        expect(page.locator("#registration-closed #status-message")).to_have_text(message)
        expect(page.locator("#wizard-form")).to_have_count(0)
    expect(page.locator("#breadcrumb")).to_contain_text("Sunday Race Club - Round 9")
    expect(page.locator("#podium .podium-place")).to_have_count(3)


def test_a_pending_rider_goes_to_the_list_and_a_declined_one_may_rejoin(page: Page, db: Session):
    rider = new_account(db, "rejoin.rider@example.com", gender=0)
    register_for(db, rider, "Hatta Hills Time Trial", "pending")
    register_for(db, rider, "Al Qudra Team Relay", "declined")
    returning_rider(page, "rejoin.rider@example.com", path="/auth/login?redirect=/events")
    wait_signed_in(page)
    page.goto(f"/event/{event_of(db, 'Hatta Hills Time Trial').id}")
    expect(page).to_have_url(at("/events"))
    page.goto(f"/event/{event_of(db, 'Al Qudra Team Relay').id}")
    expect(page.locator("#wizard-form")).to_be_visible()


def test_the_last_slot_taken_meanwhile_is_reported_and_nothing_is_stored(page: Page, db: Session):
    email = "late.rider@example.com"
    event = open_wizard(page, db, email, "Women's Series - Round 3", gender=1)
    accept_disclaimer(page)
    expect(page.locator("#wizard-next")).to_have_text("Submit")
    stored = db.get(Event, event.id)
    capacity, booked = stored.capacity, stored.booked
    stored.capacity = booked
    db.add(stored)
    db.commit()
    try:
        page.locator("#wizard-next").click()
        expect(page.locator("#wizard-error")).to_have_text(events_msg.ROOM_FULL)
        db.expire_all()
        assert db.exec(select(Registration).where(Registration.email == email)).first() is None
        assert db.get(Event, event.id).booked == booked
    finally:
        stored = db.get(Event, event.id)
        stored.capacity = capacity
        db.add(stored)
        db.commit()


def test_the_page_has_its_h1_while_the_event_loads_and_when_it_is_missing(
    page: Page, db: Session, site: Site
):
    """Each state of the page has its h1 from the first render: the accessibility check once met the
    page still loading, with no h1 yet."""
    event = event_of(db, "Corniche Crit")
    new_account(db, "headings.rider@example.com")
    returning_rider(page, "headings.rider@example.com")
    wait_signed_in(page)
    h1 = page.get_by_role("heading", level=1)
    site.relay.stall_live()
    try:
        page.goto(f"/event/{event.id}")
        expect(page.locator("#registration-loading")).to_be_visible()
        expect(h1).to_have_text(msg.PAGE_HEADING)
    finally:
        site.relay.resume_live()
    expect(h1).to_have_text(event.name)
    page.goto("/event/999999")
    expect(page.locator("#registration-error")).to_have_text(events_msg.EVENT_NOT_FOUND)
    expect(h1).to_have_text(msg.PAGE_HEADING)
    page.goto("/event/999999/thank-you")
    expect(page.locator("#thank-you-error")).to_have_text(events_msg.EVENT_NOT_FOUND)
    expect(h1).to_have_text(msg.PAGE_HEADING)


def test_a_visitor_is_sent_to_log_in_first(page: Page, db: Session):
    event = event_of(db, "Corniche Crit")
    page.goto(f"/event/{event.id}")
    expect(page).to_have_url(re.compile(r"/auth/login\?"))


def test_the_wizard_on_a_phone(phone_page: Page, db: Session):
    event = open_wizard(phone_page, db, "phone.wizard@example.com", "Jebel Hafeet Hill Climb", gender=0)
    expect(phone_page.locator("#breadcrumb")).to_contain_text("Registration")
    accept_disclaimer(phone_page)
    next_step(phone_page, "PHONE VERIFICATION")
    verify_phone(phone_page, db, "501110009")
    phone_page.locator("#terms").click()
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= phone_page.viewport_size["width"]
    phone_page.locator("#wizard-next").click()
    expect_thank_you(phone_page, event)
