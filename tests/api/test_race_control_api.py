"""Pre-verification and race control's queues through the REST API: riders submit, race control decides,
everyone else is refused and nothing moves."""

import pytest
from sqlmodel import select

from cycling_site.messages import pre_verification as msg
from cycling_site.messages import race_control as rc_msg
from cycling_site.models import PreVerification, ReviewDecision
from tests.api.auth_support import bearer
from tests.unit.conftest import count, reload

SUBMIT = "/api/src/verification/submit"
RC = "/api/race-control"
FORM = {
    "smartTrainer": "Tacx Neo 2T",
    "secondaryPowerSource": "Crank power meter",
    "weight": 71.2,
    "height": "181",
    "videoLink": "https://vimeo.com/123456",
    "stravaLink": "https://www.strava.com/athletes/7",
    "message": "",
}


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def reviewer(make_account):
    return make_account(email="rc@example.com", role="race_control")


def test_a_rider_submits_and_race_control_approves_with_a_category(client, session, rider, reviewer):
    answer = client.post(SUBMIT, json=FORM, headers=bearer(rider))
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"] == {"status": True, "message": msg.SUBMITTED}
    assert reload(session, rider).verification_status == "pending"

    counts = client.get(f"{RC}/queues", headers=bearer(reviewer)).json()["data"]["pending"]
    assert counts["pre_verification"] == 1 and counts["registration"] == 0
    (item,) = client.get(f"{RC}/pre_verification", headers=bearer(reviewer)).json()["data"]
    assert item["rider_email"] == rider.email and ["Weight", "71.2 kg"] in item["details"]

    decided = client.post(
        f"{RC}/pre_verification/{item['id']}/decision",
        json={"approve": True, "category_id": 2},
        headers=bearer(reviewer),
    )
    assert decided.status_code == 200, decided.text
    rider = reload(session, rider)
    assert (rider.verification_status, rider.category_id) == ("approved", 2)
    (approved,) = client.get(f"{RC}/pre_verification?status=approved", headers=bearer(reviewer)).json()[
        "data"
    ]
    assert approved["history"][0]["decision"] == "approved"
    assert approved["history"][0]["decided_by"] == f"{reviewer.firstname} {reviewer.lastname}"

    again = client.post(
        f"{RC}/pre_verification/{item['id']}/decision",
        json={"approve": False, "reason": "x"},
        headers=bearer(reviewer),
    )
    assert again.status_code == 400 and again.json()["message"] == rc_msg.ALREADY_DECIDED
    assert count(session, ReviewDecision) == 1


def test_the_spec_messages_come_per_field(client, session, rider):
    answer = client.post(
        SUBMIT, json={**FORM, "weight": "300", "videoLink": "vimeo.com/1"}, headers=bearer(rider)
    )
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"weight": [msg.WEIGHT_INVALID], "videoLink": [msg.VIDEO_INVALID]}
    assert count(session, PreVerification) == 0


def test_a_second_submission_while_pending_is_refused(client, session, rider):
    assert client.post(SUBMIT, json=FORM, headers=bearer(rider)).status_code == 200
    again = client.post(SUBMIT, json=FORM, headers=bearer(rider))
    assert again.status_code == 400 and again.json()["message"] == msg.ALREADY_SUBMITTED
    assert count(session, PreVerification) == 1


def test_unknown_fields_and_no_session_are_refused(client, rider):
    assert client.post(SUBMIT, json={**FORM, "status": "approved"}, headers=bearer(rider)).status_code == 400
    assert client.post(SUBMIT, json=FORM).status_code == 401


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", f"{RC}/queues", None),
        ("get", f"{RC}/pre_verification", None),
        ("post", f"{RC}/registration/1/decision", {"approve": True}),
    ],
)
def test_riders_and_finance_are_refused_by_race_control(client, make_account, rider, method, path, body):
    finance = make_account(email="money@example.com", role="finance")
    for account in (rider, finance):
        answer = getattr(client, method)(path, headers=bearer(account), **({"json": body} if body else {}))
        assert answer.status_code == 403 and answer.json()["message"] == rc_msg.NOT_RACE_CONTROL


def test_decisions_on_missing_items_unknown_queues_and_statuses(client, reviewer):
    missing = client.post(
        f"{RC}/pre_verification/999/decision",
        json={"approve": False, "reason": "x"},
        headers=bearer(reviewer),
    )
    assert missing.status_code == 404 and missing.json()["message"] == rc_msg.NOT_FOUND
    assert client.get(f"{RC}/payouts", headers=bearer(reviewer)).status_code == 400
    assert client.get(f"{RC}/registration?status=maybe", headers=bearer(reviewer)).status_code == 400


def test_a_rejection_without_a_reason_is_refused(client, session, rider, reviewer):
    client.post(SUBMIT, json=FORM, headers=bearer(rider))
    item_id = session.exec(select(PreVerification)).one().id
    answer = client.post(
        f"{RC}/pre_verification/{item_id}/decision", json={"approve": False}, headers=bearer(reviewer)
    )
    assert answer.status_code == 400 and answer.json()["message"] == rc_msg.REASON_REQUIRED
    assert reload(session, rider).verification_status == "pending"
