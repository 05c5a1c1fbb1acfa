"""The weight-submission banner of the dashboard (spec 1 sections 2, 4 and 8), driven by Playwright's clock:
the countdown ticks, a window shows at its start, at its end the warning shows and the item goes; Submit
is disabled outside the window; a weight with a real photo is stored, bad input is told and stores nothing.

The seed gives rider@example.com one window open now (Hatta Hills Time Trial), one opening in a few hours
(Meydan Night Race) and one that has just ended; the page only reads them. Submitting is done by riders
created here, so the seeded ones stay as they are for the other modules.
"""

import re
from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import Page, expect
from sqlmodel import Session, col, select

from cycling_site.messages import weigh_ins as msg
from cycling_site.models import Account
from cycling_site.models.events import Event, RiderFile
from cycling_site.models.weigh_ins import WeighInWindow, WeightSubmission
from tests import file_samples
from tests.e2e.helpers import RIDER, new_account, returning_rider, wait_dashboard
from tests.e2e.test_events import register_for

OPEN_EVENT = "Hatta Hills Time Trial"
COMING_EVENT = "Meydan Night Race"
TIME_LEFT = re.compile(r"^(\d+)d (\d\d)h (\d\d)m (\d\d)s$")


def window(db: Session, event_name: str, kind: str = "pre_weight") -> WeighInWindow:
    db.expire_all()
    return db.exec(
        select(WeighInWindow)
        .join(Event, col(Event.id) == WeighInWindow.event_id)
        .where(Event.name == event_name, WeighInWindow.type == kind)
    ).one()


def epoch_ms(moment: datetime) -> int:
    return int((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp() * 1000)


def page_now(page: Page) -> int:
    return page.evaluate("Date.now()")


def open_dashboard(page: Page, email: str = RIDER) -> None:
    returning_rider(page, email, path="/auth/login?redirect=/user/activities")
    wait_dashboard(page)


def item(page: Page, event_name: str):
    return page.locator(".weigh-in-item").filter(has_text=event_name)


def seconds_left(text: str) -> int:
    days, hours, minutes, seconds = (int(part) for part in TIME_LEFT.match(text).groups())
    return ((days * 24 + hours) * 60 + minutes) * 60 + seconds


def rider_registered_for(db: Session, email: str, event_name: str = OPEN_EVENT) -> Account:
    rider = new_account(db, email)
    register_for(db, rider, event_name, "approved")
    return rider


def kept(db: Session, rider: Account) -> tuple[list[WeightSubmission], list[RiderFile]]:
    db.expire_all()
    submissions = db.exec(select(WeightSubmission).where(WeightSubmission.account_id == rider.id)).all()
    files = db.exec(select(RiderFile).where(RiderFile.account_id == rider.id)).all()
    return list(submissions), list(files)


def test_the_banner_counts_down_shows_a_window_at_its_start_and_warns_at_its_end(page: Page, db: Session):
    open_window, coming = window(db, OPEN_EVENT), window(db, COMING_EVENT)
    page.clock.install()
    open_dashboard(page)

    banner = item(page, OPEN_EVENT)
    expect(banner.locator(".weigh-in-title")).to_have_text(f"Pre-Weight Submission: {OPEN_EVENT} (pending)")
    time_left = banner.locator(".weigh-in-time")
    expect(time_left).to_have_text(TIME_LEFT)
    expect(banner.locator(".weigh-in-submit")).to_be_enabled()
    shown = time_left.inner_text()
    left = seconds_left(shown)
    assert abs(left - (epoch_ms(open_window.ends_at) - page_now(page)) / 1000) <= 2
    # The coming window is not shown before its start, nor is the one that has ended.
    expect(page.locator(".weigh-in-item")).to_have_count(1)

    page.clock.fast_forward("01:05")
    expect(time_left).not_to_have_text(shown)
    assert 60 <= left - seconds_left(time_left.inner_text()) <= 70

    page.clock.fast_forward(epoch_ms(coming.starts_at) - page_now(page) + 1000)
    coming_banner = item(page, COMING_EVENT)
    expect(coming_banner.locator(".weigh-in-title")).to_have_text(
        f"Pre-Weight Submission: {COMING_EVENT} (pending)"
    )
    expect(coming_banner.locator(".weigh-in-submit")).to_be_enabled()

    page.clock.fast_forward(epoch_ms(open_window.ends_at) - page_now(page) + 1000)
    warning = page.locator(".weigh-in-warning")
    expect(warning).to_have_text(f"The Pre-weight submission deadline for {OPEN_EVENT} has passed.")
    expect(item(page, OPEN_EVENT)).to_have_count(0)
    expect(item(page, COMING_EVENT)).to_be_visible()
    warning.get_by_role("button", name="Dismiss").click()
    expect(warning).to_have_count(0)


def test_submit_is_disabled_when_the_window_ends_with_the_dialog_open(page: Page, db: Session):
    rider = rider_registered_for(db, "late.weigher@example.com")
    open_window = window(db, OPEN_EVENT)
    page.clock.install()
    open_dashboard(page, rider.email)
    item(page, OPEN_EVENT).locator(".weigh-in-submit").click()
    send = page.locator("#weigh-in-send")
    expect(send).to_be_enabled()
    page.fill("#weight", "68.4")

    page.clock.fast_forward(epoch_ms(open_window.ends_at) - page_now(page) + 1000)
    expect(send).to_be_disabled()
    expect(page.locator("#weigh-in-closed")).to_have_text(
        f"The Pre-weight submission deadline for {OPEN_EVENT} has passed."
    )
    page.locator("#weigh-in-cancel").click()
    expect(page.locator("#weigh-in-dialog")).to_have_count(0)
    expect(page.locator(".weigh-in-item")).to_have_count(0)
    assert kept(db, rider) == ([], [])


def test_a_weight_with_a_photo_is_submitted_and_bad_input_is_told(page: Page, db: Session, tmp_path: Path):
    """The proof is kept as soon as it is chosen (a wrong file is told at once); Submit then stores the
    declaration with it, and a refused weight stores no declaration."""
    rider = rider_registered_for(db, "weigher@example.com")
    photo = tmp_path / "scale.jpg"
    photo.write_bytes(file_samples.jpeg())
    spoofed = tmp_path / "photo.jpg"
    spoofed.write_bytes(file_samples.text_as_jpeg())
    open_dashboard(page, rider.email)
    item(page, OPEN_EVENT).locator(".weigh-in-submit").click()
    expect(page.locator("#weigh-in-dialog")).to_have_accessible_name(f"Pre-weight for {OPEN_EVENT}")
    proof = page.locator("#weight-proof input[type=file]")

    page.locator("#weigh-in-send").click()
    expect(page.locator("#proof-error")).to_have_text(msg.PROOF_REQUIRED)

    page.fill("#weight", "300")
    proof.set_input_files(str(photo))
    expect(page.locator("#weight-proof-name")).to_have_text("scale.jpg")
    expect(page.locator("#proof-error")).to_have_count(0)
    page.locator("#weigh-in-send").click()
    expect(page.locator("#weight-error")).to_have_text(msg.WEIGHT_INVALID)
    submissions, files = kept(db, rider)
    assert (submissions, [file.name for file in files]) == ([], ["scale.jpg"])

    page.fill("#weight", "68.4")
    proof.set_input_files(str(spoofed))
    expect(page.locator("#proof-error")).to_have_text(msg.PROOF_TYPE_INVALID)
    expect(page.locator("#weight-proof-name")).to_have_count(0)
    assert len(kept(db, rider)[1]) == 1

    proof.set_input_files(str(photo))
    expect(page.locator("#weight-proof-name")).to_have_text("scale.jpg")
    page.locator("#weigh-in-send").click()
    expect(page.get_by_text(msg.SUBMITTED.format(label="Pre"))).to_be_visible()
    expect(page.locator("#weigh-in-dialog")).to_have_count(0)
    expect(item(page, OPEN_EVENT)).to_have_count(0)
    (submission,), files = kept(db, rider)
    assert (submission.weight_kg, submission.status, submission.type) == (68.4, "pending", "pre_weight")
    [stored] = [file for file in files if file.id == submission.proof_file_id]
    assert (stored.name, stored.kind, stored.content_type) == ("scale.jpg", "weight_proof", "image/jpeg")

    # Read again, the dashboard no longer asks for it.
    page.reload()
    wait_dashboard(page)
    expect(page.locator("#tab-profile")).to_be_visible()
    expect(page.locator(".weigh-in-item")).to_have_count(0)


def test_the_banner_and_its_dialog_fit_a_phone(phone_page: Page):
    page = phone_page
    open_dashboard(page)
    banner = item(page, OPEN_EVENT)
    expect(banner.locator(".weigh-in-time")).to_have_text(TIME_LEFT)
    submit = banner.locator(".weigh-in-submit")
    expect(submit).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    box = submit.bounding_box()
    assert box is not None and box["width"] >= 280, "Submit spans the banner on a phone"
    submit.tap()
    dialog = page.locator("#weigh-in-dialog")
    expect(dialog).to_be_visible()
    for selector in ("#weight", "#weight-proof", "#weigh-in-send", "#weigh-in-cancel"):
        expect(page.locator(selector)).to_be_in_viewport()
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    page.locator("#weigh-in-cancel").tap()
    expect(dialog).to_have_count(0)


# Every layout shift the page makes without input, summed (Chrome's layout-shift entries).
SHIFTS = """window.__shifts = [];
new PerformanceObserver((found) => window.__shifts.push(
  ...found.getEntries().filter((entry) => !entry.hadRecentInput).map((entry) => entry.value)
)).observe({ type: "layout-shift", buffered: true });"""


def _shift_while_the_dashboard_arrives(page: Page) -> float:
    page.add_init_script(SHIFTS)
    open_dashboard(page)
    expect(item(page, OPEN_EVENT)).to_be_visible()
    expect(page.locator("#overall-curve .recharts-line").first).to_be_visible()
    page.wait_for_function("() => !document.getAnimations().some((a) => a.playState === 'running')")
    return page.evaluate("window.__shifts.reduce((sum, value) => sum + value, 0)")


def test_an_open_window_comes_with_the_dashboard_and_moves_nothing(page: Page):
    """An open window is shown in the dashboard's first update, not a round trip later above the tabs."""
    assert _shift_while_the_dashboard_arrives(page) < 0.05


def test_an_open_window_moves_nothing_on_a_phone(phone_page: Page):
    assert _shift_while_the_dashboard_arrives(phone_page) < 0.05
