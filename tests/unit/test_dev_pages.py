"""The demo mailbox is no part of production: no page, and its handlers answer nothing."""

import dataclasses

import pytest
from reflex.state import State

import cycling_site.cycling_site  # noqa: F401  (the app: every state registered)
from cycling_site import pages
from cycling_site.services import outbox
from cycling_site.settings import settings
from cycling_site.state import mailbox
from cycling_site.state.mailbox import MailboxState

RESET_LINK = "http://localhost:3000/auth/forgot-password2?code=secret-reset-code"


def _use_env(monkeypatch, app_env: str) -> None:
    changed = dataclasses.replace(settings, app_env=app_env)
    for module in (mailbox, pages):
        monkeypatch.setattr(module, "settings", changed)


def _mailbox() -> MailboxState:
    root = State(_reflex_internal_init=True)
    return root.get_substate(MailboxState.get_full_name().split(".")[1:])


def test_production_serves_no_dev_pages(monkeypatch):
    _use_env(monkeypatch, "demo")
    assert "dev-mailbox" in {route.name for route in pages.served_routes()}
    _use_env(monkeypatch, "production")
    assert "dev-mailbox" not in {route.name for route in pages.served_routes()}


@pytest.mark.anyio
@pytest.mark.parametrize("recipient", ["rider@example.com", ""])
async def test_mailbox_handlers_answer_nothing_in_production(session, monkeypatch, recipient):
    outbox.queue_email(session, "rider@example.com", "Reset your password", f"Open {RESET_LINK}")
    session.commit()
    state = _mailbox()

    _use_env(monkeypatch, "production")
    await MailboxState.event_handlers["filter"].fn(state, {"to": recipient})
    await MailboxState.event_handlers["load"].fn(state)
    assert state.messages == []

    _use_env(monkeypatch, "demo")
    await MailboxState.event_handlers["filter"].fn(state, {"to": recipient})
    assert [message["links"] for message in state.messages] == [[RESET_LINK]]
