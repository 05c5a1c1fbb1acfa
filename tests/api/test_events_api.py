"""The event calls of spec 2 section 7: public lists, and one event with the rider's status."""

from datetime import UTC, datetime, timedelta

from cycling_site.messages import events as msg
from cycling_site.models.events import Registration
from cycling_site.services.demo_events import demo_events
from tests.api.test_auth_api import sign_in
from tests.api.test_profile_api import bearer


def _seed(session):
    found = demo_events(datetime.now(UTC))
    session.add_all(found)
    session.commit()
    return {event.name: event for event in found}


def test_upcoming_events_for_a_visitor(client, session):
    _seed(session)
    data = client.get("/api/events/upcoming").json()["data"]
    assert [event["name"] for event in data["featured"]] == [
        "Sunday Race Club - Round 10",
        "AlUla Desert Classic",
    ]
    first = data["featured"][0]
    assert first["state_message"] == msg.LOGGED_OUT and first["can_register"] is False
    assert first["participants"] == {"booked": 112, "capacity": 300}
    assert first["event_prize_money"]["templateType"] == "SERIES"
    assert set(first["categories"]) == {"Category 1", "Category 2", "Category 3", "Category 4"}
    full = next(event for event in data["all"] if event["name"] == "Full House Sprint")
    assert full["state_message"] == msg.ROOM_FULL


def test_all_events_include_past_ones(client, session):
    _seed(session)
    names = [event["name"] for event in client.get("/api/events").json()["data"]]
    assert "Sunday Race Club - Round 9" in names and len(names) == 13


def test_one_event_with_the_riders_status(client, session, make_account):
    events = _seed(session)
    rider = make_account(gender=1)
    token = sign_in(client)
    women = events["Women's Series - Round 3"]
    data = client.get(f"/api/events/{women.id}", headers=bearer(token)).json()["data"]
    assert data["is_registered"] is False and data["event"]["can_register"] is True
    assert data["user"]["email"] == "rider@example.com"
    men = events["Men's Masters Race"]
    assert client.get(f"/api/events/{men.id}", headers=bearer(token)).json()["data"]["event"][
        "state_message"
    ] == (msg.MEN_ONLY)
    session.add(
        Registration(
            event_id=women.id, account_id=rider.id, first_name="L", last_name="H", email=rider.email, gender=1
        )
    )
    session.commit()
    data = client.get(f"/api/events/{women.id}", headers=bearer(token)).json()["data"]
    assert data["is_registered"] is True and data["event"]["ustatus"] == "pending"
    assert data["event"]["state_message"] == msg.PENDING


def test_an_unknown_event_answers_not_found(client, session):
    for bad in ("999", "abc", "1e3"):
        response = client.get(f"/api/events/{bad}")
        assert response.status_code == 404
        assert response.json() == {"status": False, "message": msg.EVENT_NOT_FOUND}


def test_a_past_event_is_closed_and_shows_its_winners(client, session):
    events = _seed(session)
    past = events["Sunday Race Club - Round 9"]
    data = client.get(f"/api/events/{past.id}").json()["data"]["event"]
    assert data["state_message"] == msg.CLOSED
    assert [w["position"] for w in data["winners"]] == [1, 2, 3, 4, 5]
    assert datetime.fromisoformat(data["date"]).date() < (datetime.now(UTC) - timedelta(days=5)).date()
