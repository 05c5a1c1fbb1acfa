"""Another process holding the database's write lock: a write waits at most DB_POOL_TIMEOUT and answers the
JSON 503 with Retry-After, and reads go on answering (SQLite in WAL mode; on PostgreSQL the lock mode that
lets readers in). A lock that keeps readers out too (PostgreSQL's ACCESS EXCLUSIVE) makes them answer 503
within that time as well."""

import time
from collections.abc import Callable

import pytest

from cycling_site.messages import site as site_msg
from tests.api.auth_support import bearer
from tests.db_locks import POSTGRES, WAIT_SECONDS, postgres_lock, short_waits, write_lock  # noqa: F401
from tests.unit.conftest import DEMO_PASSWORD, solve_payload

# Time for the request's own work besides the wait (a password hash among it).
MARGIN_SECONDS = 1.5
# A request that waits for the lock without end fails the test instead of holding the run.
pytestmark = [pytest.mark.timeout(30), pytest.mark.usefixtures("short_waits")]


def timed(call: Callable, *args, **kwargs):
    started = time.monotonic()
    response = call(*args, **kwargs)
    return response, time.monotonic() - started


def assert_busy(response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "2"
    assert response.json() == {"status": False, "message": site_msg.DATABASE_BUSY}


def test_a_sign_in_under_another_write_lock_answers_busy_within_the_wait(client, make_account):
    make_account()
    body = {"email": "rider@example.com", "password": DEMO_PASSWORD, "token": solve_payload()}
    with write_lock():
        response, seconds = timed(client.post, "/api/auth/login", json=body)
    assert_busy(response)
    assert seconds < WAIT_SECONDS + MARGIN_SECONDS


def test_reads_answer_while_another_session_holds_the_write_lock(client, make_account):
    headers = bearer(make_account())
    with write_lock():
        events, events_seconds = timed(client.get, "/api/events")
        wallet, wallet_seconds = timed(client.get, "/api/auth/user-wallet", headers=headers)
    assert events.status_code == 200, events.text
    assert wallet.status_code == 200, wallet.text
    assert max(events_seconds, wallet_seconds) < WAIT_SECONDS


@pytest.mark.skipif(not POSTGRES, reason="a PostgreSQL table lock")
def test_a_read_kept_out_by_a_table_lock_answers_busy_within_the_wait(client, session, make_account):
    headers = bearer(make_account())
    # The test's own session lets go of the table it read the account from.
    session.commit()
    with postgres_lock("ACCESS EXCLUSIVE", ["account"]):
        response, seconds = timed(client.get, "/api/auth/user-wallet", headers=headers)
    assert_busy(response)
    assert seconds < WAIT_SECONDS + MARGIN_SECONDS
