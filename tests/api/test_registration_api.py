"""The registration calls of spec 2 section 7 as a caller sees them: the wizard's data, the phone code, the
one multipart submit and the links to a rider's files; each test also checks what is (or is not) stored."""

import asyncio
import re
from datetime import date, timedelta

import httpx
import pytest
from sqlmodel import col, select

from cycling_site.api.main import api
from cycling_site.local_time import local
from cycling_site.messages import accounts as accounts_msg
from cycling_site.messages import events as events_msg
from cycling_site.messages import registration as msg
from cycling_site.models import AccountCode, OutboxMessage, PhoneVerification
from cycling_site.models.accounts import Role
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event, Registration, RiderFile
from cycling_site.services import registrations, rider_files, tokens
from tests import file_samples
from tests.api.test_auth_api import assert_error_shape, sign_in
from tests.api.test_events_api import _seed
from tests.api.test_profile_api import bearer
from tests.unit.conftest import count

APPLICATION = "/api/events/event_application"
OTP_SEND = "/api/events/otp/send"
OTP_VERIFY = "/api/events/otp/verify"
REGISTRATION = "/api/events/registration"
FILE_DOWNLOAD = "/api/events/file_download"

ALL_FLAGS = "AlUla Desert Classic"
IDENTITY_ONLY = "Corniche Crit"
NUMBER = "501234567"
FULL_NUMBER = "971501234567"


# --- Helpers ------------------------------------------------------------------------------------------


def _today() -> date:
    return local(utcnow()).date()


def _signed_in(client, make_account, email: str = "rider@example.com", **fields) -> dict:
    make_account(email=email, **fields)
    return bearer(sign_in(client, email))


def _event(session, name: str) -> Event:
    session.expire_all()
    return session.exec(select(Event).where(Event.name == name)).one()


def _sent_code(session) -> str:
    session.expire_all()
    message = session.exec(select(OutboxMessage).order_by(col(OutboxMessage.id).desc())).first()
    assert message is not None, "no message queued"
    return re.search(r"\b(\d{6})\b", message.body)[1]


def _send(client, headers: dict, event_id: int, number: str = NUMBER, **fields):
    body = {"event_id": str(event_id), "code": "971", "phone": number, "type": "sms", **fields}
    return client.post(OTP_SEND, json=body, headers=headers)


def _verified_key(client, session, headers: dict, event_id: int, number: str = NUMBER) -> str:
    key = _send(client, headers, event_id, number).json()["data"]["key"]
    response = client.post(
        OTP_VERIFY,
        json={"key": key, "phone": f"971{number}", "otp": _sent_code(session)},
        headers=headers,
    )
    assert response.status_code == 200, response.text
    return key


def _form(event_id: int, otp_key: str = "", **overrides) -> dict[str, str]:
    """Every field of every step of the all-flags event, as the wizard posts them."""
    values = {
        "eventId": str(event_id),
        "disclaimer": "on",
        "first_name": "Layla",
        "last_name": "Haddad",
        "gender": "1",
        "dob": "1978-04-02",
        "id_type": "nationalId",
        "id_expiry": (_today() + timedelta(days=400)).isoformat(),
        "device_platform": "Android",
        "device_model": "Wahoo KICKR",
        "device_serial": "KX-1",
        "team_type": "y",
        "team_name": "Desert Falcons",
        "dial_code": "971",
        "phone": NUMBER,
        "otp_key": otp_key,
        "terms": "true",
    }
    values.update(overrides)
    return {name: value for name, value in values.items() if value is not None}


def _uploads(**overrides) -> dict:
    files = {
        "proof": ("passport.pdf", file_samples.pdf(), "application/pdf"),
        "front": ("front.jpg", file_samples.jpeg(), "image/jpeg"),
        "back": ("back.png", file_samples.png(), "image/png"),
    }
    files.update(overrides)
    return {kind: upload for kind, upload in files.items() if upload is not None}


def _identity_form(event_id: int, **overrides) -> dict[str, str]:
    """The fields of an event that asks for identification only."""
    values = {
        "eventId": str(event_id),
        "disclaimer": "on",
        "first_name": "Layla",
        "last_name": "Haddad",
        "gender": "1",
        "id_type": "nationalId",
        "id_expiry": (_today() + timedelta(days=200)).isoformat(),
        **overrides,
    }
    return values


def _stored_files() -> set:
    folder = rider_files._path("x").parent
    return set(folder.iterdir()) if folder.exists() else set()


def _snapshot(session, event_name: str) -> tuple:
    """What a refused submit must leave as it was: registrations, files on record and on disk, the slot."""
    return (
        count(session, Registration),
        count(session, RiderFile),
        _event(session, event_name).booked,
        _stored_files(),
    )


def _assert_refused(response, errors: dict[str, str], status_code: int = 400) -> None:
    body = assert_error_shape(response, status_code)
    assert body["errors"] == {field: [text] for field, text in errors.items()}
    assert body["message"] == next(iter(errors.values()))


def _register_identity(client, session, headers: dict) -> dict[str, RiderFile]:
    """Registers for the identification event with a front and a back upload; answers the stored files."""
    event = _event(session, IDENTITY_ONLY)
    response = client.post(
        REGISTRATION,
        data=_identity_form(event.id),
        files=_uploads(proof=None),
        headers=headers,
    )
    assert response.status_code == 200, response.text
    session.expire_all()
    return {row.kind: row for row in session.exec(select(RiderFile)).all()}


# --- The wizard's data ------------------------------------------------------------------------------


def test_event_application_needs_a_sign_in(client, session):
    event = _seed(session)[ALL_FLAGS]
    for headers in ({}, bearer("not-a-token")):
        response = client.post(APPLICATION, json={"event_id": str(event.id)}, headers=headers)
        assert response.status_code == 401
        assert response.json() == {"status": False, "message": accounts_msg.SESSION_EXPIRED}
    assert count(session, Registration) == 0


@pytest.mark.parametrize("event_id", ["999", "abc", "", "1e3", "-1", "0", "2147483647"])
def test_event_application_for_an_unknown_event_is_not_found(client, session, make_account, event_id):
    _seed(session)
    headers = _signed_in(client, make_account)
    response = client.post(APPLICATION, json={"event_id": event_id}, headers=headers)
    assert response.status_code == 404
    assert response.json() == {"status": False, "message": events_msg.EVENT_NOT_FOUND}
    assert count(session, Registration) == 0


def test_event_application_of_the_all_flags_event(client, session, make_account):
    event = _seed(session)[ALL_FLAGS]
    headers = _signed_in(client, make_account)
    response = client.post(APPLICATION, json={"event_id": str(event.id)}, headers=headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] is True
    data = body["data"]
    assert data["event"]["id"] == event.id and data["event"]["name"] == ALL_FLAGS
    assert data["steps"] == ["disclaimer", "personal", "identity", "device", "team", "phone"]
    assert (data["ustatus"], data["can_register"]) == ("", True)
    assert data["state_message"] == events_msg.closes_at(local(event.closes_at))
    assert data["countries"] == ["971", "966", "973", "968"]
    assert data["default_code"] == "971"
    assert data["latest_birth_date"] == registrations.latest_birth_date(_today()).isoformat()
    assert data["earliest_expiry"] == registrations.earliest_expiry(_today()).isoformat()
    user = data["user"]
    assert (user["email"], user["first_name"], user["last_name"]) == ("rider@example.com", "Layla", "Haddad")
    assert (user["dob"], user["gender"], user["phone"], user["id_type"]) == ("1990-05-20", 1, "", "")
    assert user["files"] == {}
    assert count(session, Registration) == 0 and count(session, RiderFile) == 0


def test_event_application_offers_the_files_on_record_after_an_upload(client, session, make_account):
    events = _seed(session)
    headers = _signed_in(client, make_account)
    files = _register_identity(client, session, headers)
    assert set(files) == {"front", "back"}

    response = client.post(APPLICATION, json={"event_id": str(events[ALL_FLAGS].id)}, headers=headers)
    assert response.status_code == 200, response.text
    user = response.json()["data"]["user"]
    assert user["files"] == {
        "front": {"key": str(files["front"].id), "name": "front.jpg", "size": len(file_samples.jpeg())},
        "back": {"key": str(files["back"].id), "name": "back.png", "size": len(file_samples.png())},
    }
    assert user["id_type"] == "nationalId"
    assert user["expiry"] == (_today() + timedelta(days=200)).isoformat()
    # The registered event itself now shows the rider's pending status.
    mine = client.post(APPLICATION, json={"event_id": str(events[IDENTITY_ONLY].id)}, headers=headers)
    data = mine.json()["data"]
    assert (data["ustatus"], data["state_message"], data["can_register"]) == (
        "pending",
        events_msg.PENDING,
        False,
    )
    assert data["steps"] == ["disclaimer", "personal", "identity"]
    assert count(session, RiderFile) == 2 and count(session, Registration) == 1


# --- The phone code ---------------------------------------------------------------------------------


def test_otp_send_and_verify(client, session, make_account):
    event = _seed(session)[ALL_FLAGS]
    headers = _signed_in(client, make_account)

    response = _send(client, headers, event.id, type="whatsapp")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] is True
    assert body["message"] == msg.OTP_SENT.format(phone=FULL_NUMBER)
    key = body["data"]["key"]
    assert isinstance(key, str) and key
    message = session.exec(select(OutboxMessage)).one()
    assert (message.channel, message.recipient) == ("whatsapp", f"+{FULL_NUMBER}")
    code = _sent_code(session)
    stored_code = session.exec(select(AccountCode).where(AccountCode.key == key)).one()
    assert stored_code.sent_to == FULL_NUMBER and code not in stored_code.code_hash

    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    response = client.post(OTP_VERIFY, json={"key": key, "phone": FULL_NUMBER, "otp": wrong}, headers=headers)
    _assert_refused(response, {"otp": msg.OTP_WRONG})
    response = client.post(OTP_VERIFY, json={"key": key, "phone": FULL_NUMBER, "otp": "12a"}, headers=headers)
    _assert_refused(response, {"otp": msg.OTP_INVALID})
    assert count(session, PhoneVerification) == 0

    response = client.post(
        OTP_VERIFY, json={"key": key, "phone": "+971 50 123 4567", "otp": code}, headers=headers
    )
    assert response.status_code == 200, response.text
    assert response.json() == {"status": True, "message": msg.OTP_VERIFIED, "data": {"verified": True}}
    session.expire_all()
    verified = session.exec(select(PhoneVerification)).one()
    assert (verified.key, verified.phone, verified.used_at) == (key, FULL_NUMBER, None)

    response = client.post(OTP_VERIFY, json={"key": key, "phone": FULL_NUMBER, "otp": code}, headers=headers)
    _assert_refused(response, {"otp": accounts_msg.CODE_USED})
    assert count(session, PhoneVerification) == 1


def test_an_sms_code_is_only_good_for_its_rider(client, session, make_account):
    event = _seed(session)[ALL_FLAGS]
    headers = _signed_in(client, make_account)
    other = _signed_in(client, make_account, email="other@example.com")
    key = _send(client, headers, event.id).json()["data"]["key"]
    assert session.exec(select(OutboxMessage)).one().channel == "sms"
    code = _sent_code(session)
    response = client.post(OTP_VERIFY, json={"key": key, "phone": FULL_NUMBER, "otp": code}, headers=other)
    _assert_refused(response, {"otp": msg.OTP_WRONG})
    response = client.post(OTP_VERIFY, json={"key": "", "phone": FULL_NUMBER, "otp": code}, headers=headers)
    _assert_refused(response, {"otp": msg.OTP_SEND_FIRST})
    assert count(session, PhoneVerification) == 0


def test_parallel_wrong_codes_are_judged_five_times_at_most(client, session, make_account):
    """Forty wrong codes posted at once: five are judged wrong, the rest find the code used up, and the
    right code no longer verifies the phone."""
    event = _seed(session)[ALL_FLAGS]
    headers = _signed_in(client, make_account)
    key = _send(client, headers, event.id).json()["data"]["key"]
    code = _sent_code(session)
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"

    async def guesses() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=api)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as guesser:
            body = {"key": key, "phone": FULL_NUMBER, "otp": wrong}
            return await asyncio.gather(
                *(guesser.post(OTP_VERIFY, json=body, headers=headers) for _ in range(40))
            )

    answers = [response.json()["errors"]["otp"] for response in asyncio.run(guesses())]
    assert answers.count([msg.OTP_WRONG]) == 5
    assert answers.count([accounts_msg.CODE_USED]) == 35
    response = client.post(OTP_VERIFY, json={"key": key, "phone": FULL_NUMBER, "otp": code}, headers=headers)
    _assert_refused(response, {"otp": accounts_msg.CODE_USED})
    assert count(session, PhoneVerification) == 0


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        ({"code": "44", "phone": "7911123456"}, {"dial_code": msg.DIAL_CODE_INVALID}),
        ({"phone": "12345"}, {"phone": msg.PHONE_INVALID}),
        ({"phone": "50-123-4567"}, {"phone": msg.PHONE_INVALID}),
        ({"type": "fax"}, {"type": msg.OTP_TYPE_INVALID}),
        ({"type": ""}, {"type": msg.OTP_TYPE_INVALID}),
    ],
    ids=["dial-code-not-accepted", "five-digits", "not-digits", "type-fax", "type-empty"],
)
def test_otp_send_refuses_bad_input(client, session, make_account, fields, errors):
    event = _seed(session)[ALL_FLAGS]
    headers = _signed_in(client, make_account)
    _assert_refused(_send(client, headers, event.id, **fields), errors)
    assert count(session, OutboxMessage) == 0 and count(session, AccountCode) == 0


def test_otp_send_refuses_a_malformed_body_and_an_event_without_phone_step(client, session, make_account):
    events = _seed(session)
    headers = _signed_in(client, make_account)
    response = _send(client, headers, events[ALL_FLAGS].id, type=5)
    assert_error_shape(response)
    assert set(response.json()["errors"]) == {"type"}
    response = _send(client, headers, events[ALL_FLAGS].id, type="s" * 201)
    assert_error_shape(response)
    _assert_refused(_send(client, headers, events[IDENTITY_ONLY].id), {"phone": msg.OTP_SEND_FIRST})
    response = _send(client, headers, 999)
    assert response.status_code == 404
    assert response.json() == {"status": False, "message": events_msg.EVENT_NOT_FOUND}
    assert count(session, OutboxMessage) == 0 and count(session, AccountCode) == 0


def test_otp_calls_need_a_sign_in(client, session):
    event = _seed(session)[ALL_FLAGS]
    response = client.post(OTP_SEND, json={"event_id": str(event.id), "code": "971", "phone": NUMBER})
    assert response.status_code == 401
    assert response.json() == {"status": False, "message": accounts_msg.SESSION_EXPIRED}
    response = client.post(OTP_VERIFY, json={"key": "k", "phone": FULL_NUMBER, "otp": "123456"})
    assert response.status_code == 401
    assert count(session, OutboxMessage) == 0 and count(session, PhoneVerification) == 0


def test_codes_to_one_number_are_capped_with_429(client, session, make_account):
    event = _seed(session)[ALL_FLAGS]
    for rider in range(5):
        account = make_account(email=f"rider{rider}@example.com")
        headers = bearer(tokens.issue_session_token(account, False).token)
        assert _send(client, headers, event.id, NUMBER).status_code == 200
    fresh = bearer(tokens.issue_session_token(make_account(email="fresh@example.com"), False).token)
    _assert_refused(_send(client, fresh, event.id, NUMBER), {"phone": msg.OTP_TOO_MANY}, 429)
    assert count(session, OutboxMessage) == 5


def test_codes_one_account_sends_are_capped_whatever_the_number(client, session, make_account):
    """SMS pumping: one account asking for codes to number after number."""
    event = _seed(session)[ALL_FLAGS]
    headers = _signed_in(client, make_account)
    for last in range(5):
        assert _send(client, headers, event.id, f"50123456{last}").status_code == 200
    _assert_refused(_send(client, headers, event.id, "501234569"), {"phone": msg.OTP_SEND_LIMIT}, 429)
    assert count(session, OutboxMessage) == 5
    other = _signed_in(client, make_account, email="other@example.com")
    assert _send(client, other, event.id, "501234569").status_code == 200


def test_codes_sent_from_one_address_are_capped(client, session, make_account):
    """Many accounts from one client address: the address runs out, whichever account asks."""
    event = _seed(session)[ALL_FLAGS]
    for rider in range(20):
        account = make_account(email=f"rider{rider}@example.com")
        headers = bearer(tokens.issue_session_token(account, False).token)
        assert _send(client, headers, event.id, f"5012345{rider:02d}").status_code == 200
    fresh = bearer(tokens.issue_session_token(make_account(email="fresh@example.com"), False).token)
    _assert_refused(_send(client, fresh, event.id, "501239999"), {"phone": msg.OTP_SEND_LIMIT}, 429)
    assert count(session, OutboxMessage) == 20


# --- The submit -------------------------------------------------------------------------------------


def test_a_full_registration_with_uploads_is_stored_pending(client, session, make_account):
    event = _seed(session)[ALL_FLAGS]
    rider = make_account()
    headers = bearer(sign_in(client))
    key = _verified_key(client, session, headers, event.id)
    booked = _event(session, ALL_FLAGS).booked

    response = client.post(REGISTRATION, data=_form(event.id, key), files=_uploads(), headers=headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] is True and body["message"] == msg.THANK_YOU
    saved_id = body["data"]["id"]
    assert body["data"] == {"id": saved_id, "event_id": event.id, "status": "pending"}

    session.expire_all()
    assert _event(session, ALL_FLAGS).booked == booked + 1
    stored = session.get(Registration, saved_id)
    assert (stored.event_id, stored.account_id, stored.status, stored.email) == (
        event.id,
        rider.id,
        "pending",
        "rider@example.com",
    )
    assert (stored.first_name, stored.last_name, stored.gender, stored.dob) == (
        "Layla",
        "Haddad",
        1,
        date(1978, 4, 2),
    )
    assert (stored.id_type, stored.id_expiry) == ("nationalId", _today() + timedelta(days=400))
    assert (stored.device_platform, stored.device_model, stored.device_serial) == (
        "Android",
        "Wahoo KICKR",
        "KX-1",
    )
    assert (stored.team_type, stored.team_name, stored.phone) == ("y", "Desert Falcons", FULL_NUMBER)
    assert stored.device_video_file_id is None
    files = {row.kind: row for row in session.exec(select(RiderFile)).all()}
    assert set(files) == {"proof", "front", "back"}
    assert (stored.proof_file_id, stored.front_file_id, stored.back_file_id) == (
        files["proof"].id,
        files["front"].id,
        files["back"].id,
    )
    expected = {
        "proof": ("passport.pdf", "application/pdf", file_samples.pdf()),
        "front": ("front.jpg", "image/jpeg", file_samples.jpeg()),
        "back": ("back.png", "image/png", file_samples.png()),
    }
    for kind, (name, content_type, data) in expected.items():
        row = files[kind]
        assert (row.account_id, row.name, row.content_type, row.size) == (
            rider.id,
            name,
            content_type,
            len(data),
        )
        assert rider_files._path(row.stored_as).read_bytes() == data
    assert session.exec(select(PhoneVerification)).one().used_at is not None

    # A second submit, files and all, is refused and stores nothing more.
    before = _snapshot(session, ALL_FLAGS)
    again = client.post(REGISTRATION, data=_form(event.id, key), files=_uploads(), headers=headers)
    _assert_refused(again, {"event": msg.ALREADY_REGISTERED})
    assert _snapshot(session, ALL_FLAGS) == before


def test_a_file_on_record_is_given_again_by_its_key(client, session, make_account):
    events = _seed(session)
    headers = _signed_in(client, make_account)
    key = _verified_key(client, session, headers, events[ALL_FLAGS].id)
    first = client.post(
        REGISTRATION, data=_form(events[ALL_FLAGS].id, key), files=_uploads(), headers=headers
    )
    assert first.status_code == 200, first.text
    session.expire_all()
    files = {row.kind: row for row in session.exec(select(RiderFile)).all()}
    disk = _stored_files()

    form = _identity_form(events[IDENTITY_ONLY].id, front=str(files["front"].id), back=str(files["back"].id))
    response = client.post(REGISTRATION, data=form, headers=headers)
    assert response.status_code == 200, response.text
    saved = session.get(Registration, response.json()["data"]["id"])
    assert (saved.event_id, saved.front_file_id, saved.back_file_id) == (
        events[IDENTITY_ONLY].id,
        files["front"].id,
        files["back"].id,
    )
    assert (saved.proof_file_id, saved.dob, saved.phone, saved.team_type) == (None, None, None, None)
    assert count(session, RiderFile) == 3 and _stored_files() == disk
    assert _event(session, IDENTITY_ONLY).booked == 1


@pytest.mark.parametrize(
    ("uploads", "fields", "errors"),
    [
        (
            {"front": ("front.gif", file_samples.gif(), "image/gif")},
            {},
            {"front": msg.INVALID_FILE_TYPE},
        ),
        (
            {"front": ("photo.jpg", file_samples.text_as_jpeg(), "image/jpeg")},
            {},
            {"front": msg.INVALID_FILE_TYPE},
        ),
        (
            {"back": ("back.jpg", file_samples.oversized_jpeg(), "image/jpeg")},
            {},
            {"back": msg.FILE_TOO_LARGE},
        ),
        (
            {"proof": ("passport.pdf", b"", "application/pdf")},
            {},
            {"proof": msg.FILE_EMPTY},
        ),
        (
            {"device_video": ("trainer.mp4", file_samples.jpeg(), "video/mp4")},
            {},
            {"device_video": msg.INVALID_VIDEO_TYPE},
        ),
        ({}, {"otp_key": ""}, {"otp": msg.OTP_NOT_VERIFIED}),
        ({}, {"otp_key": "not-a-verified-key"}, {"otp": msg.OTP_NOT_VERIFIED}),
        ({}, {"first_name": ""}, {"first_name": "First name is required."}),
        ({}, {"terms": None}, {"terms": msg.TERMS_REQUIRED}),
        ({}, {"id_expiry": _today().isoformat()}, {"id_expiry": msg.EXPIRY_TOO_SOON}),
    ],
    ids=[
        "gif-front",
        "spoofed-jpeg",
        "over-8-mb",
        "empty-proof",
        "image-as-video",
        "no-otp",
        "unverified-otp-key",
        "valid-files-bad-name",
        "valid-files-no-terms",
        "valid-files-expiry-too-soon",
    ],
)
def test_bad_input_stores_nothing(client, session, make_account, uploads, fields, errors):
    event = _seed(session)[ALL_FLAGS]
    headers = _signed_in(client, make_account)
    key = _verified_key(client, session, headers, event.id)
    before = _snapshot(session, ALL_FLAGS)

    response = client.post(
        REGISTRATION,
        data=_form(event.id, **{"otp_key": key, **fields}),
        files=_uploads(**uploads),
        headers=headers,
    )
    _assert_refused(response, errors)
    assert _snapshot(session, ALL_FLAGS) == before
    # The verified phone is still good for the corrected submit.
    assert session.exec(select(PhoneVerification)).one().used_at is None


def test_the_corrected_submit_after_a_refusal_goes_through(client, session, make_account):
    event = _seed(session)[ALL_FLAGS]
    headers = _signed_in(client, make_account)
    key = _verified_key(client, session, headers, event.id)
    refused = client.post(
        REGISTRATION, data=_form(event.id, key, last_name=""), files=_uploads(), headers=headers
    )
    _assert_refused(refused, {"last_name": "Last name is required."})
    response = client.post(REGISTRATION, data=_form(event.id, key), files=_uploads(), headers=headers)
    assert response.status_code == 200, response.text
    assert count(session, Registration) == 1 and count(session, RiderFile) == 3
    assert _event(session, ALL_FLAGS).booked == 1


@pytest.mark.parametrize(
    ("event_name", "gender", "message"),
    [
        ("Closed Registration Classic", 1, events_msg.CLOSED),
        ("Full House Sprint", 1, events_msg.ROOM_FULL),
        ("Women's Series - Round 3", 0, events_msg.WOMEN_ONLY),
        ("Men's Masters Race", 1, events_msg.MEN_ONLY),
    ],
    ids=["closed", "full", "women-only", "men-only"],
)
def test_events_that_do_not_take_the_rider_refuse(client, session, make_account, event_name, gender, message):
    event = _seed(session)[event_name]
    headers = _signed_in(client, make_account, gender=gender)
    before = _snapshot(session, event_name)
    response = client.post(
        REGISTRATION,
        data=_identity_form(event.id, gender=str(gender)),
        files=_uploads(proof=None),
        headers=headers,
    )
    _assert_refused(response, {"event": message})
    assert _snapshot(session, event_name) == before


def test_another_riders_file_is_not_on_record(client, session, make_account):
    events = _seed(session)
    other = make_account(email="other@example.com")
    theirs = rider_files.store(session, other, "front", "front.jpg", file_samples.jpeg())
    headers = _signed_in(client, make_account)
    before = _snapshot(session, IDENTITY_ONLY)
    response = client.post(
        REGISTRATION,
        data=_identity_form(events[IDENTITY_ONLY].id, front=str(theirs.id)),
        files={"back": ("back.png", file_samples.png(), "image/png")},
        headers=headers,
    )
    _assert_refused(response, {"front": msg.FILE_NOT_FOUND})
    assert _snapshot(session, IDENTITY_ONLY) == before
    assert count(session, RiderFile) == 1


def test_the_submit_needs_a_sign_in_and_a_known_event(client, session, make_account):
    events = _seed(session)
    before = _snapshot(session, IDENTITY_ONLY)
    response = client.post(
        REGISTRATION, data=_identity_form(events[IDENTITY_ONLY].id), files=_uploads(proof=None)
    )
    assert response.status_code == 401
    assert response.json() == {"status": False, "message": accounts_msg.SESSION_EXPIRED}
    assert _snapshot(session, IDENTITY_ONLY) == before

    headers = _signed_in(client, make_account)
    for event_id in ("999", "abc", None):
        form = _identity_form(0)
        form.pop("eventId")
        if event_id is not None:
            form["eventId"] = event_id
        response = client.post(REGISTRATION, data=form, files=_uploads(proof=None), headers=headers)
        assert response.status_code == 404
        assert response.json() == {"status": False, "message": events_msg.EVENT_NOT_FOUND}
    assert _snapshot(session, IDENTITY_ONLY) == before


# --- Files ------------------------------------------------------------------------------------------


def test_the_owner_downloads_a_file_by_a_short_lived_link(client, session, make_account):
    _seed(session)
    headers = _signed_in(client, make_account)
    files = _register_identity(client, session, headers)

    response = client.post(FILE_DOWNLOAD, json={"key": str(files["front"].id)}, headers=headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] is True
    url = body["data"]["url"]
    assert url.startswith("/api/events/files/")
    claims = tokens.read_link(url.rsplit("/", 1)[-1], rider_files.LINK_PURPOSE)
    assert claims["sub"] == str(files["front"].id)

    download = client.get(url, headers=headers)
    assert download.status_code == 200
    assert download.content == file_samples.jpeg()
    assert download.headers["content-type"] == "image/jpeg"
    assert download.headers["cache-control"] == "private, no-store"
    assert download.headers["content-disposition"] == 'attachment; filename="front.jpg"'
    assert download.headers["x-content-type-options"] == "nosniff"
    assert download.headers["content-security-policy"] == "sandbox"

    back = client.post(FILE_DOWNLOAD, json={"key": str(files["back"].id)}, headers=headers).json()
    png = client.get(back["data"]["url"], headers=headers)
    assert (png.status_code, png.headers["content-type"], png.content) == (
        200,
        "image/png",
        file_samples.png(),
    )
    assert count(session, RiderFile) == 2


def test_another_riders_or_an_unknown_file_cannot_be_downloaded(client, session, make_account):
    _seed(session)
    owner = _signed_in(client, make_account)
    files = _register_identity(client, session, owner)
    stranger = _signed_in(client, make_account, email="stranger@example.com")
    for key in (str(files["front"].id), "999", "abc", "", "1" * 12):
        response = client.post(FILE_DOWNLOAD, json={"key": key}, headers=stranger)
        _assert_refused(response, {"key": msg.DOWNLOAD_FAILED})
    response = client.post(FILE_DOWNLOAD, json={"key": str(files["front"].id)})
    assert response.status_code == 401
    assert count(session, RiderFile) == 2


def test_race_control_downloads_any_riders_file(client, session, make_account):
    _seed(session)
    rider = _signed_in(client, make_account)
    files = _register_identity(client, session, rider)
    marshal = _signed_in(client, make_account, email="marshal@example.com", role=Role.race_control)
    response = client.post(FILE_DOWNLOAD, json={"key": str(files["back"].id)}, headers=marshal)
    assert response.status_code == 200, response.text
    download = client.get(response.json()["data"]["url"], headers=marshal)
    assert (download.status_code, download.content) == (200, file_samples.png())
    assert download.headers["cache-control"] == "private, no-store"
    assert count(session, RiderFile) == 2


def test_a_tampered_expired_or_foreign_link_is_not_found(client, session, make_account):
    _seed(session)
    headers = _signed_in(client, make_account)
    files = _register_identity(client, session, headers)
    url = client.post(FILE_DOWNLOAD, json={"key": str(files["front"].id)}, headers=headers).json()["data"][
        "url"
    ]
    token = url.rsplit("/", 1)[-1]
    head, payload, signature = token.split(".")
    flipped = signature[:-2] + ("A" if signature[-2] != "A" else "B") + signature[-1]
    expired = tokens.sign_link(
        str(files["front"].id), rider_files.LINK_PURPOSE, timedelta(seconds=-1), viewer=1
    )
    other_purpose = tokens.sign_link(str(files["front"].id), "session", timedelta(minutes=5))
    not_a_file = tokens.sign_link("999", rider_files.LINK_PURPOSE, timedelta(minutes=5))
    assert client.get(url, headers=headers).status_code == 200
    for bad in (
        f"{head}.{payload}.{flipped}",
        token + "x",
        "garbage",
        "a.b.c",
        expired,
        other_purpose,
        not_a_file,
        "x" * 2500,
    ):
        response = client.get(f"/api/events/files/{bad}", headers=headers)
        assert response.status_code == 404, bad
        assert response.json() == {"status": False, "message": msg.LINK_EXPIRED}

    rider_files._path(files["front"].stored_as).unlink()
    response = client.get(url, headers=headers)
    assert response.status_code == 404
    assert response.json() == {"status": False, "message": msg.LINK_EXPIRED}
    assert count(session, RiderFile) == 2


def test_a_link_serves_only_the_session_it_was_made_for(client, session, make_account):
    """A link that leaks (browser history, a proxy log, a shared screen) is of no use to anyone else."""
    _seed(session)
    headers = _signed_in(client, make_account)
    files = _register_identity(client, session, headers)
    url = client.post(FILE_DOWNLOAD, json={"key": str(files["front"].id)}, headers=headers).json()["data"][
        "url"
    ]
    stranger = _signed_in(client, make_account, email="stranger@example.com")
    marshal = _signed_in(client, make_account, email="marshal@example.com", role=Role.race_control)
    for other in ({}, stranger, marshal, {"Authorization": "Bearer not-a-session"}):
        response = client.get(url, headers=other)
        assert response.status_code == 404
        assert response.json() == {"status": False, "message": msg.LINK_EXPIRED}

    # The browser opens the link with its session cookie.
    client.cookies.set(tokens.TOKEN_COOKIE, headers["Authorization"].removeprefix("Bearer "))
    assert client.get(url).content == file_samples.jpeg()


def test_a_file_is_served_under_a_safe_name_with_its_real_extension(client, session, make_account):
    _seed(session)
    headers = _signed_in(client, make_account)
    event = _event(session, IDENTITY_ONLY)
    uploads = {
        "front": ("invoice\u202egpj.html", file_samples.pdf(), "text/html"),
        "back": ("back.png", file_samples.png(), "image/png"),
    }
    response = client.post(REGISTRATION, data=_identity_form(event.id), files=uploads, headers=headers)
    assert response.status_code == 200, response.text
    session.expire_all()
    front = session.exec(select(RiderFile).where(RiderFile.kind == "front")).one()
    assert (front.name, front.content_type) == ("invoicegpj.pdf", "application/pdf")
    url = client.post(FILE_DOWNLOAD, json={"key": str(front.id)}, headers=headers).json()["data"]["url"]
    download = client.get(url, headers=headers)
    assert download.headers["content-disposition"] == 'attachment; filename="invoicegpj.pdf"'
    assert download.headers["content-type"] == "application/pdf"
    assert download.headers["content-security-policy"] == "sandbox"


def test_a_polyglot_upload_is_refused_and_stores_nothing(client, session, make_account):
    _seed(session)
    headers = _signed_in(client, make_account)
    before = _snapshot(session, IDENTITY_ONLY)
    response = client.post(
        REGISTRATION,
        data=_identity_form(_event(session, IDENTITY_ONLY).id),
        files=_uploads(proof=None, front=("front.jpg", file_samples.jpeg_with_html(), "image/jpeg")),
        headers=headers,
    )
    _assert_refused(response, {"front": msg.INVALID_FILE_TYPE})
    assert _snapshot(session, IDENTITY_ONLY) == before


# --- Odd ids and keys: answered as missing, nothing stored ---------------------------------------------

ODD_ID_CALLS = ["application", "download", "registration"]


def _odd_id_call(client, session, headers: dict, call: str, odd_id: str) -> None:
    """One call given an id that passes `str.isdigit()` but is no usable row id; answers as for a missing
    row, and stores nothing (the valid back image of the submit included)."""
    if call == "application":
        response = client.post(APPLICATION, json={"event_id": odd_id}, headers=headers)
        assert response.status_code == 404, response.text
        assert response.json() == {"status": False, "message": events_msg.EVENT_NOT_FOUND}
    elif call == "download":
        _assert_refused(
            client.post(FILE_DOWNLOAD, json={"key": odd_id}, headers=headers), {"key": msg.DOWNLOAD_FAILED}
        )
    else:
        before = _snapshot(session, IDENTITY_ONLY)
        response = client.post(
            REGISTRATION,
            data=_identity_form(_event(session, IDENTITY_ONLY).id, front=odd_id),
            files={"back": ("back.png", file_samples.png(), "image/png")},
            headers=headers,
        )
        _assert_refused(response, {"front": msg.FILE_NOT_FOUND})
        assert _snapshot(session, IDENTITY_ONLY) == before


@pytest.mark.parametrize("call", ODD_ID_CALLS)
def test_a_non_ascii_digit_id_is_not_a_server_error(client, session, make_account, call):
    _seed(session)
    headers = _signed_in(client, make_account)
    _odd_id_call(client, session, headers, call, "\u00b2")


@pytest.mark.parametrize("call", ODD_ID_CALLS)
def test_an_id_beyond_the_integer_column_is_not_found(client, session, make_account, call):
    _seed(session)
    headers = _signed_in(client, make_account)
    _odd_id_call(client, session, headers, call, "2147483648")


def test_a_nul_in_the_otp_key_stores_nothing(client, session, make_account):
    event = _seed(session)[ALL_FLAGS]
    headers = _signed_in(client, make_account)
    _verified_key(client, session, headers, event.id)
    before = _snapshot(session, ALL_FLAGS)
    response = client.post(
        REGISTRATION, data=_form(event.id, otp_key="abc\x00def"), files=_uploads(), headers=headers
    )
    _assert_refused(response, {"otp": msg.OTP_NOT_VERIFIED})
    assert _snapshot(session, ALL_FLAGS) == before
