"""Under load: the connection pool is bounded and a wait for it ends quickly in a clear error; database
work handed off the event loop leaves the loop serving; a session verdict is reused for a few seconds
while revocation still ends a session within them (at once when this worker revokes it)."""

import dataclasses
import sqlite3
import time
from contextlib import closing
from datetime import UTC, datetime

import anyio
import pytest
from sqlalchemy import text
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlmodel import Session

from cycling_site import db
from cycling_site.models import Account, RevokedSession
from cycling_site.services import accounts, tokens
from cycling_site.settings import settings
from cycling_site.state.session import Rider

pytestmark = pytest.mark.anyio
CONNECTION = "socket-1"


@pytest.fixture
def one_connection(schema, monkeypatch):
    """An engine over the test database with a single connection and a 0.2 s wait for it."""
    small = dataclasses.replace(settings, db_pool_size=1, db_max_overflow=0, db_pool_timeout=0.2)
    monkeypatch.setattr(db, "settings", small)
    engine = db._make_engine(settings.db_url)
    yield engine
    engine.dispose()


def test_the_pool_is_bounded_by_the_settings():
    pool = db.engine.pool
    assert pool.size() == settings.db_pool_size
    assert pool._max_overflow == settings.db_max_overflow
    assert pool.timeout() == settings.db_pool_timeout <= 5


def test_an_exhausted_pool_refuses_quickly_with_a_clear_error(one_connection):
    with one_connection.connect() as held:
        held.execute(text("SELECT 1"))
        started = time.monotonic()
        with pytest.raises(PoolTimeout, match="QueuePool limit of size 1 overflow 0 reached"):
            one_connection.connect()
        assert time.monotonic() - started < 1


async def test_the_event_loop_keeps_serving_while_database_work_waits_for_a_connection(one_connection):
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await anyio.sleep(0.01)

    def query() -> int:
        with one_connection.connect() as connection:
            return connection.execute(text("SELECT 1")).scalar_one()

    with one_connection.connect():
        async with anyio.create_task_group() as group:
            group.start_soon(tick)
            with pytest.raises(PoolTimeout):
                await db.off_loop(query)
            group.cancel_scope.cancel()
    # The refused wait lasted 0.2 s: a loop blocked by it would not have ticked meanwhile.
    assert ticks >= 5
    assert await db.off_loop(query) == 1


@pytest.fixture
def clock(monkeypatch):
    """The reuse window's clock, moved by hand."""
    now = [1000.0]
    monkeypatch.setattr(tokens.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(tokens, "_recent_checks", {})
    return now


def _revoke_elsewhere(session, token: str) -> None:
    """What another worker's sign-out leaves: the revoked row, and no word to this worker."""
    claims = tokens._decode(token, tokens.SESSION_PURPOSE)
    session.add(RevokedSession(jti=claims["jti"], expires_at=datetime.now(UTC)))
    session.commit()


def test_a_revocation_on_another_worker_counts_within_the_reuse_window(session, make_account, clock):
    account = make_account()
    token = tokens.issue_session_token(account, remember=False).token
    assert tokens.recent_check(session, token, account.uuid, CONNECTION).status == "ok"
    _revoke_elsewhere(session, token)
    clock[0] += tokens.CHECK_REUSE_SECONDS - 0.5
    assert tokens.recent_check(session, token, account.uuid, CONNECTION).status == "ok"
    clock[0] += 0.5
    check = tokens.recent_check(session, token, account.uuid, CONNECTION)
    assert (check.status, check.account) == ("invalid", None)
    assert tokens.CHECK_REUSE_SECONDS <= 5


def test_a_sign_out_on_this_worker_ends_the_session_at_once(session, make_account, clock):
    account = make_account()
    token = tokens.issue_session_token(account, remember=True).token
    assert tokens.recent_check(session, token, account.uuid, CONNECTION).status == "ok"
    assert tokens.revoke_session(session, token)
    assert tokens.recent_check(session, token, account.uuid, CONNECTION).status == "invalid"


def test_a_new_password_ends_every_session_at_once(session, make_account, clock):
    account = make_account()
    token = tokens.issue_session_token(account, remember=True).token
    assert tokens.recent_check(session, token, account.uuid, CONNECTION).status == "ok"
    accounts.set_password(account, "a-new-password-42")
    session.add(account)
    session.commit()
    assert tokens.recent_check(session, token, account.uuid, CONNECTION).status == "invalid"


def test_a_verdict_is_kept_per_token_and_rider_id(session, make_account, clock):
    account = make_account()
    token = tokens.issue_session_token(account, remember=True).token
    assert tokens.recent_check(session, token, account.uuid, CONNECTION).status == "ok"
    assert tokens.recent_check(session, token, "someone-else", CONNECTION).status == "invalid"


def test_a_new_connection_and_a_fresh_check_see_a_revocation_at_once(session, make_account, clock):
    account = make_account()
    token = tokens.issue_session_token(account, remember=True).token
    assert tokens.recent_check(session, token, account.uuid, CONNECTION).status == "ok"
    _revoke_elsewhere(session, token)
    assert tokens.recent_check(session, token, account.uuid, CONNECTION).status == "ok"
    assert tokens.recent_check(session, token, account.uuid, "socket-2").status == "invalid"
    assert tokens.recent_check(session, token, account.uuid, CONNECTION, fresh=True).status == "invalid"


async def test_database_work_runs_in_a_few_worker_threads_shared_with_the_endpoints():
    db.bound_worker_threads()
    assert anyio.to_thread.current_default_thread_limiter().total_tokens == settings.db_threads
    assert 1 <= settings.db_threads <= settings.db_pool_size + settings.db_max_overflow


async def test_a_riders_database_work_gives_its_connection_back_before_the_handler_goes_on(make_account):
    account = make_account()
    pool = db.engine.pool
    with db.get_session() as session:
        rider = Rider(session, account)
        held_before = pool.checkedout()
        assert (await rider.off_loop(Session.get, Account, account.id)).uuid == account.uuid
        # The handler may now wait for a service that needs a connection of its own.
        assert pool.checkedout() == held_before
        assert not session.in_transaction()


def test_a_database_made_before_the_sites_engine_ran_is_in_wal_mode_once_the_site_uses_it(tmp_path):
    """Migrations make the file with an engine of their own: the site's first connection puts it in WAL
    mode, where reads go on while another process writes."""
    path = tmp_path / "migrated.db"
    with closing(sqlite3.connect(path)) as migrations:
        migrations.execute("CREATE TABLE account (id INTEGER PRIMARY KEY)")
        migrations.commit()
    site_engine = db._make_engine(f"sqlite:///{path}")
    with site_engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    site_engine.dispose()
    with closing(sqlite3.connect(path)) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
