"""E-mail delivery against a real SMTP server (aiosmtpd) on a free loopback port."""

import asyncio
import socket
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from cycling_site.clients.mail import SmtpServer
from cycling_site.models import OutboxMessage
from cycling_site.services import mail_delivery, outbox
from cycling_site.settings import settings

SENDER = "RideArena <no-reply@example.com>"
RECIPIENT = "layla@example.com"
MAX_ATTEMPTS = 3
RETRY_SECONDS = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return moment.replace(tzinfo=UTC) if moment and moment.tzinfo is None else moment


class Mailbox:
    """The server's side: what it accepted; `refuse` makes it answer every message with a 554."""

    def __init__(self) -> None:
        self.received: list = []
        self.refuse = False

    async def handle_DATA(self, _server, _session, envelope) -> str:
        if self.refuse:
            return "554 5.7.1 Message rejected for this test"
        self.received.append(envelope)
        return "250 OK"


@pytest.fixture
def mailbox() -> Mailbox:
    handler = Mailbox()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    handler.port = controller.port
    yield handler
    controller.stop()


def use_settings(monkeypatch, **changes) -> None:
    values = {
        "mail_from": SENDER,
        "mail_max_attempts": MAX_ATTEMPTS,
        "mail_retry_seconds": RETRY_SECONDS,
        **changes,
    }
    monkeypatch.setattr(mail_delivery, "settings", replace(settings, **values))


@pytest.fixture
def smtp(monkeypatch, mailbox: Mailbox) -> Mailbox:
    use_settings(monkeypatch, smtp_url=f"smtp://127.0.0.1:{mailbox.port}")
    return mailbox


def queue(session: Session, subject: str = "Verify your account", **fields) -> OutboxMessage:
    message = outbox.queue_email(session, RECIPIENT, subject, "Hello Layla,\n\nOpen the link to verify.")
    for name, value in fields.items():
        setattr(message, name, value)
    session.commit()
    session.refresh(message)
    return message


def reload(session: Session, message: OutboxMessage) -> OutboxMessage:
    session.expire_all()
    return session.get(OutboxMessage, message.id)


def deliver(now: datetime | None = None) -> int:
    return asyncio.run(mail_delivery.deliver_due(now=now))


def parsed(envelope):
    return message_from_bytes(envelope.content, policy=policy.default)


def test_a_queued_message_arrives_with_sender_recipient_subject_and_body(session, smtp):
    message = queue(session)
    assert deliver() == 1

    assert len(smtp.received) == 1
    envelope = smtp.received[0]
    assert envelope.mail_from == "no-reply@example.com"
    assert envelope.rcpt_tos == [RECIPIENT]
    mail = parsed(envelope)
    assert mail["From"] == SENDER
    assert mail["To"] == RECIPIENT
    assert mail["Subject"] == "Verify your account"
    # SMTP carries CRLF line ends.
    assert mail.get_content().replace("\r\n", "\n") == "Hello Layla,\n\nOpen the link to verify.\n"
    assert mail["Message-ID"].startswith(f"<outbox-{message.id}.")

    stored = reload(session, message)
    assert stored.sent_at is not None
    assert stored.attempts == 1
    assert stored.last_error is None
    assert stored.next_attempt_at is None


def test_a_sent_message_is_never_sent_again(session, smtp):
    queue(session)
    assert deliver() == 1
    assert deliver() == 0
    assert deliver(datetime.now(UTC) + timedelta(days=30)) == 0
    assert len(smtp.received) == 1


def test_a_refused_message_is_kept_and_delivered_once_the_server_takes_it(session, smtp):
    message = queue(session)
    now = datetime.now(UTC)
    smtp.refuse = True
    assert deliver(now) == 0

    stored = reload(session, message)
    assert stored.sent_at is None
    assert stored.attempts == 1
    assert "554" in stored.last_error and "rejected for this test" in stored.last_error
    assert aware(stored.next_attempt_at) == now + timedelta(seconds=RETRY_SECONDS)

    smtp.refuse = False
    assert deliver(now + timedelta(seconds=RETRY_SECONDS - 1)) == 0, "sent before its retry time"
    assert smtp.received == []

    assert deliver(now + timedelta(seconds=RETRY_SECONDS)) == 1
    assert deliver(now + timedelta(hours=1)) == 0
    assert len(smtp.received) == 1
    stored = reload(session, message)
    assert stored.sent_at is not None
    assert stored.attempts == 2


def test_a_server_that_is_down_leaves_the_message_waiting_longer_after_each_failure(
    session, monkeypatch, mailbox
):
    closed_port = free_port()
    use_settings(monkeypatch, smtp_url=f"smtp://127.0.0.1:{closed_port}")
    message = queue(session)
    now = datetime.now(UTC)
    assert deliver(now) == 0
    stored = reload(session, message)
    assert (stored.sent_at, stored.attempts) == (None, 1)
    assert stored.last_error
    assert aware(stored.next_attempt_at) == now + timedelta(seconds=RETRY_SECONDS)

    later = now + timedelta(seconds=RETRY_SECONDS)
    assert deliver(later) == 0
    stored = reload(session, message)
    assert stored.attempts == 2
    assert aware(stored.next_attempt_at) == later + timedelta(seconds=2 * RETRY_SECONDS)

    use_settings(monkeypatch, smtp_url=f"smtp://127.0.0.1:{mailbox.port}")
    assert deliver(later + timedelta(seconds=2 * RETRY_SECONDS)) == 1
    assert len(mailbox.received) == 1


def test_a_message_past_the_attempt_limit_is_not_retried(session, smtp):
    message = queue(session)
    smtp.refuse = True
    now = datetime.now(UTC)
    for attempt in range(MAX_ATTEMPTS):
        now += timedelta(days=1)
        assert deliver(now) == 0
        assert reload(session, message).attempts == attempt + 1

    smtp.refuse = False
    assert deliver(now + timedelta(days=30)) == 0
    stored = reload(session, message)
    assert (stored.sent_at, stored.attempts) == (None, MAX_ATTEMPTS)
    assert stored.last_error
    assert smtp.received == []


def test_a_stored_message_already_at_the_limit_is_skipped(session, smtp):
    message = queue(session, attempts=MAX_ATTEMPTS, last_error="550 mailbox unavailable")
    assert deliver(datetime.now(UTC) + timedelta(days=1)) == 0
    assert smtp.received == []
    assert reload(session, message).attempts == MAX_ATTEMPTS


def test_a_message_not_yet_due_is_skipped_until_its_time(session, smtp):
    now = datetime.now(UTC)
    message = queue(session, next_attempt_at=now + timedelta(minutes=5))
    assert deliver(now) == 0
    assert smtp.received == []
    assert reload(session, message).attempts == 0

    assert deliver(now + timedelta(minutes=5)) == 1
    assert len(smtp.received) == 1


def test_due_messages_go_out_oldest_first_and_text_messages_are_left_alone(session, smtp):
    first = queue(session, subject="First")
    second = queue(session, subject="Second")
    text = queue(session, subject="Your code", channel="sms")
    assert deliver() == 2
    assert [parsed(envelope)["Subject"] for envelope in smtp.received] == ["First", "Second"]
    assert reload(session, first).sent_at and reload(session, second).sent_at
    assert reload(session, text).sent_at is None


def test_two_passes_at_once_send_a_message_only_once(session, smtp):
    queue(session)

    async def two_passes() -> list[int]:
        return await asyncio.gather(mail_delivery.deliver_due(), mail_delivery.deliver_due())

    assert sorted(asyncio.run(two_passes())) == [0, 1]
    assert len(smtp.received) == 1


def test_a_message_claimed_by_a_pass_that_crashed_is_sent_once_the_claim_runs_out(session, smtp):
    message = queue(session)
    now = datetime.now(UTC)
    assert mail_delivery._claim(message.id, now) is not None  # a pass took it, then stopped mid-send
    assert deliver(now) == 0, "another pass sent a message that is being sent"
    assert smtp.received == []

    assert deliver(now + timedelta(seconds=mail_delivery.CLAIM_SECONDS + 1)) == 1
    assert len(smtp.received) == 1
    assert reload(session, message).sent_at is not None


def test_line_breaks_in_a_subject_cannot_add_headers(session, smtp):
    queue(session, subject="Hello\r\nBcc: someone@example.net")
    assert deliver() == 1
    envelope = smtp.received[0]
    assert envelope.rcpt_tos == [RECIPIENT]
    assert parsed(envelope)["Subject"] == "Hello Bcc: someone@example.net"
    assert parsed(envelope)["Bcc"] is None


def test_without_smtp_url_messages_stay_in_the_outbox(session, monkeypatch, mailbox):
    use_settings(monkeypatch, smtp_url="")
    message = queue(session)
    assert deliver() == 0
    asyncio.run(asyncio.wait_for(mail_delivery.deliver_forever(interval=0.01), timeout=5))
    stored = reload(session, message)
    assert (stored.sent_at, stored.attempts) == (None, 0)
    assert mailbox.received == []


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_user_and_password_in_the_url_log_in(session, monkeypatch):
    logins: list[tuple[str, str]] = []

    def authenticator(_server, _session, _envelope, mechanism, auth_data):
        logins.append((auth_data.login.decode(), auth_data.password.decode()))
        # handled=False: the server itself answers a refusal with 535.
        return AuthResult(success=auth_data.password == b"pedal:hard@1", handled=False)

    handler = Mailbox()
    controller = Controller(
        handler,
        hostname="127.0.0.1",
        port=free_port(),
        authenticator=authenticator,
        auth_require_tls=False,
        auth_required=True,
    )
    controller.start()
    try:
        url = f"smtp://mailer%40example.com:pedal%3Ahard%401@127.0.0.1:{controller.port}"
        use_settings(monkeypatch, smtp_url=url)
        queue(session)
        assert deliver() == 1
        assert logins == [("mailer@example.com", "pedal:hard@1")]
        assert len(handler.received) == 1

        use_settings(monkeypatch, smtp_url=url.replace("pedal%3Ahard", "wrong"))
        refused = queue(session, subject="Second")
        assert deliver() == 0
        stored = reload(session, refused)
        assert stored.sent_at is None
        assert stored.attempts == 1 and "535" in stored.last_error
    finally:
        controller.stop()


def test_the_delivery_loop_sends_what_is_queued(session, smtp, monkeypatch):
    message = queue(session)
    one_pass = mail_delivery.deliver_due

    async def run_until_delivered() -> None:
        delivered = asyncio.Event()

        async def watched_pass() -> int:
            count = await one_pass()
            if count:
                delivered.set()
            return count

        monkeypatch.setattr(mail_delivery, "deliver_due", watched_pass)
        task = asyncio.create_task(mail_delivery.deliver_forever(interval=0.05))
        try:
            await asyncio.wait_for(delivered.wait(), timeout=10)
        finally:
            task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run_until_delivered())
    assert len(smtp.received) == 1
    assert reload(session, message).sent_at is not None


def test_the_delivery_loop_backs_off_while_the_database_is_busy_and_comes_back_after(
    session, smtp, monkeypatch, caplog
):
    passes: list[bool] = []

    async def busy_then_free_pass() -> int:
        passes.append(len(passes) < 5)
        if passes[-1]:
            raise OperationalError("UPDATE outbox_message", None, Exception("database is locked"))
        if len(passes) >= 8:
            raise asyncio.CancelledError
        return 0

    monkeypatch.setattr(mail_delivery, "deliver_due", busy_then_free_pass)
    started = time.monotonic()
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(mail_delivery.deliver_forever(interval=0.02))
    # Five busy passes, each waiting twice as long: 0.04 + 0.08 + 0.16 + 0.32 + 0.64 s, then 0.02 s again.
    assert time.monotonic() - started > 1.2
    assert "found the database busy" in caplog.text
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


def test_the_delivery_loop_is_off_when_smtp_url_is_not_an_smtp_address(session, monkeypatch, mailbox):
    use_settings(monkeypatch, smtp_url=f"http://127.0.0.1:{mailbox.port}")
    queue(session)
    asyncio.run(asyncio.wait_for(mail_delivery.deliver_forever(interval=0.01), timeout=5))
    assert mailbox.received == []


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtp://mail.example.com", SmtpServer("mail.example.com", 25, False)),
        ("smtp://u:p@mail.example.com:587", SmtpServer("mail.example.com", 587, False, "u", "p")),
        ("smtps://mail.example.com", SmtpServer("mail.example.com", 465, True)),
        (
            "smtps://a%40b.c:p%2Fw@mail.example.com:2465",
            SmtpServer("mail.example.com", 2465, True, "a@b.c", "p/w"),
        ),
    ],
)
def test_smtp_url_forms(url, expected):
    assert SmtpServer.from_url(url) == expected


@pytest.mark.parametrize("url", ["http://mail.example.com", "mail.example.com:25", "smtp://", "smtps:///x"])
def test_urls_that_are_not_smtp_addresses_are_refused(url):
    with pytest.raises(ValueError):
        SmtpServer.from_url(url)


def test_retry_waits_double_and_stop_growing_at_a_day(monkeypatch):
    use_settings(monkeypatch)
    assert [mail_delivery.retry_delay(n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert mail_delivery.retry_delay(1000) == timedelta(days=1)
