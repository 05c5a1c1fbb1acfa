"""POST /api/weight-submissions/store as a caller sees it (spec 1 section 7), the weigh-ins in the rider
default data, and what is (or is not) stored after each call."""

from datetime import timedelta

import pytest
from sqlmodel import select

from cycling_site.messages import events as events_msg
from cycling_site.messages import registration as files_msg
from cycling_site.messages import weigh_ins as msg
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event, Registration, RiderFile
from cycling_site.models.weigh_ins import WeighInWindow, WeightSubmission
from cycling_site.services.tokens import TOKEN_COOKIE
from tests import file_samples
from tests.api.test_auth_api import assert_error_shape, sign_in
from tests.api.test_profile_api import bearer
from tests.unit.conftest import count

STORE = "/api/weight-submissions/store"
DEFAULT_DATA = "/api/auth/get-default-data-for-rider-profile"


@pytest.fixture
def rider_and_event(session, make_account):
    """A signed-in rider registered for an event whose pre-weight window is open now."""
    rider = make_account()
    now = utcnow()
    event = Event(
        name="Sunday Race",
        starts_at=now + timedelta(days=2),
        closes_at=now + timedelta(days=1),
        weigh_ins=True,
    )
    session.add(event)
    session.commit()
    session.add_all(
        [
            WeighInWindow(
                event_id=event.id,
                type="pre_weight",
                starts_at=now - timedelta(hours=1),
                ends_at=now + timedelta(hours=6),
            ),
            WeighInWindow(
                event_id=event.id,
                type="post_weight",
                starts_at=now + timedelta(days=2),
                ends_at=now + timedelta(days=3),
            ),
            Registration(
                event_id=event.id,
                account_id=rider.id,
                status="approved",
                first_name="Layla",
                last_name="Haddad",
                email=rider.email,
                gender=1,
            ),
        ]
    )
    session.commit()
    return rider, event


def _form(event_id, kind="pre_weight", weight="68.4") -> dict:
    return {"event_id": str(event_id), "type": kind, "weight": weight}


def _photo(data: bytes | None = None, name: str = "scale.jpg", content_type: str = "image/jpeg") -> dict:
    return {"proof": (name, file_samples.jpeg() if data is None else data, content_type)}


def test_a_weight_with_a_photo_is_stored_and_leaves_the_items(client, session, rider_and_event):
    rider, event = rider_and_event
    headers = bearer(sign_in(client))
    owed = client.post(DEFAULT_DATA, headers=headers).json()["data"]["user"]["weight_submission_data"]
    assert [(item["event_id"], item["type"], item["status"]) for item in owed] == [
        (event.id, "pre_weight", "pending"),
        (event.id, "post_weight", "pending"),
    ]
    assert owed[0]["event_name"] == "Sunday Race" and owed[0]["end_time"].endswith("Z")

    response = client.post(STORE, headers=headers, data=_form(event.id), files=_photo())

    assert response.status_code == 200, response.text
    assert response.json() == {
        "status": True,
        "message": "Your Pre-weight has been submitted. Race control will review it.",
    }
    stored = session.exec(select(WeightSubmission)).one()
    assert (stored.account_id, stored.event_id, stored.type, stored.weight_kg, stored.status) == (
        rider.id,
        event.id,
        "pre_weight",
        68.4,
        "pending",
    )
    proof = session.get(RiderFile, stored.proof_file_id)
    assert (proof.kind, proof.content_type, proof.account_id) == ("weight_proof", "image/jpeg", rider.id)
    owed = client.post(DEFAULT_DATA, headers=headers).json()["data"]["user"]["weight_submission_data"]
    assert [item["type"] for item in owed] == ["post_weight"]


def test_the_session_cookie_works_too(client, session, rider_and_event):
    _rider, event = rider_and_event
    client.cookies.set(TOKEN_COOKIE, sign_in(client))
    response = client.post(STORE, data=_form(event.id), files=_photo())
    assert response.status_code == 200, response.text


def test_without_a_session_nothing_is_stored(client, session, rider_and_event):
    _rider, event = rider_and_event
    response = client.post(STORE, data=_form(event.id), files=_photo())
    assert response.status_code == 401
    assert count(session, WeightSubmission) == 0 and count(session, RiderFile) == 0


@pytest.mark.parametrize(
    ("form", "files", "errors"),
    [
        ({"weight": "300"}, _photo(), {"weight": msg.WEIGHT_INVALID}),
        ({"weight": "24.9"}, _photo(), {"weight": msg.WEIGHT_INVALID}),
        ({"weight": "abc"}, _photo(), {"weight": msg.WEIGHT_INVALID}),
        ({"weight": "68.45"}, _photo(), {"weight": msg.WEIGHT_STEP}),
        ({}, None, {"proof": msg.PROOF_REQUIRED}),
        ({}, _photo(file_samples.text_as_jpeg(), "photo.jpg"), {"proof": msg.PROOF_TYPE_INVALID}),
        ({}, _photo(file_samples.jpeg_with_html()), {"proof": msg.PROOF_TYPE_INVALID}),
        ({}, _photo(file_samples.pdf(), "scan.pdf", "application/pdf"), {"proof": msg.PROOF_TYPE_INVALID}),
        ({}, _photo(file_samples.oversized_jpeg()), {"proof": files_msg.FILE_TOO_LARGE}),
        ({"type": "weigh_in"}, _photo(), {"type": msg.TYPE_INVALID}),
        ({"type": "post_weight"}, _photo(), {"event": "The Post-weight submission for Sunday Race opens on"}),
    ],
)
def test_bad_input_answers_400_with_the_message_and_stores_nothing(
    client, session, rider_and_event, form, files, errors
):
    _rider, event = rider_and_event
    body = assert_error_shape(
        client.post(STORE, headers=bearer(sign_in(client)), data={**_form(event.id), **form}, files=files)
    )
    assert set(body["errors"]) == set(errors)
    for field, text in errors.items():
        assert body["errors"][field][0].startswith(text)
    assert body["message"] == body["errors"][next(iter(errors))][0]
    assert count(session, WeightSubmission) == 0 and count(session, RiderFile) == 0


def test_a_second_submission_is_refused_while_the_first_is_pending(client, session, rider_and_event):
    _rider, event = rider_and_event
    headers = bearer(sign_in(client))
    assert client.post(STORE, headers=headers, data=_form(event.id), files=_photo()).status_code == 200
    body = assert_error_shape(
        client.post(STORE, headers=headers, data=_form(event.id, weight="70"), files=_photo())
    )
    assert body["message"] == msg.PENDING_REVIEW.format(label="Pre")
    assert count(session, WeightSubmission) == 1 and count(session, RiderFile) == 1


def test_unknown_events_answer_404_and_other_riders_events_400(
    client, session, rider_and_event, make_account
):
    _rider, event = rider_and_event
    for bad in ("999999", "abc", "", "1; DROP TABLE event"):
        response = client.post(STORE, headers=bearer(sign_in(client)), data=_form(bad), files=_photo())
        assert response.status_code == 404, bad
        assert response.json() == {"status": False, "message": events_msg.EVENT_NOT_FOUND}
    make_account(email="other@example.com")
    body = assert_error_shape(
        client.post(
            STORE, headers=bearer(sign_in(client, "other@example.com")), data=_form(event.id), files=_photo()
        )
    )
    assert body["message"] == msg.NOT_REGISTERED
    assert count(session, WeightSubmission) == 0 and count(session, RiderFile) == 0


def test_a_closed_window_refuses_with_the_deadline_warning(client, session, rider_and_event):
    _rider, event = rider_and_event
    window = session.exec(select(WeighInWindow).where(WeighInWindow.type == "pre_weight")).one()
    window.ends_at = utcnow() - timedelta(seconds=1)
    session.add(window)
    session.commit()
    body = assert_error_shape(
        client.post(STORE, headers=bearer(sign_in(client)), data=_form(event.id), files=_photo())
    )
    assert body["message"] == "The Pre-weight submission deadline for Sunday Race has passed."
    assert count(session, WeightSubmission) == 0


def test_the_store_call_is_documented(client):
    schema = client.get("/api/openapi.json").json()
    operation = schema["paths"]["/api/weight-submissions/store"]["post"]
    form = operation["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert set(form["required"]) == {"event_id", "type", "weight", "proof"}
    assert form["properties"]["type"]["enum"] == ["pre_weight", "post_weight"]
    assert form["properties"]["proof"]["format"] == "binary"
    assert (form["properties"]["weight"]["minimum"], form["properties"]["weight"]["maximum"]) == (25, 200)
    assert set(operation["responses"]) == {"200", "400", "401", "403", "404", "413", "503"}
    assert operation["security"] == [{"bearer": []}, {"sessionCookie": []}]
    item = schema["components"]["schemas"]["WeightSubmissionItem"]
    assert set(item["required"]) == {"event_id", "event_name", "type", "start_time", "end_time", "status"}
