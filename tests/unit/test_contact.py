"""Contact us and Subscribe: every message of the rules, what is stored, and the e-mail to support."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import select

from cycling_site.messages import contact as msg
from cycling_site.models import ContactMessage, OutboxMessage, Subscriber
from cycling_site.services import contact, rate_limit
from cycling_site.services.accounts import FormErrors, TooManyAttempts
from cycling_site.services.contact import MESSAGE_MAX, NAME_MAX, ContactForm
from cycling_site.settings import settings
from tests.unit.conftest import count

ADDRESS = "203.0.113.7"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_limits():
    rate_limit.reset_limits()
    yield
    rate_limit.reset_limits()


def form(**changes: str) -> ContactForm:
    values = {
        "name": "Omar Khalid",
        "phone": "",
        "email": "omar@example.com",
        "message": "My trainer does not pair with the app.",
    }
    return ContactForm(**{**values, **changes})


def _send_in_a_new_process(contact_form: ContactForm) -> str:
    script = (
        "from sqlmodel import Session\n"
        "from cycling_site.db import engine\n"
        "from cycling_site.services import contact\n"
        "from cycling_site.services.validation import TooManyAttempts\n"
        "with Session(engine) as session:\n"
        "    try:\n"
        f"        contact.send_message(session, contact.{contact_form!r}, {ADDRESS!r})\n"
        "        print('sent')\n"
        "    except TooManyAttempts:\n"
        "        print('refused')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=dict(os.environ), capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def errors_of(session, contact_form: ContactForm) -> dict[str, str]:
    with pytest.raises(FormErrors) as caught:
        contact.send_message(session, contact_form, ADDRESS)
    assert count(session, ContactMessage) == 0
    assert count(session, OutboxMessage) == 0
    return caught.value.errors


def test_a_message_is_stored_and_emailed_to_support(session):
    contact.send_message(
        session,
        form(
            name="  Omar   Khalid ",
            phone="050 123 4567",
            email=" Omar@Example.COM ",
            message="Hello!\nMy trainer.",
        ),
        ADDRESS,
    )
    row = session.exec(select(ContactMessage)).one()
    assert (row.name, row.phone, row.email, row.message) == (
        "Omar Khalid",
        "+971501234567",
        "omar@example.com",
        "Hello!\nMy trainer.",
    )

    mail = session.exec(select(OutboxMessage)).one()
    assert mail.recipient == settings.support_email
    assert mail.subject == "Contact us: message from Omar Khalid"
    assert "Name: Omar Khalid\n" in mail.body
    assert "Email: omar@example.com\n" in mail.body
    assert "Phone: +971501234567\n" in mail.body
    assert "Hello!\nMy trainer." in mail.body
    assert mail.sent_at is None


def test_without_a_phone_the_email_says_so(session):
    contact.send_message(session, form(), ADDRESS)
    assert session.exec(select(ContactMessage)).one().phone == ""
    assert f"Phone: {msg.PHONE_NOT_GIVEN}\n" in session.exec(select(OutboxMessage)).one().body


def test_an_empty_form_names_every_required_field(session):
    assert errors_of(session, ContactForm()) == {
        "name": msg.NAME_REQUIRED,
        "email": msg.EMAIL_REQUIRED,
        "message": msg.MESSAGE_TOO_SHORT,
    }


def test_a_missing_name_is_refused(session):
    assert errors_of(session, form(name="   ")) == {"name": msg.NAME_REQUIRED}


@pytest.mark.parametrize("email", ["", "omar", "omar@", "omar@example", "@example.com", "a b@example.com"])
def test_an_invalid_email_is_refused(session, email):
    assert errors_of(session, form(email=email)) == {"email": msg.EMAIL_REQUIRED}


def test_a_message_under_ten_characters_is_refused(session):
    assert errors_of(session, form(message="  123456789  ")) == {"message": msg.MESSAGE_TOO_SHORT}
    contact.send_message(session, form(message="1234567890"), ADDRESS)
    assert count(session, ContactMessage) == 1


@pytest.mark.parametrize("phone", ["12", "abc", "+971 12", "0000000000", "+1 555 000", "9" * 31])
def test_an_implausible_phone_is_refused(session, phone):
    assert errors_of(session, form(phone=phone)) == {"phone": msg.PHONE_INVALID}


@pytest.mark.parametrize(
    ("phone", "stored"),
    [
        ("0501234567", "+971501234567"),
        ("04 345 6789", "+97143456789"),
        ("+44 20 7946 0958", "+442079460958"),
    ],
)
def test_a_real_phone_is_stored_in_international_form(session, phone, stored):
    contact.send_message(session, form(phone=phone), ADDRESS)
    assert session.exec(select(ContactMessage)).one().phone == stored


def test_too_long_fields_are_refused(session):
    errors = errors_of(session, form(name="N" * (NAME_MAX + 1), message="m" * (MESSAGE_MAX + 1)))
    assert errors == {"name": msg.too_long("Name", NAME_MAX), "message": msg.too_long("Message", MESSAGE_MAX)}


def test_the_limits_count_the_characters_as_sent(session):
    """As the API schema's maxLength does: control characters the rules drop still count."""
    errors = errors_of(session, form(name="N" + "\x7f" * NAME_MAX, message="m" * 10 + "\x07" * MESSAGE_MAX))
    assert errors == {"name": msg.too_long("Name", NAME_MAX), "message": msg.too_long("Message", MESSAGE_MAX)}


def test_control_characters_are_dropped_and_a_name_stays_on_one_line(session):
    contact.send_message(
        session, form(name="Omar\r\nBcc: x@example.net", message="Hi\x00 there,\r\nthanks\x07!"), ADDRESS
    )
    row = session.exec(select(ContactMessage)).one()
    assert row.name == "Omar Bcc: x@example.net"
    assert row.message == "Hi there,\nthanks!"
    assert "\n" not in session.exec(select(OutboxMessage)).one().subject


def test_a_flood_of_messages_is_held_back_per_address(session):
    for _ in range(5):
        contact.send_message(session, form(), ADDRESS)
    with pytest.raises(TooManyAttempts) as caught:
        contact.send_message(session, form(), ADDRESS)
    assert caught.value.errors == {"form": msg.TOO_MANY_MESSAGES}
    # A restarted site (a new process on the same database) still holds the address back.
    assert _send_in_a_new_process(form()) == "refused"
    assert count(session, ContactMessage) == 5
    assert count(session, OutboxMessage) == 5
    contact.send_message(session, form(), "198.51.100.2")
    assert count(session, ContactMessage) == 6


def test_refused_messages_do_not_count_towards_the_limit(session):
    for _ in range(8):
        with pytest.raises(FormErrors):
            contact.send_message(session, form(message="short"), ADDRESS)
    contact.send_message(session, form(), ADDRESS)
    assert count(session, ContactMessage) == 1


def test_subscribe_stores_the_address_once(session):
    first = contact.subscribe(session, " Layla@Example.com ", ADDRESS)
    again = contact.subscribe(session, "layla@example.com", ADDRESS)
    assert first.id == again.id
    assert session.exec(select(Subscriber.email)).all() == ["layla@example.com"]


@pytest.mark.parametrize("email", ["", "   ", "layla", "layla@", "layla@example"])
def test_subscribe_refuses_an_invalid_address(session, email):
    with pytest.raises(FormErrors) as caught:
        contact.subscribe(session, email, ADDRESS)
    assert caught.value.errors == {"email": msg.EMAIL_REQUIRED}
    assert count(session, Subscriber) == 0


def test_a_flood_of_new_subscriptions_is_held_back_but_a_known_address_still_answers(session):
    for number in range(10):
        contact.subscribe(session, f"rider{number}@example.com", ADDRESS)
    with pytest.raises(TooManyAttempts):
        contact.subscribe(session, "rider10@example.com", ADDRESS)
    assert contact.subscribe(session, "rider3@example.com", ADDRESS).email == "rider3@example.com"
    assert count(session, Subscriber) == 10
