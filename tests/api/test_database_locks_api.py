"""Another process holding the database's write lock: a write waits at most DB_POOL_TIMEOUT and answers the
JSON 503 with Retry-After, and reads go on answering (SQLite in WAL mode; on PostgreSQL the lock mode that
lets readers in). A lock that keeps readers out too (PostgreSQL's ACCESS EXCLUSIVE) makes them answer 503
within that time as well."""

import dataclasses
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool
from sqlmodel import SQLModel

from cycling_site import db
from cycling_site.messages import site as site_msg
from cycling_site.settings import settings
from tests.api.auth_support import bearer
from tests.unit.conftest import DEMO_PASSWORD, solve_payload

WAIT_SECONDS = 1.0
# Time for the request's own work besides the wait (a password hash among it).
MARGIN_SECONDS = 1.5
# The holder lets go by itself after this long, should the test never tell it to.
HOLD_AT_MOST_SECONDS = 15
POSTGRES = settings.db_url.startswith("postgresql")
# A request that waits for the lock without end fails the test instead of holding the run.
pytestmark = pytest.mark.timeout(30)

SQLITE_HOLDER = """
import select, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
select.select([sys.stdin], [], [], float(sys.argv[2]))
db.execute("ROLLBACK")
"""


@pytest.fixture
def short_waits(session, monkeypatch) -> None:
    """The site's engine waiting at most WAIT_SECONDS for a connection or a lock."""
    monkeypatch.setattr(db, "settings", dataclasses.replace(settings, db_pool_timeout=WAIT_SECONDS))
    engine = db._make_engine(settings.db_url)
    monkeypatch.setattr(db, "engine", engine)
    yield
    engine.dispose()


@contextmanager
def _sqlite_write_lock() -> Iterator[None]:
    """A second OS process holds SQLite's write lock (BEGIN EXCLUSIVE) on the site's file."""
    path = make_url(settings.db_url).database
    holder = subprocess.Popen(
        [sys.executable, "-c", SQLITE_HOLDER, path, str(HOLD_AT_MOST_SECONDS)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


@contextmanager
def _postgres_lock(mode: str, tables: list[str]) -> Iterator[None]:
    """Another connection holds `mode` on the tables until the block ends."""
    other = create_engine(settings.db_url, poolclass=NullPool)
    try:
        with other.connect() as connection:
            connection.execute(text("SET lock_timeout = '5s'"))
            names = ", ".join(f'"{name}"' for name in tables)
            connection.execute(text(f"LOCK TABLE {names} IN {mode} MODE"))
            try:
                yield
            finally:
                connection.rollback()
    finally:
        other.dispose()


@contextmanager
def write_lock() -> Iterator[None]:
    """Another session holds the write lock of every table, readers let in."""
    if POSTGRES:
        with _postgres_lock("EXCLUSIVE", [table.name for table in SQLModel.metadata.sorted_tables]):
            yield
    else:
        with _sqlite_write_lock():
            yield


def timed(call: Callable, *args, **kwargs):
    started = time.monotonic()
    response = call(*args, **kwargs)
    return response, time.monotonic() - started


def assert_busy(response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "2"
    assert response.json() == {"status": False, "message": site_msg.DATABASE_BUSY}


def test_a_sign_in_under_another_write_lock_answers_busy_within_the_wait(client, make_account, short_waits):
    make_account()
    body = {"email": "rider@example.com", "password": DEMO_PASSWORD, "token": solve_payload()}
    with write_lock():
        response, seconds = timed(client.post, "/api/auth/login", json=body)
    assert_busy(response)
    assert seconds < WAIT_SECONDS + MARGIN_SECONDS


def test_reads_answer_while_another_session_holds_the_write_lock(client, make_account, short_waits):
    headers = bearer(make_account())
    with write_lock():
        events, events_seconds = timed(client.get, "/api/events")
        wallet, wallet_seconds = timed(client.get, "/api/auth/user-wallet", headers=headers)
    assert events.status_code == 200, events.text
    assert wallet.status_code == 200, wallet.text
    assert max(events_seconds, wallet_seconds) < WAIT_SECONDS


@pytest.mark.skipif(not POSTGRES, reason="a PostgreSQL table lock")
def test_a_read_kept_out_by_a_table_lock_answers_busy_within_the_wait(
    client, session, make_account, short_waits
):
    headers = bearer(make_account())
    # The test's own session lets go of the table it read the account from.
    session.commit()
    with _postgres_lock("ACCESS EXCLUSIVE", ["account"]):
        response, seconds = timed(client.get, "/api/auth/user-wallet", headers=headers)
    assert_busy(response)
    assert seconds < WAIT_SECONDS + MARGIN_SECONDS
