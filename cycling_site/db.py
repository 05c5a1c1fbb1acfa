"""The one database engine and session factory used by services, seed and tests.

The pool is bounded (DB_POOL_SIZE + DB_MAX_OVERFLOW connections) and a wait for a connection gives up after
DB_POOL_TIMEOUT seconds with sqlalchemy's TimeoutError, which the site shows as "busy, try again". A wait for
a lock another connection or process holds gives up after as long (SQLite's busy timeout, PostgreSQL's
lock_timeout): a worker thread is never held longer, so the few threads keep serving. Work that touches the
database from the event loop goes through `off_loop`, so a wait never stalls the loop.
"""

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

import anyio.to_thread
from sqlalchemy import Executable, event
from sqlalchemy.engine import Engine, Result
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import QueuePool
from sqlmodel import Session, create_engine

from cycling_site.settings import settings

P = ParamSpec("P")
T = TypeVar("T")

# SQLite's busy and locked table errors; PostgreSQL's lock timeout, statement timeout and deadlock.
BUSY_TEXTS = ("database is locked", "database table is locked")
BUSY_SQLSTATES = frozenset({"55P03", "57014", "40P01"})


def _pool_options() -> dict:
    return {
        "poolclass": QueuePool,
        "pool_size": settings.db_pool_size,
        "max_overflow": settings.db_max_overflow,
        "pool_timeout": settings.db_pool_timeout,
    }


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        # The busy timeout: how long a statement waits for another connection's (or process's) write lock.
        connect_args = {"check_same_thread": False, "timeout": settings.db_pool_timeout}
        engine = create_engine(url, connect_args=connect_args, **_pool_options())

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:
            # WAL lets the site read while a write is under way.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # A statement that waits for a lock (a row another transaction changes, a locked table) gives up with
    # SQLSTATE 55P03; statements that only take long are not cut short.
    lock_timeout = f"-c lock_timeout={round(settings.db_pool_timeout * 1000)}"
    return create_engine(url, pool_pre_ping=True, connect_args={"options": lock_timeout}, **_pool_options())


engine = _make_engine(settings.db_url)


def database_busy(exc: BaseException) -> bool:
    """A lock or a timeout that passes by itself, so the caller may simply try again."""
    if isinstance(exc, PoolTimeout):
        return True
    original = exc.orig if isinstance(exc, OperationalError) else None
    if original is None:
        return False
    text = str(original).lower()
    return getattr(original, "sqlstate", None) in BUSY_SQLSTATES or any(busy in text for busy in BUSY_TEXTS)


def bound_worker_threads() -> None:
    """Worker threads (`off_loop` work, and the sync endpoints of the REST API and of the embedded services)
    all come from anyio's default pool, DB_THREADS of them: fewer than the pool's connections, so work queues
    for a thread without blocking the loop, never for a connection; and few threads contend less for the
    interpreter."""
    anyio.to_thread.current_default_thread_limiter().total_tokens = settings.db_threads


async def off_loop(work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Runs blocking database work in a worker thread: the event loop serves other riders meanwhile."""
    return await anyio.to_thread.run_sync(functools.partial(work, *args, **kwargs))


async def in_session(work: Callable[..., T], *args: object) -> T:
    """`work(session, *args)` in a database session of its own, in a worker thread."""

    def run() -> T:
        with get_session() as session:
            return work(session, *args)

    return await off_loop(run)


@contextmanager
def get_session() -> Iterator[Session]:
    with Session(engine, expire_on_commit=False) as session:
        yield session


def read_columns(session: Session, statement: Executable, **params: object) -> Result:
    """A select of plain columns, run on the session's connection within its transaction. The session's own
    execution (entity loading and autoflush, which such a read does not need) cost a third to twice as much
    per read, and a dashboard load makes several."""
    return session.connection().execute(statement, params)


def session_per_request() -> Iterator[Session]:
    """One database session for each request (the REST API's and the embedded services' dependency)."""
    with get_session() as session:
        yield session
