"""Pre-verification: every rule and message of spec 3 section 5, one submission at a time, and race
control's decision (audited, e-mailed, made once even when two race controllers decide together)."""

from dataclasses import replace

import pytest
from sqlmodel import Session, select

from cycling_site.messages import pre_verification as msg
from cycling_site.messages import race_control as rc_msg
from cycling_site.models import Account, OutboxMessage, PreVerification, ReviewDecision
from cycling_site.services import pre_verification
from cycling_site.services.pre_verification import Form
from cycling_site.services.race_control import ReviewRefused
from tests.unit.conftest import count, form_errors, race, reload

GOOD = Form(
    smartTrainer="Wahoo KICKR V6",
    secondaryPowerSource="Power meter pedals",
    weight="68.4",
    height="178",
    videoLink="https://www.youtube.com/watch?v=abc123",
    stravaLink="https://www.strava.com/athletes/42",
    message="Calibrated this morning.",
)


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def reviewer(make_account):
    return make_account(email="rc@example.com", role="race_control")


def test_an_empty_form_gives_every_required_message():
    with pytest.raises(Exception) as caught:
        pre_verification.validate(Form())
    assert caught.value.errors == {
        "smartTrainer": msg.SMART_TRAINER_REQUIRED,
        "secondaryPowerSource": msg.POWER_SOURCE_REQUIRED,
        "weight": msg.WEIGHT_REQUIRED,
        "height": msg.HEIGHT_REQUIRED,
        "videoLink": msg.VIDEO_REQUIRED,
        "stravaLink": msg.STRAVA_REQUIRED,
    }


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("smartTrainer", "Homemade roller", msg.SMART_TRAINER_REQUIRED),
        ("secondaryPowerSource", "A friend's watch", msg.POWER_SOURCE_REQUIRED),
        ("weight", "24.9", msg.WEIGHT_INVALID),
        ("weight", "200.1", msg.WEIGHT_INVALID),
        ("weight", "70.25", msg.WEIGHT_INVALID),
        ("weight", "seventy", msg.WEIGHT_INVALID),
        ("weight", "nan", msg.WEIGHT_INVALID),
        ("height", "49", msg.HEIGHT_INVALID),
        ("height", "251", msg.HEIGHT_INVALID),
        ("height", "180.5", msg.HEIGHT_INVALID),
        ("height", "inf", msg.HEIGHT_INVALID),
        ("videoLink", "youtube.com/watch?v=1", msg.VIDEO_INVALID),
        ("videoLink", "javascript:alert(1)", msg.VIDEO_INVALID),
        ("videoLink", "ftp://videos.example.com/me.mp4", msg.VIDEO_INVALID),
        ("videoLink", "https://" + "v" * 500 + ".com", msg.LINK_TOO_LONG),
        ("stravaLink", "s" * 501, msg.LINK_TOO_LONG),
        ("message", "m" * 2001, msg.MESSAGE_TOO_LONG),
    ],
)
def test_bad_values_give_the_fields_message(field, value, message):
    with pytest.raises(Exception) as caught:
        pre_verification.validate(replace(GOOD, **{field: value}))
    assert caught.value.errors == {field: message}


@pytest.mark.parametrize(("weight", "height"), [("25", "50"), ("200", "250"), ("70.5", "175")])
def test_the_edges_of_the_ranges_are_accepted(weight, height):
    assert pre_verification.validate(replace(GOOD, weight=weight, height=height)) == (
        float(weight),
        int(height),
    )


def test_the_lists_are_the_specs():
    assert len(pre_verification.SMART_TRAINERS) == 16
    assert pre_verification.SMART_TRAINERS[0] == "Wahoo KICKR V5"
    assert pre_verification.SMART_TRAINERS[-1] == "Jet Black Victory"
    assert pre_verification.SECONDARY_POWER_SOURCES[-1] == "Other"


def test_a_submission_makes_the_rider_pending_once(session, rider):
    row = pre_verification.submit(session, rider, GOOD)
    assert row.status == "pending" and row.weight == 68.4 and row.height == 178
    assert reload(session, rider).verification_status == "pending"
    assert form_errors(pre_verification.submit, session, rider, GOOD) == {"form": msg.ALREADY_SUBMITTED}
    assert count(session, PreVerification) == 1


def test_bad_input_stores_nothing(session, rider):
    form_errors(pre_verification.submit, session, rider, replace(GOOD, weight="500"))
    assert count(session, PreVerification) == 0
    assert reload(session, rider).verification_status == "not submitted"


def test_two_submissions_sent_at_once_make_one(make_account):
    rider = make_account(email="twice@example.com")

    def send(db: Session, _number: int) -> bool:
        try:
            pre_verification.submit(db, db.get(Account, rider.id), GOOD)
        except Exception:
            return False
        return True

    assert sum(race(send, 8)) == 1


def test_approval_verifies_the_rider_in_the_category_with_the_verified_figures(session, rider, reviewer):
    row = pre_verification.submit(session, rider, GOOD)
    pre_verification.decide(session, reviewer, row.id, True, "", category_id=2)
    rider = reload(session, rider)
    assert (rider.verification_status, rider.category_id, rider.weight, rider.height) == (
        "approved",
        2,
        68.4,
        178,
    )
    audit = session.exec(select(ReviewDecision)).one()
    assert (audit.kind, audit.item_id, audit.decided_by, audit.decision) == (
        "pre_verification",
        row.id,
        reviewer.id,
        "approved",
    )
    mail = session.exec(select(OutboxMessage).where(OutboxMessage.recipient == rider.email)).all()[-1]
    assert "CAT 2" in mail.body
    assert pre_verification.for_review(session, "approved")[0]["details"][-1] == ["Category", "CAT 2"]


def test_a_rejection_needs_a_reason_and_shows_it_then_the_rider_may_resubmit(session, rider, reviewer):
    row = pre_verification.submit(session, rider, GOOD)
    with pytest.raises(ReviewRefused, match=rc_msg.REASON_REQUIRED):
        pre_verification.decide(session, reviewer, row.id, False, "  ")
    pre_verification.decide(session, reviewer, row.id, False, "The video does not show the scale.")
    rider = reload(session, rider)
    assert rider.verification_status == "rejected"
    assert pre_verification.rejection_reason(session, rider) == "The video does not show the scale."
    again = pre_verification.submit(session, rider, GOOD)
    assert again.id != row.id and reload(session, rider).verification_status == "pending"
    assert pre_verification.rejection_reason(session, reload(session, rider)) == ""


def test_an_approval_needs_a_category(session, rider, reviewer):
    row = pre_verification.submit(session, rider, GOOD)
    for category in (None, 0, 5):
        with pytest.raises(ReviewRefused, match=msg.CATEGORY_REQUIRED):
            pre_verification.decide(session, reviewer, row.id, True, "", category_id=category)
    assert reload(session, rider).verification_status == "pending"


def test_decisions_on_missing_or_decided_items_and_by_riders_change_nothing(session, rider, reviewer):
    row = pre_verification.submit(session, rider, GOOD)
    with pytest.raises(ReviewRefused, match=rc_msg.NOT_FOUND):
        pre_verification.decide(session, reviewer, 9999, True, "", category_id=1)
    with pytest.raises(ReviewRefused, match=rc_msg.NOT_RACE_CONTROL):
        pre_verification.decide(session, rider, row.id, True, "", category_id=1)
    pre_verification.decide(session, reviewer, row.id, True, "", category_id=1)
    with pytest.raises(ReviewRefused, match=rc_msg.ALREADY_DECIDED):
        pre_verification.decide(session, reviewer, row.id, False, "Changed my mind")
    assert reload(session, rider).verification_status == "approved"
    assert count(session, ReviewDecision) == 1


def test_two_race_controllers_deciding_at_once_decide_once(session, make_account, reviewer):
    rider = make_account(email="contested@example.com")
    row = pre_verification.submit(session, rider, GOOD)
    second = make_account(email="rc2@example.com", role="admin")

    def decide(db: Session, number: int) -> str:
        who = db.get(Account, (reviewer if number % 2 else second).id)
        try:
            pre_verification.decide(db, who, row.id, number % 2 == 0, "Not clear", category_id=1)
        except ReviewRefused as exc:
            assert str(exc) == rc_msg.ALREADY_DECIDED
            return "refused"
        return "decided"

    assert sorted(race(decide, 10)) == ["decided"] + ["refused"] * 9
    session.expire_all()
    assert count(session, ReviewDecision) == 1
    mails = session.exec(select(OutboxMessage).where(OutboxMessage.recipient == rider.email)).all()
    assert len([mail for mail in mails if "race control" in mail.body.lower()]) == 1


def test_the_queue_lists_pending_submissions(session, rider):
    pre_verification.submit(session, rider, GOOD)
    (item,) = pre_verification.for_review(session, "pending")
    assert item["rider_email"] == rider.email and ["Smart trainer", "Wahoo KICKR V6"] in item["details"]
    assert pre_verification.pending_count(session) == 1
