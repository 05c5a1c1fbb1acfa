"""POST /api/contact and POST /api/subscribe as a caller sees them: every answer, never a 500."""

import pytest
from sqlmodel import select

from cycling_site.messages import contact as msg
from cycling_site.models import ContactMessage, OutboxMessage, Subscriber
from cycling_site.services import rate_limit
from cycling_site.settings import settings
from tests.unit.conftest import count

CONTACT = "/api/contact"
SUBSCRIBE = "/api/subscribe"


@pytest.fixture(autouse=True)
def fresh_limits():
    rate_limit.reset_limits()
    yield
    rate_limit.reset_limits()


def body(**changes) -> dict:
    return {
        "name": "Sara Nasser",
        "phone": "+971 50 123 4567",
        "email": "sara@example.com",
        "message": "When does the next Sunday race open?",
        **changes,
    }


def assert_refused(response, errors: dict[str, str] | None = None, status_code: int = 400) -> dict:
    assert response.status_code == status_code, response.text
    answer = response.json()
    assert answer["status"] is False
    assert isinstance(answer["message"], str) and answer["message"]
    if errors is not None:
        assert answer["errors"] == {name: [text] for name, text in errors.items()}
        assert answer["message"] == next(iter(errors.values()))
    return answer


def assert_nothing_stored(session) -> None:
    assert count(session, ContactMessage) == 0
    assert count(session, OutboxMessage) == 0
    assert count(session, Subscriber) == 0


def test_a_message_is_accepted_stored_and_queued_to_support(client, session):
    response = client.post(CONTACT, json=body())
    assert response.status_code == 200, response.text
    assert response.json() == {"status": True, "message": msg.SENT}
    session.expire_all()
    row = session.exec(select(ContactMessage)).one()
    assert (row.name, row.phone, row.email) == ("Sara Nasser", "+971501234567", "sara@example.com")
    mail = session.exec(select(OutboxMessage)).one()
    assert mail.recipient == settings.support_email
    assert "When does the next Sunday race open?" in mail.body


@pytest.mark.parametrize("phone", [None, ""])
def test_the_phone_may_be_left_out(client, session, phone):
    response = client.post(CONTACT, json=body(phone=phone))
    assert response.status_code == 200, response.text
    assert count(session, ContactMessage) == 1


def test_the_phone_key_may_be_missing(client, session):
    payload = body()
    del payload["phone"]
    assert client.post(CONTACT, json=payload).status_code == 200
    assert count(session, ContactMessage) == 1


@pytest.mark.parametrize(
    ("changes", "errors"),
    [
        ({"name": ""}, {"name": msg.NAME_REQUIRED}),
        ({"email": "sara@"}, {"email": msg.EMAIL_REQUIRED}),
        ({"email": ""}, {"email": msg.EMAIL_REQUIRED}),
        ({"message": "Too short"}, {"message": msg.MESSAGE_TOO_SHORT}),
        ({"phone": "12345"}, {"phone": msg.PHONE_INVALID}),
    ],
)
def test_each_rule_answers_its_message(client, session, changes, errors):
    assert_refused(client.post(CONTACT, json=body(**changes)), errors)
    assert_nothing_stored(session)


def test_an_empty_body_names_every_required_field(client, session):
    answer = assert_refused(client.post(CONTACT, json={}))
    assert answer["errors"] == {
        "name": [msg.NAME_REQUIRED],
        "email": [msg.EMAIL_REQUIRED],
        "message": [msg.MESSAGE_TOO_SHORT],
    }
    assert_nothing_stored(session)


@pytest.mark.parametrize(
    "changes",
    [
        {"name": "N" * 301},
        {"phone": "5" * 301},
        {"email": "e" * 300 + "@example.com"},
        {"message": "m" * 20_001},
        {"name": "N" * 101},
        {"message": "m" * 5_001},
    ],
)
def test_oversized_fields_are_refused(client, session, changes):
    assert_refused(client.post(CONTACT, json=body(**changes)))
    assert_nothing_stored(session)


@pytest.mark.parametrize(
    "payload",
    [
        {"name": 42},
        {"name": None},
        {"message": ["a", "b"]},
        {"email": {"address": "sara@example.com"}},
    ],
)
def test_wrong_types_are_refused(client, session, payload):
    assert_refused(client.post(CONTACT, json=body(**payload)))
    assert_nothing_stored(session)


@pytest.mark.parametrize("path", [CONTACT, SUBSCRIBE])
@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        ("not json", "application/json"),
        ("[1, 2]", "application/json"),
        ('"sara@example.com"', "application/json"),
        ("", "application/json"),
        ("name=Sara", "application/x-www-form-urlencoded"),
    ],
)
def test_malformed_bodies_get_a_400(client, session, path, content, content_type):
    response = client.post(path, content=content, headers={"content-type": content_type})
    assert_refused(response)
    assert_nothing_stored(session)


def test_control_characters_never_reach_the_database(client, session):
    refused = client.post(CONTACT, json=body(name="\u0000", message="\u0000" * 20))
    assert_refused(refused, {"name": msg.NAME_REQUIRED, "message": msg.MESSAGE_TOO_SHORT})
    assert client.post(CONTACT, json=body(message="Hello\u0000 there, a message")).status_code == 200
    assert client.post(SUBSCRIBE, json={"email": "sara\u0000@example.com"}).status_code == 200
    session.expire_all()
    assert session.exec(select(ContactMessage.message)).one() == "Hello there, a message"
    assert session.exec(select(Subscriber.email)).one() == "sara@example.com"


def test_a_flood_of_messages_gets_429_and_stores_nothing_more(client, session):
    for _ in range(5):
        assert client.post(CONTACT, json=body()).status_code == 200
    assert_refused(client.post(CONTACT, json=body()), {"form": msg.TOO_MANY_MESSAGES}, status_code=429)
    assert count(session, ContactMessage) == 5


def test_subscribe_answers_the_same_for_a_new_and_a_known_address(client, session):
    for email in ("Rider@Example.com", "rider@example.com"):
        response = client.post(SUBSCRIBE, json={"email": email})
        assert response.status_code == 200, response.text
        assert response.json() == {"status": True, "message": msg.SUBSCRIBED}
    session.expire_all()
    assert session.exec(select(Subscriber.email)).all() == ["rider@example.com"]


@pytest.mark.parametrize("payload", [{}, {"email": ""}, {"email": "rider"}, {"email": "rider@example"}])
def test_subscribe_refuses_an_invalid_address(client, session, payload):
    assert_refused(client.post(SUBSCRIBE, json=payload), {"email": msg.EMAIL_REQUIRED})
    assert_nothing_stored(session)


@pytest.mark.parametrize("payload", [{"email": "r" * 300 + "@example.com"}, {"email": None}, {"email": 7}])
def test_subscribe_refuses_oversized_or_wrongly_typed_input(client, session, payload):
    assert_refused(client.post(SUBSCRIBE, json=payload))
    assert_nothing_stored(session)
