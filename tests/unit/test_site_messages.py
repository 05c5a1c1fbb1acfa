"""The site-wide message rules every screen shares: refused input no form showed opens the errors pop-up,
anything else that fails is a plain error toast."""

import time

import pytest
from sqlalchemy import update

from cycling_site import db
from cycling_site.messages import site as msg
from cycling_site.models import Account
from cycling_site.services.validation import FormErrors, TooManyAttempts
from cycling_site.state.site_messages import POPUP_MAX_ERRORS, ErrorsPopupState
from cycling_site.ui.site_messages import unexpected_error
from tests.db_locks import WAIT_SECONDS, short_waits, write_lock  # noqa: F401


def test_refused_input_opens_the_errors_popup_with_each_message():
    refusal = FormErrors({"team": "You are already a member of this team.", "form": "Second reason."})
    event = unexpected_error(refusal)
    assert event.handler.fn is ErrorsPopupState.show.fn
    ((_name, value),) = event.args
    assert value.equals(value.create(["You are already a member of this team.", "Second reason."]))


def test_a_rate_limit_is_refused_input_too():
    event = unexpected_error(TooManyAttempts({"form": "Too many attempts."}))
    assert event.handler.fn is ErrorsPopupState.show.fn


def test_any_other_failure_is_the_plain_error_toast(caplog):
    event = unexpected_error(RuntimeError("database went away"))
    assert event.handler.fn is not ErrorsPopupState.show.fn
    assert msg.SERVER_ERROR in str(event.args)
    assert "database went away" in caplog.text


def _change_weight(session, account_id: int) -> None:
    session.exec(update(Account).where(Account.id == account_id).values(weight=61.0))
    session.commit()


@pytest.mark.anyio
@pytest.mark.timeout(30)
@pytest.mark.usefixtures("short_waits")
async def test_a_handler_that_meets_another_sessions_write_lock_shows_the_busy_message_in_time(make_account):
    account = make_account()
    with write_lock():
        started = time.monotonic()
        with pytest.raises(Exception) as failure:
            await db.in_session(_change_weight, account.id)
        waited = time.monotonic() - started
    event = unexpected_error(failure.value)
    assert msg.DATABASE_BUSY in str(event.args)
    assert msg.SERVER_ERROR not in str(event.args)
    assert waited < WAIT_SECONDS + 1


def test_the_popup_keeps_a_bounded_list_and_closes():
    popup = ErrorsPopupState()
    popup.show([f"reason {n}" for n in range(50)] + ["x" * 5000])
    assert popup.errors == [f"reason {n}" for n in range(POPUP_MAX_ERRORS)]
    assert popup.shown == 1
    popup.show(["y" * 5000])
    assert len(popup.errors[0]) == 300 and popup.shown == 2
    popup.open_change(True)
    assert popup.errors
    popup.open_change(False)
    assert popup.errors == []
