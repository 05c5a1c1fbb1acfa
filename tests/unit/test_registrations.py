"""Registering for an event: each step's rules, files, the phone code, and the submit's server rules."""

import re
import threading
from datetime import date, timedelta

import pytest
from sqlmodel import Session, select

from cycling_site.db import engine
from cycling_site.messages import events as events_msg
from cycling_site.messages import registration as msg
from cycling_site.models import OutboxMessage, PhoneVerification
from cycling_site.models.accounts import Role
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event, Registration, RiderFile
from cycling_site.services import phone_otp, registrations, rider_files, tokens
from cycling_site.services.race_control import ReviewRefused
from cycling_site.services.registrations import Application
from tests import file_samples
from tests.unit.conftest import count, form_errors

TODAY = date(2026, 11, 21)
ADDRESS = "203.0.113.7"


@pytest.fixture
def make_event(session: Session):
    def make(**fields) -> Event:
        values = {
            "name": "Hill Race",
            "starts_at": utcnow() + timedelta(days=5),
            "closes_at": utcnow() + timedelta(days=4),
            "dial_codes": ["971", "968"],
            **fields,
        }
        event = Event(**values)
        session.add(event)
        session.commit()
        session.refresh(event)
        return event

    return make


def _personal(**fields) -> Application:
    values = {"disclaimer": True, "first_name": "Layla", "last_name": "Haddad", "gender": "1", **fields}
    return Application(**values)


def _errors(session, event, account, step, form) -> dict[str, str]:
    return registrations.step_errors(session, event, account, step, form, TODAY)


def test_the_steps_follow_the_events_flags(make_event):
    assert registrations.steps(make_event()) == ["disclaimer", "personal"]
    everything = make_event(identification=True, device=True, team=True, otp=True)
    assert registrations.steps(everything) == [
        "disclaimer",
        "personal",
        "identity",
        "device",
        "team",
        "phone",
    ]
    assert registrations.steps(make_event(team=True)) == ["disclaimer", "personal", "team"]


def test_the_disclaimer_and_personal_details_are_required(session, make_account, make_event):
    rider, event = make_account(), make_event()
    assert _errors(session, event, rider, "disclaimer", Application()) == {
        "disclaimer": msg.DISCLAIMER_REQUIRED
    }
    errors = _errors(session, event, rider, "personal", Application(gender="3"))
    assert errors == {
        "first_name": "First name is required.",
        "last_name": "Last name is required.",
        "gender": msg.GENDER_INVALID,
    }
    assert _errors(session, event, rider, "personal", _personal()) == {}


@pytest.mark.parametrize(
    ("dob", "error"),
    [
        ("", "Date of birth is required."),
        ("2016-11-22", msg.DOB_TOO_RECENT),
        ("21/11/1990", "Please enter a valid date of birth."),
        ("1980-12-31", msg.PROOF_REQUIRED),
        ("2002-01-01", msg.PROOF_REQUIRED),
        ("2016-11-21", msg.PROOF_REQUIRED),
        ("1981-01-01", None),
        ("2001-12-31", None),
    ],
)
def test_the_date_of_birth_window_and_the_proof_rule(session, make_account, make_event, dob, error):
    rider, event = make_account(), make_event(dob_required=True)
    errors = _errors(session, event, rider, "personal", _personal(dob=dob))
    assert list(errors.values()) == ([error] if error else [])


def test_a_proof_on_record_satisfies_the_rule_but_not_another_riders(session, make_account, make_event):
    rider, other = make_account(), make_account(email="other@example.com")
    event = make_event(dob_required=True)
    mine = rider_files.store(session, rider, "proof", "passport.pdf", file_samples.pdf())
    theirs = rider_files.store(session, other, "proof", "passport.pdf", file_samples.pdf())
    assert _errors(session, event, rider, "personal", _personal(dob="1975-03-02", proof=str(mine.id))) == {}
    errors = _errors(session, event, rider, "personal", _personal(dob="1975-03-02", proof=str(theirs.id)))
    assert errors == {"proof": msg.FILE_NOT_FOUND}


def test_identity_needs_type_front_back_unless_passport_and_a_later_expiry(session, make_account, make_event):
    rider, event = make_account(), make_event(identification=True)
    front = rider_files.store(session, rider, "front", "front.jpg", file_samples.jpeg())
    back = rider_files.store(session, rider, "back", "back.png", file_samples.png())
    assert _errors(session, event, rider, "identity", Application()) == {
        "id_type": msg.ID_TYPE_INVALID,
        "front": "Front image is required.",
        "back": "Back image is required.",
        "id_expiry": "Expiry date is required.",
    }
    ten_days = (TODAY + timedelta(days=10)).isoformat()
    nine_days = (TODAY + timedelta(days=9)).isoformat()
    national = Application(id_type="nationalId", front=str(front.id), back=str(back.id), id_expiry=ten_days)
    assert _errors(session, event, rider, "identity", national) == {}
    passport = Application(id_type="passport", front=str(front.id), id_expiry=nine_days)
    assert _errors(session, event, rider, "identity", passport) == {"id_expiry": msg.EXPIRY_TOO_SOON}
    swapped = Application(id_type="nationalId", front=str(back.id), back=str(back.id), id_expiry=ten_days)
    assert _errors(session, event, rider, "identity", swapped) == {"front": msg.FILE_NOT_FOUND}
    assert registrations.earliest_expiry(TODAY) == date(2026, 12, 1)


def test_device_and_team_rules(session, make_account, make_event):
    rider, event = make_account(), make_event(device=True, team=True)
    assert _errors(session, event, rider, "device", Application(device_platform="Windows")) == {
        "device_model": "Trainer model name is required.",
        "device_serial": "Trainer serial number is required.",
        "device_platform": msg.PLATFORM_INVALID,
    }
    device = Application(device_platform="Android", device_model="KICKR", device_serial="SN-1")
    assert _errors(session, event, rider, "device", device) == {}
    assert _errors(session, event, rider, "team", Application(team_type="y")) == {"team_name": "required"}
    assert _errors(session, event, rider, "team", Application(team_type="x")) == {
        "team_type": msg.TEAM_TYPE_INVALID
    }
    assert _errors(session, event, rider, "team", Application(team_type="i")) == {}


@pytest.mark.parametrize(
    ("dial_code", "number", "field", "message"),
    [
        ("971", "12345", "phone", msg.PHONE_INVALID),
        ("971", "123456789012", "phone", msg.PHONE_INVALID),
        ("971", "50-123-4567", "phone", msg.PHONE_INVALID),
        ("971", "５０１２３４５６７", "phone", msg.PHONE_INVALID),
        ("44", "7911123456", "dial_code", msg.DIAL_CODE_INVALID),
    ],
)
def test_phone_numbers_are_6_to_11_digits_with_an_accepted_code(
    make_event, dial_code, number, field, message
):
    event = make_event(otp=True)
    assert form_errors(phone_otp.check_phone, event, dial_code, number) == {field: message}


def test_the_default_dial_code_is_971_when_the_event_takes_it(make_event):
    assert phone_otp.default_dial_code(make_event(dial_codes=["968", "971"])) == "971"
    assert phone_otp.default_dial_code(make_event(dial_codes=["968"])) == "968"
    assert phone_otp.dial_codes(make_event(dial_codes=[])) == ["971"]
    assert phone_otp.check_phone(make_event(), "+971", "50 123 4567").full == "971501234567"


# --- Files --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "data", "content_type"),
    [
        ("proof", file_samples.pdf(), "application/pdf"),
        ("front", file_samples.jpeg(), "image/jpeg"),
        ("back", file_samples.png(), "image/png"),
        ("device_video", file_samples.mp4(), "video/mp4"),
    ],
    ids=["pdf", "jpeg", "png", "mp4"],
)
def test_files_are_kept_by_their_content(session, make_account, kind, data, content_type):
    rider = make_account()
    row = rider_files.store(session, rider, kind, "../../etc/My File", data)
    extension = rider_files.KINDS[kind][content_type]
    assert (row.kind, row.content_type, row.size, row.name) == (
        kind,
        content_type,
        len(data),
        f"My File.{extension}",
    )
    stored = rider_files._path(row.stored_as)
    assert stored.read_bytes() == data
    assert rider_files.on_record(session, rider)[kind].id == row.id


@pytest.mark.parametrize(
    ("kind", "data", "message"),
    [
        ("front", file_samples.gif(), msg.INVALID_FILE_TYPE),
        ("front", file_samples.text_as_jpeg(), msg.INVALID_FILE_TYPE),
        ("proof", file_samples.mp4(), msg.INVALID_FILE_TYPE),
        ("device_video", file_samples.jpeg(), msg.INVALID_VIDEO_TYPE),
        ("back", file_samples.oversized_jpeg(), msg.FILE_TOO_LARGE),
        ("back", b"", msg.FILE_EMPTY),
    ],
    ids=["gif", "text-named-jpg", "video-as-proof", "image-as-video", "over-8-mb", "empty"],
)
def test_wrong_spoofed_oversized_or_empty_files_are_refused(session, make_account, kind, data, message):
    rider = make_account()
    folder = rider_files._path("x").parent
    before = set(folder.iterdir()) if folder.exists() else set()
    assert form_errors(rider_files.store, session, rider, kind, "photo.jpg", data) == {kind: message}
    assert count(session, RiderFile) == 0
    assert (set(folder.iterdir()) if folder.exists() else set()) == before


def test_download_links_are_for_the_owner_or_race_control_and_expire(session, make_account):
    rider = make_account()
    other = make_account(email="other@example.com")
    marshal = make_account(email="marshal@example.com", role=Role.race_control)
    row = rider_files.store(session, rider, "front", "id.jpg", file_samples.jpeg())
    for viewer in (rider, marshal):
        url = rider_files.download_url(session, viewer, row.id)
        found, path = rider_files.open_link(session, url.rsplit("/", 1)[-1], viewer)
        assert found.id == row.id and path.read_bytes() == file_samples.jpeg()
    assert form_errors(rider_files.download_url, session, other, row.id) == {"key": msg.DOWNLOAD_FAILED}
    assert form_errors(rider_files.download_url, session, rider, "999") == {"key": msg.DOWNLOAD_FAILED}
    expired = tokens.sign_link(str(row.id), rider_files.LINK_PURPOSE, timedelta(seconds=-1), viewer=rider.id)
    assert rider_files.open_link(session, expired, rider) is None
    wrong_purpose = tokens.sign_link(str(row.id), "session", timedelta(minutes=5))
    assert rider_files.open_link(session, wrong_purpose, rider) is None
    assert rider_files.open_link(session, url.rsplit("/", 1)[-1] + "x", marshal) is None


def test_a_link_opens_only_for_the_account_it_was_made_for(session, make_account):
    """Whoever else holds the URL (from history, a log, a shared screen) gets nothing."""
    rider = make_account()
    other = make_account(email="other@example.com")
    marshal = make_account(email="marshal@example.com", role=Role.race_control)
    row = rider_files.store(session, rider, "front", "id.jpg", file_samples.jpeg())
    token = rider_files.download_url(session, rider, row.id).rsplit("/", 1)[-1]
    assert (
        tokens.read_link(token, rider_files.LINK_PURPOSE)["exp"]
        <= (utcnow() + rider_files.LINK_LIFETIME).timestamp()
    )
    for stranger in (other, marshal, None):
        assert rider_files.open_link(session, token, stranger) is None
    assert rider_files.open_link(session, token, rider) is not None
    no_viewer = tokens.sign_link(str(row.id), rider_files.LINK_PURPOSE, timedelta(minutes=5))
    assert rider_files.open_link(session, no_viewer, rider) is None


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("front", file_samples.jpeg_with_html()),
        ("back", file_samples.png_with_html()),
        ("proof", file_samples.pdf_with_html()),
        ("front", file_samples.jpeg_header_then_html()),
        ("back", file_samples.png_header_then_html()),
        ("proof", file_samples.broken_jpeg()),
        ("front", file_samples.broken_jpeg()),
    ],
    ids=[
        "jpeg+html",
        "png+svg",
        "pdf+iframe",
        "jpeg-magic-then-html",
        "png-magic-then-html",
        "broken",
        "cut",
    ],
)
def test_polyglots_and_images_that_do_not_decode_are_refused(session, make_account, kind, data):
    rider = make_account()
    assert form_errors(rider_files.store, session, rider, kind, "photo.jpg", data) == {
        kind: msg.INVALID_FILE_TYPE
    }
    assert count(session, RiderFile) == 0


def test_a_video_with_markup_is_refused(session, make_account):
    rider = make_account()
    assert form_errors(
        rider_files.store, session, rider, "device_video", "ride.mp4", file_samples.mp4_with_html()
    ) == {"device_video": msg.INVALID_VIDEO_TYPE}


@pytest.mark.parametrize(
    ("name", "data", "stored"),
    [
        ("invoice\u202egpj.html", file_samples.pdf(), "invoicegpj.pdf"),
        ("id\u200b\u200dfront.html", file_samples.jpeg(), "idfront.jpg"),
        ("scan.JPEG", file_samples.jpeg(), "scan.jpg"),
        ("C:\\Users\\layla\\passport.png", file_samples.png(), "passport.png"),
        ("line\nbreak\ttab.png", file_samples.png(), "linebreaktab.png"),
        ("...", file_samples.png(), "file.png"),
        ("\u202e", file_samples.pdf(), "file.pdf"),
        ("a" * 300 + ".pdf", file_samples.pdf(), "a" * (rider_files.NAME_MAX - 4) + ".pdf"),
    ],
    ids=[
        "rtl-override",
        "zero-width",
        "upper-case",
        "windows-path",
        "controls",
        "dots",
        "only-format",
        "long",
    ],
)
def test_file_names_are_kept_safe_with_the_extension_of_their_type(session, make_account, name, data, stored):
    row = rider_files.store(session, make_account(), "proof", name, data)
    assert row.name == stored
    assert len(row.name) <= rider_files.NAME_MAX


# --- Phone code ---------------------------------------------------------------------------------------


def _sent_code(session: Session) -> str:
    session.expire_all()
    text = session.exec(select(OutboxMessage).order_by(OutboxMessage.id.desc())).first()
    return re.search(r"\b(\d{6})\b", text.body)[1]


def test_a_code_goes_through_the_outbox_and_verifies_once(session, make_account, make_event):
    rider, event = make_account(), make_event(otp=True)
    phone = phone_otp.check_phone(event, "971", "501234567")
    key = phone_otp.send_code(session, rider, event, phone, "whatsapp", ADDRESS)
    message = session.exec(select(OutboxMessage)).one()
    assert (message.channel, message.recipient) == ("whatsapp", "+971501234567")
    code = _sent_code(session)
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    assert form_errors(phone_otp.verify_code, session, rider, key, phone.full, wrong) == {
        "otp": msg.OTP_WRONG
    }
    assert form_errors(phone_otp.verify_code, session, rider, key, phone.full, "12a") == {
        "otp": msg.OTP_INVALID
    }
    phone_otp.verify_code(session, rider, key, "+971 50 123 4567", code)
    assert session.exec(select(PhoneVerification)).one().phone == "971501234567"
    reused = form_errors(phone_otp.verify_code, session, rider, key, phone.full, code)
    assert reused == {"otp": "This link or code has already been used."}


def test_a_code_is_only_good_for_its_phone_rider_and_latest_send(session, make_account, make_event):
    rider, other, event = make_account(), make_account(email="o@example.com"), make_event(otp=True)
    phone = phone_otp.check_phone(event, "971", "501234567")
    first_key = phone_otp.send_code(session, rider, event, phone, "sms", ADDRESS)
    first_code = _sent_code(session)
    second_key = phone_otp.send_code(session, rider, event, phone, "sms", ADDRESS)
    second_code = _sent_code(session)
    superseded = form_errors(phone_otp.verify_code, session, rider, first_key, phone.full, first_code)
    assert superseded == {"otp": "This link or code has already been used."}
    elsewhere = phone_otp.check_phone(event, "968", "91234567")
    assert form_errors(phone_otp.verify_code, session, rider, second_key, elsewhere.full, second_code) == {
        "otp": msg.OTP_WRONG
    }
    assert form_errors(phone_otp.verify_code, session, other, second_key, phone.full, second_code) == {
        "otp": msg.OTP_WRONG
    }
    assert count(session, PhoneVerification) == 0
    assert form_errors(phone_otp.send_code, session, rider, event, phone, "fax", ADDRESS) == {
        "type": msg.OTP_TYPE_INVALID
    }


def test_codes_to_one_phone_are_capped(session, make_account, make_event):
    rider, event = make_account(), make_event(otp=True)
    phone = phone_otp.check_phone(event, "971", "509999999")
    for _ in range(5):
        phone_otp.send_code(session, rider, event, phone, "sms", ADDRESS)
    assert form_errors(phone_otp.send_code, session, rider, event, phone, "sms", ADDRESS) == {
        "phone": msg.OTP_TOO_MANY
    }


def test_codes_one_account_asks_for_are_capped_across_numbers(session, make_account, make_event):
    rider, other, event = make_account(), make_account(email="other@example.com"), make_event(otp=True)
    for last in range(5):
        phone_otp.send_code(
            session, rider, event, phone_otp.check_phone(event, "971", f"50999900{last}"), "sms", ADDRESS
        )
    sixth = phone_otp.check_phone(event, "971", "509999009")
    assert form_errors(phone_otp.send_code, session, rider, event, sixth, "sms", ADDRESS) == {
        "phone": msg.OTP_SEND_LIMIT
    }
    # The refusal used up nothing of the number's or the address's caps.
    phone_otp.send_code(session, other, event, sixth, "sms", ADDRESS)


def test_codes_asked_for_from_one_address_are_capped(session, make_account, make_event):
    event = make_event(otp=True)
    riders = [make_account(email=f"rider{number}@example.com") for number in range(21)]
    for number, rider in enumerate(riders[:20]):
        phone_otp.send_code(
            session, rider, event, phone_otp.check_phone(event, "971", f"5099990{number:02d}"), "sms", ADDRESS
        )
    phone = phone_otp.check_phone(event, "971", "509999099")
    assert form_errors(phone_otp.send_code, session, riders[20], event, phone, "sms", ADDRESS) == {
        "phone": msg.OTP_SEND_LIMIT
    }
    assert phone_otp.send_code(session, riders[20], event, phone, "sms", "198.51.100.4")


# --- Submit -------------------------------------------------------------------------------------------


def _verified_phone(session, rider, event, number="501234567") -> str:
    phone = phone_otp.check_phone(event, "971", number)
    key = phone_otp.send_code(session, rider, event, phone, "sms", ADDRESS)
    phone_otp.verify_code(session, rider, key, phone.full, _sent_code(session))
    return key


def _full_application(session, rider, event) -> Application:
    proof = rider_files.store(session, rider, "proof", "passport.pdf", file_samples.pdf())
    front = rider_files.store(session, rider, "front", "passport.jpg", file_samples.jpeg())
    return _personal(
        dob="1978-04-02",
        proof=str(proof.id),
        id_type="passport",
        front=str(front.id),
        id_expiry=(date.today() + timedelta(days=400)).isoformat(),
        device_platform="iOS",
        device_model="Wahoo KICKR",
        device_serial="KX-1",
        team_type="y",
        team_name="Desert Falcons",
        phone="501234567",
        otp_key=_verified_phone(session, rider, event),
        terms=True,
    )


def test_a_full_registration_is_stored_pending_and_takes_a_slot(session, make_account, make_event):
    rider = make_account()
    event = make_event(dob_required=True, identification=True, device=True, team=True, otp=True, booked=3)
    registration = registrations.submit(session, rider, event.id, _full_application(session, rider, event))
    session.expire_all()
    assert session.get(Event, event.id).booked == 4
    stored = session.get(Registration, registration.id)
    assert (stored.status, stored.email, stored.gender, stored.dob) == (
        "pending",
        rider.email,
        1,
        date(1978, 4, 2),
    )
    assert (stored.id_type, stored.back_file_id, stored.device_model) == ("passport", None, "Wahoo KICKR")
    assert (stored.team_type, stored.team_name, stored.phone) == ("y", "Desert Falcons", "971501234567")
    again = form_errors(registrations.submit, session, rider, event.id, _personal(terms=True))
    assert again == {"event": msg.ALREADY_REGISTERED}


def test_the_submit_enforces_every_step_and_stores_nothing_on_bad_input(session, make_account, make_event):
    rider = make_account()
    event = make_event(identification=True, otp=True)
    errors = form_errors(registrations.submit, session, rider, event.id, _personal(phone="501234567"))
    assert errors["id_type"] == msg.ID_TYPE_INVALID and errors["otp"] == msg.OTP_NOT_VERIFIED
    assert count(session, Registration) == 0
    session.expire_all()
    assert session.get(Event, event.id).booked == 0


def test_an_unverified_or_spent_phone_key_is_refused(session, make_account, make_event):
    rider = make_account()
    first, second = make_event(otp=True), make_event(otp=True, name="Second")
    key = _verified_phone(session, rider, first)
    form = _personal(phone="501234567", otp_key=key, terms=True)
    registrations.submit(session, rider, first.id, form)
    assert form_errors(registrations.submit, session, rider, second.id, form) == {"otp": msg.OTP_NOT_VERIFIED}
    other_number = _personal(phone="501234568", otp_key=_verified_phone(session, rider, second), terms=True)
    assert form_errors(registrations.submit, session, rider, second.id, other_number) == {
        "otp": msg.OTP_NOT_VERIFIED
    }
    session.expire_all()
    assert session.get(Event, second.id).booked == 0


@pytest.mark.parametrize(
    ("fields", "gender", "message"),
    [
        ({"accept": False}, 1, events_msg.CLOSED),
        ({"closes_at": utcnow() - timedelta(minutes=1)}, 1, events_msg.CLOSED),
        ({"capacity": 5, "booked": 5}, 1, events_msg.ROOM_FULL),
        ({"gender": 0}, 1, events_msg.MEN_ONLY),
        ({"gender": 1}, 0, events_msg.WOMEN_ONLY),
    ],
)
def test_closed_full_and_wrong_gender_events_refuse(
    session, make_account, make_event, fields, gender, message
):
    rider = make_account(gender=gender)
    event = make_event(**fields)
    assert form_errors(registrations.submit, session, rider, event.id, _personal()) == {"event": message}
    assert count(session, Registration) == 0


def test_a_decline_frees_the_slot_and_the_rider_may_rejoin(session, make_account, make_event):
    rider = make_account()
    reviewer = make_account(email="rc@example.com", role="race_control")
    event = make_event(capacity=1)
    first = registrations.submit(session, rider, event.id, _personal())
    declined = registrations.decide(session, reviewer, first.id, False, "Your ID has expired.")
    assert declined.status == "declined" and declined.decided_at is not None
    session.expire_all()
    assert session.get(Event, event.id).booked == 0
    rejoined = registrations.submit(session, rider, event.id, _personal())
    assert rejoined.id != first.id and rejoined.status == "pending"
    approved = registrations.decide(session, reviewer, rejoined.id, True, "")
    assert approved.status == "approved"
    session.expire_all()
    assert session.get(Event, event.id).booked == 1
    with pytest.raises(ReviewRefused, match="already been decided"):
        registrations.decide(session, reviewer, first.id, True, "")
    with pytest.raises(ReviewRefused, match="does not exist"):
        registrations.decide(session, reviewer, 9999, True, "")
    with pytest.raises(ReviewRefused, match="Only race control"):
        registrations.decide(session, rider, rejoined.id, False, "no")


def test_race_control_sees_the_registration_with_its_files_and_the_reason(session, make_account, make_event):
    rider = make_account()
    reviewer = make_account(email="rc@example.com", role="race_control")
    event = make_event()
    registration = registrations.submit(session, rider, event.id, _personal())
    (pending,) = registrations.for_review(session, "pending")
    assert pending["id"] == registration.id and pending["title"] == event.name
    assert registrations.pending_count(session) == 1
    registrations.decide(session, reviewer, registration.id, False, "Wrong category")
    (rejected,) = registrations.for_review(session, "rejected")
    assert rejected["status"] == "rejected" and rejected["reason"] == "Wrong category"
    assert registrations.pending_count(session) == 0


def test_two_riders_racing_for_the_last_slot_one_gets_it(session, make_account, make_event):
    riders = [make_account(email=f"racer{n}@example.com") for n in range(2)]
    event = make_event(capacity=6, booked=5)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def race(account_id: int) -> None:
        with Session(engine, expire_on_commit=False) as own:
            account = own.get(type(riders[0]), account_id)
            barrier.wait()
            try:
                registrations.submit(own, account, event.id, _personal())
                outcomes.append("in")
            except registrations.RegistrationRefused as exc:
                outcomes.append(exc.errors["event"])

    threads = [threading.Thread(target=race, args=(rider.id,)) for rider in riders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == sorted(["in", events_msg.ROOM_FULL])
    session.expire_all()
    assert session.get(Event, event.id).booked == 6
    assert count(session, Registration) == 1


def test_user_data_offers_the_files_on_record_and_the_last_answers(session, make_account, make_event):
    rider = make_account()
    front = rider_files.store(session, rider, "front", "front.jpg", file_samples.jpeg())
    event = make_event(device=True)
    registrations.submit(
        session,
        rider,
        event.id,
        _personal(device_platform="Android", device_model="Elite Direto", device_serial="D-9"),
    )
    data = registrations.user_data(session, rider)
    assert data["files"]["front"] == {"key": str(front.id), "name": "front.jpg", "size": front.size}
    assert (data["device"], data["device_model"], data["email"]) == ("Android", "Elite Direto", rider.email)


def test_the_gender_given_must_fit_the_event(session, make_account, make_event):
    rider = make_account(gender=1)
    women = make_event(gender=1)
    assert _errors(session, women, rider, "personal", _personal(gender="0")) == {
        "gender": events_msg.WOMEN_ONLY
    }
    assert _errors(session, make_event(gender=2), rider, "personal", _personal(gender="0")) == {}


def test_only_the_files_of_the_events_steps_are_taken(make_event):
    assert registrations.file_kinds(make_event()) == set()
    everything = make_event(dob_required=True, identification=True, device=True)
    assert registrations.file_kinds(everything) == {"proof", "front", "back", "device_video"}
