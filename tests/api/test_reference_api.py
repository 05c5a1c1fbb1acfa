"""GET countries, GET static and the app's deletion request by e-mail (POST ../mobile/delete-account)."""

from sqlmodel import select

from cycling_site.messages import accounts as msg
from cycling_site.models import OutboxMessage
from cycling_site.services import accounts, countries
from tests.api.test_auth_api import assert_error_shape

DELETE_REQUEST = "/mobile/delete-account"


def test_countries_have_dial_codes_and_flags_with_the_default_first(client):
    response = client.get("/api/countries")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "public, max-age=3600"
    options = response.json()["data"]
    assert options[0] == {"value": "971", "label": "United Arab Emirates", "code": "AE", "flag": "🇦🇪"}
    assert {"value": "44", "label": "United Kingdom", "code": "GB", "flag": "🇬🇧"} in options
    rest = [option["label"] for option in options[1:]]
    assert rest == sorted(rest) and len(options) > 200


def test_countries_fall_back_to_three_when_the_list_cannot_be_built(client, monkeypatch):
    def broken():
        raise LookupError("no phone metadata")

    monkeypatch.setattr(countries, "phone_countries", broken)
    labels = [option["label"] for option in client.get("/api/countries").json()["data"]]
    assert labels == ["United Arab Emirates", "United States", "United Kingdom"]


def test_static_data_is_what_the_forms_accept(client):
    response = client.get("/api/static")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "public, max-age=3600"
    data = response.json()["data"]
    assert data["defaultCountry"] == 784
    assert {"id": 784, "name": "United Arab Emirates"} in data["countries"]
    assert data["genders"] == [{"value": "0", "label": "Male"}, {"value": "1", "label": "Female"}]
    assert [choice["value"] for choice in data["idTypes"]] == ["nationalId", "passport"]
    assert data["platforms"] == ["iOS", "Android"]
    assert [choice["value"] for choice in data["teamTypes"]] == ["y", "i"]
    assert data["otpTypes"] == ["sms", "whatsapp"]
    assert data["limits"] == {
        "minAge": accounts.MIN_AGE,
        "weightMin": 25,
        "weightMax": 140,
        "heightMin": 50,
        "heightMax": 250,
        "passwordMin": 6,
        "fileBytes": 8_388_608,
    }


def _mail_to(session, recipient: str) -> list[OutboxMessage]:
    return list(session.exec(select(OutboxMessage).where(OutboxMessage.recipient == recipient)).all())


def test_a_deletion_request_by_email_sends_the_link_to_the_account(client, session, make_account):
    make_account()
    response = client.post(DELETE_REQUEST, json={"email": " Rider@Example.com "})
    assert response.status_code == 200
    assert response.json() == {"status": True, "message": msg.DELETE_REQUEST_RECEIVED}
    (mail,) = _mail_to(session, "rider@example.com")
    assert "/delete-user/" in mail.body


def test_a_kid_deletion_request_goes_to_the_parent(client, session, make_account):
    make_account(email="kid@example.com", is_kid=True, parent_email="parent@example.com")
    assert client.post(DELETE_REQUEST, json={"email": "kid@example.com"}).status_code == 200
    assert _mail_to(session, "kid@example.com") == []
    assert len(_mail_to(session, "parent@example.com")) == 1


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, session):
    response = client.post(DELETE_REQUEST, json={"email": "nobody@example.com"})
    assert response.json() == {"status": True, "message": msg.DELETE_REQUEST_RECEIVED}
    assert session.exec(select(OutboxMessage)).all() == []


def test_a_bad_address_is_refused(client, session):
    body = assert_error_shape(client.post(DELETE_REQUEST, json={"email": "not-an-email"}))
    assert body["errors"] == {"email": [msg.EMAIL_REQUIRED_VALID]}
    assert session.exec(select(OutboxMessage)).all() == []


def test_deletion_requests_to_one_address_are_capped(client, session, make_account):
    make_account()
    answers = [client.post(DELETE_REQUEST, json={"email": "rider@example.com"}).status_code for _ in range(6)]
    assert answers == [200] * 5 + [429]
    assert len(_mail_to(session, "rider@example.com")) == 5
